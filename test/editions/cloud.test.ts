/**
 * Cloud instances of edition 2.4.1 (docs/methodology.md §19.7), chosen per request in a service whose
 * default edition is 1.2.4: five providers, approximate instance names with a top-level warning,
 * regions standing for the usage location, 6-year platform lifetimes, no `units` in the verbose.
 */
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { ARCHETYPE_LIFETIME_HOURS } from "../support/fixtures.js";
import { graphqlClient } from "../support/graphql.js";
import { call } from "../support/rest.js";

const app = sharedApp();
const graphql = graphqlClient(app);

const V2 = "edition=2.4.1";
const FUZZY = (requested: string, matched: string) =>
  `Instance '${requested}' not found; using closest match '${matched}' (fuzzy match)`;
const REGION_NOT_FOUND =
  "Region 'bad-region' not found for provider 'aws'. Falling back to usage_location if provided.";

function post(body: unknown, query = `${V2}&verbose=true`) {
  return call(app, "POST", `/v1/cloud/instance?${query}`, body);
}

describe("cloud listings per edition (docs/methodology.md §19.7.1, §11)", () => {
  it("2.4.1 lists five providers, 1.2.4 only aws", async () => {
    expect((await call(app, "GET", `/v1/cloud/instance/all_providers?${V2}`)).body).toEqual([
      "aws",
      "azure",
      "gcp",
      "ovhcloud",
      "scaleway",
    ]);
    expect((await call(app, "GET", "/v1/cloud/instance/all_providers")).body).toEqual(["aws"]);
  });

  it("GraphQL providers carry their instance counts", async () => {
    const answer = await graphql(`{
      v2: cloudProviders(edition: V2_4_1) { name instanceCount }
      v1: cloudProviders { name instanceCount }
    }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.v2).toEqual([
      { name: "aws", instanceCount: 1095 },
      { name: "azure", instanceCount: 394 },
      { name: "gcp", instanceCount: 339 },
      { name: "ovhcloud", instanceCount: 50 },
      { name: "scaleway", instanceCount: 69 },
    ]);
    expect(answer.data.v1).toEqual([{ name: "aws", instanceCount: 966 }]);
  });

  it("all_instances lists a provider's ids in file order; an unknown provider is 404", async () => {
    const gcp = await call(app, "GET", `/v1/cloud/instance/all_instances?provider=gcp&${V2}`);
    expect(gcp.body).toHaveLength(339);
    expect(gcp.body.slice(0, 2)).toEqual(["c4a-standard-1", "c4a-standard-2"]);
    const unknown = await call(app, "GET", `/v1/cloud/instance/all_instances?provider=nope&${V2}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ detail: "No available data for this cloud provider (nope)" });
  });
});

