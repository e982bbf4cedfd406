/**
 * What the /evaluate page says it takes, it takes: the widest export the project generates (an AWS
 * CUR 2.0 of 100 columns, scripts/billing-exports.ts --wide) at the page's stated lines
 * (200,000, gzipped: 12 MB) and at its stated bytes (50 MiB of CSV), each sent to the service as
 * `npm start` runs it (the server's bundle, running the command's beside it) and answered whole:
 * the report, the lines (as many as the file's) and the summary, within the run's time, memory and
 * files. Every wait is on the answer's events, never a duration.
 */
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeBillingExport } from "../../scripts/billing-exports.js";
import { FILE_EVALUATION_BOUNDS } from "../../src/service/fileEvaluation.js";
import { writeManyDaysBill } from "../support/hostileBills.js";
import { portOf, startService } from "../support/process.js";
import { namesAsText } from "../support/reportHtml.js";
import { zipFileIn } from "../support/zipFiles.js";

/** A run at the bounds: its 120 s, with the file's generation and upload besides. */
const WAIT_MS = 400_000;

let service: ReturnType<typeof startService>;
let url = "";
const work = mkdtempSync(join(tmpdir(), "evaluate-limits-"));

beforeAll(async () => {
  service = startService({ TMPDIR: work });
  const [listening] = await service.waitFor(/^listening on /);
  url = `http://127.0.0.1:${portOf(listening)}`;
}, WAIT_MS);

afterAll(() => {
  service?.killAll();
  rmSync(work, { recursive: true, force: true });
});

interface Answer {
  readonly events: readonly Record<string, unknown>[];
  /** The output's gzipped parts (base64), as the page receives them. */
  readonly output: readonly string[];
  readonly report: string;
}

/**
 * The line ends in `bytes`, found by `indexOf` (native): a loop over each byte in JavaScript cost
 * the test process about 28 ns a byte, seconds of CPU on the hundreds of MB these answers inflate to.
 */
function lineEnds(bytes: Uint8Array): number {
  let lines = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) lines += 1;
  return lines;
}

/** The lines of a gzipped file's parts (base64), inflated as a stream. */
async function inflatedLines(parts: readonly string[]): Promise<number> {
  let lines = 0;
  const inflate = Readable.from(parts.map((part) => Buffer.from(part, "base64"))).pipe(createGunzip());
  for await (const chunk of inflate) lines += lineEnds(chunk as Buffer);
  return lines;
}

/** POST /v1/evaluate with a file, its NDJSON events read to their end. */
async function evaluate(file: string, name: string): Promise<Answer> {
  const answer = await fetch(`${url}/v1/evaluate?name=${name}&format=csv`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream" },
    body: Readable.toWeb(createReadStream(file)) as BodyInit,
    duplex: "half",
  } as RequestInit);
  expect(answer.status).toBe(200);
  const events: Record<string, unknown>[] = [];
  const output: string[] = [];
  const report: string[] = [];
  let pending = "";
  for await (const chunk of answer.body as unknown as AsyncIterable<Uint8Array>) {
    const text = pending + Buffer.from(chunk).toString("utf8");
    const lines = text.split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const event = JSON.parse(line) as Record<string, unknown>;
      if (event.event === "file" && event.role === "output") output.push(String(event.data));
      else if (event.event === "file" && event.role === "report") report.push(String(event.data));
      else events.push(event);
    }
  }
  return {
    events,
    output,
    report: Buffer.concat(report.map((part) => Buffer.from(part, "base64"))).toString("utf8"),
  };
}

/** The answer's last event: done, with the command's exit code and summary. */
function done(answer: Answer): { exitCode: number; summary: string } {
  const last = answer.events.at(-1) as { event: string; exitCode: number; summary: string; message?: string };
  expect(last.message, "a refusal").toBeUndefined();
  expect(last.event).toBe("done");
  return last;
}

