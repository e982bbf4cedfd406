/**
 * Instance types read by their provider's size grammar (src/billing/instanceShapes.ts): a family and its
 * vCPUs, so that a type the edition lacks stands for its family's type of as many vCPUs, and no
 * approximate match crosses a family.
 */
import { describe, expect, it } from "vitest";
import { sameFamily, shapeOf, typeByShape } from "../../src/billing/instanceShapes.js";
import { matchInstance } from "../../src/billing/matching.js";
import { editionContext } from "./support.js";

describe("the providers' size grammars", () => {
  it.each([
    ["aws", "c7i.metal-24xl", "c7i", 96],
    ["aws", "c7i.24xlarge", "c7i", 96],
    ["aws", "m5.xlarge", "m5", 4],
    ["aws", "db.r5.large", "r5", 2],
    ["azure", "Standard_DS2_v2", "d", 2],
    ["azure", "D4ads v5", "d", 4],
    ["azure", "standard_e8-4as_v4", "e", 8],
    ["gcp", "n2-standard-8", "n2-standard", 8],
  ])("reads %s %s as family %s of %d vCPUs", (provider, name, family, vcpus) => {
    expect(shapeOf(provider, name)).toMatchObject({ family, vcpus });
  });

  it("reads no vCPUs from a size that names none", () => {
    expect(shapeOf("aws", "t3.medium")).toBeNull();
    expect(shapeOf("aws", "m5.metal")).toBeNull();
    expect(shapeOf("gcp", "e2-medium")).toBeNull();
  });

  it("tells families apart: c7i is no r7i", () => {
    expect(sameFamily("aws", "c7i.metal-24xl", "r7i.metal-24xl")).toBe(false);
    expect(sameFamily("aws", "c7i.metal-24xl", "c7i.24xlarge")).toBe(true);
    // A size the grammar reads no vCPUs from still names its family: c7i.metal is no c6i.metal
    expect(sameFamily("aws", "c7i.metal", "c6i.metal")).toBe(false);
    expect(sameFamily("aws", "c7i.metal", "c7i.48xlarge")).toBe(true);
  });

  it("takes the same attributes first, then the nearest version", () => {
    const ids = ["d2as_v4", "d2s_v5", "d2s_v3", "d4s_v3", "e2s_v3"];
    expect(typeByShape("azure", "Standard_DS2_v2", ids)).toBe("d2s_v3");
    expect(typeByShape("azure", "Standard_D2as_v5", ids)).toBe("d2as_v4");
    expect(typeByShape("azure", "Standard_D16s_v3", ids)).toBeNull();
  });
});

describe("matching a billed type in edition 2.4.1", () => {
  const context = editionContext("2.4.1");

  it("estimates c7i.metal-24xl as c7i.24xlarge (96 vCPUs), never r7i.metal-24xl", async () => {
    const match = await matchInstance(context, "aws", "c7i.metal-24xl");
    expect(match.matchedInstanceType).toBe("c7i.24xlarge");
    expect(match.warning).toBe(
      "instance-by-shape: c7i.metal-24xl is not in the edition; estimated as c7i.24xlarge, its family's type of 96 vCPUs",
    );
  });

  it("keeps an exact match exact", async () => {
    expect(await matchInstance(context, "aws", "r7i.metal-24xl")).toMatchObject({
      matchedInstanceType: "r7i.metal-24xl",
      warning: null,
    });
  });
});
