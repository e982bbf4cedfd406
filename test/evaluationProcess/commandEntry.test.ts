/**
 * Which command the /evaluate page starts (`commandEntryOf`, src/evaluationProcess/commandEntry.ts),
 * decided by the place of the server's module: the command's bundle beside a bundled server,
 * the command's sources (through tsx) for the service's sources, and what is missing named,
 * never guessed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { COMMAND_BUNDLE, commandEntryOf } from "../../src/evaluationProcess/commandEntry.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "command-entry-"));

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe("the command the /evaluate page starts", () => {
  it("from the sources: the command's sources, through tsx (never a bundle older than them)", () => {
    const source = pathToFileURL(join(ROOT, "src/evaluationProcess/commandEntry.ts")).href;
    const sources = join(ROOT, "src/cli/sources.mjs");
    expect(commandEntryOf(source)).toEqual({
      path: sources,
      description: `/evaluate runs the command's sources ${sources} through tsx`,
    });
  });

  it("bundled: the command's bundle beside the server's, only there", () => {
    const folder = join(work, "dist/bundle");
    mkdirSync(folder, { recursive: true });
    const server = pathToFileURL(join(folder, "server.mjs")).href;
    const command = join(folder, COMMAND_BUNDLE);
    // Not built: missing, named (not the bin of a project above, which would be a guess).
    expect(commandEntryOf(server)).toEqual({ missing: command });
    writeFileSync(command, "");
    expect(commandEntryOf(server)).toEqual({
      path: command,
      description: `/evaluate runs the bundled command ${command}`,
    });
  });

  it("from sources without the command's beside them: its sources named as missing", () => {
    const source = pathToFileURL(join(work, "src/evaluationProcess/commandEntry.ts")).href;
    expect(commandEntryOf(source)).toEqual({ missing: join(work, "src/cli/sources.mjs") });
  });
});
