/**
 * The GraphQL API through yoga's fetch: server and component impacts, laziness (only the selected
 * criteria and phases are computed), verbose, and error reporting.
 */
import { print } from "graphql";
import { afterEach, describe, expect, it, vi } from "vitest";
import { Server } from "../../src/engine/assets/server.js";
import { Component } from "../../src/engine/components/component.js";
import { Evaluation } from "../../src/engine/model/evaluation.js";
import { ServerImpactsDocument } from "../../src/rest/generated/graphql.js";
import { componentImpactsDocument } from "../../src/rest/routes/components.js";
import { sharedApp } from "../support/app.js";
import { END_OF_LIFE, GENERIC_DATA, UNCERTAINTY } from "../support/engine.js";
import { ARCHETYPE_LIFETIME_HOURS } from "../support/fixtures.js";
import { graphqlClient } from "../support/graphql.js";
import { COMPLETE_CONFIGURATION } from "../support/servers.js";
import { LOCATION_NOT_FOUND } from "../support/warnings.js";

const app = sharedApp();

const graphql = graphqlClient(app);

const IMPACT = `__typename ... on Impact { value min max warnings } ... on NotImplemented { reason }`;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("server impacts", () => {
  it("answers §18.4 for the default archetype (generated ServerImpacts document)", async () => {
    const { data, errors } = await graphql(print(ServerImpactsDocument), { verbose: false });
    expect(errors).toBeUndefined();
    expect(data.server.verbose).toBeUndefined();
    const impacts = data.server.impacts;
    expect(impacts.map((i: { criterion: string }) => i.criterion)).toEqual(["gwp", "adp", "pe"]);
    // The shim's document selects the v1 layout of each criterion.
    expect(impacts[0]).toEqual({
      criterion: "gwp",
      v1: {
        unit: "kgCO2eq",
        description: "Total climate change",
        embedded: { value: 900, min: 459.9, max: 2087, warnings: [END_OF_LIFE] },
        use: { value: 8000, min: 405.2, max: 28890 },
      },
    });
    expect(impacts[1].v1.embedded).toMatchObject({ value: 0.14, min: 0.09758, max: 0.2132 });
    expect(impacts[2].v1.use).toEqual({ value: 300000, min: 229, max: 11950000, warnings: [UNCERTAINTY] });
  });

  it("answers §18.3 for the complete configuration", async () => {
    const input = { configuration: COMPLETE_CONFIGURATION };
    const { data, errors } = await graphql(print(ServerImpactsDocument), { input, verbose: true });
    expect(errors).toBeUndefined();
    const [gwp, adp, pe] = data.server.impacts.map((i: { v1: unknown }) => i.v1);
    expect(gwp.embedded).toMatchObject({ value: 1138, min: 1074, max: 1138 });
    expect(gwp.use).toMatchObject({ value: 7000, min: 405.2, max: 26580 });
    expect(adp.embedded).toMatchObject({ value: 0.2536, min: 0.2536, max: 0.2611 });
    expect(pe.embedded).toMatchObject({ value: 15430, min: 14450, max: 15430 });
    // The shim's document selects the v1 layout of the verbose report.
    expect(data.server.verbose.v1["RAM-2"].avg_power.value).toBeCloseTo(54.528, 10);
  });

  it("criteria are answered in request order; duration allocates embedded and scales use", async () => {
    const { data, errors } = await graphql(`{
      server(input: {usage: {avgPower: 1, usageLocation: "FRA"}}) {
        impacts(criteria: [pe, gwp], duration: 8785) { criterion embedded { ${IMPACT} } use { ${IMPACT} } }
      }
    }`);
    expect(errors).toBeUndefined();
    const [pe, gwp] = data.server.impacts;
    expect(pe.criterion).toBe("pe");
    expect(pe.use).toMatchObject({ value: 99.17, min: 99.17, max: 99.17 });
    expect(gwp.criterion).toBe("gwp");
    expect(gwp.embedded).toMatchObject({ value: 240, min: 115.3, max: 523.3 });
    expect(gwp.use).toMatchObject({ value: 0.8609, min: 0.8609, max: 0.8609 });
  });

  it("generic criteria: adpf falls back to the SERVER factor", async () => {
    const { data } = await graphql(
      `{ server { impacts(criteria: [adpf]) { embedded { ${IMPACT} } use { ${IMPACT} } } } }`,
    );
    expect(data.server.impacts[0].embedded).toEqual({
      __typename: "Impact",
      value: 51500,
      min: 51500,
      max: 51500,
      warnings: [GENERIC_DATA],
    });
    expect(data.server.impacts[0].use).toMatchObject({ value: 170000, min: 225.1, max: 594800 });
  });

  it("CTUh_c_listed (the v1 key CTUh_c) is listed with both phases not implemented", async () => {
    const { data } = await graphql(
      `{ server { impacts(criteria: [CTUh_c_listed]) { criterion unit embedded { ${IMPACT} } use { ${IMPACT} } } } }`,
    );
    expect(data.server.impacts).toEqual([
      {
        criterion: "CTUh_c",
        unit: "CTUh",
        embedded: { __typename: "NotImplemented", reason: "not implemented" },
        use: { __typename: "NotImplemented", reason: "not implemented" },
      },
    ]);
  });

  it("allocation TOTAL keeps the full embedded impact; yearsUseTime sets the duration", async () => {
    const { data } = await graphql(`{
      total: server { impacts(criteria: [gwp], duration: 8760, allocation: TOTAL) { embedded { ${IMPACT} } use { ${IMPACT} } } }
      linear: server { impacts(criteria: [gwp], duration: 8760) { embedded { ${IMPACT} } use { ${IMPACT} } } }
      year: server(input: {usage: {yearsUseTime: 1}}) {
        impacts(criteria: [gwp]) { embedded { ${IMPACT} } use { ${IMPACT} } }
        verbose(criteria: [gwp]) { duration }
      }
    }`);
    expect(data.total.impacts[0].embedded).toMatchObject({ value: 900, min: 459.9, max: 2087 });
    expect(data.linear.impacts[0].embedded).toMatchObject({ value: 240, min: 115, max: 521.8 });
    expect(data.total.impacts[0].use).toEqual(data.linear.impacts[0].use);
    expect(data.total.impacts[0].use).toMatchObject({ value: 1900, min: 101.3, max: 7222 });
    expect(data.year.impacts).toEqual(data.linear.impacts);
    expect(data.year.verbose.duration).toBe(8760);
  });
});