describe("cloud regions (docs/methodology.md §19.7.5, §11.1)", () => {
  it("/v1/utils/cloud_regions lists provider and region in file order, filtered by exact provider", async () => {
    const all = await call(app, "GET", `/v1/utils/cloud_regions?${V2}`);
    expect(all.status).toBe(200);
    expect(all.body).toHaveLength(144);
    expect(all.body[0]).toEqual({ provider: "aws", region: "us-east-1" });
    const scaleway = await call(app, "GET", `/v1/utils/cloud_regions?provider=scaleway&${V2}`);
    expect(scaleway.body.map((r: { region: string }) => r.region)).toEqual(["fr-par", "nl-ams", "pl-waw"]);
    expect((await call(app, "GET", `/v1/utils/cloud_regions?provider=Scaleway&${V2}`)).body).toEqual([]);
  });

  it("1.2.4 has no regions: the route answers 404", async () => {
    expect((await call(app, "GET", "/v1/utils/cloud_regions")).status).toBe(404);
  });

  it("GraphQL cloudRegions gives each region's country", async () => {
    const answer = await graphql(
      `{ cloudRegions(provider: "azure", edition: V2_4_1) { region usageLocation } }`,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.cloudRegions).toHaveLength(56);
    expect(answer.data.cloudRegions).toContainEqual({ region: "francecentral", usageLocation: "FRA" });
  });

  it("a region sets the location, COMPLETED, with the same use impacts as the country given directly", async () => {
    const byRegion = await post({
      provider: "aws",
      instance_type: "a1.medium",
      usage: { region: "eu-west-3" },
    });
    const byCountry = await post({
      provider: "aws",
      instance_type: "a1.medium",
      usage: { usage_location: "FRA" },
    });
    expect(byRegion.status).toBe(200);
    expect(byRegion.body.verbose.usage_location).toEqual({
      value: "FRA",
      status: "COMPLETED",
      unit: "CodSP3 - NCS Country Codes - NATO",
    });
    expect(byRegion.body.verbose.gwp_factor).toMatchObject({
      value: 0.098,
      status: "COMPLETED",
      min: 0.098,
      max: 0.098,
    });
    expect(byRegion.body.impacts).toEqual(byCountry.body.impacts);
    expect(byCountry.body.verbose.usage_location.status).toBe("INPUT");
  });

  it("the region wins over usage_location; blanks around the region are ignored", async () => {
    const answer = await post({
      provider: "aws",
      instance_type: "a1.medium",
      usage: { region: " eu-west-1 ", usage_location: "DEU" },
    });
    expect(answer.body.verbose.usage_location).toMatchObject({ value: "IRL", status: "COMPLETED" });
  });

  it("an unknown region falls back to usage_location, COMPLETED with a warning (Appendix D.11)", async () => {
    const answer = await post({
      provider: "aws",
      instance_type: "a1.medium",
      usage: { region: "bad-region", usage_location: "GBR" },
    });
    expect(answer.body.verbose.usage_location).toMatchObject({
      value: "GBR",
      status: "COMPLETED",
      warnings: [REGION_NOT_FOUND],
    });
  });

  it("an unknown region alone leaves the default location, its warning unseen (Appendix D.11)", async () => {
    const answer = await post({
      provider: "aws",
      instance_type: "a1.medium",
      usage: { region: "bad-region" },
    });
    expect(answer.body.verbose.usage_location).toEqual({
      value: "EEE",
      status: "DEFAULT",
      unit: "CodSP3 - NCS Country Codes - NATO",
    });
  });

  it("1.2.4 ignores a region (no such usage field there)", async () => {
    const answer = await post(
      { provider: "aws", instance_type: "a1.medium", usage: { region: "eu-west-3" } },
      "verbose=true",
    );
    expect(answer.body.verbose.usage_location).toMatchObject({ value: "EEE", status: "DEFAULT" });
  });

  it("GraphQL: an Azure instance by region", async () => {
    const query = `query($usage: UsageInput) {
      cloudInstance(provider: "azure", instanceType: "d2ads_v5", usage: $usage, edition: V2_4_1) {
        impacts(criteria: [gwp]) { use { ... on Impact { value min max } } }
      }
    }`;
    const byRegion = await graphql(query, { usage: { region: "francecentral" } });
    const byCountry = await graphql(query, { usage: { usageLocation: "FRA" } });
    const byDefault = await graphql(query, {});
    expect(byRegion.errors).toBeUndefined();
    expect(byRegion.data).toEqual(byCountry.data);
    expect(byRegion.data).not.toEqual(byDefault.data);
  });
});

