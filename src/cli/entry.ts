/*
 * The command line's process (`npx impact-service`, bin/impact-service.mjs; bundled as
 * dist/bundle/cli.mjs by scripts/build.ts): main on the arguments and the process's streams, the
 * signals that stop a run, the exit code. A bare --help or --version loads only what it prints
 * (src/cli/helpText.ts), not the engine and the readers a run loads.
 */

const argv = process.argv.slice(2);
const asked = argv.length === 1 ? argv[0] : null;
if (asked === "--help" || asked === "-h" || asked === "--version") {
  const { USAGE, VERSION_LINE } = await import("./helpText.js");
  process.stdout.write(asked === "--version" ? VERSION_LINE : USAGE);
} else {
  const { main } = await import("./main.js");
  // SIGINT (Ctrl-C) and SIGTERM: the run stops reading, writes what it has evaluated and ends
  // with its summary; a second signal ends the process at once.
  const interruption = new AbortController();
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      interruption.abort(signal);
      process.once(signal, () => process.exit(signal === "SIGTERM" ? 143 : 130));
    });
  }
  process.exitCode = await main(argv, {
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    interrupt: interruption.signal,
  });
}
