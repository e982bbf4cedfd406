import { distance } from "fuzzball";
import { describe, expect, it } from "vitest";
import {
  extractOne,
  indelDistance,
  partialRatio,
  partialTokenRatio,
  prepareTokens,
  ratio,
  tokenize,
  tokenSetRatio,
  tokenSetRatioPrepared,
  tokenSortRatio,
  wRatio,
} from "../../src/engine/lookups/fuzzy.js";

describe("indelDistance (bit-parallel LCS)", () => {
  it("counts insertions and deletions only", () => {
    expect(indelDistance("kitten", "sitting")).toBe(5);
    expect(indelDistance("abc", "axc")).toBe(2);
    expect(indelDistance("", "abc")).toBe(3);
    expect(indelDistance("same", "same")).toBe(0);
  });

  it("applies no pre-processing (case, punctuation and spaces are significant)", () => {
    expect(indelDistance("Intel", "intel")).toBe(2);
    expect(indelDistance("a-b", "a b")).toBe(2);
    expect(indelDistance("  x ", "x")).toBe(3);
  });

  it("equals the dynamic programme (fuzzball, substitution cost 2) across word boundaries", () => {
    // A seeded generator over a small alphabet (many matches), lengths 0–140 (up to five words).
    let seed = 12345;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const text = (length: number) =>
      Array.from({ length }, () => "abcde fgAB-1"[Math.floor(next() * 12)]).join("");
    for (let round = 0; round < 400; round++) {
      const a = text(Math.floor(next() * 141));
      const b = text(Math.floor(next() * 141));
      expect(indelDistance(a, b)).toBe(distance(a, b, { subcost: 2, full_process: false } as object));
    }
    expect(indelDistance("a".repeat(64), `${"a".repeat(64)}b`)).toBe(1);
    expect(indelDistance("ab".repeat(40), "ba".repeat(40))).toBe(2);
  });
});

describe("ratio", () => {
  it("is the normalized Indel similarity in percent", () => {
    expect(ratio("this is a test", "this is a test!")).toBeCloseTo(96.5517, 4);
    expect(ratio("micron", "Micron")).toBeCloseTo(83.3333, 4);
    expect(ratio("abc", "xyz")).toBe(0);
  });

  it("scores two empty strings 100 and one empty string 0", () => {
    expect(ratio("", "")).toBe(100);
    expect(ratio("", "a")).toBe(0);
  });
});

describe("tokenize", () => {
  it("splits on runs of Python whitespace", () => {
    expect(tokenize("  intel\t xeon\n gold  ")).toEqual(["intel", "xeon", "gold"]);
    expect(tokenize("a\u00a0b\u3000c\u001fd")).toEqual(["a", "b", "c", "d"]);
    expect(tokenize("")).toEqual([]);
  });

  it("keeps U+FEFF inside tokens, as Python does (unlike JavaScript's \\s)", () => {
    expect(tokenize("a\ufeffb")).toEqual(["a\ufeffb"]);
  });
});

describe("tokenSortRatio (docs/methodology.md §11 reference scores)", () => {
  it("reproduces the reference values", () => {
    expect(tokenSortRatio("xeon platinum", "xeon gold")).toBeCloseTo(54.5455, 4);
    expect(tokenSortRatio("xeon e", "xeon e5")).toBeCloseTo(92.3077, 4);
    expect(tokenSortRatio("xeon e5", "xeon e3")).toBeCloseTo(85.7143, 4);
  });

  it("ignores word order but not duplicates", () => {
    expect(tokenSortRatio("gold xeon", "xeon  gold")).toBe(100);
    // "a bear fuzzy was" vs "a bear fuzzy fuzzy was": LCS 16 over 16 + 22 characters.
    expect(tokenSortRatio("fuzzy was a bear", "fuzzy fuzzy was a bear")).toBeCloseTo(84.2105, 4);
  });
});

describe("tokenSetRatio (docs/methodology.md §11 reference scores)", () => {
  it("reproduces the reference values", () => {
    expect(tokenSetRatio("intel core i7-8565u", "i7-8565u")).toBe(100);
    expect(
      tokenSetRatio("intel xeon platinum 8124m", "intel(r) xeon(r) platinum 8124m cpu @ 3.00ghz"),
    ).toBeCloseTo(71.7949, 4);
  });

  it("scores 100 whenever one token set contains the other (subset rule)", () => {
    expect(tokenSetRatio("fuzzy was a bear but not a dog", "fuzzy was a bear")).toBe(100);
    expect(tokenSetRatio("intel xeon gold 6134", "intel xeon gold 6134")).toBe(100);
  });

  it("compares the differences when both sides have extra tokens", () => {
    expect(tokenSetRatio("fuzzy was a bear but not a dog", "fuzzy was a bear but not a cat")).toBeCloseTo(
      92.3077,
      4,
    );
    // No common token: plain ratio of the sorted differences.
    expect(tokenSetRatio("skylak", "Skylake")).toBeCloseTo(76.9231, 4);
  });

  it("returns 0 when a side has no token", () => {
    expect(tokenSetRatio("", "intel")).toBe(0);
    expect(tokenSetRatio("   ", "intel")).toBe(0);
  });

  it("gives the same score from prepared profiles", () => {
    const a = "intel xeon platinum 8124m";
    const b = "intel(r) xeon(r) platinum 8124m cpu @ 3.00ghz";
    expect(tokenSetRatioPrepared(prepareTokens(a), prepareTokens(b))).toBe(tokenSetRatio(a, b));
  });
});

