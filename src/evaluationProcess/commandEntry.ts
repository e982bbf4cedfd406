import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/*
 * Which command line the runs start: the command's bundle beside the server's, or the command's
 * sources through tsx, decided by the place of the module that asks.
 */

/** The command line's bundle, beside the server's bundle (scripts/build.ts writes both). */
export const COMMAND_BUNDLE = "cli.mjs";

/** What a run starts: the command's entry, and how the service's start-up line names it. */
export interface CommandEntry {
  readonly path: string;
  readonly description: string;
}

/**
 * The command line the runs start, decided by the place of the module at `moduleUrl`. Bundled
 * (the module is in the server's bundle, `dist/bundle/server.mjs`: `npm start`, the image), the
 * command's bundle beside it (COMMAND_BUNDLE): plain JavaScript, no transpiling before its first
 * row — or null, a refusal naming it, when the build did not write it. Run from the sources
 * (`npm run dev`, the module a .ts file one folder below src/), the command's sources through tsx
 * (src/cli/sources.mjs), as current as the service's own.
 */
export function commandEntryOf(moduleUrl: string): CommandEntry | { readonly missing: string } {
  const module = fileURLToPath(moduleUrl);
  if (!module.endsWith(".ts")) {
    const path = join(dirname(module), COMMAND_BUNDLE);
    return existsSync(path)
      ? { path, description: `/evaluate runs the bundled command ${path}` }
      : { missing: path };
  }
  const path = fileURLToPath(new URL("../cli/sources.mjs", moduleUrl));
  return existsSync(path)
    ? { path, description: `/evaluate runs the command's sources ${path} through tsx` }
    : { missing: path };
}
