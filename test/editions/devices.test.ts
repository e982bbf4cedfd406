/**
 * Edition 2.4.1 for terminals, peripherals, VR devices, the consumption-profile route and the
 * route-level changes (docs/methodology.md §19.3.6, §9, §10.2, §11), each request choosing its edition
 * in one process (REST `edition` parameter, GraphQL `edition` argument).
 */
import { describe, expect, it } from "vitest";
import { powerAtLoad } from "../../src/engine/index.js";
import { sharedApp } from "../support/app.js";
import { ARCHETYPE_LIFETIME_HOURS } from "../support/fixtures.js";
import { graphqlClient } from "../support/graphql.js";
import { call } from "../support/rest.js";
import { GENERIC_DATA_WARNING as GENERIC } from "../support/warnings.js";

const app = sharedApp();
const graphql = graphqlClient(app);

const get = (url: string) => call(app, "GET", url);
const post = (url: string, body: unknown) => call(app, "POST", url, body);

describe("terminal and peripheral manufacturing impact is allocated in 2.4.1 (§3.6)", () => {
  it("monitor over one year: 64.7 × 8760 / 57816 in 2.4.1, the whole 64.7 in 1.2.4 (D.9)", async () => {
    const v2 = await get("/v1/peripheral/monitor?verbose=false&criteria=gwp&duration=8760&edition=2.4.1");
    const v1 = await get("/v1/peripheral/monitor?verbose=false&criteria=gwp&duration=8760&edition=1.2.4");
    expect(v2.body.impacts.gwp.embedded.value).toBeCloseTo((64.7 * 8760) / 57816, 3);
    expect(v2.body.impacts.gwp.embedded.value).toBe(9.803);
    expect(v1.body.impacts.gwp.embedded.value).toBe(64.7);
  });

  it("laptop over one year: 181 × 8760 / 35040 = 45.25; TOTAL allocation keeps 181", async () => {
    const linear = await get("/v1/terminal/laptop?verbose=false&criteria=gwp&duration=8760&edition=2.4.1");
    const total = await get(
      "/v1/terminal/laptop?verbose=false&criteria=gwp&duration=8760&allocation=TOTAL&edition=2.4.1",
    );
    expect(linear.body.impacts.gwp.embedded).toEqual({
      value: 45.25,
      min: 45.25,
      max: 45.25,
      warnings: [GENERIC],
    });
    expect(total.body.impacts.gwp.embedded.value).toBe(181);
  });

  it("a duration beyond the lifetime gives the whole impact", async () => {
    const { body } = await get(
      "/v1/terminal/laptop?verbose=false&criteria=gwp&duration=100000&edition=2.4.1",
    );
    expect(body.impacts.gwp.embedded.value).toBe(181);
  });

  it("verbose lifetime shows min/max when the ratio was computed, not beyond the lifetime (D.16)", async () => {
    const within = await get("/v1/terminal/laptop?criteria=gwp&duration=8760&edition=2.4.1");
    expect(within.body.verbose.hours_life_time).toEqual({
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "ARCHETYPE",
      unit: "hours",
      min: ARCHETYPE_LIFETIME_HOURS,
      max: ARCHETYPE_LIFETIME_HOURS,
    });
    const beyond = await get("/v1/terminal/laptop?criteria=gwp&duration=100000&edition=2.4.1");
    expect(beyond.body.verbose.hours_life_time).toEqual({
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "ARCHETYPE",
      unit: "hours",
    });
    // 1.2.4 never allocates, so with a given duration the lifetime is not even read.
    const v1 = await get("/v1/terminal/laptop?criteria=gwp&duration=8760&edition=1.2.4");
    expect(v1.body.verbose.hours_life_time).toBeUndefined();
  });

  it("an INPUT lifetime allocates by itself and never shows bounds", async () => {
    const { body } = await post("/v1/terminal/laptop?criteria=gwp&duration=8760&edition=2.4.1", {
      usage: { hours_life_time: 17520 },
    });
    expect(body.impacts.gwp.embedded.value).toBe(90.5);
    expect(body.verbose.hours_life_time).toEqual({ value: 17520, status: "INPUT", unit: "hours" });
  });
});

