/**
 * flatText (src/engine/model/flatText.ts) gives the texts an answer shows as they were joined: the same
 * characters whatever they are, so that flattening a `source` can never change an answer.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { flatText } from "../../src/engine/model/flatText.js";

describe("flatText", () => {
  it("keeps every character of a joined source text", () => {
    const capacity = 32;
    const joined = `(ram_electrical_factor_per_go : 0.284) * (ram_capacity: ${capacity}.0) `;
    expect(flatText(joined)).toBe("(ram_electrical_factor_per_go : 0.284) * (ram_capacity: 32.0) ");
    expect(flatText(`io_die_size (416 mm\u00b2) + ${"ADEME Base IMPACTS \u00ae"}`)).toBe(
      "io_die_size (416 mm\u00b2) + ADEME Base IMPACTS \u00ae",
    );
  });

  it("keeps a text that NFC would change (a letter and its combining accent) as it is", () => {
    const decomposed = `Cafe\u0301 ${"source"}`;
    expect(decomposed.normalize()).not.toBe(decomposed);
    expect(flatText(decomposed)).toBe(decomposed);
    expect(flatText(decomposed)).toHaveLength(12);
  });

  it("is the identity on any text, lone surrogates included", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), fc.string({ unit: "binary" }), (left, right) => {
        const joined = `${left} : ${right}`;
        expect(flatText(joined)).toBe(joined);
      }),
      { numRuns: 500, seed: 11 },
    );
  });
});
