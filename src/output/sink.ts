import { once } from "node:events";
import type { Writable } from "node:stream";

/*
 * Where output text goes (stdout, a file): written with backpressure, and a failure of the
 * destination (a closed pipe, a full disk) becomes one OutputError the caller reports in one
 * line — never an unhandled 'error' event and its stack trace.
 */

export class OutputError extends Error {
  constructor(
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
    this.name = "OutputError";
  }
}

function outputError(error: unknown): OutputError {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  const reason =
    code === "EPIPE"
      ? "the output was closed by its reader"
      : code === "ENOSPC"
        ? "no space left on the output's device"
        : ((error as Error | null)?.message ?? String(error));
  return new OutputError(code, code === undefined ? reason : `${reason} (${code})`);
}

export interface TextSink {
  /** Writes text, waiting while the reader is behind. @throws OutputError */
  write(text: string | Uint8Array): Promise<void>;
  /** The destination's failure, if it failed. */
  readonly failure: () => OutputError | undefined;
  /** Rejects with the destination's failure (never resolves otherwise). */
  readonly failed: Promise<never>;
  readonly stream: Writable;
}

/**
 * `stream`'s sink. `abandon`: where the destination is a FIFO or a socket, the run's interruption,
 * which ends a wait for its reader (OutputError): a reader that stopped reading is not waited for
 * once the run is asked to stop.
 */
export function textSink(stream: Writable, abandon?: AbortSignal): TextSink {
  let failure: OutputError | undefined;
  const failed = new Promise<never>((_resolve, reject) => {
    stream.on("error", (error) => {
      failure ??= outputError(error);
      reject(failure);
    });
  });
  failed.catch(() => {});
  // Rejects once the run is interrupted (at once if it was): raced with a wait for the reader only
  const interrupted = new Promise<never>((_resolve, reject) => {
    const give = () =>
      reject(
        new OutputError(
          undefined,
          "interrupted while the output's reader was behind: what it did not take is not written",
        ),
      );
    if (abandon?.aborted) give();
    else abandon?.addEventListener("abort", give, { once: true });
  });
  interrupted.catch(() => {});
  return {
    stream,
    failed,
    failure: () => failure,
    async write(text) {
      if (failure) throw failure;
      if (text.length === 0) return;
      let flowing: boolean;
      try {
        flowing = stream.write(text);
      } catch (error) {
        // A synchronous destination (a file as stdout) throws where a pipe emits.
        failure ??= outputError(error);
        throw failure;
      }
      if (!flowing) {
        try {
          await Promise.race([
            once(stream, "drain"),
            failed,
            ...(abandon === undefined ? [] : [interrupted]),
          ]);
        } catch (error) {
          failure ??= error as OutputError;
        }
      }
      if (failure) throw failure;
    },
  };
}
