/**
 * The HTTP front's modules are short (docs/architecture.md): no file of src/http holds more than
 * 250 lines, so that each is read whole — a route, a page's HTML, a page's browser script, a bound.
 * A module that grows past it is split where its parts meet (the /evaluate page's HTML and its
 * script, an upload's receiving and its lines' counting).
 */
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { sourceFiles } from "../support/sources.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const MAX_LINES = 250;

/** A file's lines, as an editor numbers them (a last line ending in a newline adds none). */
const lineCount = (text: string) =>
  text === "" ? 0 : text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

describe("the HTTP front's module size", () => {
  it("counts a file's lines as an editor numbers them", () => {
    expect([lineCount("a\nb\n"), lineCount("a\nb"), lineCount("")]).toEqual([2, 2, 0]);
  });

  it(`no module of src/http holds more than ${MAX_LINES} lines`, () => {
    const files = sourceFiles(join(root, "src", "http"));
    expect(files.length).toBeGreaterThan(20);
    const long = files
      .map((path) => ({ file: relative(root, path), lines: lineCount(readFileSync(path, "utf8")) }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`);
    expect(long).toEqual([]);
  });
});
