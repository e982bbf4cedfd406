/**
 * The v1 terminal, peripheral and IoT routes through the REST shim (docs/methodology.md §9, §16).
 */
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { ARCHETYPE_LIFETIME_HOURS } from "../support/fixtures.js";
import {
  IOT_DISTRIBUTION_WARNING as DISTRIBUTION,
  GENERIC_DATA_WARNING as GENERIC,
  IOT_SERVICES_WARNING as SERVICES,
  UNCERTAINTY_WARNING as UNCERTAINTY,
} from "../support/warnings.js";

const app = sharedApp();

// biome-ignore lint/suspicious/noExplicitAny: v1 JSON answers are checked field by field
type Json = any;

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const answer = await app.rest({ method, url, body: body === undefined ? "" : JSON.stringify(body) });
  return { status: answer.status, body: answer.body };
}

describe("terminals", () => {
  it("POST /v1/terminal/laptop with {} (§18.6)", async () => {
    const { status, body } = await call("POST", "/v1/terminal/laptop", {});
    expect(status).toBe(200);
    const { gwp, adp, pe } = body.impacts;
    expect(gwp.embedded).toEqual({ value: 181, min: 181, max: 181, warnings: [GENERIC] });
    expect(gwp.use).toEqual({ value: 300, min: 12.09, max: 1190 });
    expect(adp.embedded).toBe("not implemented");
    expect(adp.use).toEqual({ value: 5e-5, min: 6.959e-6, max: 0.0002792 });
    expect(pe.embedded).toBe("not implemented");
    expect(pe.use).toEqual({ value: 10000, min: 6.833, max: 492100 });
    expect(body.verbose.duration).toEqual({ value: ARCHETYPE_LIFETIME_HOURS, unit: "hours" });
    expect(body.verbose.hours_life_time).toEqual({
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "ARCHETYPE",
      unit: "hours",
    });
    expect(body.verbose.type).toEqual({ value: "pro", status: "ARCHETYPE" });
    expect(body.verbose.units).toEqual({ value: 1, status: "ARCHETYPE", min: 1, max: 1 });
  });

  it("?criteria=ir on the laptop", async () => {
    const { body } = await call("POST", "/v1/terminal/laptop?criteria=ir&verbose=false", {});
    expect(body.impacts.ir.embedded.value).toBe(73.6);
    expect(body.impacts.ir.use).toEqual({ value: 900, min: 0.05643, max: 3446 });
  });

  it("GET smartphone: flat factors, no type in verbose", async () => {
    const { body } = await call("GET", "/v1/terminal/smartphone");
    expect(body.impacts.gwp.embedded.value).toBe(84);
    expect(body.impacts.gwp.use).toEqual({ value: 2, min: 0.07555, max: 22.3 });
    expect(body.verbose.type).toBeUndefined();
  });

  it("GET desktop criteria=lu: negative embedded, use not implemented", async () => {
    const { body } = await call("GET", "/v1/terminal/desktop?criteria=lu&verbose=false");
    expect(body.impacts.lu.embedded.value).toBe(-101);
    expect(body.impacts.lu.use).toBe("not implemented");
  });

  it("a posted type selects the factor; an unknown type is a 422 naming `type`", async () => {
    const perso = await call("POST", "/v1/terminal/desktop?verbose=false", { type: "perso" });
    expect(perso.body.impacts.gwp.embedded.value).toBe(277);
    const gaming = await call("POST", "/v1/terminal/laptop", { type: "gaming" });
    expect(gaming.status).toBe(422);
    expect(gaming.body.detail[0].loc).toEqual(["body", "type"]);
  });

  it("a posted lifetime is the duration; embedded stays whole", async () => {
    const { body } = await call("POST", "/v1/peripheral/external_hdd?verbose=false", {
      usage: { hours_life_time: 20000 },
    });
    expect(body.impacts.gwp.embedded.value).toBe(15.8);
    expect(body.impacts.gwp.use).toEqual({ value: 3, min: 0.1495, max: 10.18 });
  });

  it("a row without lifetime answers embedded and no use without a duration", async () => {
    const { status, body } = await call("GET", "/v1/peripheral/monitor?archetype=smartwatch-default");
    expect(status).toBe(200);
    expect(body.impacts.gwp.embedded.value).toBe(64.7);
    expect(body.impacts.gwp.use).toBe("not implemented");
  });

  it("rejects a negative power and unknown archetypes; smartwatch is not a route", async () => {
    expect((await call("POST", "/v1/terminal/laptop", { usage: { avg_power: -5 } })).status).toBe(422);
    expect(await call("GET", "/v1/terminal/laptop?archetype=nope")).toEqual({
      status: 404,
      body: { detail: "nope not found" },
    });
    expect((await call("GET", "/v1/terminal/smartwatch")).status).toBe(404);
  });
});

