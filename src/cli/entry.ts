/*
 * The command line's process (`npx impact-service`, bin/impact-service.mjs; bundled as
 * dist/bundle/cli.mjs by scripts/build.ts): main on the arguments and the process's streams, the
 * signals that stop a run, the exit code. A bare --help or --version loads only what it prints
 * (src/cli/helpText.ts), not the engine and the readers a run loads.
 */

/** The time a run has to end once interrupted: then the process ends, a second past the signal at most. */
const INTERRUPTED_MS = 700;

const argv = process.argv.slice(2);
const asked = argv.length === 1 ? argv[0] : null;
if (asked === "--help" || asked === "-h" || asked === "--version") {
  const { USAGE, VERSION_LINE } = await import("./helpText.js");
  process.stdout.write(asked === "--version" ? VERSION_LINE : USAGE);
} else {
  const { main } = await import("./main.js");
  // SIGINT (Ctrl-C) and SIGTERM: the run stops reading, writes what it has evaluated and ends
  // with its summary (a bill's run: its query interrupted); a second signal ends the process at
  // once, and so does the end of INTERRUPTED_MS whatever its outputs do (a FIFO or a pipe that
  // nobody reads). Every file still written in part is removed on the way out
  // (src/support/outputFile.ts, removedUnlessKept); nothing holds a thread the exit waits for.
  const interruption = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    const code = signal === "SIGTERM" ? 143 : 130;
    process.once(signal, () => {
      interruption.abort(signal);
      setTimeout(() => {
        process.stderr.write(
          `impact-service: interrupted; its outputs did not end within ${INTERRUPTED_MS} ms\n`,
        );
        process.exit(code);
      }, INTERRUPTED_MS).unref();
      process.once(signal, () => process.exit(code));
    });
  }
  const code = await main(argv, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    interrupt: interruption.signal,
  });
  // Interrupted: its files are written or removed, standard output and error are written as they
  // go on Linux (a pipe's, a file's, a terminal's writes are synchronous); ended at once, not
  // after the engine's heap is freed (hundreds of ms of the process's exit)
  if (interruption.signal.aborted) process.exit(code);
  process.exitCode = code;
}
