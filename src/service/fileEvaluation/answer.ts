import type { Readable } from "node:stream";
import { createGzip } from "node:zlib";
import { NO_LINES } from "../../support/namedFiles.js";
import type { RunProgress, StartedRun, WrittenRole } from "./evaluationRunner.js";

/*
 * The answer to a file's evaluation, as the client reads it: one NDJSON event a line — the run's
 * progress each second, then its refusal, or its report, its output and its summary. A run that
 * read no line (its last stage told 0 lines: a header alone) is answered as a refusal saying so
 * (NO_LINES), not with a report of zeros. Made from a started run of the port
 * (evaluationRunner.ts), whatever runs it.
 */

/** One event of a run, as the client reads it (one NDJSON line each). */
export type FileEvent =
  | {
      readonly event: "running";
      readonly seconds: number;
      /** The run's stage, as the command tells it (a bill's: src/billing/bill.ts), its lines, the share done. */
      readonly stage?: string;
      readonly lines?: number;
      readonly done?: number;
    }
  | {
      readonly event: "file";
      readonly role: WrittenRole;
      readonly name: string;
      readonly type: string;
      /**
       * A part of the file, base64: the parts in order are the file — gzipped (RFC 1952) when
       * `encoding` says so (the output, ten times smaller for a bill's CSV).
       */
      readonly data: string;
      readonly encoding?: "gzip";
    }
  | { readonly event: "done"; readonly exitCode: number; readonly summary: string }
  | {
      readonly event: "refused";
      readonly message: string;
      /** Set when a bound of the page stopped the run (its time, memory, files' bytes): the command line has none but the machine's. */
      readonly bound?: true;
    };

/** The names a run's files are given: the output as the client downloads it and as the run writes it, the report. */
export interface AnswerNames {
  readonly output: string;
  /** The output's file as the run writes it (`.gz` after a CSV's name: written gzipped). */
  readonly written: string;
  readonly report: string;
}

/** The time between two `running` events. */
const HEARTBEAT_MS = 1_000;

/** Bytes of a `file` event's part before base64: the answer never holds a whole output. */
const PART_BYTES = 384 * 1024;

/**
 * zlib's fastest level: a 135.5 MB bill's output CSV is 16.9 MB in 1.8 s (level 6: 14.1 MB in
 * 5.9 s), where sending it whole took the page 35 s (bench/README.md, "The evaluate page").
 */
const GZIP_LEVEL = 1;

const TYPES: Readonly<Record<string, string>> = {
  csv: "text/csv",
  xlsx: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  parquet: "application/vnd.apache.parquet",
  html: "text/html",
};

/**
 * A written file as `file` events, part by part (nothing when the run did not write it); `gzip`:
 * "gzip" its bytes gzipped as they are read, "gzipped" its bytes sent as they are (the run wrote
 * them gzipped); the page inflates either when the file is downloaded.
 */
async function* fileEvents(
  run: StartedRun,
  role: WrittenRole,
  name: string,
  gzip: "gzip" | "gzipped" | "as it is" = "as it is",
): AsyncGenerator<FileEvent> {
  const read: Readable | null = await run.written(role, PART_BYTES);
  if (read === null) return;
  const type = TYPES[name.slice(name.lastIndexOf(".") + 1)] ?? "application/octet-stream";
  const parts = gzip === "gzip" ? read.pipe(createGzip({ level: GZIP_LEVEL, chunkSize: PART_BYTES })) : read;
  const encoding = gzip === "as it is" ? {} : { encoding: "gzip" as const };
  for await (const part of parts) {
    yield { event: "file", role, name, type, data: (part as Buffer).toString("base64"), ...encoding };
  }
}

/**
 * The events of a started run, to its end: `running` each second while it runs and for each stage
 * it reached since the last one said (a run within a second says each of its stages), then its
 * refusal, or its files and `done`. Nothing once `signal` has aborted (the client gone, the service
 * stopping). The run is closed when the events end or are abandoned.
 */
export async function* answerOf(
  run: StartedRun,
  names: AnswerNames,
  signal: AbortSignal,
): AsyncGenerator<FileEvent> {
  try {
    const since = Date.now();
    const running = (progress: RunProgress): FileEvent => ({
      event: "running",
      seconds: Math.round((Date.now() - since) / 1000),
      ...progress,
    });
    let said = 0;
    for (;;) {
      const ticked = await Promise.race([run.outcome, new Promise((r) => setTimeout(r, HEARTBEAT_MS, null))]);
      if (signal.aborted) break;
      const reached = run.stages().slice(said);
      said += reached.length;
      // Each stage reached but the last as first told; the last as it stands now (its lines so far)
      for (const stage of reached.slice(0, -1)) yield running(stage);
      if (ticked !== null) {
        if (reached.length > 0) yield running(run.progress());
        break;
      }
      yield running(run.progress());
    }
    const outcome = await run.outcome;
    if (signal.aborted) return;
    if (outcome.ended === "stopped") {
      yield { event: "refused", message: outcome.refusal, bound: true };
    } else if (outcome.ended === "refused") {
      yield { event: "refused", message: outcome.refusal };
    } else if (outcome.exitCode === 0 && run.progress().lines === 0) {
      yield { event: "refused", message: NO_LINES };
    } else {
      // The report first: the page shows it while the output (the larger) still arrives.
      yield* fileEvents(run, "report", names.report);
      yield* fileEvents(run, "output", names.output, names.written === names.output ? "gzip" : "gzipped");
      yield { event: "done", exitCode: outcome.exitCode, summary: outcome.summary };
    }
  } finally {
    await run.close();
  }
}
