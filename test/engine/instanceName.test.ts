import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  canonicalForms,
  fuzzyInstanceWarning,
  hammingSimilarity,
  instanceNameIndex,
  levenshteinSimilarity,
  matchInstanceName,
} from "../../src/engine/lookups/instanceName.js";

const AWS = instanceNameIndex([
  "a1.medium",
  "a1.xlarge",
  "a1.4xlarge",
  "m5.large",
  "m5.xlarge",
  "c5.2xlarge",
]);
const AZURE = instanceNameIndex(["d2ads_v5", "e2ads_v5", "standard_e20as_v4"]);
const GCP = instanceNameIndex(["c4a-standard-1", "c4a-standard-2"]);

describe("canonicalForms (docs/methodology.md §19.7.4)", () => {
  it("lower-cases, trims, drops an Azure standard_ prefix and varies the separators", () => {
    expect(canonicalForms(" Standard_E2ads V5 ")).toEqual(["e2ads v5", "e2ads_v5", "e2ads-v5", "e2adsv5"]);
    expect(canonicalForms("A1.4XLARGE")).toEqual(["a1.4xlarge"]);
  });
});

describe("similarities", () => {
  it("Hamming counts mismatching positions over the length", () => {
    expect(hammingSimilarity("a14xlarge", "a1.xlarge")).toBeCloseTo(8 / 9, 12);
    expect(hammingSimilarity("abcde", "abcde")).toBe(1);
  });
  it("Levenshtein divides the edit distance by the longer length", () => {
    expect(levenshteinSimilarity("m5.larg", "m5.large")).toBeCloseTo(7 / 8, 12);
    expect(levenshteinSimilarity("kitten", "sitting")).toBeCloseTo(1 - 3 / 7, 12);
    expect(levenshteinSimilarity("", "")).toBe(1);
  });
});

describe("matchInstanceName (docs/methodology.md §19.7.2, §7.4)", () => {
  it("takes an exact id after trimming, without a warning", () => {
    expect(matchInstanceName(AWS, " a1.4xlarge ", 80)).toEqual({ id: "a1.4xlarge", fuzzy: false });
    expect(matchInstanceName(AZURE, "standard_e20as_v4", 80)).toEqual({
      id: "standard_e20as_v4",
      fuzzy: false,
    });
  });

  it("stage 1: equal canonical forms", () => {
    for (const name of ["A1.4XLARGE", "a1-4xlarge", "a1_4xlarge"])
      expect(matchInstanceName(AWS, name, 80)).toEqual({ id: "a1.4xlarge", fuzzy: true });
    expect(matchInstanceName(AZURE, "Standard_E2ads_v5", 80)?.id).toBe("e2ads_v5");
    expect(matchInstanceName(AZURE, "E2ADS V5", 80)?.id).toBe("e2ads_v5");
    expect(matchInstanceName(GCP, "C4A_STANDARD_1", 80)?.id).toBe("c4a-standard-1");
  });

  it("stage 2 prefers an equal-length key over a closer key of another length (Appendix D.14)", () => {
    // a14xlarge is one deletion away from a1.4xlarge, but a1.xlarge has its length and 8/9 equal positions.
    expect(matchInstanceName(AWS, "a14xlarge", 80)).toEqual({ id: "a1.xlarge", fuzzy: true });
    expect(matchInstanceName(AWS, "m5.lrge", 80)?.id).toBe("m5.large");
  });

  it("stage 3: Levenshtein for names of other lengths", () => {
    expect(matchInstanceName(AWS, "m5.larg", 80)?.id).toBe("m5.large");
    expect(matchInstanceName(AWS, "m5.largx", 80)?.id).toBe("m5.large");
    expect(matchInstanceName(AWS, "c5.2xlarg", 80)?.id).toBe("c5.2xlarge");
  });

  it("refuses names under the threshold", () => {
    expect(matchInstanceName(AWS, "zzzz", 80)).toBeNull();
    // 7/8 similar: accepted at 80 %, refused at 90 %.
    expect(matchInstanceName(AWS, "m5.larg", 90)).toBeNull();
  });

  it("always resolves an id of the table to itself", () => {
    const ids = ["a1.medium", "a1.xlarge", "a1.4xlarge", "m5.large", "m5.xlarge", "c5.2xlarge"];
    fc.assert(
      fc.property(fc.constantFrom(...ids), fc.string({ maxLength: 3 }), (id, blanks) => {
        const pad = blanks.replace(/\S/g, " ");
        expect(matchInstanceName(AWS, pad + id + pad, 80)).toEqual({ id, fuzzy: false });
      }),
    );
  });

  it("names the requested and matched ids in the warning", () => {
    expect(fuzzyInstanceWarning("Standard_E2ads_v5", "e2ads_v5")).toBe(
      "Instance 'Standard_E2ads_v5' not found; using closest match 'e2ads_v5' (fuzzy match)",
    );
  });
});
