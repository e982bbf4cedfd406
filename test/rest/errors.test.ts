/**
 * Error handling of the v1 REST shim: 404 for unknown archetypes and paths, 405 for unknown
 * methods, 422 for invalid bodies and query parameters — and never a 5xx for client input.
 */
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { call } from "../support/rest.js";

const app = sharedApp();
const get = (url: string) => call(app, "GET", url);
const post = (url: string, body: unknown) => call(app, "POST", url, body);

describe("unknown archetypes: 404 with the v1 detail", () => {
  it.each([
    "/v1/server/?archetype=nope",
    "/v1/component/cpu?archetype=nope",
    "/v1/component/ram?archetype=nope",
    "/v1/component/ssd?archetype=nope",
    "/v1/component/hdd?archetype=nope",
    "/v1/component/case?archetype=nope",
    "/v1/component/power_supply?archetype=nope",
    "/v1/server/archetype_config?archetype=nope",
    "/v1/component/cpu/archetype_config?archetype=nope",
    "/v1/component/case/archetype_config?archetype=DEFAULT",
  ])("GET %s", async (url) => {
    const archetype = new URL(url, "http://localhost").searchParams.get("archetype");
    expect(await get(url)).toEqual({ status: 404, body: { detail: `${archetype} not found` } });
  });

  it("POST with an unknown archetype", async () => {
    expect(await post("/v1/server/?archetype=nope", {})).toEqual({
      status: 404,
      body: { detail: "nope not found" },
    });
    expect(await post("/v1/component/ram?archetype=nope", { capacity: 8 })).toEqual({
      status: 404,
      body: { detail: "nope not found" },
    });
  });
});

describe("body validation: 422 in FastAPI's shape", () => {
  it('{"units": "abc"} on a component names the field', async () => {
    const { status, body } = await post("/v1/component/cpu", { units: "abc" });
    expect(status).toBe(422);
    expect(body.detail).toHaveLength(1);
    expect(body.detail[0].loc).toEqual(["body", "units"]);
    expect(typeof body.detail[0].msg).toBe("string");
    expect(typeof body.detail[0].type).toBe("string");
  });

  it('{"units": "abc"} inside a server configuration names the nested field', async () => {
    const { status, body } = await post("/v1/server/", { configuration: { cpu: { units: "abc" } } });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "configuration", "cpu", "units"]);
    const ram = await post("/v1/server/", { configuration: { ram: [{}, { capacity: "lots" }] } });
    expect(ram.status).toBe(422);
    expect(ram.body.detail[0].loc).toEqual(["body", "configuration", "ram", 1, "capacity"]);
  });

  it("unknown body keys are ignored", async () => {
    const reference = await post("/v1/server/?verbose=false", {});
    expect(await post("/v1/server/?verbose=false", { units: "abc", foo: { bar: 1 } })).toEqual(reference);
  });

  it("malformed JSON: 422", async () => {
    for (const url of ["/v1/server/", "/v1/component/cpu", "/v1/component/ram"]) {
      const { status, body } = await post(url, '{"usage": {');
      expect(status).toBe(422);
      expect(body.detail[0].loc).toEqual(["body"]);
    }
  });

  it("a non-object body: 422", async () => {
    for (const text of ["[]", "123", '"server"']) {
      expect((await post("/v1/server/", text)).status).toBe(422);
    }
  });

  it("an empty POST body is treated as {}", async () => {
    const server = await post("/v1/server/?verbose=false", "");
    expect(server.status).toBe(200);
    expect(server).toEqual(await post("/v1/server/?verbose=false", {}));
    const cpu = await post("/v1/component/cpu?verbose=false", "");
    expect(cpu).toEqual(await post("/v1/component/cpu?verbose=false", {}));
    const motherboard = await post("/v1/component/motherboard?verbose=false", "   ");
    expect(motherboard.status).toBe(200);
  });

  it.each([
    ["a negative avg_power", "/v1/server/", { usage: { avg_power: -1 } }],
    ["a negative component avg_power", "/v1/component/ssd", { usage: { avg_power: -10 } }],
    ["a workload of 150 %", "/v1/server/", { usage: { time_workload: 150 } }],
    ["a negative workload", "/v1/component/cpu", { usage: { time_workload: -1 } }],
    [
      "a workload share at 150 % load",
      "/v1/component/cpu",
      { usage: { time_workload: [{ time_percentage: 100, load_percentage: 150 }] } },
    ],
    ["negative units", "/v1/component/ram", { units: -2 }],
    ["negative CPU units in a server", "/v1/server/", { configuration: { cpu: { units: -1 } } }],
    ["a zero RAM density", "/v1/component/ram", { density: 0 }],
    ["a negative use time", "/v1/server/", { usage: { hours_use_time: -5 } }],
    ["a non-numeric workload", "/v1/server/", { usage: { time_workload: "abc" } }],
    ["a string model", "/v1/server/", { model: "x" }],
  ])("%s: 422", async (_label, url, body) => {
    const answer = await post(url, body);
    expect(answer.status).toBe(422);
    expect(Array.isArray(answer.body.detail)).toBe(true);
    expect(answer.body.detail[0].loc[0]).toBe("body");
  });

  // Errors raised by the GraphQL-side validation are reported with the v1 field names.
  it("the 422 loc of a negative avg_power names the v1 field", async () => {
    const { status, body } = await post("/v1/server/", { usage: { avg_power: -1 } });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "usage", "avg_power"]);
  });
});

