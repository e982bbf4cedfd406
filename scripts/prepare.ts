/**
 * What `npm ci` (and `npm install`) does after installing, as package.json's `prepare`: the
 * build (scripts/build.ts, into dist/bundle), so that `npx impact-service` runs the command's
 * bundle and not its sources through tsx; and the command's name in node_modules/.bin.
 *
 * Why the name is linked here rather than declared in package.json's `bin`: given a command its
 * own package declares, `npx` loads the project's whole dependency tree (about a thousand
 * packages) and installs the project into its own cache before running it, about 1.5 CPU-s of npm
 * at every start; a command found in node_modules/.bin it runs at once (bench/README.md, "The
 * command's start"). The package is private (never installed elsewhere): the link is its only use.
 */
import { chmodSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { buildInto, RELEASE_FOLDER } from "./build.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const BIN = join(ROOT, "bin/impact-service.mjs");
const LINK = join(ROOT, "node_modules/.bin/impact-service");

await buildInto(RELEASE_FOLDER);
mkdirSync(dirname(LINK), { recursive: true });
const target = relative(dirname(LINK), BIN);
if (process.platform === "win32") {
  // Windows runs a command's .cmd (a link would need privileges), as npm's own shims do.
  writeFileSync(`${LINK}.cmd`, `@node "%~dp0\\${target.replaceAll("/", "\\")}" %*\r\n`);
} else {
  rmSync(LINK, { force: true });
  symlinkSync(target, LINK);
  chmodSync(BIN, 0o755);
}