describe("the /evaluate page's stated bounds, on the widest export the project generates", () => {
  it(
    `takes ${FILE_EVALUATION_BOUNDS.maxLines.toLocaleString("en")} lines (its header one) of a 100-column CUR 2.0, gzipped`,
    async () => {
      // The file's lines at the bound, its header one of them
      const file = join(work, "cur-wide.csv.gz");
      await writeBillingExport("cur", FILE_EVALUATION_BOUNDS.maxLines - 1, file, "1.2", true);
      expect(statSync(file).size).toBeLessThanOrEqual(FILE_EVALUATION_BOUNDS.maxBytes);
      const answer = await evaluate(file, "cur-wide.csv.gz");
      expect(done(answer).exitCode).toBe(0);
      // Every line of the file written (the header besides), and the report with its charts' data
      expect(await inflatedLines(answer.output)).toBe(FILE_EVALUATION_BOUNDS.maxLines);
      expect(answer.report).toContain('id="report-data"');
      expect(answer.report).toContain("Impacts per day");
      // The summary's counts with thousands separators, as the command writes them
      expect(done(answer).summary).toContain(
        `rows read: ${(FILE_EVALUATION_BOUNDS.maxLines - 1).toLocaleString("en-US")}\n`,
      );
    },
    WAIT_MS,
  );

  it(
    `takes ${FILE_EVALUATION_BOUNDS.maxBytes / 1024 / 1024} MiB of a 100-column CUR 2.0's CSV`,
    async () => {
      // The lines that fit the bytes: the export generated a little longer, cut at the bound's last whole line
      const long = join(work, "cur-wide-long.csv");
      await writeBillingExport("cur", 56_000, long, "1.2", true);
      const text = readFileSync(long);
      const end = text.lastIndexOf(10, FILE_EVALUATION_BOUNDS.maxBytes - 1) + 1;
      const file = join(work, "cur-wide-bytes.csv");
      writeFileSync(file, text.subarray(0, end));
      const size = statSync(file).size;
      expect(size).toBeLessThanOrEqual(FILE_EVALUATION_BOUNDS.maxBytes);
      expect(size).toBeGreaterThan(FILE_EVALUATION_BOUNDS.maxBytes - 2048);
      const lines = lineEnds(text.subarray(0, end));
      const answer = await evaluate(file, "cur-wide-bytes.csv");
      expect(done(answer).exitCode).toBe(0);
      expect(await inflatedLines(answer.output)).toBe(lines);
    },
    WAIT_MS,
  );

  it(
    `takes three months of a 100-column CUR 2.0 in a ZIP archive, ${FILE_EVALUATION_BOUNDS.maxBytes / 1024 / 1024} MiB unpacked, as one bill`,
    async () => {
      // Three parts whose bytes together are the bound's, as the page packs them (its parts' bound)
      const months = ["2026-04", "2026-05", "2026-06"];
      // The generator writes October 2026; each part is moved to a month of its own (two months of
      // 31 days after it, the same bytes), for one period given twice is refused
      const moved: [string, string][][] = [
        [],
        [
          ["2026-11-", "2027-01-"],
          ["2026-10-", "2026-12-"],
        ],
        [
          ["2026-11-", "2027-02-"],
          ["2026-10-", "2027-01-"],
        ],
      ];
      const entries: Record<string, Buffer> = {};
      for (const [at, month] of months.entries()) {
        const part = join(work, `cur-${month}.csv`);
        await writeBillingExport("cur", 17_500, part, "1.2", true);
        const text = moved[at].reduce(
          (written, [from, to]) => written.replaceAll(from, to),
          readFileSync(part, "latin1"),
        );
        entries[`cur-${month}.csv`] = Buffer.from(text, "latin1");
      }
      const unpacked = Object.values(entries).reduce((sum, part) => sum + part.length, 0);
      expect(unpacked).toBeLessThanOrEqual(FILE_EVALUATION_BOUNDS.maxBytes);
      expect(unpacked).toBeGreaterThan(0.95 * FILE_EVALUATION_BOUNDS.maxBytes);
      const zip = await zipFileIn(work, "months.zip", entries);
      const answer = await evaluate(zip, "months.zip");
      const { exitCode, summary } = done(answer);
      expect(exitCode).toBe(0);
      expect(summary).toContain("billing export months.zip (cur-2026-04.csv) (and 2 more monthly files)");
      expect(summary).toContain("rows read: 52,500\n");
      // The parts in their names' order
      months.forEach((month, at) => {
        expect(summary).toMatch(
          new RegExp(`its file cur-${month}\\.csv \\(\\d+ bytes\\) is read, ${at + 1} of 3`),
        );
      });
      // Every part's lines written, under one header
      expect(await inflatedLines(answer.output)).toBe(52_501);
    },
    WAIT_MS,
  );
});

/**
 * Bills inside the stated bounds whose counts made the run's report grow (issue 86): 190,000 FOCUS
 * lines each on a day of its own (50.4 MB) were refused "more than 512 MiB" 4 times of 4 — the
 * report held a row per day. A CSV named `.parquet` was refused with DuckDB's "No magic bytes
 * found", though a file's kind is read from its content.
 */
describe("the /evaluate page on bills inside its bounds that were refused", () => {
  it(
    "takes 190,000 FOCUS lines on as many days, its report saying why no chart is drawn",
    async () => {
      const file = join(work, "days.csv");
      await writeManyDaysBill(file, 190_000);
      expect(statSync(file).size).toBeLessThanOrEqual(FILE_EVALUATION_BOUNDS.maxBytes);
      const answer = await evaluate(file, "days.csv");
      expect(done(answer).exitCode).toBe(0);
      expect(await inflatedLines(answer.output)).toBe(190_001);
      // 190,000 days from 2000-01-01: 521 years, past the chart's 400 steps by year
      expect(answer.report).toContain(
        "The lines span 521 years (2000 to 2520): more than the chart's 400 steps by year; no chart is drawn.",
      );
      // The resources' table: its 12 largest and the rest in one row
      expect(namesAsText(answer.report)).toMatch(/1,9\d\d more/);
    },
    WAIT_MS,
  );

  it(
    "reads a CSV named .parquet as the CSV it is",
    async () => {
      const file = join(work, "focus.parquet");
      writeFileSync(file, readFileSync("test/fixtures/billing/focus-whole-bill.csv"));
      const answer = await evaluate(file, "focus.parquet");
      const end = done(answer);
      expect(end.exitCode).toBe(0);
      expect(end.summary).toContain(
        "named .parquet but holds CSV text (no Parquet mark, PAR1), read as such",
      );
      expect(end.summary).toContain("FOCUS 1.0–1.2");
      expect(answer.report).toContain('id="report-data"');
    },
    WAIT_MS,
  );
});