describe("partialRatio", () => {
  it("finds the best full-length window", () => {
    expect(partialRatio("SK hynix", "SK hynix Inc.")).toBe(100);
    expect(partialRatio("a certain string", "cetain")).toBeCloseTo(83.3333, 4);
  });

  it("also scores the windows overhanging either end of the longer string", () => {
    // Suffix "ynix" (the window "hynix" only reaches 80 because of the case of H).
    expect(partialRatio("Hynix", "SK hynix")).toBeCloseTo(88.8889, 4);
    // Prefix "oieoiu" (every full window only reaches 14.29).
    expect(partialRatio("Samsung", "oieoiudhehz")).toBeCloseTo(15.3846, 4);
  });

  it("is symmetric and, for equal lengths, tries both directions", () => {
    expect(partialRatio("abcd", "bcde")).toBeCloseTo(85.7143, 4);
    expect(partialRatio("bcde", "abcd")).toBeCloseTo(85.7143, 4);
    expect(partialRatio("SK hynix Inc.", "SK hynix")).toBe(100);
  });

  it("handles empty strings like rapidfuzz", () => {
    expect(partialRatio("", "")).toBe(100);
    expect(partialRatio("", "abc")).toBe(0);
  });
});

describe("partialTokenRatio", () => {
  it("is 100 as soon as the token sets share a token", () => {
    expect(partialTokenRatio("Samsung Electronics", "samsung Electronics Co")).toBe(100);
  });

  it("otherwise takes the partial ratio of the sorted tokens", () => {
    expect(partialTokenRatio("Hynix", "SK hynix")).toBeCloseTo(88.8889, 4);
  });
});

describe("wRatio (docs/methodology.md §11 reference scores)", () => {
  const cases: Array<[string, string, number]> = [
    ["skylak", "Skylake", 76.9231],
    ["skylake", "Skylake", 85.7143],
    ["broadwel", "Broadwell", 82.3529],
    ["samesung", "Samsung", 80.0],
    ["Intel", "Intel ", 95.0],
    ["micron", "Micron", 83.3333],
    ["SK hynix Inc.", "SK hynix", 90.0],
    ["Hynix", "SK hynix", 80.0],
    ["oieoiudhehz", "Samsung", 13.8462],
  ];

  it.each(cases)("WRatio(%j, %j) = %s", (s, t, expected) => {
    expect(wRatio(s, t)).toBeCloseTo(expected, 4);
    expect(wRatio(t, s)).toBeCloseTo(expected, 4);
  });

  it("returns 0 for an empty side", () => {
    expect(wRatio("", "Samsung")).toBe(0);
    expect(wRatio("Samsung", "")).toBe(0);
  });

  it("uses the 0.6 partial scale when one string is 8 times longer", () => {
    // partial_ratio is 100 ("abc" occurs verbatim), scaled by 0.6; ratio is 2·3/27·100 = 22.2.
    expect(wRatio("abc", "abcdefghijklmnopqrstuvwx")).toBeCloseTo(60, 10);
  });
});

describe("extractOne (docs/methodology.md §11.2)", () => {
  const families = ["Haswell", "Broadwell", "Skylake", "Cascade Lake"];

  it("accepts the best candidate above the cutoff and reports its index", () => {
    expect(extractOne("skylake", families, 79.0)).toEqual({
      match: "Skylake",
      score: wRatio("skylake", "Skylake"),
      index: 2,
    });
    expect(extractOne("broadwel", families, 79.0)?.match).toBe("Broadwell");
    expect(extractOne("samesung", ["Micron", "Samsung", "SK hynix"], 79.0)?.match).toBe("Samsung");
  });

  it("rejects scores at or below the cutoff", () => {
    expect(extractOne("skylak", families, 79.0)).toBeNull();
    expect(extractOne("oieoiudhehz", ["Samsung"], 79.0)).toBeNull();
    // samesung vs Samsung scores exactly 80: accepted above 79, rejected when the cutoff is 80 itself.
    expect(extractOne("samesung", ["Samsung"], 80)).toBeNull();
  });

  it("keeps the first candidate on ties", () => {
    // "abcd" vs "abce" and vs "abcf" both score 75.
    expect(extractOne("abcd", ["abce", "abcf"], 0)).toMatchObject({ match: "abce", index: 0, score: 75 });
    expect(extractOne("Intel", ["Intel ", " Intel"], 79.0)).toMatchObject({ match: "Intel ", index: 0 });
  });

  it("is case-sensitive and returns null for no candidates", () => {
    expect(extractOne("SAMSUNG", ["Samsung"], 79.0)).toBeNull();
    expect(extractOne("Samsung", [], 79.0)).toBeNull();
  });
});
