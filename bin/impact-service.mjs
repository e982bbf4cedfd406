#!/usr/bin/env node
// The command line (src/cli): the TypeScript sources run through tsx, as `npm run dev` does.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
// SIGINT (Ctrl-C) and SIGTERM: the run stops reading, writes what it has evaluated and ends
// with its summary; a second signal ends the process at once.
const interruption = new AbortController();
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    interruption.abort(signal);
    process.once(signal, () => process.exit(signal === "SIGTERM" ? 143 : 130));
  });
}
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
  interrupt: interruption.signal,
});
