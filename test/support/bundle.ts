/**
 * Global set-up of the `process` project (vitest.config.ts): the build of `npm run build`
 * (scripts/build.ts, the one description), written once into dist/test instead of dist/bundle.
 * - SERVER_BUNDLE: the service, which the process tests start (test/support/process.ts). Started
 *   through tsx instead, each real start transpiled the sources again: 1.3–1.4 s of CPU before the
 *   listening line against 0.8–0.9 s for the bundle, measured back to back on the 2-core machine.
 * - CLI_BUNDLE: the command line (the package's bin with the sources it imports, its pool's worker
 *   beside it), which the tests that need the command's own process start (test/support/cli.ts:
 *   exit codes, signals, stdin, pipes), and which the bundled service's /evaluate page runs
 *   (test/http/evaluatePage.test.ts). The shipped bin through tsx is run by test/cli/bin.test.ts.
 * Its own folder beside dist/bundle, so `npm start` (test/server/lifecycle.test.ts) rebuilding
 * dist/bundle never rewrites a file a test is starting.
 * - COMPILE_CACHE: node's compile cache of those bundles (`NODE_COMPILE_CACHE`, given to the
 *   processes the tests start), emptied at each set-up: the suite starts them about a hundred
 *   times, and each start compiled the same modules again (compilation was about a tenth of a
 *   start's CPU; the cache changes no answer, node checks each entry against its source).
 */
import { rmSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildInto, SERVER_FILE } from "../../scripts/build.js";
import { COMMAND_BUNDLE } from "../../src/evaluationProcess/commandEntry.js";

const FOLDER = "dist/test";

export const SERVER_BUNDLE = join(FOLDER, SERVER_FILE);
export const CLI_BUNDLE = join(FOLDER, COMMAND_BUNDLE);
export const COMPILE_CACHE = fileURLToPath(new URL(`../../${FOLDER}/compile-cache`, import.meta.url));

export default async function bundle(): Promise<void> {
  await buildInto(FOLDER);
  rmSync(COMPILE_CACHE, { recursive: true, force: true });
}