describe("laziness: only what is selected is computed", () => {
  it("gwp embedded alone computes neither use, nor other criteria, nor verbose", async () => {
    const embedded = vi.spyOn(Server.prototype, "embeddedImpact");
    const use = vi.spyOn(Server.prototype, "useImpact");
    const componentUse = vi.spyOn(Component.prototype, "useImpact");
    const verbose = vi.spyOn(Evaluation.prototype, "verbose");
    const impact = vi.spyOn(Evaluation.prototype, "impact");

    const { data, errors } = await graphql(`{
      server { impacts(criteria: [gwp]) { criterion embedded { ... on Impact { value min max } } } }
    }`);
    expect(errors).toBeUndefined();
    expect(data.server.impacts).toEqual([
      { criterion: "gwp", embedded: { value: 900, min: 459.9, max: 2087 } },
    ]);

    expect(embedded).toHaveBeenCalledTimes(1);
    expect(embedded.mock.calls[0].slice(0, 3)).toEqual(["gwp", ARCHETYPE_LIFETIME_HOURS, "LINEAR"]);
    expect(use).not.toHaveBeenCalled();
    expect(componentUse).not.toHaveBeenCalled();
    expect(verbose).not.toHaveBeenCalled();
    expect(impact).toHaveBeenCalledTimes(1);
    const evaluation = impact.mock.contexts[0] as Evaluation;
    expect(evaluation.computations).toBe(1);
  });

  it("use alone first computes its embedded (the reference's order), and nothing else", async () => {
    const embedded = vi.spyOn(Server.prototype, "embeddedImpact");
    const use = vi.spyOn(Server.prototype, "useImpact");
    const verbose = vi.spyOn(Evaluation.prototype, "verbose");
    const { data } = await graphql(
      `{ server { impacts(criteria: [gwp]) { use { ... on Impact { value } } } } }`,
    );
    expect(data.server.impacts[0].use.value).toBe(8000);
    expect(embedded.mock.calls.map((call) => call[0])).toEqual(["gwp"]);
    expect(use.mock.calls).toEqual([["gwp", ARCHETYPE_LIFETIME_HOURS]]);
    expect(verbose).not.toHaveBeenCalled();
  });

  it("a later criterion runs the steps before it in table order, never the steps after it", async () => {
    const embedded = vi.spyOn(Server.prototype, "embeddedImpact");
    const use = vi.spyOn(Server.prototype, "useImpact");
    const { data } = await graphql(
      `{ server { impacts(criteria: [pe, gwp, adp]) { criterion embedded { ... on Impact { value } } } } }`,
    );
    // Listed in request order; computed gwp (both phases), adp (both), then pe embedded.
    expect(data.server.impacts.map((i: { criterion: string }) => i.criterion)).toEqual(["pe", "gwp", "adp"]);
    expect(data.server.impacts[0].embedded.value).toBe(13000);
    expect(embedded.mock.calls.map((call) => call[0])).toEqual(["gwp", "adp", "pe"]);
    expect(use.mock.calls.map((call) => call[0])).toEqual(["gwp", "adp"]);
  });

  it("the same impacts selected twice in one request are computed once", async () => {
    const embedded = vi.spyOn(Server.prototype, "embeddedImpact");
    const use = vi.spyOn(Server.prototype, "useImpact");
    const { data } = await graphql(`{
      server {
        a: impacts(criteria: [gwp, pe]) { embedded { ... on Impact { value } } }
        b: impacts(criteria: [gwp, pe]) { embedded { ... on Impact { value } } use { ... on Impact { value } } }
      }
    }`);
    expect(data.server.a[0].embedded.value).toBe(900);
    expect(data.server.b[1].embedded.value).toBe(13000);
    expect(embedded.mock.calls.map((call) => call[0])).toEqual(["gwp", "pe"]);
    expect(use.mock.calls.map((call) => call[0])).toEqual(["gwp", "pe"]);
  });

  it("selecting verbose computes every requested criterion and phase", async () => {
    const embedded = vi.spyOn(Server.prototype, "embeddedImpact");
    const use = vi.spyOn(Server.prototype, "useImpact");
    const verbose = vi.spyOn(Evaluation.prototype, "verbose");
    await graphql(`{ server { verbose(criteria: [gwp, pe]) { duration } } }`);
    expect(verbose).toHaveBeenCalledTimes(1);
    expect(embedded.mock.calls.map((call) => call[0])).toEqual(["gwp", "pe"]);
    expect(use.mock.calls.map((call) => call[0])).toEqual(["gwp", "pe"]);
  });
});

