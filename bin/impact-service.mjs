#!/usr/bin/env node
// The command line (src/cli): the TypeScript sources run through tsx, as `npm run dev` does.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/cli/main.ts");
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
