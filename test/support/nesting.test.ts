import { describe, expect, it } from "vitest";
import {
  documentNestingExceeds,
  jsonNestingExceeds,
  jsonNestingScanExceeds,
  newJsonScan,
  valueNestingExceeds,
} from "../../src/support/nesting.js";

describe("jsonNestingExceeds (one scan of the text)", () => {
  it("counts objects and lists, not brackets inside strings (escaped quotes included)", () => {
    expect(jsonNestingExceeds('{"a": [[1]]}', 3)).toBe(false);
    expect(jsonNestingExceeds('{"a": [[1]]}', 2)).toBe(true);
    expect(jsonNestingExceeds('{"a": "[[[[\\"[[[["}', 1)).toBe(false);
    expect(jsonNestingExceeds("[{}, {}, {}]", 2)).toBe(false);
    expect(jsonNestingExceeds(`${"[".repeat(100_000)}${"]".repeat(100_000)}`, 64)).toBe(true);
  });

  it("scanned in steps, answers as one scan wherever the steps cut (an escape or a quote included)", () => {
    const texts = ['{"a": "[[[[\\"[[[[", "b": [[{"c": "\\\\"}]]]}', `[${'"\\"{",'.repeat(5)}[[1]]]`];
    for (const text of texts) {
      for (const max of [1, 2, 3, 4]) {
        for (let step = 1; step <= text.length; step++) {
          const scan = newJsonScan();
          let exceeds = false;
          while (!exceeds && scan.at < text.length)
            exceeds = jsonNestingScanExceeds(text, max, scan, scan.at + step);
          expect(exceeds, `${text} by ${step} at ${max}`).toBe(jsonNestingExceeds(text, max));
        }
      }
    }
    // The cases above differ: some exceed and some do not.
    expect(jsonNestingExceeds(texts[0], 4)).toBe(false);
    expect(jsonNestingExceeds(texts[0], 3)).toBe(true);
  });
});

describe("documentNestingExceeds (selection sets, arguments, list and object values)", () => {
  it("counts {, ( and [ outside strings, block strings and comments", () => {
    expect(documentNestingExceeds("{ a(x: [1]) { b } }", 3)).toBe(false);
    expect(documentNestingExceeds("{ a(x: [1]) { b } }", 2)).toBe(true);
    expect(documentNestingExceeds('{ a(x: "{{{{\\"{{") }', 2)).toBe(false);
    expect(documentNestingExceeds('{ a(x: """{{{ \\""" {{{ """) }', 2)).toBe(false);
    expect(documentNestingExceeds("# {{{{{{\n{ a }", 1)).toBe(false);
  });

  it("an unterminated string ends the scan (the parser reports it)", () => {
    expect(documentNestingExceeds('{ a(x: "{{{{{{', 2)).toBe(false);
    expect(documentNestingExceeds('{ a(x: """{{{{{{', 2)).toBe(false);
  });
});

describe("valueNestingExceeds (already parsed values, iteratively)", () => {
  it("measures objects and lists; a value 100,000 levels deep is measured without recursion", () => {
    expect(valueNestingExceeds({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(valueNestingExceeds({ a: [{ b: 1 }] }, 2)).toBe(true);
    expect(valueNestingExceeds(null, 1)).toBe(false);
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(valueNestingExceeds(deep, 64)).toBe(true);
  });
});