describe("instance names (docs/methodology.md §19.7.2–7.4)", () => {
  const gwpOnly = `${V2}&verbose=false&criteria=gwp`;

  it("an approximate name is evaluated as its closest id, with a top-level warning", async () => {
    const fuzzy = await call(
      app,
      "GET",
      `/v1/cloud/instance?provider=azure&instance_type=Standard_E2ads_v5&${gwpOnly}`,
    );
    const exact = await call(
      app,
      "GET",
      `/v1/cloud/instance?provider=azure&instance_type=e2ads_v5&${gwpOnly}`,
    );
    expect(fuzzy.status).toBe(200);
    expect(Object.keys(fuzzy.body)).toEqual(["impacts", "warnings"]);
    expect(fuzzy.body.warnings).toEqual([FUZZY("Standard_E2ads_v5", "e2ads_v5")]);
    expect(fuzzy.body.impacts).toEqual(exact.body.impacts);
    expect(Object.keys(exact.body)).toEqual(["impacts"]);
  });

  it("the warning comes after the verbose", async () => {
    const answer = await post({ provider: "aws", instance_type: "m5.larg" });
    expect(Object.keys(answer.body)).toEqual(["impacts", "verbose", "warnings"]);
    expect(answer.body.warnings).toEqual([FUZZY("m5.larg", "m5.large")]);
  });

  it("blanks around an exact id are no approximation", async () => {
    const answer = await call(
      app,
      "GET",
      `/v1/cloud/instance?provider=aws&instance_type=%20a1.4xlarge%20&${gwpOnly}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.warnings).toBeUndefined();
  });

  it("no close id: 404 naming instance and provider; 1.2.4 matches ids exactly", async () => {
    const none = await call(app, "GET", `/v1/cloud/instance?provider=aws&instance_type=zzzz&${gwpOnly}`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ detail: "zzzz at aws not found" });
    const v1 = await call(app, "GET", "/v1/cloud/instance?provider=aws&instance_type=m5.larg&verbose=false");
    expect(v1.status).toBe(404);
  });

  it("another provider without an instance type is a 422 naming instance_type (the reference fails)", async () => {
    const answer = await post({ provider: "gcp", usage: { region: "europe-west9" } }, `${V2}&verbose=false`);
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0].loc).toEqual(["body", "instance_type"]);
    // Without provider nor instance type, the defaults (aws, a1.4xlarge) are evaluated.
    expect((await post({}, `${V2}&verbose=false`)).status).toBe(200);
  });

  it("instance_config accepts approximate names, without warning", async () => {
    const answer = await call(
      app,
      "GET",
      `/v1/cloud/instance/instance_config?provider=gcp&instance_type=C4A_STANDARD_1&${V2}`,
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ vcpu: { default: 1 }, platform: { default: "c4a-standard" } });
  });

  it("GraphQL reports the matched instance type and the warning", async () => {
    const answer = await graphql(`{
      cloudInstance(provider: "gcp", instanceType: "C4A_STANDARD_1", edition: V2_4_1) { instanceType warnings }
    }`);
    expect(answer.data.cloudInstance).toEqual({
      instanceType: "c4a-standard-1",
      warnings: [FUZZY("C4A_STANDARD_1", "c4a-standard-1")],
    });
  });
});

describe("platforms and verbose (docs/methodology.md §19.7.1, §12)", () => {
  it("provider platforms live 6 years in 2.4.1 (4 in 1.2.4); the verbose has no units", async () => {
    const v2 = await call(app, "GET", `/v1/cloud/instance?provider=aws&instance_type=m5.large&${V2}`);
    const v1 = await call(app, "GET", "/v1/cloud/instance?provider=aws&instance_type=m5.large");
    expect(v2.body.verbose.hours_life_time).toMatchObject({ value: 52560, source: "from device" });
    expect(v1.body.verbose.hours_life_time).toMatchObject({ value: ARCHETYPE_LIFETIME_HOURS });
    expect(v2.body.verbose.duration).toEqual({ value: 52560, unit: "hours" });
    expect(v2.body.verbose.vcpu).toEqual({ value: 2, status: "ARCHETYPE" });
    expect(v2.body.verbose.units).toBeUndefined();
    expect(v1.body.verbose.units).toMatchObject({ value: 1, status: "ARCHETYPE" });
  });

  it("embedded impacts are allocated over the 6-year lifetime when a duration is given", async () => {
    const whole = await call(
      app,
      "GET",
      `/v1/cloud/instance?provider=aws&instance_type=m5.large&${V2}&verbose=false`,
    );
    const year = await call(
      app,
      "GET",
      `/v1/cloud/instance?provider=aws&instance_type=m5.large&${V2}&verbose=false&duration=8760`,
    );
    const ratio = year.body.impacts.gwp.embedded.max / whole.body.impacts.gwp.embedded.max;
    expect(ratio).toBeCloseTo(1 / 6, 3);
  });

  it("every provider's instances evaluate; instance_per_server is shown as an input", async () => {
    for (const [provider, instanceType] of [
      ["azure", "d2s_v3"],
      ["gcp", "e2-highmem-8"],
      ["ovhcloud", "b3-8"],
      ["scaleway", "dev1-s"],
    ]) {
      const answer = await post({ provider, instance_type: instanceType, usage: { instance_per_server: 4 } });
      expect(answer.status, `${provider} ${instanceType}`).toBe(200);
      expect(answer.body.impacts.gwp.embedded.value).toBeGreaterThan(0);
      expect(answer.body.verbose.instance_per_server).toEqual({ value: 4, status: "INPUT" });
    }
  });

  it("a criterion the components have no factor for leaves the storage shares unread", async () => {
    const answer = await post(
      { provider: "aws", instance_type: "d2.2xlarge", usage: { usage_location: "AUS" } },
      `${V2}&verbose=true&criteria=pm`,
    );
    expect(answer.body.verbose.hdd_storage).toBeUndefined();
    const gwp = await post(
      { provider: "aws", instance_type: "d2.2xlarge" },
      `${V2}&verbose=true&criteria=gwp`,
    );
    expect(gwp.body.verbose.hdd_storage).toMatchObject({ value: 12000, status: "ARCHETYPE" });
  });
});

describe("GraphQL fleets with every provider", () => {
  it("a GCP fleet: one item per input, totals summing the items", async () => {
    const answer = await graphql(
      `query($fleet: [CloudInstanceItemInput!]!) {
        cloudInstances(inputs: $fleet, edition: V2_4_1) {
          count failed
          items { instanceType impacts(criteria: [gwp]) { embedded { ... on Impact { value } } } }
          total(criteria: [gwp]) { embedded { value items } }
        }
      }`,
      {
        fleet: [
          { provider: "gcp", instanceType: "e2-highmem-8" },
          { provider: "gcp", instanceType: "c2d-standard-2", usage: { region: "europe-west9" } },
          { provider: "gcp", instanceType: "nope-1" },
        ],
      },
    );
    const fleet = answer.data.cloudInstances;
    expect(fleet.count).toBe(3);
    expect(fleet.failed).toBe(1);
    expect(fleet.items.map((i: { instanceType: string } | null) => i?.instanceType ?? null)).toEqual([
      "e2-highmem-8",
      "c2d-standard-2",
      null,
    ]);
    expect(answer.errors?.[0]?.path).toEqual(["cloudInstances", "items", 2]);
    const gwp = fleet.total[0].embedded;
    expect(gwp.items).toBe(2);
    const sum = fleet.items[0].impacts[0].embedded.value + fleet.items[1].impacts[0].embedded.value;
    expect(Math.abs(gwp.value - sum)).toBeLessThanOrEqual(0.06 * sum);
  });
});

describe("worked examples of docs/methodology.md §19 (§7.5, §7.6, §7.7, §14.3)", () => {
  const gwp = async (method: string, url: string, body?: unknown) =>
    (await call(app, method, url, body)).body.impacts.gwp;

  it("a1.4xlarge: Graviton die 456 mm², TDP-40 power range over 52560 h (§14.3)", async () => {
    const impact = await gwp(
      "GET",
      `/v1/cloud/instance?provider=aws&instance_type=a1.4xlarge&${V2}&verbose=false`,
    );
    expect(impact.embedded).toMatchObject({ value: 450, min: 265.5, max: 607 });
    expect(impact.use).toEqual({ value: 1000, min: 20.1, max: 4751 });
  });

  it("a1.medium in region eu-west-3: France's factor 0.098, min = max (§7.5)", async () => {
    const impact = await gwp("POST", `/v1/cloud/instance?${V2}&verbose=false`, {
      provider: "aws",
      instance_type: "a1.medium",
      usage: { region: "eu-west-3" },
    });
    expect(impact.use).toEqual({ value: 17, min: 5.354, max: 25.72 });
  });

  it("g5.xlarge: the platform's 8 GPUs allocated by the vCPU share 4/192, no GPU use (§7.6)", async () => {
    const answer = await call(
      app,
      "GET",
      `/v1/cloud/instance?provider=aws&instance_type=g5.xlarge&${V2}&criteria=gwp`,
    );
    const gpu = answer.body.verbose["GPU-1"];
    expect(gpu.impacts.gwp.embedded.value).toBeCloseTo(40.81, 2);
    expect(gpu.impacts.gwp.use).toBe("not implemented");
    expect(gpu.units).toMatchObject({ value: 8 });
  });

  it("r5ad.12xlarge: instance power and its range (§7.7)", async () => {
    const answer = await call(
      app,
      "GET",
      `/v1/cloud/instance?provider=aws&instance_type=r5ad.12xlarge&${V2}&criteria=gwp`,
    );
    expect(answer.body.impacts.gwp.use).toEqual({ value: 6000, min: 184.2, max: 24950 });
    const power = answer.body.verbose.avg_power;
    expect(power.value).toBeCloseTo(294.31038, 4);
    expect(power.min).toBeCloseTo(152.3331, 4);
    expect(power.max).toBeCloseTo(419.5056, 4);
  });
});