describe("VR headset and controller (§9.2)", () => {
  it("headset lcd by default: gwp 45.9 embedded, use 0.38 × 0.692 kW × 0.01 × 43800 h", async () => {
    const { status, body } = await get("/v1/terminal/vr_headset?verbose=false&criteria=gwp&edition=2.4.1");
    expect(status).toBe(200);
    expect(body.impacts.gwp.embedded).toEqual({ value: 45.9, min: 45.9, max: 45.9, warnings: [GENERIC] });
    // raw 115.18 (min 6.971, max 343.0): one significant figure above the rounding step of 33.6.
    expect(body.impacts.gwp.use).toEqual({ value: 120, min: 6.971, max: 343 });
  });

  it("headset type oled takes the oled factor, the power stays the lcd archetype's", async () => {
    const { body } = await post("/v1/terminal/vr_headset?verbose=false&criteria=gwp&edition=2.4.1", {
      type: "oled",
    });
    expect(body.impacts.gwp.embedded.value).toBe(89.4);
    expect(body.impacts.gwp.use.value).toBe(120);
  });

  it("headset: an unknown type is a 4xx naming the field (the reference fails with 500)", async () => {
    const { status, body } = await post("/v1/terminal/vr_headset?edition=2.4.1", { type: "plasma" });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "type"]);
  });

  it("headset: adp and pe embedded are not implemented (the factors have adpe, not adp)", async () => {
    const { body } = await get(
      "/v1/terminal/vr_headset?verbose=false&criteria=adp&criteria=adpe&edition=2.4.1",
    );
    expect(body.impacts.adp.embedded).toBe("not implemented");
    expect(body.impacts.adpe.embedded.value).toBe(0.00333);
  });

  it("controller: gwp 4.22 embedded, use 0.38 × 0.0079 kW × 0.01 × 43800 h = 1.315", async () => {
    const { body } = await get("/v1/peripheral/vr_controller?verbose=false&criteria=gwp&edition=2.4.1");
    expect(body.impacts.gwp.embedded.value).toBe(4.22);
    expect(body.impacts.gwp.use).toEqual({ value: 1.3, min: 0.07958, max: 3.916 });
  });

  it("listings: archetypes of the VR kinds, and the /all routes of each edition", async () => {
    expect((await get("/v1/terminal/vr_headset/archetypes?edition=2.4.1")).body).toEqual([
      "vr-headset-oled",
      "vr-headset-lcd",
    ]);
    expect((await get("/v1/peripheral/vr_controller/archetypes?edition=2.4.1")).body).toEqual([
      "vr-controller-default",
    ]);
    const v2 = (await get("/v1/terminal/all?edition=2.4.1")).body;
    const v1 = (await get("/v1/terminal/all?edition=1.2.4")).body;
    expect(Object.keys(v2)).toEqual([...Object.keys(v1), "vr_headset"]);
    expect(v2.vr_headset).toBe("v1/terminal/vr_headset");
    const peripherals = (await get("/v1/peripheral/all?edition=2.4.1")).body;
    expect(Object.keys(peripherals).at(-1)).toBe("vr_controller");
  });

  it("edition 1.2.4 has no VR devices: 404", async () => {
    expect((await get("/v1/terminal/vr_headset?edition=1.2.4")).status).toBe(404);
    expect((await get("/v1/peripheral/vr_controller/archetypes?edition=1.2.4")).status).toBe(404);
  });

  it("GraphQL: the VR kinds per edition, evaluated with the edition argument", async () => {
    const answer = await graphql(`{
      v2: terminal(kind: vr_headset, edition: V2_4_1, input: { type: "oled" }) {
        impacts(criteria: [gwp]) { embedded { ... on Impact { value } } }
      }
      kinds: terminalKinds(edition: V2_4_1)
      oldKinds: peripheralKinds(edition: V1_2_4)
    }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.v2.impacts[0].embedded.value).toBe(89.4);
    expect(answer.data.kinds).toContain("vr_headset");
    expect(answer.data.oldKinds).not.toContain("vr_controller");
    const old = await graphql(`{ peripheral(kind: vr_controller, edition: V1_2_4) { kind } }`);
    expect(old.errors?.[0].extensions?.code).toBe("NOT_FOUND");
  });

  it("GraphQL: a terminal over one year differs by edition (allocation)", async () => {
    const query = (edition: string) => `{
      terminal(kind: laptop, edition: ${edition}) {
        impacts(criteria: [gwp], duration: 8760) { embedded { ... on Impact { value } } }
      }
    }`;
    expect((await graphql(query("V2_4_1"))).data.terminal.impacts[0].embedded.value).toBe(45.25);
    expect((await graphql(query("V1_2_4"))).data.terminal.impacts[0].embedded.value).toBe(181);
  });
});

describe("consumption-profile route (§10.2)", () => {
  const profile = (body: unknown, edition: string) =>
    post(`/v1/consumption_profile/cpu?edition=${edition}`, body).then((answer) => answer.body);
  const DEFAULT = { a: 171.2, b: 0.0354, c: 36.89, d: -10.13 };
  const XEON_GOLD = { a: 35.5688, b: 0.2438, c: 9.6694, d: -0.6087 };

  it("an input TDP fits the four TDP points in 2.4.1; 1.2.4 ignores it (D.18)", async () => {
    const v2 = await profile({ cpu: { tdp: 100 } }, "2.4.1");
    expect(v2.a).toBeCloseTo(50.84794, 4);
    expect(v2.c).toBeCloseTo(20.4511, 4);
    // The TDP points are 12 %, 75 % and 102 % of the TDP at 0, 50 and 100 % load.
    expect(powerAtLoad(v2, 0)).toBeCloseTo(11.9253, 3);
    expect(powerAtLoad(v2, 50)).toBeCloseTo(74.8182, 3);
    expect(powerAtLoad(v2, 100)).toBeCloseTo(102.0893, 3);
    expect(await profile({ cpu: { tdp: 100 } }, "1.2.4")).toEqual(DEFAULT);
  });

  it("the matched name's TDP is used in 2.4.1 (i7-8700T, 35 W), not in 1.2.4", async () => {
    const v2 = await profile({ cpu: { name: "Intel Core i7-8700T" } }, "2.4.1");
    expect(v2.a).toBeCloseTo(17.79678, 4);
    expect(powerAtLoad(v2, 50)).toBeCloseTo(26.1864, 3);
  });

  it("a name without a TDP keeps its model range's row", async () => {
    expect(await profile({ cpu: { name: "intel xeon gold 6134" } }, "2.4.1")).toEqual(XEON_GOLD);
  });

  it("family overwrites the model range in 2.4.1 (D.12), is ignored in 1.2.4", async () => {
    expect(await profile({ cpu: { family: "Xeon Gold" } }, "2.4.1")).toEqual(XEON_GOLD);
    expect(await profile({ cpu: { family: "Xeon Gold" } }, "1.2.4")).toEqual(DEFAULT);
    expect(await profile({ cpu: { model_range: "Xeon Platinum", family: "Skylake" } }, "2.4.1")).toEqual(
      DEFAULT,
    );
  });

  it("a name matching no CPU gives the archetype default (both editions answer)", async () => {
    expect(await profile({ cpu: { name: "deijeijdiejdzij" } }, "2.4.1")).toEqual(DEFAULT);
    expect(await profile({ cpu: { name: "deijeijdiejdzij" } }, "1.2.4")).toEqual(DEFAULT);
  });

  it("GraphQL: tdp and family arguments per edition", async () => {
    const answer = await graphql(`{
      v2: consumptionProfile(edition: V2_4_1, cpu: { family: "Xeon Gold" }) { a source }
      v1: consumptionProfile(edition: V1_2_4, cpu: { family: "Xeon Gold" }) { a source }
      tdp: consumptionProfile(edition: V2_4_1, cpu: { tdp: 100 }) { source power(workload: 50) }
    }`);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.v2).toEqual({ a: 35.5688, source: "From CPU model range" });
    expect(answer.data.v1).toEqual({ a: 171.2, source: "Archetype default" });
    expect(answer.data.tdp.source).toBe("From TDP");
    expect(answer.data.tdp.power).toBeCloseTo(74.8182, 3);
  });
});

describe("route-level changes (§11)", () => {
  it("/v1/utils/version answers the edition's version (1.2.4 too, where the service adds the route)", async () => {
    expect(await get("/v1/utils/version?edition=2.4.1")).toEqual({ status: 200, body: "2.4.1" });
    expect(await get("/v1/utils/version?edition=1.2.4")).toEqual({ status: 200, body: "1.2.4" });
    const answer = await graphql(
      `{ a: version(edition: V1_2_4) { methodology } b: version(edition: V2_4_1) { methodology } }`,
    );
    expect(answer.data).toEqual({ a: { methodology: "1.2.4" }, b: { methodology: "2.4.1" } });
  });

  it("archetype ids are trimmed in 2.4.1, matched exactly in 1.2.4", async () => {
    const trimmed = await get(
      "/v1/server/?archetype=%20dellR740%20&verbose=false&criteria=gwp&edition=2.4.1",
    );
    const exact = await get("/v1/server/?archetype=dellR740&verbose=false&criteria=gwp&edition=2.4.1");
    expect(trimmed.status).toBe(200);
    expect(trimmed.body).toEqual(exact.body);
    const config = await get("/v1/terminal/laptop/archetype_config?archetype=laptop-pro%20&edition=2.4.1");
    expect(config.status).toBe(200);
    expect((await get("/v1/server/?archetype=%20dellR740%20&edition=1.2.4")).status).toBe(404);
    expect((await get("/v1/iot/iot_device?archetype=%20drone_mini&edition=1.2.4")).status).toBe(404);
    expect((await get("/v1/iot/iot_device?archetype=%20drone_mini&edition=2.4.1")).status).toBe(200);
  });

  it("IoT occupancy sensor: 2.4.1 allocates over 35040 h (the row's new lifetime)", async () => {
    const url = "/v1/iot/iot_device?archetype=occupancy_sensor&verbose=false&criteria=gwp&duration=8760";
    const v2 = (await get(`${url}&edition=2.4.1`)).body.impacts.gwp.embedded.value;
    const full = (
      await get("/v1/iot/iot_device?archetype=occupancy_sensor&verbose=false&criteria=gwp&edition=2.4.1")
    ).body.impacts.gwp.embedded.value;
    expect(v2).toBeCloseTo(full / 4, 2);
  });
});
