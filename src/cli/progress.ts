import type { StageShare } from "../billing/bill.js";
import type { AssessedRow } from "../output/table.js";
import type { RunStage } from "../support/runStage.js";
import { printable } from "../support/terminalText.js";

/*
 * Progress on stderr: on a terminal, a bar redrawn at most ten times a second (rows, rows/s and,
 * when the input's size is known, the share read and the time left); otherwise one summary line
 * at the end, so logs and pipes get no control characters. Rows that need the reader's eye are
 * told as they come (rowNotices): every bad row, and the first rows with warnings. A bill's run
 * (SQL on DuckDB, no rows one by one) tells its stages instead (stageProgress).
 */

interface ProgressState {
  readonly rows: number;
  readonly ok: number;
  readonly errors: number;
  /** Rows evaluated with warnings. */
  readonly warned: number;
  /** Bytes of input read, and its size when known (a file). */
  readonly bytesRead: number;
  readonly totalBytes: number | null;
}

interface Progress {
  update(state: ProgressState): void;
  done(state: ProgressState): void;
}

const REDRAW_MS = 100;
/** How often the /evaluate page is told how far an inventory's run is (its bar). */
const PAGE_STAGE_MS = 1000;
const BAR_WIDTH = 24;

const count = (value: number) => Math.round(value).toLocaleString("en-US");

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  if (seconds < 60) return `${Math.ceil(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.ceil(seconds - minutes * 60)} s`;
}

export function createProgress(
  stream: NodeJS.WriteStream,
  givenName: string,
  now: () => number = () => performance.now(),
  page: ((stage: RunStage) => void) | null = null,
): Progress {
  // The input's name as given (a file named with an escape sequence prints as text).
  const name = printable(givenName);
  const started = now();
  let lastDraw = Number.NEGATIVE_INFINITY;
  let lastTold = Number.NEGATIVE_INFINITY;
  // The /evaluate page's child: the rows so far and the share of the file read, once a second.
  const tell = (state: ProgressState) => {
    if (page === null || now() - lastTold < PAGE_STAGE_MS) return;
    lastTold = now();
    const known = state.totalBytes !== null && state.totalBytes > 0;
    const done = known ? Math.min(state.bytesRead / (state.totalBytes as number), 1) : undefined;
    page({ stage: "evaluating the rows", lines: state.rows, ...(done === undefined ? {} : { done }) });
  };
  const rate = (rows: number) => rows / Math.max((now() - started) / 1000, 1e-3);
  const interactive = stream.isTTY === true;

  function bar(state: ProgressState): string {
    const perSecond = rate(state.rows);
    const text = `${count(state.rows)} rows, ${count(perSecond)} rows/s`;
    if (state.totalBytes === null || state.totalBytes === 0) return `${name}: ${text}`;
    const share = Math.min(state.bytesRead / state.totalBytes, 1);
    const filled = Math.round(share * BAR_WIDTH);
    const elapsed = (now() - started) / 1000;
    const left = share > 0 ? (elapsed / share) * (1 - share) : Number.POSITIVE_INFINITY;
    return `${name} [${"#".repeat(filled)}${" ".repeat(BAR_WIDTH - filled)}] ${Math.floor(share * 100)}% ${text}, ETA ${duration(left)}`;
  }

  return {
    update(state) {
      tell(state);
      if (!interactive || now() - lastDraw < REDRAW_MS) return;
      lastDraw = now();
      stream.write(`\r${bar(state)}\u001b[K`);
    },
    done(state) {
      // The page's last word: every row read (0: the file had none, which the page says)
      page?.({ stage: "evaluated the rows", lines: state.rows, done: 1 });
      const seconds = (now() - started) / 1000;
      if (interactive) stream.write("\r\u001b[K");
      stream.write(
        `${name}: ${count(state.rows)} rows (${count(state.ok)} ok, ${count(state.errors)} errors, ${count(state.warned)} with warnings) in ${seconds.toFixed(1)} s, ${count(rate(state.rows))} rows/s\n`,
      );
    },
  };
}

