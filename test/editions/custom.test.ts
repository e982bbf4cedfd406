/**
 * Custom editions (EDITIONS_FILE, docs/own-data.md): boaviztapi's own test data sets
 * (test/fixtures/, copies of ../shared/reference-data/*-testdata) served beside the built-in
 * editions, chosen per request, listed, answered on their own tables; a folder's missing files are
 * the base's very table objects.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/main.js";
import { EDITION_IDS, EDITIONS } from "../../src/editions/index.js";
import { lazyApp, testConfig } from "../support/app.js";
import { permitted } from "../support/editions.js";
import { graphqlClient } from "../support/graphql.js";
import { call, EOL } from "../support/rest.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/", import.meta.url));

// A folder holding only an AWS table of two instance types (the rest is the base's, shared).
const scratch = mkdtempSync(join(tmpdir(), "editions-"));
mkdirSync(join(scratch, "archetypes/cloud"), { recursive: true });
writeFileSync(
  join(scratch, "archetypes/cloud/aws.csv"),
  "id,vcpu,memory,ssd_storage,hdd_storage,gpu_units,platform,source\n" +
    "acme.small,2,8,0,0,0,dellR740,ours\n" +
    "acme.large,8,32,0,0,0,dellR740,ours\n",
);
const editionsFile = join(scratch, "editions.yml");
writeFileSync(
  editionsFile,
  [
    "editions:",
    "  - id: testdata-1.2.4",
    `    base: "1.2.4"`,
    `    data: ${join(FIXTURES, "testdata-1.2.4")}`,
    "  - id: testdata-2.4.1",
    `    base: "2.4.1"`,
    `    data: ${join(FIXTURES, "testdata-2.4.1")}`,
    "    settings:",
    "      default_server: DEFAULT",
    "      default_case: DEFAULT",
    "      cpu_name_fuzzymatch_threshold: 60",
    "      gpu_name_fuzzymatch_threshold: 60",
    "      cloud_instance_name_fuzzymatch_threshold: 80",
    "  - id: acme",
    "    base: 1.2.4",
    "    data: .",
    "    settings:",
    "      default_cloud_instance: acme.small",
    "",
  ].join("\n"),
);

const config = testConfig({ EDITIONS_FILE: editionsFile });
const app = lazyApp(() => createApp(config));
const graphql = graphqlClient(app);

describe("custom editions from EDITIONS_FILE", () => {
  it("are listed with their base, data folder and methodology (REST and GraphQL)", async () => {
    const expected = [
      ...EDITIONS.map((edition) => ({
        id: edition.id,
        base: null,
        data: null,
        methodology: edition.rules.version,
      })),
      { id: "testdata-1.2.4", base: "1.2.4", data: join(FIXTURES, "testdata-1.2.4"), methodology: "1.2.4" },
      { id: "testdata-2.4.1", base: "2.4.1", data: join(FIXTURES, "testdata-2.4.1"), methodology: "2.4.1" },
      // A relative folder is read from the EDITIONS_FILE's folder.
      { id: "acme", base: "1.2.4", data: scratch, methodology: "1.2.4" },
    ];
    expect((await call(app, "GET", "/v1/utils/editions")).body).toEqual(expected);
    const { data, errors } = await graphql(`{ editions { id base data methodology } }`);
    expect(errors).toBeUndefined();
    expect(data.editions).toEqual(expected);
  });

  it("/v1/utils/version gives the base's methodology version", async () => {
    expect((await call(app, "GET", "/v1/utils/version?edition=testdata-2.4.1")).body).toBe("2.4.1");
    expect((await call(app, "GET", "/v1/utils/version?edition=acme")).body).toBe("1.2.4");
  });

  it("an unknown edition is a 422 naming every served edition, custom ones included", async () => {
    const answer = await call(app, "GET", "/v1/utils/version?edition=acme2");
    expect(answer.status).toBe(422);
    expect(answer.body.detail[0].loc).toEqual(["query", "edition"]);
    // In the default edition's dialect (1.2.4: pydantic 1's enumeration refusal).
    const served = [...EDITION_IDS, "testdata-1.2.4", "testdata-2.4.1", "acme"];
    expect(answer.body.detail[0]).toEqual({
      loc: ["query", "edition"],
      msg: `value is not a valid enumeration member; permitted: ${permitted(served)}`,
      type: "type_error.enum",
      ctx: { enum_values: served },
    });
  });

  it("GraphQL names a custom edition by its id; the former enum literals and variables keep working", async () => {
    const { data, errors } = await graphql(
      `query ($e: Edition) {
        custom: cloudInstanceTypes(provider: "aws", edition: "acme")
        old: cloudProviders(edition: V2_4_1) { name }
        byId: cloudProviders(edition: "1.2.4") { name }
        variable: cloudProviders(edition: $e) { name }
      }`,
      { e: "V2_4_1" },
    );
    expect(errors).toBeUndefined();
    expect(data.custom).toEqual(["acme.small", "acme.large"]);
    expect(data.old).toHaveLength(5);
    expect(data.byId).toEqual([{ name: "aws" }]);
    expect(data.variable).toHaveLength(5);
    const unknown = await graphql(`{ cloudProviders(edition: "nope") { name } }`);
    expect(unknown.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(unknown.errors?.[0].message).toBe(
      `unknown edition "nope"; allowed values: ${[...EDITION_IDS, "testdata-1.2.4", "testdata-2.4.1", "acme"].join(", ")}`,
    );
  });

  it("a table the folder lacks is the base's object; a table it has replaces the base's", () => {
    const acme = app.service.editions.get("acme")?.data;
    const base = app.service.editions.get("1.2.4")?.data;
    expect(acme?.archetypes.server).toBe(base?.archetypes.server);
    expect(acme?.cpuSpecs).toBe(base?.cpuSpecs);
    expect(acme?.factors).toBe(base?.factors);
    // Its settings are the base's with its own default instance type.
    expect(acme?.config).toEqual({
      ...base?.config,
      defaultArchetypes: { ...base?.config.defaultArchetypes, cloud_instance: "acme.small" },
    });
    expect(acme?.cloudInstances.get("aws")).not.toBe(base?.cloudInstances.get("aws"));
    expect(acme?.cloudInstances.get("aws")?.ids).toEqual(["acme.small", "acme.large"]);
  });
});

describe("boaviztapi's test data sets, answered as boaviztapi answers on them", () => {
  it("the default server is the test data's DEFAULT row (CPU units 2;1;16)", async () => {
    for (const edition of ["testdata-1.2.4", "testdata-2.4.1"]) {
      const { status, body } = await call(app, "GET", `/v1/server/?criteria=gwp&edition=${edition}`);
      expect(status).toBe(200);
      expect(body.verbose["CPU-1"].units).toEqual({ value: 2, status: "ARCHETYPE", min: 1, max: 16 });
    }
    // The production default (platform_compute_medium) is another row.
    const production = await call(app, "GET", "/v1/server/?criteria=gwp&edition=1.2.4");
    expect(production.body.verbose["CPU-1"].units).not.toEqual({
      value: 2,
      status: "ARCHETYPE",
      min: 1,
      max: 16,
    });
  });

  it("the test data's rounded electricity bounds reach the answers", async () => {
    // CPU use, 100 W for 1,000 h at the default location EEE (docs/methodology.md §5): value with
    // EEE's gwp factor 0.38, min and max with the global bounds of factors.yml `min-max`:
    // test data 0.023 / 0.9 → 0.1 kW × 1000 h × (0.38, 0.023, 0.9) = 38, 2.3, 90 (Δ = 8.77,
    // rounded at units); the published data's max is 1.13161 → 113.161 → 113.2 (4 figures).
    const body = { usage: { avg_power: 100 } };
    const url = "/v1/component/cpu?verbose=false&criteria=gwp&duration=1000&edition=";
    const test = await call(app, "POST", `${url}testdata-1.2.4`, body);
    expect(test.body.impacts.gwp.use).toEqual({ value: 38, min: 2.3, max: 90 });
    const published = await call(app, "POST", `${url}1.2.4`, body);
    expect(published.body.impacts.gwp.use).toEqual({ value: 40, min: 2.3, max: 113.2 });
  });

  it("its few instance types are the only ones listed", async () => {
    const gcp = await call(
      app,
      "GET",
      "/v1/cloud/instance/all_instances?provider=gcp&edition=testdata-2.4.1",
    );
    // The test data's single GCP row, its id as written (with a trailing blank).
    expect(gcp.body).toEqual(["c3-standard-192-metal "]);
    const aws = await call(
      app,
      "GET",
      "/v1/cloud/instance/all_instances?provider=aws&edition=testdata-1.2.4",
    );
    expect(aws.body).toHaveLength(966);
    const providers = await call(app, "GET", "/v1/cloud/instance/all_providers?edition=testdata-2.4.1");
    expect(providers.body).toEqual(["aws", "azure", "gcp", "ovhcloud", "scaleway"]);
  });

  it("an inherited default the data lacks answers 404 as the reference's (no VR rows in the 2.4.1 test data)", async () => {
    const answer = await call(app, "GET", "/v1/terminal/vr_headset?edition=testdata-2.4.1");
    // The reference's detail, and which served editions have the row (the built-ins with VR devices).
    const withVr = EDITIONS.filter((edition) => edition.features.vrDevices).map((edition) => edition.id);
    expect(withVr).toContain("2.4.1");
    expect(answer).toEqual({
      status: 404,
      body: { detail: `vr-headset-lcd not found (exists in edition ${withVr.join(", ")})` },
    });
  });

  it("the RAM archetype is the test data's (capacity 32;1;100, density 0.625;0.1;1)", async () => {
    const { body } = await call(app, "GET", "/v1/component/ram?criteria=gwp&edition=testdata-1.2.4");
    expect(body.verbose.capacity).toMatchObject({ value: 32, min: 1, max: 100 });
    expect(body.verbose.density).toMatchObject({ value: 0.625, min: 0.1, max: 1 });
    expect(body.impacts.gwp.embedded.warnings).toEqual([EOL]);
  });

  // The test data's DEFAULT CPU archetype has a model range (Xeon Platinum) and its own parameters
  // {171.2, 0.0354, 36.89, -10.13}; its cpu_profile.csv's Xeon Platinum row is {171.1813, 0.0354,
  // 36.8953, -10.1336}. boaviztapi 2.5.0 on that data (run here on 2026-11-27) answers the row for
  // {"cpu": {}}, {"cpu": {"name": "foobar"}} and {"cpu": {"manufacturer": "AMD"}}.
  it("the profile route's CPU is completed from the default CPU archetype: its model range's profile (2.4.1)", async () => {
    const row = { a: 171.1813, b: 0.0354, c: 36.8953, d: -10.1336 };
    for (const body of [{ cpu: {} }, { cpu: { name: "foobar" } }, { cpu: { manufacturer: "AMD" } }]) {
      const answer = await call(app, "POST", "/v1/consumption_profile/cpu?edition=testdata-2.4.1", body);
      expect(answer, JSON.stringify(body)).toEqual({ status: 200, body: row });
    }
    // boaviztapi's own API test (tests/api/test_cp.py, test_complete_invalid_cpu_returns_default):
    // name "foobar", each parameter within a relative 0.001 of (171.1813, 0.0354, 36.89, -10.13).
    const { body } = await call(app, "POST", "/v1/consumption_profile/cpu?edition=testdata-2.4.1", {
      cpu: { name: "foobar" },
    });
    const expected = [171.1813, 0.0354, 36.89, -10.13];
    [body.a, body.b, body.c, body.d].forEach((value: number, index: number) => {
      expect(Math.abs(value - expected[index])).toBeLessThanOrEqual(0.001 * Math.abs(expected[index]));
    });
    // 1.2.4 takes the model range from the body and the name only (docs/methodology.md §10.4).
    const old = await call(app, "POST", "/v1/consumption_profile/cpu?edition=testdata-1.2.4", { cpu: {} });
    expect(old.body).toEqual({ a: 171.2, b: 0.0354, c: 36.89, d: -10.13 });
  });
});