describe("query validation", () => {
  it.each([
    ["/v1/server/?duration=-5", "duration"],
    ["/v1/server/?duration=abc", "duration"],
    ["/v1/server/?duration=", "duration"],
    ["/v1/server/?verbose=maybe", "verbose"],
    ["/v1/server/?criteria=all", "criteria"],
    ["/v1/server/?criteria=xyz", "criteria"],
    ["/v1/server/?criteria=gwp&criteria=nope", "criteria"],
    ["/v1/component/cpu?criteria=all", "criteria"],
    ["/v1/server/?allocation=foo", "allocation"],
    ["/v1/server/archetype_config", "archetype"],
    ["/v1/component/ram/archetype_config", "archetype"],
    ["/v1/utils/name_to_cpu", "cpu_name"],
  ])("GET %s: 422 on %s", async (url, parameter) => {
    const { status, body } = await get(url);
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["query", parameter]);
  });

  it("POST with a negative duration: 422", async () => {
    expect((await post("/v1/server/?duration=-1", {})).status).toBe(422);
    expect((await post("/v1/component/cpu?duration=-1", {})).status).toBe(422);
  });
});

describe("routing", () => {
  it.each(["DELETE", "PUT", "PATCH"])("%s on an impact route: 405", async (method) => {
    expect(await call(app, method, "/v1/server/")).toEqual({
      status: 405,
      body: { detail: "Method Not Allowed" },
    });
    expect((await call(app, method, "/v1/component/cpu")).status).toBe(405);
  });

  it("POST on a listing route: 405", async () => {
    expect((await post("/v1/server/archetypes", {})).status).toBe(405);
    expect((await post("/v1/utils/country_code", {})).status).toBe(405);
  });

  it.each(["/v1/nothing", "/v1/component/gpu", "/v1/server/extra", "/v2/server/", "/v1/utils/nope"])(
    "GET %s: 404",
    async (url) => {
      expect(await get(url)).toEqual({ status: 404, body: { detail: "Not Found" } });
    },
  );
});

describe("never a 5xx for client input", () => {
  const bodies: [string, unknown][] = [
    ["/v1/server/", "null"],
    ["/v1/server/", { configuration: null }],
    ["/v1/server/", { configuration: { ram: "x" } }],
    ["/v1/server/", { usage: { usage_location: 5 } }],
    ["/v1/server/", { usage: { time_workload: [] } }],
    ["/v1/server/", { usage: { hours_life_time: 0 } }],
    ["/v1/server/", { usage: { elec_factors: { gwp: -1 } } }],
    ["/v1/server/", { usage: { avg_power: "1e400" } }],
    ["/v1/server/", { configuration: { cpu: { family: "Graviton", core_units: 16 } } }],
    ["/v1/server/", { configuration: { cpu: { core_units: 0 } } }],
    ["/v1/server/", { configuration: { cpu: { name: "qqqq zzzz" } } }],
    ["/v1/server/", { configuration: { cpu: { tdp: 0 } } }],
    ["/v1/server/", { configuration: { ram: [{ manufacturer: "Samsung", process: 9999 }] } }],
    ["/v1/server/", { configuration: { disk: [{ manufacturer: "Samsung", layers: 9999 }] } }],
    ["/v1/server/", { configuration: { ram: [{ capacity: 0 }] } }],
    ["/v1/server/?criteria=fw&criteria=ctuh_c&criteria=CTUh_nc", {}],
    ["/v1/server/?duration=1e400", {}],
    ["/v1/component/cpu", { units: 1e12 }],
    ["/v1/component/cpu?criteria=fw", {}],
    ["/v1/component/motherboard", { usage: { avg_power: 10 } }],
    ["/v1/component/case", { case_type: "tower" }],
    ["/v1/component/ssd", { usage: { avg_power: 10, use_time_ratio: 0.5 } }],
  ];

  it.each(bodies)("POST %s %j", async (url, body) => {
    const { status } = await post(url, body);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(500);
  });

  it.each([
    "/v1/server/?archetype=",
    "/v1/server/?verbose=",
    "/v1/server/?criteria=",
    "/v1/component/motherboard",
    "/v1/component/motherboard/archetype_config?archetype=x",
    "/v1/component/cpu/archetype_config?archetype=",
    "/v1/utils/name_to_cpu?cpu_name=",
  ])("GET %s", async (url) => {
    const { status } = await get(url);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(500);
  });
});
