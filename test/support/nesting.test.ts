import { describe, expect, it } from "vitest";
import {
  documentNestingExceeds,
  jsonBoundPassed,
  jsonNestingExceeds,
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
          for (const widest of [1, 2, 5, Number.POSITIVE_INFINITY]) {
            const bounds = { depth: max, members: widest, entries: widest + 1 };
            const scan = newJsonScan();
            let passed: ReturnType<typeof jsonBoundPassed> = null;
            while (passed === null && scan.at < text.length)
              passed = jsonBoundPassed(text, bounds, scan, scan.at + step);
            const wholeScan = newJsonScan();
            const whole = jsonBoundPassed(text, bounds, wholeScan, text.length);
            expect(passed, `${text} by ${step} at ${max}, ${widest} members`).toBe(whole);
            if (whole === null) expect(scan.longLists).toEqual(wholeScan.longLists);
          }
        }
      }
    }
    // The cases above differ: some exceed and some do not.
    expect(jsonNestingExceeds(texts[0], 4)).toBe(false);
    expect(jsonNestingExceeds(texts[0], 3)).toBe(true);
  });
});

describe("jsonBoundPassed: an object's members, counted in the same scan", () => {
  it("counts an object's members by its commas, not a list's items nor what strings hold", () => {
    const passed = (text: string, members: number) =>
      jsonBoundPassed(text, { depth: 64, members, entries: Infinity }, newJsonScan(), text.length);
    expect(passed('{"a": 1, "b": 2, "c": 3}', 3)).toBe(null);
    expect(passed('{"a": 1, "b": 2, "c": 3}', 2)).toBe("members");
    expect(passed("[1, 2, 3, 4, 5]", 2)).toBe(null);
    expect(passed('{"a": "1, 2, 3, \\", 4, 5", "b": [1, 2, 3, {"c": 1}], "d": 2}', 3)).toBe(null);
    expect(passed('{"a": [1, 2, 3, {"c": 1, "d": 2, "e": 3}]}', 2)).toBe("members");
    // Each object counted apart, the outer one's count kept past an inner one
    expect(passed('{"a": {"x": 1, "y": 2}, "b": {"x": 1, "y": 2}}', 2)).toBe(null);
    expect(passed('{"a": {"x": 1}, "b": 1, "c": {"x": 1}}', 2)).toBe("members");
    // Nesting is found first where it comes first
    expect(passed('[[[{"a": 1, "b": 2}]]]', 1)).toBe("members");
    const bounds = { depth: 2, members: 1, entries: Infinity };
    expect(jsonBoundPassed('[[[{"a": 1, "b": 2}]]]', bounds, newJsonScan(), 100)).toBe("depth");
  });
});

describe("jsonBoundPassed: the lists longer than a bound, recorded in the same scan", () => {
  const longLists = (text: string, entries: number) => {
    const scan = newJsonScan();
    expect(jsonBoundPassed(text, { depth: 64, members: Infinity, entries }, scan, text.length)).toBe(null);
    return Object.fromEntries(scan.longLists);
  };

  it("counts a list's entries by its commas, not an object's members nor what strings hold", () => {
    expect(longLists("[1, 2, 3]", 3)).toEqual({});
    expect(longLists("[1, 2, 3]", 2)).toEqual({ 0: { entries: 3, end: 9 } });
    expect(longLists('{"a": 1, "b": 2, "c": 3}', 1)).toEqual({});
    expect(longLists('["1, 2, 3, \\", 4", [1, 2], {"a": 1, "b": 2}]', 3)).toEqual({});
  });

  it("counts each list apart, the outer one's count kept past an inner one", () => {
    expect(longLists("[[1, 2], [3, 4], [5, 6]]", 3)).toEqual({});
    expect(longLists("[[1, 2], 3, [4, 5], 6]", 3)).toEqual({ 0: { entries: 4, end: 22 } });
    expect(longLists('{"a": [1, 2, 3, 4]}', 3)).toEqual({ 6: { entries: 4, end: 18 } });
    expect(longLists("[[1, 2, 3], [1, 2, 3, 4]]", 3)).toEqual({ 12: { entries: 4, end: 24 } });
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
