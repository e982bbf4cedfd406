/**
 * The UTF-8 bytes of an answer (src/support/utf8.ts): byte for byte what `Buffer.from` gives, for
 * every text — ASCII, Latin-1 with non-ASCII characters anywhere (first, last, side by side, at
 * every offset modulo a word), characters beyond Latin-1 and lone surrogates.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { utf8Bytes } from "../../src/support/utf8.js";

const expectSameBytes = (text: string) => {
  const bytes = utf8Bytes(text);
  expect(Buffer.compare(bytes, Buffer.from(text)), JSON.stringify(text.slice(0, 80))).toBe(0);
  expect(bytes.length).toBe(Buffer.byteLength(text));
};

/** Latin-1 characters, mostly ASCII as in an answer; `beyond`: with rare ones beyond Latin-1. */
const character = (beyond: boolean) =>
  fc.oneof(
    { weight: 300, arbitrary: fc.integer({ min: 0x20, max: 0x7e }) },
    { weight: 40, arbitrary: fc.integer({ min: 0x80, max: 0xff }) },
    { weight: 20, arbitrary: fc.integer({ min: 0, max: 0x1f }) },
    { weight: beyond ? 1 : 0, arbitrary: fc.integer({ min: 0x100, max: 0xffff }) },
  );
const text = (minLength: number, maxLength: number, beyond = false) =>
  fc.array(character(beyond), { minLength, maxLength }).map((codes) => String.fromCharCode(...codes));

describe("utf8Bytes", () => {
  it("gives an answer's bytes: ASCII, then with its ® and an é", () => {
    const answer = JSON.stringify({ source: "ADEME Base IMPACTS", values: Array(1500).fill(1.25) });
    expectSameBytes(answer);
    const marked = answer.replace("IMPACTS", "IMPACTS ®").replace('"values"', '"valeurs é"');
    expectSameBytes(marked);
    expect(utf8Bytes(marked).length).toBe(marked.length + 2);
  });

  it("expands non-ASCII bytes at the ends, side by side and at every offset within a word", () => {
    const ascii = "x".repeat(5000);
    for (let offset = 0; offset < 8; offset++) {
      const head = ascii.slice(0, offset);
      expectSameBytes(`${head}®${ascii}`);
      expectSameBytes(`${ascii}${head}\u00ff`);
      expectSameBytes(`${head}\u0080\u00e9\u00ff${ascii}\u00a0`);
    }
    expectSameBytes("\u00e9".repeat(5000));
  });

  it("leaves texts beyond Latin-1 to Buffer.from, lone surrogates included", () => {
    const ascii = "y".repeat(5000);
    for (const odd of ["日本", "\ud83d\ude00", "\ud800", "\udfff", "®\u0100"])
      expectSameBytes(`${ascii}${odd}é`);
  });

  it("equals Buffer.from for any text, short or long", () => {
    fc.assert(
      fc.property(text(0, 64, true), (value) => expectSameBytes(value)),
      { numRuns: 2000 },
    );
    fc.assert(
      fc.property(text(4000, 9000), (value) => expectSameBytes(value)),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(text(4000, 9000, true), (value) => expectSameBytes(value)),
      { numRuns: 50 },
    );
  });
});