describe("verbose", () => {
  const ATTRIBUTE = "name value status unit source min max hasMin hasMax warnings";

  it("reports the duration, the components and the server attributes", async () => {
    const { data, errors } = await graphql(`{
      server {
        verbose {
          duration
          impacts { criterion }
          components { key duration impacts { criterion embedded { ${IMPACT} } use { ${IMPACT} } } attributes { ${ATTRIBUTE} } }
          attributes { ${ATTRIBUTE} }
        }
      }
    }`);
    expect(errors).toBeUndefined();
    const verbose = data.server.verbose;
    expect(verbose.duration).toBe(ARCHETYPE_LIFETIME_HOURS);
    expect(verbose.impacts).toBeNull();
    expect(verbose.components.map((c: { key: string }) => c.key)).toEqual([
      "ASSEMBLY-1",
      "CPU-1",
      "RAM-1",
      "SSD-1",
      "POWER_SUPPLY-1",
      "CASE-1",
      "MOTHERBOARD-1",
    ]);
    const lifetime = verbose.attributes.find((a: { name: string }) => a.name === "hours_life_time");
    expect(lifetime).toEqual({
      name: "hours_life_time",
      value: ARCHETYPE_LIFETIME_HOURS,
      status: "COMPLETED",
      unit: "hours",
      source: "from device",
      min: ARCHETYPE_LIFETIME_HOURS,
      max: ARCHETYPE_LIFETIME_HOURS,
      hasMin: true,
      hasMax: true,
      warnings: [],
    });
    const location = verbose.attributes.find((a: { name: string }) => a.name === "usage_location");
    expect(location).toMatchObject({ value: "EEE", status: "DEFAULT", hasMin: false, hasMax: false });
    const cpu = verbose.components[1];
    expect(cpu.duration).toBe(ARCHETYPE_LIFETIME_HOURS);
    expect(cpu.impacts[0].embedded).toMatchObject({ value: 40, min: 19.9, max: 161.7 });
    expect(cpu.impacts[0].use).toMatchObject({ value: 10000, min: 587.5, max: 28900 });
    const ssd = verbose.components[3];
    expect(ssd.impacts[0].use).toEqual({ __typename: "NotImplemented", reason: "not implemented" });
    const dieSize = cpu.attributes.find((a: { name: string }) => a.name === "die_size");
    expect(dieSize).toMatchObject({
      value: 521,
      status: "COMPLETED",
      unit: "mm2",
      source: "Average value for all families",
      min: 41.2,
      max: 3640,
    });
  });

  it("an invalid location shows the warning on usage_location", async () => {
    const { data } = await graphql(`{
      server(input: {usage: {usageLocation: "XYZ"}}) { verbose(criteria: [gwp]) { attributes { ${ATTRIBUTE} } } }
    }`);
    const location = data.server.verbose.attributes.find(
      (a: { name: string }) => a.name === "usage_location",
    );
    expect(location).toMatchObject({
      value: "EEE",
      status: "DEFAULT",
      warnings: [LOCATION_NOT_FOUND],
    });
  });

  it("an unknown location: GraphQL use impacts carry the fallback warning, the v1 layout does not", async () => {
    const LOCATION = LOCATION_NOT_FOUND;
    const { data, errors } = await graphql(`{
      unknown: server(input: {usage: {usageLocation: "XYZ"}}) {
        impacts(criteria: [gwp, pe]) { criterion embedded { ${IMPACT} } use { ${IMPACT} } v1 }
      }
      overridden: server(input: {usage: {usageLocation: "XYZ", elecFactors: {gwp: 0.1}}}) {
        impacts(criteria: [gwp, pe]) { use { ${IMPACT} } }
      }
      known: server(input: {usage: {usageLocation: "FRA"}}) { impacts(criteria: [gwp]) { use { ${IMPACT} } } }
      fleet: servers(inputs: [{usage: {usageLocation: "XYZ"}}, {usage: {usageLocation: "FRA"}}]) {
        total(criteria: [gwp]) { embedded { warnings } use { warnings } }
      }
    }`);
    expect(errors).toBeUndefined();
    const [gwp, pe] = data.unknown.impacts;
    // The EEE fallback gives the default server's use figures, with the warning added.
    expect(gwp.use).toMatchObject({ value: 8000, min: 405.2, max: 28890, warnings: [LOCATION] });
    expect(pe.use.warnings).toEqual([UNCERTAINTY, LOCATION]);
    expect(gwp.embedded.warnings).toEqual([END_OF_LIFE]);
    expect(gwp.v1.use).toEqual({ value: 8000, min: 405.2, max: 28890 });
    expect(pe.v1.use.warnings).toEqual([UNCERTAINTY]);
    // An overridden factor does not read the location: no warning for gwp, still one for pe.
    expect(data.overridden.impacts[0].use.warnings).toEqual([]);
    expect(data.overridden.impacts[1].use.warnings).toContain(LOCATION);
    expect(data.known.impacts[0].use.warnings).toEqual([]);
    expect(data.fleet.total[0].use.warnings).toEqual([LOCATION]);
    expect(data.fleet.total[0].embedded.warnings).toEqual([END_OF_LIFE]);
  });

  it("an unknown location: the warning on the use of a CPU, a cloud instance and a terminal", async () => {
    const LOCATION = LOCATION_NOT_FOUND;
    const usage = `usage: {usageLocation: "XYZ"}`;
    const { data, errors } = await graphql(`{
      cpu(input: {${usage}}) { impacts(criteria: [gwp]) { use { ${IMPACT} } } }
      cloudInstance(instanceType: "m5.xlarge", ${usage}) { impacts(criteria: [gwp]) { use { ${IMPACT} } } }
      terminal(kind: laptop, input: {${usage}}) { impacts(criteria: [gwp]) { use { ${IMPACT} } } }
    }`);
    expect(errors).toBeUndefined();
    expect(data.cpu.impacts[0].use.warnings).toEqual([LOCATION]);
    expect(data.cloudInstance.impacts[0].use.warnings).toEqual([LOCATION]);
    expect(data.terminal.impacts[0].use.warnings).toEqual([LOCATION]);
  });

  it("an unknown location keeps the reference's REST answer (no impact warning)", async () => {
    const { data } = await graphql(
      `query ($input: ServerInput) { server(input: $input) { impacts(criteria: [gwp]) { v1 } } }`,
      { input: { usage: { usageLocation: "XYZ" } } },
    );
    expect(data.server.impacts[0].v1.use).toEqual({ value: 8000, min: 405.2, max: 28890 });
  });

  // Two `verbose` selections with different `criteria` each list their own criteria.
  it("verbose selections with different criteria each list their own criteria", async () => {
    const { data } = await graphql(`{
      server {
        a: verbose(criteria: [gwp]) { components { key impacts { criterion } } }
        b: verbose(criteria: [pe]) { components { key impacts { criterion } } }
      }
    }`);
    expect(data.server.a.components[1].impacts.map((i: { criterion: string }) => i.criterion)).toEqual([
      "gwp",
    ]);
    expect(data.server.b.components[1].impacts.map((i: { criterion: string }) => i.criterion)).toEqual([
      "pe",
    ]);
  });
});

