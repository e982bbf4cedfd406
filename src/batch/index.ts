import { setImmediate as nextTurn } from "node:timers/promises";
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

export type { BatchDefaults, LineAnswer, LineCall, LineOutcome, RouteEvaluator } from "./line.js";
export { answerLine, evaluateLine, lineTooLarge, parseLine } from "./line.js";
export { type InputLine, ndjsonLines } from "./lines.js";
export { type LocationCheck, locationCheck } from "./locations.js";
export { type BatchSummary, createSummary, type SummaryBuilder, summaryLine } from "./summary.js";

/*
 * A batch: lines read, evaluated one after the other and answered in order, then the summary.
 * The answer is an async generator of text: whoever writes it (an HTTP answer, the command
 * line's stdout) pulls the next line only when the previous ones have been taken, so a slow
 * reader slows the reading of the input (backpressure) and memory stays flat whatever the
 * number of lines. A turn of the event loop between lines keeps other requests answered.
 */

export interface BatchOptions {
  readonly defaults: BatchDefaults;
  /** Largest line, in bytes (the single routes' MAX_BODY_BYTES). */
  readonly maxLineBytes: number;
  /** Aborted when the answer's reader is gone: no further line is evaluated. */
  readonly signal?: AbortSignal;
}

/** One input line's outcome (a line too large is refused without being read). */
export function outcomeOf(
  evaluate: RouteEvaluator,
  line: InputLine,
  options: BatchOptions,
  locations?: LocationCheck,
): Promise<LineOutcome> {
  if ("tooLarge" in line) return Promise.resolve(lineTooLarge(options.maxLineBytes));
  return evaluateLine(evaluate, line.text, options.defaults, options.signal, locations);
}

/** Answer lines are gathered into pieces of about this size while more input is at hand. */
const PIECE_CHARACTERS = 16 * 1024;

/**
 * The answer, in pieces of whole lines: lines are gathered while the next input line is already
 * at hand (one write per line cost more than a cloud line's evaluation), and what is gathered
 * is given out before waiting for input, so answers never wait behind the client's upload.
 */
export async function* evaluateBatch(
  lines: AsyncIterable<InputLine>,
  evaluate: RouteEvaluator,
  options: BatchOptions,
): AsyncGenerator<string> {
  const summary = createSummary();
  const locations = locationCheck(evaluate);
  let piece = "";
  for await (const line of lines) {
    if (options.signal?.aborted) return;
    const outcome = await outcomeOf(evaluate, line, options, locations);
    if (options.signal?.aborted) return;
    summary.add(outcome);
    piece += answerLine(outcome, line.number);
    if (!line.more || piece.length >= PIECE_CHARACTERS) {
      yield piece;
      piece = "";
    }
    await nextTurn();
  }
  yield piece + summaryLine(summary.result());
}
