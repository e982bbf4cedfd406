import { pino } from "pino";

/*
 * The service's one logger (pino): JSON lines on stdout, at the level of LOG_LEVEL — request
 * lines, errors with their stack, and the process's own lines (listening, shutdown, workers),
 * whose texts are the `msg` field. A line logged while serving a request names it (`requestId`):
 * the id travels with the request (the REST call, the GraphQL context, a batch's lines), not in
 * an AsyncLocalStorage, whose promise hooks on every promise of every request cost 5–7 % of a
 * served POST's time (bench/README.md, "The request id handed down").
 */

export type Logger = pino.Logger;

export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * Log lines wait in memory until this many bytes (about 30 request lines) or the next flush: each
 * write of the stdout stream hands a buffer to a thread of the pool and wakes it, which on a
 * busy service costs more than the lines it writes (bench/README.md, "Log lines written in blocks").
 */
const LOG_BUFFER_BYTES = 8192;

/** No line waits longer than this for a quiet service's next write. */
const LOG_FLUSH_MS = 250;

/** pino's asynchronous stdout (sonic-boom). */
type LogStream = ReturnType<typeof pino.destination>;

/**
 * Log lines gathered into blocks of LOG_BUFFER_BYTES before they reach sonic-boom: its `write`
 * measures the UTF-8 length of the whole pending text it appends a line to, which flattens that
 * text at every line — a copy of up to 8 KB per request line, 3.9 of the 7.1 KB a varied verbose
 * POST allocates for logging (bench/README.md, "Log lines handed over in blocks"). A block is
 * measured once.
 */
class LineBlocks {
  private pending = "";

  constructor(private readonly stream: LogStream) {}

  write(line: string): void {
    this.pending += line;
    if (this.pending.length >= LOG_BUFFER_BYTES) this.handOver();
  }

  /** Everything logged so far to the stream, then the stream written (pino's `logger.flush`). */
  flush(done?: (error?: Error) => void): void {
    this.handOver();
    this.stream.flush(done);
  }

  /**
   * At the process's exit: what is gathered written synchronously, as pino's own exit handler
   * writes sonic-boom's buffer (whichever runs first, the other finds less or nothing to write).
   * A stream already ended, or one whose pipe closed (pino then makes its flushSync a no-op),
   * writes nothing: a log line never fails the exit.
   */
  flushSync(): void {
    try {
      this.handOver();
      this.stream.flushSync();
    } catch {
      // An ended stream refuses both: the exit goes on without the lines, nothing else can be told.
    }
  }

  private handOver(): void {
    if (this.pending === "") return;
    const block = this.pending;
    this.pending = "";
    this.stream.write(block);
  }
}

/**
 * Stdout, written asynchronously in blocks of LOG_BUFFER_BYTES and at least every LOG_FLUSH_MS;
 * what is buffered is written synchronously when the process exits.
 */
function bufferedStdout(): pino.DestinationStream {
  const blocks = new LineBlocks(pino.destination({ dest: 1, minLength: LOG_BUFFER_BYTES, sync: false }));
  setInterval(() => blocks.flush(), LOG_FLUSH_MS).unref();
  process.once("exit", () => blocks.flushSync());
  return blocks;
}

/**
 * pino's ISO time field (`,"time":"2026-11-23T16:30:22.123Z"`), made once per millisecond: a busy
 * service logs several lines within one, and formatting the date for each costs 2 % of a served
 * GET's profile, as much as the rest of the line's serialisation.
 */
function isoTimeByMillisecond(): () => string {
  let millisecond = Number.NaN;
  let field = "";
  return () => {
    const now = Date.now();
    if (now !== millisecond) {
      millisecond = now;
      field = `,"time":"${new Date(now).toISOString()}"`;
    }
    return field;
  };
}

/** A JSON logger on stdout (or on `destination`, for tests). */
export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      timestamp: isoTimeByMillisecond(),
      // `err` keeps the stack of an error (pino's standard serializer).
      serializers: { err: pino.stdSerializers.err },
    },
    // A silent logger writes nothing: no stream of its own, no flush timer.
    destination ?? (level === "silent" ? undefined : bufferedStdout()),
  );
}

/**
 * Longest wait for the log lines still buffered before the process exits: a reader that takes
 * nothing (a full pipe) must not hold the exit.
 */
const EXIT_FLUSH_MS = 1000;

/**
 * Exits once the buffered log lines are written, or dropped: the exit-time flush of the log
 * stream (sonic-boom's flushSync) retries a failed write forever, so with stdout closed
 * (`| head`) the process never exited. Flushed asynchronously first, a closed pipe's EPIPE makes
 * pino stop writing, and the exit's own flush has nothing left to retry.
 */
export function exitAfterLogs(logger: Logger, code: number): void {
  const exit = () => process.exit(code);
  setTimeout(exit, EXIT_FLUSH_MS);
  logger.flush(exit);
}
