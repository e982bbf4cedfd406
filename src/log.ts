/*
 * The service's log lines, in one place so that a structured logger can replace console without
 * touching the callers.
 */

export const log = {
  /** A line about the service's life (listening, shutting down). */
  info(message: string): void {
    console.log(message);
  },
  /** Something went wrong; `error` (a stack, a cause) follows the message when given. */
  error(message: string, error?: unknown): void {
    if (error === undefined) console.error(message);
    else console.error(message, error);
  },
};
