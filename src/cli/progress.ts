/*
 * Progress on stderr: on a terminal, a bar redrawn at most ten times a second (rows, rows/s and,
 * when the input's size is known, the share read and the time left); otherwise one summary line
 * at the end, so logs and pipes get no control characters.
 */

interface ProgressState {
  readonly rows: number;
  readonly ok: number;
  readonly errors: number;
  /** Bytes of input read, and its size when known (a file). */
  readonly bytesRead: number;
  readonly totalBytes: number | null;
}

interface Progress {
  update(state: ProgressState): void;
  done(state: ProgressState): void;
}

const REDRAW_MS = 100;
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
  name: string,
  now: () => number = () => performance.now(),
): Progress {
  const started = now();
  let lastDraw = Number.NEGATIVE_INFINITY;
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
      if (!interactive || now() - lastDraw < REDRAW_MS) return;
      lastDraw = now();
      stream.write(`\r${bar(state)}\u001b[K`);
    },
    done(state) {
      const seconds = (now() - started) / 1000;
      if (interactive) stream.write("\r\u001b[K");
      stream.write(
        `${name}: ${count(state.rows)} rows (${count(state.ok)} ok, ${count(state.errors)} errors) in ${seconds.toFixed(1)} s, ${count(rate(state.rows))} rows/s\n`,
      );
    },
  };
}
