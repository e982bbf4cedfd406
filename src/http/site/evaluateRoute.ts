import {
  type FileEvaluator,
  type FileEvent,
  FileRefusal,
  fileRequestOf,
} from "../../service/fileEvaluation.js";
import { jsonReply } from "../reply.js";
import type { Answer } from "../route.js";

/*
 * `POST /v1/evaluate?name=FILE&edition=…&criteria=…&format=csv|xlsx|parquet`, the file as the
 * body (what the /evaluate page sends): one REST route rather than GraphQL's multipart upload, so
 * that the file goes to disk as it arrives (yoga's `File` is held whole in memory) and the answer
 * streams the run's progress and files as NDJSON lines (docs/api.md, "Evaluate a file").
 */

export const EVALUATE_PATH = "/v1/evaluate";

/** Each event, one line. */
async function* ndjson(events: AsyncGenerator<FileEvent>): AsyncGenerator<Uint8Array> {
  for await (const event of events) yield Buffer.from(`${JSON.stringify(event)}\n`);
}

/** The route: admitted (503 past the files at once), received within bounds (413, 422), then run. */
export function evaluateFileAnswer(evaluator: FileEvaluator): Answer {
  return async ({ request, cancellation }) => {
    let fileRequest: ReturnType<typeof fileRequestOf>;
    try {
      fileRequest = fileRequestOf(new URL(request.url ?? "/", "http://service").searchParams);
    } catch (error) {
      if (error instanceof FileRefusal) return refusal(error);
      throw error;
    }
    if (!evaluator.admit()) {
      return jsonReply(
        503,
        { detail: "as many files as the service evaluates at once are running: try again in a minute" },
        { "retry-after": "10", connection: "close" },
      );
    }
    try {
      // Not destroyed when a bound stops the reading: the rest is dropped below.
      const body = request.iterator({ destroyOnReturn: false });
      const events = await evaluator.evaluate(fileRequest, body, cancellation.signal);
      return { status: 200, headers: { "content-type": "application/x-ndjson" }, body: ndjson(events) };
    } catch (error) {
      if (!(error instanceof FileRefusal)) throw error;
      // The rest of a refused upload is read and dropped (within node's request time), so that a
      // browser still sending reads the refusal rather than a reset connection.
      request.resume();
      return refusal(error);
    }
  };
}

/** A refusal as the page shows it (`detail`, as the REST shim's errors). */
function refusal(error: FileRefusal) {
  return jsonReply(error.status, { detail: error.message });
}
