/**
 * The rebuilt reference's recorded corpus (test/fixtures/reference-2.5.0/corpus.jsonl.gz, recorded
 * by `scripts/differential.ts --record`): requests of every route family, with boaviztapi 2.5.0's
 * answers to them.
 */
import { readFileSync } from "node:fs";
import { gunzipSync } from "node:zlib";

export interface RecordedCase {
  readonly id: string;
  readonly group: string;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
  readonly body_raw?: string;
  readonly status: number;
  readonly response: unknown;
}

const CORPUS = new URL("../fixtures/reference-2.5.0/corpus.jsonl.gz", import.meta.url);

/** Every case of the corpus, in its order. */
export function recordedCases(): RecordedCase[] {
  return gunzipSync(readFileSync(CORPUS))
    .toString("utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
}

/** The case's request as the shim takes it: its path with `query` added, its body as sent. */
export function recordedRequest(recorded: RecordedCase, query: string) {
  const separator = recorded.path.includes("?") ? "&" : "?";
  return {
    method: recorded.method,
    url: `${recorded.path}${separator}${query}`,
    body: recorded.body_raw ?? (recorded.body === null ? "" : JSON.stringify(recorded.body)),
  };
}
