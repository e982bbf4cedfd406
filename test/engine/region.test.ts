import { describe, expect, it } from "vitest";
import {
  type CloudRegion,
  cloudLocation,
  regionNotFound,
  regionsOf,
} from "../../src/engine/lookups/region.js";

const REGIONS: CloudRegion[] = [
  { provider: "aws", region: "eu-west-1", usageLocation: "IRL" },
  { provider: "aws", region: "eu-west-3", usageLocation: "FRA" },
  { provider: "scaleway", region: "fr-par", usageLocation: "FRA" },
];

describe("cloudLocation (docs/methodology.md §19.7.5)", () => {
  it("resolves a provider's region to its country, COMPLETED, trimming both sides", () => {
    expect(cloudLocation(REGIONS, "aws", " eu-west-3 ", null)).toEqual({
      location: "FRA",
      completed: true,
      warning: null,
    });
  });

  it("lets the region win over usage_location", () => {
    expect(cloudLocation(REGIONS, "aws", "eu-west-1", "DEU").location).toBe("IRL");
  });

  it("falls back to usage_location with a warning, still COMPLETED (Appendix D.11)", () => {
    expect(cloudLocation(REGIONS, "aws", "bad-region", "GBR")).toEqual({
      location: "GBR",
      completed: true,
      warning: regionNotFound("bad-region", "aws"),
    });
  });

  it("is case-sensitive on provider and region", () => {
    expect(cloudLocation(REGIONS, "scaleway", "FR-PAR", null).location).toBeNull();
    expect(cloudLocation(REGIONS, "AWS", "eu-west-3", null).warning).not.toBeNull();
  });

  it("keeps usage_location as an input without a region", () => {
    expect(cloudLocation(REGIONS, "aws", null, "DEU")).toEqual({
      location: "DEU",
      completed: false,
      warning: null,
    });
    expect(cloudLocation(REGIONS, "aws", "", "DEU").completed).toBe(false);
  });

  it("words the warning as the reference does", () => {
    expect(regionNotFound("x", "aws")).toBe(
      "Region 'x' not found for provider 'aws'. Falling back to usage_location if provided.",
    );
  });
});

describe("regionsOf", () => {
  it("lists every row in file order, or one provider's", () => {
    expect(regionsOf(REGIONS, null)).toHaveLength(3);
    expect(regionsOf(REGIONS, "aws").map((r) => r.region)).toEqual(["eu-west-1", "eu-west-3"]);
    expect(regionsOf(REGIONS, "nope")).toEqual([]);
  });
});
