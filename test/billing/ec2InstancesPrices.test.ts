/**
 * The reader of ec2instances.info's EC2 dump (scripts/price-list/ec2instances.ts) and the precedence
 * of the price list's sources (scripts/price-list/precedence.ts), on small inputs laid out as the
 * dump is, with the test's own figures: each region's Linux on-demand price, the zones under a
 * region left out, and a type's prices all from the first source that has it.
 */
import { describe, expect, it } from "vitest";
import {
  ec2InstancesEnginePrices,
  ec2InstancesPrices,
  ec2InstancesSearchPrices,
  isAwsRegion,
} from "../../scripts/price-list/ec2instances.js";
import { byPrecedence } from "../../scripts/price-list/precedence.js";

const DUMP = JSON.stringify([
  {
    instance_type: "m5.large",
    family: "General purpose",
    pricing: {
      "eu-north-1": {
        linux: { ondemand: "0.102", reserved: { "yrTerm1Standard.noUpfront": "0.064" }, spot_avg: "0.03" },
        mswin: { ondemand: "0.194" },
      },
      "us-east-1": { linux: { ondemand: "0.096" } },
      "us-gov-west-1": { linux: { ondemand: "0.121" } },
      "us-east-1-dfw-1": { linux: { ondemand: "0.115" } },
      "us-east-1-wl1-bna1": { linux: { ondemand: "0.12" } },
    },
  },
  // Windows only at a region, a price of 0, no pricing at all: no Linux price there
  {
    instance_type: "c5.xlarge",
    pricing: { "eu-west-3": { mswin: { ondemand: "0.37" } }, "eu-north-1": { linux: { ondemand: "0" } } },
  },
  { instance_type: "u-24tb1.metal" },
  "not a type",
]);

describe("ec2instances.info's EC2 dump", () => {
  it("gives each region's Linux on-demand price of each type, the zones left out and counted", () => {
    const { prices, zones } = ec2InstancesPrices(DUMP);
    expect([...prices]).toEqual([
      ["eu-north-1,m5.large", 0.102],
      ["us-east-1,m5.large", 0.096],
      ["us-gov-west-1,m5.large", 0.121],
    ]);
    expect(zones).toBe(2);
  });

  it("is refused when it is no list of types", () => {
    expect(() => ec2InstancesPrices('{"m5.large": {}}')).toThrow(/not a list of instance types/);
  });

  it("names a region, not a Local or Wavelength Zone", () => {
    for (const region of ["eu-north-1", "us-gov-west-1", "ap-southeast-2", "il-central-1"])
      expect(isAwsRegion(region), region).toBe(true);
    for (const zone of ["us-east-1-dfw-1", "us-east-1-wl1-bna1", "eu-west-3-wl1-dss1", "us-east-1a", ""])
      expect(isAwsRegion(zone), zone).toBe(false);
  });
});

describe("the price list's sources in precedence", () => {
  it("take each type's prices from the first source that has it, at every region", () => {
    const { prices, typesGiven, sold } = byPrecedence([
      {
        name: "aws-ec2instances",
        provider: "aws",
        prices: new Map([
          ["eu-north-1,m5.large", 0.102],
          ["us-east-1,m5.large", 0.096],
        ]),
      },
      {
        name: "aws-karpenter",
        provider: "aws",
        prices: new Map([
          // A later date's us-east-1 price of a type the first source has: not read
          ["us-east-1,m5.large", 0.09],
          ["us-east-1,m8i.large", 0.106],
        ]),
      },
      { name: "azure-karpenter", provider: "azure", prices: new Map([["eastus,Standard_D2s_v3", 0.1]]) },
    ]);
    expect([...(prices.get("aws") ?? [])]).toEqual([
      ["eu-north-1,m5.large", 0.102],
      ["us-east-1,m5.large", 0.096],
      ["us-east-1,m8i.large", 0.106],
    ]);
    expect([...(prices.get("azure") ?? [])]).toEqual([["eastus,Standard_D2s_v3", 0.1]]);
    // What each source sells where it is read: its own regions, the types taken from it
    expect(sold).toEqual([
      {
        provider: "aws",
        name: "aws-ec2instances",
        regions: ["eu-north-1", "us-east-1"],
        types: ["m5.large"],
      },
      { provider: "aws", name: "aws-karpenter", regions: ["us-east-1"], types: ["m8i.large"] },
      { provider: "azure", name: "azure-karpenter", regions: ["eastus"], types: ["Standard_D2s_v3"] },
    ]);
    expect(Object.fromEntries(typesGiven)).toEqual({
      "aws-ec2instances": 1,
      "aws-karpenter": 1,
      "azure-karpenter": 1,
    });
  });

  it("keep one provider's types apart from another's of the same name", () => {
    const { prices } = byPrecedence([
      { name: "aws", provider: "aws", prices: new Map([["eu-north-1,x.large", 1]]) },
      { name: "gcp", provider: "gcp", prices: new Map([["europe-north1,x.large", 2]]) },
    ]);
    expect(prices.get("gcp")?.get("europe-north1,x.large")).toBe(2);
  });
});

describe("ec2instances.info's dumps of RDS and ElastiCache", () => {
  it("give each node's on-demand price per engine, named with its service; ids and Outposts left out", () => {
    const dump = JSON.stringify([
      {
        instance_type: "db.m5.large",
        pricing: {
          "eu-north-1": {
            "2": { ondemand: 0.18 },
            MySQL: { ondemand: 0.18, reserved: { "yrTerm1Standard.noUpfront": 0.12 } },
            PostgreSQL: { ondemand: 0.187 },
            "SQL Server (on-premise for Outpost)": { ondemand: 0.21 },
          },
          "us-east-1-dfw-1": { MySQL: { ondemand: 0.2 } },
        },
      },
    ]);
    const { prices, left } = ec2InstancesEnginePrices(dump, "RDS");
    expect([...prices]).toEqual([
      ["eu-north-1,db.m5.large,RDS MySQL", 0.18],
      ["eu-north-1,db.m5.large,RDS PostgreSQL", 0.187],
    ]);
    expect(left).toBe(2);
  });
});

describe("ec2instances.info's dump of OpenSearch Service", () => {
  it("gives each node's on-demand price under its OpenSearch and its legacy Elasticsearch name", () => {
    const dump = JSON.stringify([
      {
        instance_type: "m5.large.search",
        pricing: {
          "eu-north-1": { ondemand: 0.15, reserved: { "yrTerm1Standard.noUpfront": 0.1 } },
          "us-east-1-dfw-1": { ondemand: 0.2 },
        },
      },
      { instance_type: "or1.medium.search", pricing: { "eu-west-3": { ondemand: 0 } } },
    ]);
    expect([...ec2InstancesSearchPrices(dump)]).toEqual([
      ["eu-north-1,m5.large.search", 0.15],
      ["eu-north-1,m5.large.elasticsearch", 0.15],
    ]);
  });
});
