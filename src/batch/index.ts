import type { BodyLimits } from "../config/serviceConfig.js";
import { OWN_TURNS, SLICE_MS, type TurnShare } from "../service/chunks.js";
import {
  answerLine,
  type BatchDefaults,
  evaluateLine,
  type LineOutcome,
  lineTooLarge,
  type RouteEvaluator,
} from "./line.js";
import type { InputLine } from "./lines.js";
import { type LocationCheck, locationCheck } from "./locations.js";
import { createSummary, summaryLine } from "./summary.js";

export type { BatchDefaults, LineContext, LineOutcome, ParsedLine, RouteEvaluator } from "./line.js";
export { evaluateLine, evaluateParsedLine, parseLine } from "./line.js";
export { type InputLine, ndjsonLines } from "./lines.js";
export { type LocationCheck, locationCheck } from "./locations.js";
export { createSummary } from "./summary.js";

/*
 * A batch: lines read, evaluated one after the other and answered in order, then the summary.
 * The answer is an async generator of text: whoever writes it (an HTTP answer, the command
 * line's stdout) pulls the next line only when the previous ones have been taken, so a slow
 * reader slows the reading of the input (backpressure) and memory stays flat whatever the
 * number of lines. Lines are evaluated in slices of about SLICE_MS, granted by the turns the batch
 * shares with other work as a fleet's chunks are (src/service/chunks.ts): other requests are answered
 * while batches run, and a batch does not wait for the other requests' work after each line
 * (a turn after every line, a 5,000-line batch took 42 s beside 28 busy clients, 1.6 s alone).
 *
 * A batch is interrupted — no further line read, the line in hand answered, then the summary
 * saying `interrupted` and why — when the service stops (`stop`), or when the next whole line
 * does not arrive within `lineTimeoutMs` of being awaited: measured from the wait's start, so a
 * client sending a byte now and then cannot stretch it.
 */

interface BatchOptions {
  readonly defaults: BatchDefaults;
  /** Largest line, in bytes (the single routes' MAX_BODY_BYTES). */
  readonly maxLineBytes: number;
  /** The bounds of a line's body (the single routes'); without them, an unconfigured service's. */
  readonly bodyLimits?: BodyLimits;
  /** Aborted when the answer's reader is gone: no further line is evaluated. */
  readonly signal?: AbortSignal;
  /** Aborted when the batch must end early (the service stops): its reason is the summary's `interrupted`. */
  readonly stop?: AbortSignal;
  /** Time to wait for the next whole line (BODY_TIMEOUT_MS); without it, no bound. */
  readonly lineTimeoutMs?: number;
  /** The turns the batch shares with other work (a server's requests); alone, its own. */
  readonly turns?: TurnShare;
  /**
   * The id of the edition the batch's transport resolved for the lines whose path names none
   * (`evaluate` answers them in it, src/rest/routes/batch.ts): named in their warnings.
   */
  readonly edition?: string;
  /**
   * Waits for room for a line's heap (its text and its parse, estimated before it is built) in
   * the process's budget of parsed bodies, held until `hold`'s releases are called: the line's end.
   */
  readonly admitLineHeap?: (bytes: number, hold: (release: () => void) => void) => Promise<void>;
}

/** One input line's outcome (a line too large is refused without being read); its heap held until then. */
async function outcomeOf(
  evaluate: RouteEvaluator,
  line: InputLine,
  options: BatchOptions,
  locations?: LocationCheck,
): Promise<LineOutcome> {
  if ("tooLarge" in line) return lineTooLarge(options.maxLineBytes);
  const { admitLineHeap, signal } = options;
  const held: (() => void)[] = [];
  try {
    return await evaluateLine(evaluate, line.text, options.defaults, {
      signal,
      locations,
      limits: options.bodyLimits,
      admit: admitLineHeap && ((bytes) => admitLineHeap(bytes, (release) => held.push(release))),
      pause: () => (options.turns ?? OWN_TURNS).nextSlice(),
    });
  } catch (error) {
    // A wait for room given up because the reader is gone: nothing more is written
    if (signal?.aborted) return { status: 499, body: null, quantity: 1 };
    throw error;
  } finally {
    for (const release of held) release();
  }
}

/** Answer lines are gathered into pieces of about this size while more input is at hand. */
const PIECE_CHARACTERS = 16 * 1024;

/** Why the wait for the next line ended without one. */
type Interruption = { readonly interrupted: string };

/** The reason of an aborted signal, as the summary says it. */
function reasonOf(signal: AbortSignal): string {
  return signal.reason instanceof Error ? signal.reason.message : String(signal.reason);
}

/** The next line, or why the batch stops waiting for it (the service stops, or the line is too slow). */
function nextLine(
  lines: AsyncIterator<InputLine>,
  options: BatchOptions,
): Promise<IteratorResult<InputLine> | Interruption> {
  const { stop, lineTimeoutMs } = options;
  if (stop?.aborted) return Promise.resolve({ interrupted: reasonOf(stop) });
  if (stop === undefined && lineTimeoutMs === undefined) return lines.next();
  return new Promise((resolve, reject) => {
    const timer =
      lineTimeoutMs === undefined
        ? undefined
        : setTimeout(
            () =>
              finish({
                interrupted: `no whole line was received within ${lineTimeoutMs} ms (BODY_TIMEOUT_MS)`,
              }),
            lineTimeoutMs,
          );
    const stopped = () => finish({ interrupted: reasonOf(stop as AbortSignal) });
    stop?.addEventListener("abort", stopped, { once: true });
    function finish(outcome: IteratorResult<InputLine> | Interruption) {
      clearTimeout(timer);
      stop?.removeEventListener("abort", stopped);
      resolve(outcome);
    }
    lines.next().then(finish, (error: unknown) => {
      clearTimeout(timer);
      stop?.removeEventListener("abort", stopped);
      reject(error);
    });
  });
}

/**
 * The answer, in pieces of whole lines: lines are gathered while the next input line is already
 * at hand (one write per line cost more than a cloud line's evaluation), and what is gathered
 * is given out before waiting for input, so answers never wait behind the client's upload.
 */
export async function* evaluateBatch(
  input: AsyncIterable<InputLine>,
  evaluate: RouteEvaluator,
  options: BatchOptions,
): AsyncGenerator<string> {
  const summary = createSummary();
  const locations = locationCheck(evaluate, options.edition);
  const lines = input[Symbol.asyncIterator]();
  let piece = "";
  let interrupted: string | undefined;
  let exhausted = false;
  let sliceStarted = performance.now();
  try {
    for (;;) {
      const next = await nextLine(lines, options);
      if ("interrupted" in next) {
        interrupted = next.interrupted;
        break;
      }
      if (next.done) {
        exhausted = true;
        break;
      }
      const line = next.value;
      if (options.signal?.aborted) return;
      const outcome = await outcomeOf(evaluate, line, options, locations);
      if (options.signal?.aborted) return;
      summary.add(outcome);
      piece += answerLine(outcome, line.number);
      if (!line.more || piece.length >= PIECE_CHARACTERS) {
        yield piece;
        piece = "";
      }
      if (performance.now() - sliceStarted >= SLICE_MS) {
        await (options.turns ?? OWN_TURNS).nextSlice();
        sliceStarted = performance.now();
      }
    }
  } finally {
    // The input is not read any further (a read may be pending: not awaited).
    if (!exhausted) lines.return?.().catch(() => {});
  }
  yield piece + summaryLine(summary.result(), interrupted);
}
