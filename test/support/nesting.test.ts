import { describe, expect, it } from "vitest";
import { documentNestingExceeds, valueNestingExceeds } from "../../src/support/nesting.js";

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
