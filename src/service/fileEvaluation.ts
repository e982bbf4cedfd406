import { checkWorkbookDirectory, WorkbookBoundError } from "../support/boundedWorkbook.js";
import { type AnswerNames, answerOf, type FileEvent } from "./fileEvaluation/answer.js";
import { checkArchive } from "./fileEvaluation/archiveBounds.js";
import {
  type AcceptedValues,
  endingOf,
  FileRefusal,
  type FileRequest,
  fileRequestOf,
  localName,
} from "./fileEvaluation/evaluationRequest.js";
import type { FileRunner, RunPlace, Slot } from "./fileEvaluation/evaluationRunner.js";

export type { FileEvent } from "./fileEvaluation/answer.js";
export { MAX_BILL_PARTS } from "./fileEvaluation/archiveBounds.js";
export {
  type AcceptedValues,
  EVALUATE_PATH,
  FileRefusal,
  type FileRequest,
  READ_ENDINGS,
  ZIP_REFUSAL,
} from "./fileEvaluation/evaluationRequest.js";
export type {
  FileRunner,
  RunOptions,
  RunOutcome,
  RunPlace,
  RunProgress,
  RunTies,
  Slot,
  StartedRun,
  WrittenRole,
} from "./fileEvaluation/evaluationRunner.js";

/*
 * "Evaluate a file" (the service's /evaluate page, POST /v1/evaluate): an inventory or a billing
 * export evaluated by the command line itself — `impact-service evaluate FILE -o OUT --report
 * REPORT`, the same readers, limits, numbers and report. The use case checks what a client asks
 * (fileEvaluation/evaluationRequest.ts), has the file received into a run's private place, refuses a
 * workbook or a ZIP archive of a bill's parts past its bounds (fileEvaluation/archiveBounds.ts), asks the runner (the port, fileEvaluation/evaluationRunner.ts) to run the
 * command on it with the request's options, and answers with the run's events
 * (fileEvaluation/answer.ts). The runner of the service runs the command in a child process of
 * its own, bounded in time, memory and bytes written (src/evaluationProcess/); the upload's own
 * bounds (bytes, lines, pace, a gzip's inflation) are the HTTP edge's (src/http/fileEvaluation/).
 * Nothing of the file is logged: the command's summary goes to the client only.
 */

/** The page's bounds (docs/limits.md, "The evaluate page"). */
export interface FileEvaluationBounds {
  /** Bytes of the file as sent (a .csv.gz or .json.gz counts compressed). */
  readonly maxBytes: number;
  /** Lines of text (CSV, NDJSON; a .csv.gz's or .json.gz's inflated text; not a workbook's or Parquet's bytes), counted as they arrive. */
  readonly maxLines: number;
  /** Time of the command's run, from its start. */
  readonly timeoutMs: number;
  /** Files evaluated at once, all clients together; past it, refused (503). */
  readonly maxConcurrent: number;
  /** Files one client (its address) has at once; past it, refused (503). */
  readonly maxPerClient: number;
  /** The upload's pace: at least `minUploadBytes` in each `uploadWindowMs` from its start (408). */
  readonly minUploadBytes: number;
  readonly uploadWindowMs: number;
  /** Bytes a gzip's text may inflate to as it is received (413). */
  readonly maxInflatedBytes: number;
  /** Time the upload may wait on a gzip's inflation, in all (413). */
  readonly inflateMs: number;
  /** Bytes of a run's folder: the file, the output, the report and the command's temporary files. */
  readonly runFolderBytes: number;
  /** Resident memory of the runs' commands together; one alone may use all of it. */
  readonly runsMemoryBytes: number;
  /** A command's heap (node's --max-old-space-size, MB). */
  readonly runHeapMb: number;
}

const MiB = 1024 * 1024;

/**
 * The bounds, sized for the container the service ships in (1 GiB of memory, a 1 GiB temp folder:
 * docs/limits.md, "The evaluate page"): a run's folder holds a file at its bound with its output
 * and report (a 50 MiB FOCUS export of 75,000 lines writes a 60 MB output); a run's command took
 * 500 MB resident on that export, so the runs together are bounded by what that one needs.
 */