describe("component queries", () => {
  it("cpu §18.1 (the CpuImpacts operation of the REST shim) with verbose", async () => {
    const { data, errors } = await graphql(print(componentImpactsDocument("cpu")), {
      input: { coreUnits: 12, dieSizePerCore: 24.5 },
      verbose: true,
    });
    expect(errors).toBeUndefined();
    const [gwp, adp, pe] = data.component.impacts.map((i: { v1: unknown }) => i.v1);
    expect(gwp.embedded).toMatchObject({ value: 14.93, min: 14.93, max: 14.93, warnings: [END_OF_LIFE] });
    expect(gwp.use).toMatchObject({ value: 1800, min: 110.1, max: 5419 });
    expect(adp.use).toMatchObject({ value: 0.0003, min: 6.341e-5, max: 0.001272 });
    expect(pe.use).toMatchObject({ value: 100000, min: 62.26, max: 2242000 });
    const byName = data.component.verbose.v1;
    expect(byName.duration).toEqual({ value: 26280, unit: "hours" });
    expect(Object.keys(byName.impacts)).toEqual(["gwp", "adp", "pe"]);
    expect(byName.core_units).toEqual({ value: 12, status: "INPUT" });
    expect(byName.die_size).toMatchObject({ value: 294, status: "COMPLETED", min: 294, max: 294 });
    expect(byName.avg_power).toMatchObject({ value: 182.23, status: "COMPLETED", unit: "W" });
    expect(byName.params).toMatchObject({
      value: { a: 171.2, b: 0.0354, c: 36.89, d: -10.13 },
      status: "ARCHETYPE",
    });
  });

  it("cpu with 3 units: use × 9", async () => {
    const { data } = await graphql(`{
      cpu(input: {units: 3, coreUnits: 12, dieSizePerCore: 24.5}) {
        kind archetype impacts(criteria: [gwp]) { embedded { ${IMPACT} } use { ${IMPACT} } }
      }
    }`);
    expect(data.cpu.kind).toBe("cpu");
    expect(data.cpu.archetype).toBe("DEFAULT");
    expect(data.cpu.impacts[0].embedded).toMatchObject({ value: 44.8, min: 44.8, max: 44.8 });
    expect(data.cpu.impacts[0].use).toMatchObject({ value: 16000, min: 991.3, max: 48770 });
  });

  it("ram §18.2", async () => {
    const { data } = await graphql(`{
      ram(input: {units: 12, capacity: 32, density: 1.79}) { impacts { embedded { ${IMPACT} } use { ${IMPACT} } } }
    }`);
    const [gwp, adp, pe] = data.ram.impacts;
    expect(gwp.embedded).toMatchObject({ value: 534.6, min: 534.6, max: 534.6 });
    expect(gwp.use).toMatchObject({ value: 13000, min: 791, max: 38920 });
    expect(adp.use).toMatchObject({ value: 0.0022, min: 0.0004553, max: 0.009134 });
    expect(pe.use).toEqual({
      __typename: "Impact",
      value: 400000,
      min: 447.1,
      max: 16100000,
      warnings: [UNCERTAINTY],
    });
  });

  it("ssd, hdd, case, power supply, motherboard and assembly", async () => {
    const { data, errors } = await graphql(`{
      ssd(input: {capacity: 400, density: 50.6}) { impacts(criteria: [gwp]) { embedded { ${IMPACT} } use { ${IMPACT} } } }
      hdd { impacts(criteria: [gwp]) { embedded { ${IMPACT} } } }
      rack: case { archetype impacts(criteria: [gwp]) { embedded { ${IMPACT} } } }
      blade: case(input: {caseType: "blade"}) { impacts(criteria: [gwp]) { embedded { ${IMPACT} } } }
      powerSupply { impacts(criteria: [gwp]) { embedded { ${IMPACT} } } }
      motherboard(input: {usage: {hoursLifeTime: 1000}}) { archetype impacts(criteria: [gwp], duration: 500) { embedded { ${IMPACT} } } }
      assembly { impacts(criteria: [gwp]) { embedded { ${IMPACT} } } }
    }`);
    expect(errors).toBeUndefined();
    expect(data.ssd.impacts[0].embedded).toMatchObject({ value: 23.73, min: 23.73, max: 23.73 });
    expect(data.ssd.impacts[0].use).toEqual({ __typename: "NotImplemented", reason: "not implemented" });
    expect(data.hdd.impacts[0].embedded).toMatchObject({ value: 31.1, min: 31.1, max: 31.1 });
    expect(data.rack.archetype).toBe("rack");
    expect(data.rack.impacts[0].embedded).toMatchObject({ value: 150, min: 85.9, max: 150 });
    expect(data.blade.impacts[0].embedded).toMatchObject({ value: 85.9, min: 85.9, max: 85.9 });
    expect(data.powerSupply.impacts[0].embedded).toMatchObject({ value: 73, min: 24.3, max: 121.5 });
    expect(data.motherboard.archetype).toBeNull();
    expect(data.motherboard.impacts[0].embedded).toMatchObject({ value: 33.05, min: 33.05, max: 33.05 });
    expect(data.assembly.impacts[0].embedded).toMatchObject({ value: 6.68, min: 6.68, max: 6.68 });
  });

  it("component archetypes by kind", async () => {
    const { data } = await graphql(`{
      caseIds: componentArchetypes(kind: case)
      cpuIds: componentArchetypes(kind: cpu)
      config: componentArchetypeConfig(kind: power_supply, archetype: "DEFAULT")
    }`);
    expect(data.caseIds).toEqual(["rack", "blade"]);
    expect(data.cpuIds).toEqual(["DEFAULT"]);
    expect(data.config.unit_weight).toEqual({ default: 2.99, min: 1, max: 5 });
  });
});

