/**
 * Terminals, peripherals and IoT devices through yoga (docs/methodology.md §9, §18.6, §18.8, Appendix B).
 */
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { ARCHETYPE_LIFETIME_HOURS } from "../support/fixtures.js";
import { graphqlClient } from "../support/graphql.js";
import {
  IOT_DISTRIBUTION_WARNING as DISTRIBUTION,
  GENERIC_DATA_WARNING as GENERIC,
  IOT_SERVICES_WARNING as SERVICES,
  UNCERTAINTY_WARNING as UNCERTAINTY,
} from "../support/warnings.js";

const app = sharedApp();

const NOT_IMPLEMENTED = { __typename: "NotImplemented", reason: "not implemented" };

const graphql = graphqlClient(app);

const IMPACT = "__typename ... on Impact { value min max warnings } ... on NotImplemented { reason }";
const IMPACTS = `criterion unit embedded { ${IMPACT} } use { ${IMPACT} }`;

function impact(value: number, min: number, max: number, warnings: string[] = []) {
  return { __typename: "Impact", value, min, max, warnings };
}

describe("terminal", () => {
  it("terminal(kind: laptop): §18.6", async () => {
    const { status, data, errors } = await graphql(
      `{ terminal(kind: laptop) { archetype family kind impacts { ${IMPACTS} } } }`,
    );
    expect(status).toBe(200);
    expect(errors).toBeUndefined();
    const laptop = data.terminal;
    expect(laptop).toMatchObject({ archetype: "laptop-pro", family: "terminal", kind: "laptop" });
    const [gwp, adp, pe] = laptop.impacts;
    expect(gwp).toEqual({
      criterion: "gwp",
      unit: "kgCO2eq",
      embedded: impact(181, 181, 181, [GENERIC]),
      use: impact(300, 12.09, 1190),
    });
    // No adp / pe entries in the terminal factors: embedded not implemented.
    expect(adp.embedded).toEqual(NOT_IMPLEMENTED);
    expect(adp.use).toEqual(impact(5e-5, 6.959e-6, 0.0002792));
    expect(pe.embedded).toEqual(NOT_IMPLEMENTED);
    expect(pe.use).toEqual(impact(10000, 6.833, 492100));
  });

  it("criteria ir: embedded 73.6, use {900, 0.05643, 3446}", async () => {
    const { data } = await graphql(`{ terminal(kind: laptop) { impacts(criteria: [ir]) { ${IMPACTS} } } }`);
    expect(data.terminal.impacts[0].embedded).toMatchObject({ value: 73.6, min: 73.6, max: 73.6 });
    expect(data.terminal.impacts[0].use).toMatchObject({ value: 900, min: 0.05643, max: 3446 });
  });

  it("the type selects the factor (perso 175); a type the factor lacks is BAD_USER_INPUT", async () => {
    const perso = await graphql(
      `{ terminal(kind: laptop, input: {type: "perso"}) { impacts(criteria: [gwp]) { ${IMPACTS} } } }`,
    );
    expect(perso.errors).toBeUndefined();
    expect(perso.data.terminal.impacts[0].embedded).toMatchObject({ value: 175 });
    const gaming = await graphql(`{ terminal(kind: laptop, input: {type: "gaming"}) { archetype } }`);
    expect(gaming.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(gaming.errors?.[0].extensions?.field).toEqual(["input", "type"]);
    const phone = await graphql(`{ terminal(kind: smartphone, input: {type: "pro"}) { archetype } }`);
    expect(phone.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("embedded is not allocated over a duration; use scales with it", async () => {
    const { data } = await graphql(`{
      terminal(kind: laptop) { impacts(criteria: [gwp], duration: 3504) { ${IMPACTS} } }
    }`);
    expect(data.terminal.impacts[0].embedded).toMatchObject({ value: 181, min: 181, max: 181 });
    // 0.38 × 0.075 × 0.3 × 3504 = 29.9592 (1.20888, 118.9548).
    expect(data.terminal.impacts[0].use).toMatchObject({ min: 1.209, max: 119 });
  });

  it("verbose: duration, type and usage attributes, no components", async () => {
    const { data, errors } = await graphql(`{
      terminal(kind: laptop) { verbose { duration components { key } attributes { name value status unit } } }
    }`);
    expect(errors).toBeUndefined();
    const verbose = data.terminal.verbose;
    expect(verbose.duration).toBe(ARCHETYPE_LIFETIME_HOURS);
    expect(verbose.components).toEqual([]);
    const byName = new Map(
      verbose.attributes.map((a: { name: string; value: unknown; status: string }) => [a.name, a]),
    );
    expect(byName.get("type")).toMatchObject({ value: "pro", status: "ARCHETYPE" });
    expect(byName.get("avg_power")).toMatchObject({ value: 75, status: "ARCHETYPE", unit: "W" });
    expect(byName.get("hours_life_time")).toMatchObject({
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "ARCHETYPE",
    });
    expect(byName.get("units")).toMatchObject({ value: 1, status: "ARCHETYPE" });
  });

  it("an unknown archetype is NOT_FOUND", async () => {
    const { errors } = await graphql(`{ terminal(kind: laptop, archetype: "nope") { archetype } }`);
    expect(errors?.[0].extensions?.code).toBe("NOT_FOUND");
    expect(errors?.[0].path).toEqual(["terminal"]);
    expect(errors?.[0].message).toContain("nope");
  });

  it("terminalArchetypes lists the rows of a kind", async () => {
    const { data } = await graphql(
      "{ laptop: terminalArchetypes(kind: laptop) box: terminalArchetypes(kind: box) }",
    );
    expect(data.laptop).toEqual(["laptop-pro", "laptop-perso"]);
    expect(data.box).toEqual(["box-default"]);
  });
});

describe("peripheral", () => {
  it("peripheral(kind: monitor): 64.7 embedded, use of 55 W (20–100) × 0.3 over 57816 h", async () => {
    const { data, errors } = await graphql(
      `{ peripheral(kind: monitor) { archetype family kind impacts(criteria: [gwp, adp, adpe]) { ${IMPACTS} } } }`,
    );
    expect(errors).toBeUndefined();
    const monitor = data.peripheral;
    expect(monitor).toMatchObject({ archetype: "monitor-default", family: "peripheral", kind: "monitor" });
    const [gwp, adp, adpe] = monitor.impacts;
    expect(gwp.embedded).toEqual(impact(64.7, 64.7, 64.7, [GENERIC]));
    const hours = 0.3 * 57816;
    // EEE gwp factor 0.38 (0.023–1.13161) kg/kWh.
    const raw = { value: 0.38 * 0.055 * hours, min: 0.023 * 0.02 * hours, max: 1.13161 * 0.1 * hours };
    expect(raw.value).toBeCloseTo(362.5063, 3);
    expect(gwp.use).toEqual(impact(400, 7.979, 1963));
    expect(gwp.use.min).toBeCloseTo(raw.min, 2);
    expect(gwp.use.max).toBeCloseTo(raw.max, -1);
    expect(adp.embedded).toEqual(NOT_IMPLEMENTED);
    expect(adpe.embedded).toEqual(impact(0.0108, 0.0108, 0.0108, [GENERIC]));
  });

  it("a posted lifetime is the duration; embedded stays whole", async () => {
    const { data } = await graphql(`{
      peripheral(kind: external_hdd, input: {usage: {hoursLifeTime: 20000}}) { impacts(criteria: [gwp]) { ${IMPACTS} } }
    }`);
    expect(data.peripheral.impacts[0].embedded).toMatchObject({ value: 15.8 });
    expect(data.peripheral.impacts[0].use).toMatchObject({ value: 3, min: 0.1495, max: 10.18 });
  });

  it("peripheralArchetypes", async () => {
    const { data } = await graphql("{ peripheralArchetypes(kind: usb_stick) }");
    expect(data.peripheralArchetypes).toEqual(["usb-stick-default"]);
  });
});

describe("iotDevice", () => {
  it('iotDevice(archetype: "drone_mini"): gwp embedded 15.37 (10 blocks), use not implemented', async () => {
    const { data, errors } = await graphql(
      `{ iotDevice(archetype: "drone_mini") { archetype impacts(criteria: [gwp, adp, pe]) { ${IMPACTS} } } }`,
    );
    expect(errors).toBeUndefined();
    expect(data.iotDevice.archetype).toBe("drone_mini");
    const [gwp, adp, pe] = data.iotDevice.impacts;
    // 2.081 + 0.5222 + 0.258011 + 0.27901 + 2.0693 + 0.646 + 5.0357 + 3.530077 + 0.796036 + 0.15054.
    expect(gwp.embedded).toEqual(impact(15.37, 15.37, 15.37, [SERVICES, DISTRIBUTION]));
    expect(gwp.use).toEqual(NOT_IMPLEMENTED);
    // No adp in the IoT factors.
    expect(adp.embedded).toEqual(NOT_IMPLEMENTED);
    expect(pe.embedded).toMatchObject({ __typename: "Impact" });
  });

  it("drone_mini verbose: one block per archetype level, in column order", async () => {
    const { data, errors } = await graphql(`{
      iotDevice(archetype: "drone_mini") { verbose(criteria: [gwp]) { duration components { key } } }
    }`);
    expect(errors).toBeUndefined();
    expect(data.iotDevice.verbose.duration).toBe(ARCHETYPE_LIFETIME_HOURS);
    expect(data.iotDevice.verbose.components.map((c: { key: string }) => c.key)).toEqual([
      "ACTUATORS-1",
      "CASING-1",
      "CONNECTIVITY-1",
      "MEMORY-1",
      "OTHERS-1",
      "PCB-1",
      "POWER_SUPPLY-1",
      "PROCESSING-1",
      "SENSING-1",
      "USER_INTERFACE-1",
    ]);
  });

  it("the default device has no block: 0 for every criterion, adp included, with the uncertainty warning", async () => {
    const { data, errors } = await graphql(
      `{ iotDevice { archetype impacts(criteria: [gwp, adp]) { ${IMPACTS} } } }`,
    );
    expect(errors).toBeUndefined();
    expect(data.iotDevice.archetype).toBe("iot-device-default");
    for (const criterion of data.iotDevice.impacts) {
      expect(criterion.embedded).toMatchObject({ value: 0, min: 0, max: 0 });
      expect([...criterion.embedded.warnings].sort()).toEqual([SERVICES, DISTRIBUTION, UNCERTAINTY].sort());
      expect(criterion.use).toEqual(NOT_IMPLEMENTED);
    }
  });

  it("an average power gives a use phase", async () => {
    const { data, errors } = await graphql(`{
      iotDevice(archetype: "drone_mini", input: {usage: {avgPower: 1, usageLocation: "FRA"}}) {
        impacts(criteria: [gwp]) { ${IMPACTS} }
      }
    }`);
    expect(errors).toBeUndefined();
    // 0.098 kg/kWh × 0.001 kW × 35040 h = 3.43392.
    expect(data.iotDevice.impacts[0].use).toMatchObject({ value: 3.434, min: 3.434, max: 3.434 });
  });

  it("functional blocks replace the archetype's", async () => {
    const { data, errors } = await graphql(`{
      iotDevice(archetype: "drone_mini", input: {functionalBlocks: [{type: "casing", hslLevel: "HSL-1"}]}) {
        impacts(criteria: [gwp]) { ${IMPACTS} }
      }
    }`);
    expect(errors).toBeUndefined();
    expect(data.iotDevice.impacts[0].embedded).toMatchObject({ value: 0.5222, min: 0.5222, max: 0.5222 });
  });

  it("an unknown archetype is NOT_FOUND; an unknown block type is BAD_USER_INPUT", async () => {
    const unknown = await graphql(`{ iotDevice(archetype: "nope") { archetype } }`);
    expect(unknown.errors?.[0].extensions?.code).toBe("NOT_FOUND");
    const block = await graphql(`{
      iotDevice(input: {functionalBlocks: [{type: "warp_drive"}]}) { impacts { criterion } }
    }`);
    expect(block.errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
  });
});