describe("IoT devices", () => {
  it("GET drone_mini: sum of its blocks with the IoT warnings", async () => {
    const { body } = await call("GET", "/v1/iot/iot_device?archetype=drone_mini");
    expect(body.impacts.gwp.embedded).toEqual({
      value: 15.37,
      min: 15.37,
      max: 15.37,
      warnings: [SERVICES, DISTRIBUTION],
    });
    expect(body.impacts.adp.embedded).toBe("not implemented");
    expect(body.verbose["ACTUATORS-1"].hsl_level).toEqual({
      value: "HSL-3",
      status: "ARCHETYPE",
      unit: "none",
    });
    expect(body.verbose["ACTUATORS-1"].impacts.gwp.embedded).toEqual({
      value: 2.081,
      min: 2.081,
      max: 2.081,
    });
  });

  it("the default device has zero impacts", async () => {
    const { body } = await call("GET", "/v1/iot/iot_device?verbose=false");
    for (const name of ["gwp", "adp", "pe"]) {
      expect(body.impacts[name].embedded).toEqual({
        value: 0,
        min: 0,
        max: 0,
        warnings: [SERVICES, DISTRIBUTION, UNCERTAINTY],
      });
      expect(body.impacts[name].use).toBe("not implemented");
    }
  });

  it("posted blocks and power", async () => {
    const { body } = await call("POST", "/v1/iot/iot_device?verbose=false&criteria=gwp", {
      functional_blocks: [{ type: "casing", hsl_level: "HSL-2" }],
      usage: { avg_power: 2, usage_location: "FRA" },
    });
    expect(body.impacts.gwp.embedded.value).toBe(4.179);
    expect(body.impacts.gwp.use).toEqual({ value: 6.868, min: 6.868, max: 6.868 });
  });

  it("rejects malformed and unknown blocks", async () => {
    expect((await call("POST", "/v1/iot/iot_device", { functional_blocks: "casing" })).status).toBe(422);
    const antenna = await call("POST", "/v1/iot/iot_device", {
      functional_blocks: [{ type: "antenna", hsl_level: "HSL-1" }],
    });
    expect(antenna.status).toBe(422);
    expect((await call("GET", "/v1/iot/iot_device?archetype=nope")).status).toBe(404);
  });
});

describe("listings", () => {
  it("/all objects", async () => {
    expect((await call("GET", "/v1/terminal/all")).body).toEqual({
      laptop: "v1/terminal/laptop",
      desktop: "v1/terminal/desktop",
      smartphone: "v1/terminal/smartphone",
      television: "v1/terminal/television",
      tablet: "v1/terminal/tablet",
      box: "v1/terminal/box",
    });
    expect(Object.keys((await call("GET", "/v1/peripheral/all")).body)).toEqual([
      "monitor",
      "usb_stick",
      "external_ssd",
      "external_hdd",
    ]);
  });

  it("archetypes per kind and archetype configs of any row", async () => {
    expect((await call("GET", "/v1/terminal/laptop/archetypes")).body).toEqual([
      "laptop-pro",
      "laptop-perso",
    ]);
    expect((await call("GET", "/v1/terminal/television/archetypes")).body).toEqual(["tv-pro", "tv-perso"]);
    const config = await call("GET", "/v1/peripheral/monitor/archetype_config?archetype=smartwatch-default");
    expect(config.body.USAGE.hours_life_time).toEqual({});
    expect(config.body.device_type).toEqual({ default: "smartwatch" });
    expect((await call("GET", "/v1/terminal/laptop/archetype_config")).status).toBe(422);
    expect((await call("GET", "/v1/terminal/laptop/archetype_config?archetype=nope")).status).toBe(404);
  });

  it("IoT archetypes and configs", async () => {
    expect((await call("GET", "/v1/iot/iot_device/archetypes")).body).toEqual([
      "occupancy_sensor",
      "home_connected_assistant_mini",
      "drone_mini",
      "smart_watch",
      "iot-device-default",
    ]);
    const config = await call("GET", "/v1/iot/iot_device/archetype_config?archetype=drone_mini");
    expect(config.body.ACTUATORS).toEqual({ hsl_level: { default: "HSL-3" } });
    expect(config.body.USAGE.hours_life_time).toEqual({ default: ARCHETYPE_LIFETIME_HOURS });
  });
});