/** A message on stderr is cut past this many characters. */
const MESSAGE_CHARACTERS = 300;
/** Rows with warnings told on stderr; the others are counted (every one is in the output). */
const WARNED_ROWS_TOLD = 5;

const cut = (text: string) => {
  const safe = printable(text);
  return safe.length > MESSAGE_CHARACTERS ? `${safe.slice(0, MESSAGE_CHARACTERS)}…` : safe;
};

interface RowNotices {
  /** Tells the row if it failed, or if it is among the first with warnings. */
  row(row: AssessedRow): void;
  /** After the last row: how many rows with warnings were not told. */
  done(warned: number): void;
}

/** `line 4: bad row: …` for every bad row; `line 7: warning: …` for the first rows with warnings. */
export function rowNotices(stream: NodeJS.WriteStream): RowNotices {
  let told = 0;
  // On a terminal the progress bar holds the last line: a notice clears it first (it is redrawn).
  const line = (text: string) => stream.write(`${stream.isTTY === true ? "\r\u001b[K" : ""}${text}\n`);
  return {
    row(row) {
      if (row.impacts === null) line(`line ${row.line}: ${cut(row.status)}`);
      else if (row.warnings.length > 0 && told < WARNED_ROWS_TOLD) {
        told += 1;
        line(`line ${row.line}: warning: ${cut(row.warnings.join("; "))}`);
      }
    },
    done(warned) {
      if (warned > told)
        line(`${count(warned - told)} more rows with warnings (the output's warnings column)`);
    },
  };
}

/** How often a stage's line is redrawn (its seconds, the share of its query). */
const STAGE_REDRAW_MS = 250;

/** A bill's run on a terminal: told each stage, it clears its line before the run's own lines and at the end. */
export interface StageProgress {
  stage(stage: RunStage, share: StageShare): void;
  /** Clears the stage's line (before a line of the run's; it is redrawn). */
  clear(): void;
  stop(): void;
}

/**
 * The stages of a bill's run on a terminal (`stream` a TTY): one line redrawn four times a second
 * with the stage, the lines read once counted, the share of the whole run done and the seconds
 * since the start — a long read is never silent. The share is the stage's place (`done`, a
 * quarter each) and, within its quarter, the share of the running query DuckDB has done; a stage
 * runs several queries, each from 0 %, so the figure shown is the largest so far: one figure from
 * 0 to 100 % per run, never going back. Nothing is written elsewhere (a pipe, a log, the page's
 * child reads its stages through src/support/runStage.ts).
 */
export function stageProgress(
  stream: NodeJS.WriteStream,
  givenName: string,
  now: () => number = () => performance.now(),
): StageProgress {
  const name = printable(givenName);
  const started = now();
  let current: { readonly stage: RunStage; readonly share: StageShare } | null = null;
  let lines: number | undefined;
  let shown: number | null = null;
  const draw = () => {
    if (current === null) return;
    const query = current.share();
    const at = current.stage.done;
    if (at !== undefined) shown = Math.max(shown ?? 0, 100 * at + (query ?? 0) / 4);
    const parts = [
      current.stage.stage,
      ...(lines === undefined ? [] : [`${count(lines)} lines read`]),
      ...(shown === null ? [] : [`${Math.floor(shown)} %`]),
      `${Math.floor((now() - started) / 1000)} s`,
    ];
    stream.write(`\r${name}: ${parts.join(", ")}\u001b[K`);
  };
  const timer = setInterval(draw, STAGE_REDRAW_MS);
  timer.unref();
  const clear = () => {
    if (current !== null) stream.write("\r\u001b[K");
  };
  return {
    stage(stage, share) {
      current = { stage, share };
      lines = stage.lines ?? lines;
      draw();
    },
    clear,
    stop() {
      clearInterval(timer);
      clear();
      current = null;
    },
  };
}