export const FILE_EVALUATION_BOUNDS: FileEvaluationBounds = {
  maxBytes: 50 * MiB,
  maxLines: 200_000,
  timeoutMs: 120_000,
  maxConcurrent: 2,
  maxPerClient: 1,
  minUploadBytes: 64 * 1024,
  uploadWindowMs: 10_000,
  // 200,000 lines of 5 KiB, a wide bill's; the temporary volume's size (deploy/deployment.yaml)
  maxInflatedBytes: 1024 * MiB,
  inflateMs: 30_000,
  runFolderBytes: 160 * MiB,
  runsMemoryBytes: 512 * MiB,
  runHeapMb: 256,
};

/**
 * Writes the received file to `path` within the upload's bounds: a FileRefusal past one, the
 * signal's reason once it aborts (the HTTP edge's upload, src/http/fileEvaluation/upload.ts).
 */
export type FileReceiver = (path: string, signal: AbortSignal) => Promise<unknown>;

/**
 * A workbook's directory checked before its run starts (src/support/boundedWorkbook.ts): a
 * workbook whose parts are past their bound (3 GiB of a sheet, 10^9 bytes of shared strings in
 * 3 MB) is refused at once, 413, naming it. Any other file, or a workbook yauzl cannot read, goes
 * to the command, which names what it is.
 */
async function checkedWorkbook(path: string): Promise<void> {
  if (!path.toLowerCase().endsWith(".xlsx")) return;
  try {
    await checkWorkbookDirectory(path);
  } catch (error) {
    if (error instanceof WorkbookBoundError) throw new FileRefusal(413, error.message);
    throw error;
  }
}

/**
 * The names of a run's files, from the file's name in the run's place: `<stem>-impacts.<format>`
 * and `<stem>-report.html`. A CSV output is written gzipped by the command (COPY's COMPRESSION
 * gzip, a gzip stream): a 200,000-line CUR 2.0's 218 MB of lines are 24 MB in the run's folder,
 * sent as they are.
 */
function answerNames(input: string, request: FileRequest): AnswerNames {
  const stem = input.slice(0, input.length - endingOf(input).length);
  const output = `${stem}-impacts.${request.format}`;
  return {
    output,
    written: request.format === "csv" ? `${output}.gz` : output,
    report: `${stem}-report.html`,
  };
}

export interface FileEvaluator {
  /** Which command the runs start (the service's start-up line says it): bundled, or through tsx. */
  readonly command: string;
  readonly bounds: FileEvaluationBounds;
  /** The request of a query string, its values checked against what the service serves. */
  readonly requestOf: (query: URLSearchParams) => FileRequest;
  /** Admission: a slot for a client (its address), or the refusal (503) when none is free to it. */
  readonly admit: (client: string) => Slot | FileRefusal;
  /**
   * Has the file received (`receive`: a FileRefusal when a bound is passed), then returns the
   * run's events; the slot is given back and the run's place removed when they end or are
   * abandoned, or when `signal` aborts.
   */
  readonly evaluate: (
    request: FileRequest,
    receive: FileReceiver,
    signal: AbortSignal,
    slot: Slot,
  ) => Promise<AsyncGenerator<FileEvent>>;
}

/** What an evaluator is made of besides its bounds. */
export interface FileEvaluatorParts {
  /** What runs the command on a file (the service's: src/evaluationProcess/processRunner.ts). */
  readonly runner: FileRunner;
  /** The values a request may name. */
  readonly accepted: AcceptedValues;
  /** Aborted when the process stops: every run ends as its client's leaving would. */
  readonly stopping?: AbortSignal;
}

/**
 * The evaluator of the service. `stopping` (the process's shutdown) ends every run as its
 * client's leaving would: the runs stopped, their places removed before the process exits.
 */
export function createFileEvaluator(
  { runner, accepted, stopping = new AbortController().signal }: FileEvaluatorParts,
  bounds: FileEvaluationBounds = FILE_EVALUATION_BOUNDS,
): FileEvaluator {
  return {
    command: runner.command,
    bounds,
    requestOf: (query) => fileRequestOf(query, accepted),
    admit: (client) => runner.admit(client),
    evaluate: async (request, receive, clientSignal, slot) => {
      const signal = AbortSignal.any([clientSignal, stopping]);
      const input = localName(request.name);
      let place: RunPlace | null = null;
      try {
        place = await runner.open(input);
        await receive(place.file, signal);
        await checkedWorkbook(place.file);
        await checkArchive(place.file, bounds);
      } catch (error) {
        slot.release();
        await place?.remove();
        throw error;
      }
      const names = answerNames(input, request);
      const run = place.start({ output: names.written, request }, { signal, slot });
      return answerOf(run, names, signal);
    },
  };
}