describe("errors", () => {
  it("unknown server archetype: NOT_FOUND with a path", async () => {
    const { data, errors } = await graphql(`{ server(archetype: "nope") { impacts { criterion } } }`);
    expect(data).toEqual({ server: null });
    expect(errors).toHaveLength(1);
    expect(errors![0].message).toBe("nope not found");
    expect(errors![0].path).toEqual(["server"]);
    expect(errors![0].extensions?.code).toBe("NOT_FOUND");
  });

  it("one unknown asset among aliases: the others' answers kept (nullable root fields)", async () => {
    const { data, errors } = await graphql(`{
      good: cloudInstance(provider: "aws", instanceType: "m5.xlarge") { impacts(criteria: [gwp]) { criterion } }
      bad: cloudInstance(provider: "aws", instanceType: "m5.nope") { impacts(criteria: [gwp]) { criterion } }
    }`);
    expect(data).toEqual({ good: { impacts: [{ criterion: "gwp" }] }, bad: null });
    expect(errors?.map((error) => [error.path, error.extensions?.code])).toEqual([[["bad"], "NOT_FOUND"]]);
  });

  it("unknown component archetype: NOT_FOUND at the component field", async () => {
    const { errors } = await graphql(`{ ram(archetype: "nope") { impacts { criterion } } }`);
    expect(errors![0].path).toEqual(["ram"]);
    expect(errors![0].extensions?.code).toBe("NOT_FOUND");
  });

  it("negative units: BAD_USER_INPUT naming the field", async () => {
    const { data, errors } = await graphql(`{
      server(input: {configuration: {cpu: {units: -1}}}) { impacts { criterion } }
    }`);
    expect(data).toEqual({ server: null });
    expect(errors![0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(errors![0].path).toEqual(["server"]);
    expect(errors![0].extensions?.field).toEqual(["input", "configuration", "cpu", "units"]);
  });

  it("a workload of 120 %: BAD_USER_INPUT", async () => {
    const { errors } = await graphql(
      `{ server(input: {usage: {timeWorkload: 120}}) { impacts { criterion } } }`,
    );
    expect(errors![0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(errors![0].path).toEqual(["server"]);
    expect(errors![0].extensions?.field).toEqual(["input", "usage", "timeWorkload"]);
  });

  it("a workload share above 100 % on a component: BAD_USER_INPUT", async () => {
    const { errors } = await graphql(`{
      cpu(input: {usage: {timeWorkloadShares: [{timePercentage: 100, loadPercentage: 101}]}}) { impacts { criterion } }
    }`);
    expect(errors![0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(errors![0].path).toEqual(["cpu"]);
  });

  it("a negative duration: BAD_USER_INPUT at the impacts field", async () => {
    const { errors } = await graphql(`{ server { impacts(duration: -1) { criterion } } }`);
    expect(errors![0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(errors![0].path).toEqual(["server", "impacts"]);
  });

  it("an unknown criterion literal fails validation", async () => {
    const { data, errors } = await graphql(`{ server { impacts(criteria: [xyz]) { criterion } } }`);
    expect(data).toBeUndefined();
    expect(errors![0].message).toContain('"Criterion"');
    expect(errors![0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("an unknown criterion variable is rejected before execution", async () => {
    const embedded = vi.spyOn(Server.prototype, "embeddedImpact");
    const { status, data, errors } = await graphql(
      `query($c: [Criterion!]) { server { impacts(criteria: $c) { criterion } } }`,
      { c: ["all"] },
    );
    // application/json: 200 with BAD_USER_INPUT (GraphQL over HTTP); its own media type: 400.
    expect(status).toBe(200);
    expect(data).toBeUndefined();
    expect(errors![0].message).toContain('"Criterion"');
    expect(errors![0].extensions?.code).toBe("BAD_USER_INPUT");
    const spec = await graphql(
      `query($c: [Criterion!]) { server { impacts(criteria: $c) { criterion } } }`,
      { c: ["all"] },
      "application/graphql-response+json",
    );
    expect(spec.status).toBe(400);
    expect(spec.errors![0].extensions?.code).toBe("BAD_USER_INPUT");
    expect(embedded).not.toHaveBeenCalled();
  });
});
