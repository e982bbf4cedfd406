/**
 * Fleet queries (`servers`, `cloudInstances`, `components`, `terminals`): per-item errors, totals,
 * the batch limit, per-request memoization of reference lookups and laziness at fleet scale.
 */
// The executor the service serves GraphQL with (graphql-yoga's): it completes a fleet's items
// handed out as an async iterable (src/schema/execution/scheduling.ts), which graphql-js's does not.
import { execute } from "@graphql-tools/executor";
import { type ExecutionResult, parse } from "graphql";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DEFAULT_LIMITS } from "../../src/config/serviceConfig.js";
import { Server } from "../../src/engine/assets/server.js";
import {
  Evaluation,
  evaluate,
  type RequestedCriterion,
  resolveCriterion,
  serverModel,
} from "../../src/engine/index.js";
import { directLookups, memoizedLookups, type ReferenceLookups } from "../../src/engine/lookups/lookups.js";
import { rounded } from "../../src/engine/model/evaluation.js";
import { roundImpact } from "../../src/engine/model/rounding.js";
import { SERVER } from "../../src/inputs/inputFields.js";
import { graphqlErrorOf } from "../../src/schema/errors.js";
import { checkedAsset } from "../../src/service/inputs.js";
import type { EditionService } from "../../src/service/open.js";
import { createRequestContext, type RequestContext } from "../../src/service/requestState.js";
import { lazy, sharedApp } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";
import { END_OF_LIFE_WARNING as EOL, GENERIC_DATA_WARNING as GENERIC } from "../support/warnings.js";

const app = sharedApp();
const edition124 = lazy(() => app.service.editions.get("1.2.4") as EditionService);

const graphql = graphqlClient(app);

afterEach(() => {
  vi.restoreAllMocks();
});

const IMPACT = "__typename ... on Impact { value min max warnings } ... on NotImplemented { reason }";
const TOTAL = "value min max warnings items notImplemented";

function criterion(name: string): RequestedCriterion {
  const resolved = resolveCriterion(name);
  if (!resolved) throw new Error(`unknown criterion ${name}`);
  return resolved;
}

const GWP = criterion("gwp");

/** The unrounded impact of a server evaluated directly by the engine (no GraphQL). */
function serverRaw(archetype: string, input: unknown, phase: "embedded" | "use") {
  const cells = edition124.data.archetypes.server.byId.get(archetype)?.cells;
  if (!cells) throw new Error(`no archetype ${archetype}`);
  const engine = {
    data: edition124.data,
    lookups: directLookups(edition124.tables),
    rules: edition124.edition.rules,
  };
  const raw = evaluate(
    serverModel(engine, cells, checkedAsset(DEFAULT_LIMITS, SERVER, input, ["input"]).input),
  ).raw(GWP, phase);
  if (!raw) throw new Error("not implemented");
  return raw;
}

const SERVERS = `query Servers($inputs: [ServerItemInput!]!) {
  servers(inputs: $inputs) {
    count
    failed
    items { archetype impacts(criteria: [gwp]) { embedded { ${IMPACT} } use { ${IMPACT} } } }
    total(criteria: [gwp]) { criterion unit description embedded { ${TOTAL} } use { ${TOTAL} } }
  }
}`;

const MAX_FLEET_ITEMS = DEFAULT_LIMITS.maxFleetItems;

describe("servers(inputs:)", () => {
  it("an unknown archetype fails its item only: null item, NOT_FOUND error at its path", async () => {
    const { status, data, errors } = await graphql(SERVERS, {
      inputs: [{}, { archetype: "nope" }, { archetype: "dellR740" }],
    });
    expect(status).toBe(200);
    const fleet = data.servers;
    expect(fleet.count).toBe(3);
    expect(fleet.failed).toBe(1);
    expect(fleet.items).toHaveLength(3);
    expect(fleet.items[1]).toBeNull();
    expect(fleet.items[0].archetype).toBe("platform_compute_medium");
    expect(fleet.items[0].impacts[0].embedded).toMatchObject({ value: 900, min: 459.9, max: 2087 });
    expect(fleet.items[2].archetype).toBe("dellR740");
    expect(fleet.items[2].impacts[0].embedded).toMatchObject({ value: 1200, min: 634.4, max: 2102 });

    expect(errors).toHaveLength(1);
    expect(errors?.[0].path).toEqual(["servers", "items", 1]);
    expect(errors?.[0].extensions?.code).toBe("NOT_FOUND");
    expect(errors?.[0].message).toContain("nope");

    // The total sums the two evaluated items' raw impacts, then rounds like an item.
    const [total] = fleet.total;
    expect(total).toMatchObject({ criterion: "gwp", unit: "kgCO2eq", description: "Total climate change" });
    for (const phase of ["embedded", "use"] as const) {
      const a = serverRaw("platform_compute_medium", {}, phase);
      const b = serverRaw("dellR740", {}, phase);
      const sum = { value: a.value + b.value, min: a.min + b.min, max: a.max + b.max, warnings: [] };
      const expected = rounded({ ...sum, warnings: [...a.warnings, ...b.warnings] }, roundImpact);
      expect(total[phase]).toEqual({
        value: expected.value,
        min: expected.min,
        max: expected.max,
        warnings: expected.warnings,
        items: 2,
        notImplemented: 0,
      });
      expect(total[phase].min).toBeGreaterThanOrEqual(sum.min * (1 - 1e-3));
      expect(total[phase].max).toBeLessThanOrEqual(sum.max * (1 + 1e-3));
      expect(total[phase].min).toBeLessThanOrEqual(total[phase].value);
      expect(total[phase].value).toBeLessThanOrEqual(total[phase].max);
    }
    expect(total.embedded.warnings).toEqual([EOL]);
  });

  it("two identical default servers: the total is the rounding of twice one server's raw impact", async () => {
    const { data, errors } = await graphql(SERVERS, { inputs: [{}, {}] });
    expect(errors).toBeUndefined();
    const raw = serverRaw("platform_compute_medium", {}, "embedded");
    // §18.4: 947.68661 (459.88341, 2087.04868).
    expect(raw.value).toBeCloseTo(947.68661, 4);
    expect(raw.min).toBeCloseTo(459.88341, 4);
    expect(raw.max).toBeCloseTo(2087.04868, 4);
    const twice = rounded(
      {
        value: 2 * raw.value,
        min: 2 * raw.min,
        max: 2 * raw.max,
        warnings: raw.warnings,
      },
      roundImpact,
    );
    expect(data.servers.total[0].embedded).toEqual({ ...twice, items: 2, notImplemented: 0 });
    // 1895.37 (919.77, 4174.10): Δ = 325.5 ⇒ 2 significant figures.
    expect(twice).toMatchObject({ value: 1900, min: 919.8, max: 4174 });
    const use = serverRaw("platform_compute_medium", {}, "use");
    const twiceUse = rounded(
      {
        value: 2 * use.value,
        min: 2 * use.min,
        max: 2 * use.max,
        warnings: use.warnings,
      },
      roundImpact,
    );
    expect(data.servers.total[0].use).toEqual({ ...twiceUse, items: 2, notImplemented: 0 });
  });

  it("an empty fleet: count 0 and zero totals", async () => {
    const { data, errors } = await graphql(SERVERS, { inputs: [] });
    expect(errors).toBeUndefined();
    expect(data.servers.count).toBe(0);
    expect(data.servers.items).toEqual([]);
    expect(data.servers.total[0].embedded).toEqual({
      value: 0,
      min: 0,
      max: 0,
      warnings: [],
      items: 0,
      notImplemented: 0,
    });
  });

  it("an invalid item fails alone with BAD_USER_INPUT", async () => {
    const { data, errors } = await graphql(SERVERS, {
      inputs: [{}, { configuration: { cpu: { units: -1 } } }],
    });
    expect(data.servers.count).toBe(2);
    expect(data.servers.failed).toBe(1);
    expect(data.servers.items[0]).not.toBeNull();
    expect(data.servers.items[1]).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors?.[0].path).toEqual(["servers", "items", 1]);
    expect(errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
  });

  it(`more than ${MAX_FLEET_ITEMS} items: LIMIT_EXCEEDED for the whole batch (422 for a GraphQL-over-HTTP client)`, async () => {
    expect(MAX_FLEET_ITEMS).toBe(10_000);
    const inputs = Array.from({ length: MAX_FLEET_ITEMS + 1 }, () => ({}));
    const query = "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count } }";
    const spec = await graphql(query, { inputs }, "application/graphql-response+json");
    expect(spec.status).toBe(422);
    expect(spec.errors?.[0].extensions?.code).toBe("LIMIT_EXCEEDED");
    // application/json (the default answer type): a well-formed request is answered 200.
    const { status, data, errors } = await graphql(query, { inputs });
    expect(status).toBe(200);
    // Counted in the raw variables, before GraphQL coerces them: refused before execution.
    expect(data).toBeUndefined();
    expect(errors).toHaveLength(1);
    expect(errors?.[0].extensions?.code).toBe("LIMIT_EXCEEDED");
    expect(errors?.[0].extensions?.limit).toBe("MAX_FLEET_ITEMS");
    expect(errors?.[0].extensions?.field).toEqual(["inputs"]);
    expect(errors?.[0].message).toContain(String(MAX_FLEET_ITEMS + 1));
  });

  it("fleet items are counted across fields and aliases: the request is refused as a whole", async () => {
    const half = Array.from({ length: MAX_FLEET_ITEMS / 2 + 1 }, () => ({}));
    const { status, data, errors } = await graphql(
      `query ($a: [ServerItemInput!]!, $b: [CloudInstanceItemInput!]!) {
        first: servers(inputs: $a) { count }
        second: servers(inputs: $a) { count }
        cloud: cloudInstances(inputs: $b) { count }
      }`,
      { a: half, b: [{ instanceType: "c5.large" }] },
      "application/graphql-response+json",
    );
    expect(status).toBe(422);
    expect(data).toBeNull();
    // The first refused (non-null) field nulls the whole answer; every fleet saw the same total.
    expect(errors?.length).toBeGreaterThan(0);
    for (const error of errors ?? []) {
      expect(error.extensions?.code).toBe("LIMIT_EXCEEDED");
      expect(error.message).toContain(String(2 * half.length + 1));
    }
  });

  it(`exactly ${MAX_FLEET_ITEMS} items are accepted`, async () => {
    const inputs = Array.from({ length: MAX_FLEET_ITEMS }, () => ({}));
    const { data, errors } = await graphql(
      "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count failed } }",
      { inputs },
    );
    expect(errors).toBeUndefined();
    expect(data.servers).toEqual({ count: MAX_FLEET_ITEMS, failed: 0 });
  });
});

describe("cloudInstances(inputs:)", () => {
  it("evaluates each instance on its platform; unknown ones fail alone", async () => {
    const { data, errors } = await graphql(
      `query ($inputs: [CloudInstanceItemInput!]!) {
        cloudInstances(inputs: $inputs) {
          count
          failed
          items {
            provider instanceType platform hostShare { cpu ram ssd hdd }
            impacts(criteria: [gwp]) { embedded { ${IMPACT} } use { ${IMPACT} } }
          }
          total(criteria: [gwp]) { embedded { ${TOTAL} } use { ${TOTAL} } }
        }
      }`,
      {
        inputs: [
          { instanceType: "a1.4xlarge" },
          { provider: "aws", instanceType: "r5ad.12xlarge" },
          { instanceType: "zz.large" },
          { provider: "gcp", instanceType: "a1.4xlarge" },
        ],
      },
    );
    const fleet = data.cloudInstances;
    expect(fleet.count).toBe(4);
    expect(fleet.failed).toBe(2);
    expect(fleet.items[2]).toBeNull();
    expect(fleet.items[3]).toBeNull();
    const [a1, r5ad] = fleet.items;
    expect(a1).toMatchObject({ provider: "aws", instanceType: "a1.4xlarge", platform: "a1.metal" });
    expect(a1.hostShare).toEqual({ cpu: 1, ram: 1, ssd: 0, hdd: 0 });
    expect(a1.impacts[0].embedded).toEqual({
      __typename: "Impact",
      value: 460,
      min: 260.5,
      max: 635.6,
      warnings: [EOL],
    });
    expect(a1.impacts[0].use).toMatchObject({ value: 700, min: 37.73, max: 2475 });
    expect(r5ad.platform).toBe("r5ad.24xlarge");
    expect(r5ad.hostShare).toEqual({ cpu: 0.375, ram: 0.5, ssd: 0.5, hdd: 0 });
    expect(r5ad.impacts[0].embedded).toMatchObject({ value: 1000, min: 554.4, max: 1878 });
    expect(r5ad.impacts[0].use).toMatchObject({ value: 4000, min: 214, max: 14040 });

    expect(errors?.map((e) => e.path)).toEqual([
      ["cloudInstances", "items", 2],
      ["cloudInstances", "items", 3],
    ]);
    expect(errors?.map((e) => e.extensions?.code)).toEqual(["NOT_FOUND", "NOT_FOUND"]);
    expect(errors?.[0].message).toBe("zz.large at aws not found");
    expect(errors?.[1].message).toBe("a1.4xlarge at gcp not found");

    // The bounds are sums of the items' raw bounds (the items' rounded bounds agree to 4 figures).
    const total = fleet.total[0];
    expect(total.embedded.items).toBe(2);
    expect(total.use.items).toBe(2);
    const near = (actual: number, expected: number) =>
      expect(Math.abs(actual / expected - 1)).toBeLessThan(1e-3);
    near(total.embedded.min, 260.5 + 554.4);
    near(total.embedded.max, 635.6 + 1878);
    near(total.use.min, 37.73 + 214);
    near(total.use.max, 2475 + 14040);
  });
});

describe("components(inputs:)", () => {
  it("cpu (§18.1), ram (§18.2) and motherboard: items and totals", async () => {
    const { data, errors } = await graphql(
      `query ($inputs: [ComponentItemInput!]!) {
        components(inputs: $inputs) {
          count
          failed
          items { kind archetype impacts(criteria: [gwp]) { embedded { ${IMPACT} } use { ${IMPACT} } } }
          total(criteria: [gwp]) { embedded { ${TOTAL} } use { ${TOTAL} } }
        }
      }`,
      {
        inputs: [
          { kind: "cpu", cpu: { coreUnits: 12, dieSizePerCore: 24.5 } },
          { kind: "ram", ram: { units: 12, capacity: 32, density: 1.79 } },
          { kind: "motherboard" },
          { kind: "cpu", archetype: "nope" },
        ],
      },
    );
    const fleet = data.components;
    expect(fleet.count).toBe(4);
    expect(fleet.failed).toBe(1);
    const [cpu, ram, motherboard, failed] = fleet.items;
    expect(failed).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors?.[0].path).toEqual(["components", "items", 3]);
    expect(errors?.[0].extensions?.code).toBe("NOT_FOUND");

    expect(cpu.kind).toBe("cpu");
    expect(cpu.impacts[0].embedded).toMatchObject({ value: 14.93, min: 14.93, max: 14.93 });
    expect(cpu.impacts[0].use).toMatchObject({ value: 1800, min: 110.1, max: 5419 });
    expect(ram.kind).toBe("ram");
    expect(ram.impacts[0].embedded).toMatchObject({ value: 534.6, min: 534.6, max: 534.6 });
    expect(ram.impacts[0].use).toMatchObject({ value: 13000, min: 791, max: 38920 });
    expect(motherboard.kind).toBe("motherboard");
    expect(motherboard.impacts[0].embedded).toMatchObject({ value: 66.1, min: 66.1, max: 66.1 });
    expect(motherboard.impacts[0].use).toEqual({ __typename: "NotImplemented", reason: "not implemented" });

    // 14.9318 + 534.59531 + 66.1 = 615.62711; use 1819.82 + 13068.92 (110.15 + 791.01, 5419.29 + 38918.22).
    const total = fleet.total[0];
    expect(total.embedded).toEqual({
      value: 615.6,
      min: 615.6,
      max: 615.6,
      warnings: [EOL],
      items: 3,
      notImplemented: 0,
    });
    expect(total.use).toEqual({
      value: 15000,
      min: 901.2,
      max: 44340,
      warnings: [],
      items: 2,
      notImplemented: 1,
    });
  });
});

describe("terminals(inputs:)", () => {
  it("a laptop and a monitor: items, totals and not-implemented counts", async () => {
    const { data, errors } = await graphql(
      `query ($inputs: [TerminalItemInput!]!) {
        terminals(inputs: $inputs) {
          count
          failed
          items { kind family archetype impacts(criteria: [gwp, adp]) { embedded { ${IMPACT} } use { ${IMPACT} } } }
          total(criteria: [gwp, adp]) { criterion embedded { ${TOTAL} } use { ${TOTAL} } }
        }
      }`,
      { inputs: [{ kind: "laptop" }, { kind: "monitor" }] },
    );
    expect(errors).toBeUndefined();
    const fleet = data.terminals;
    expect(fleet.count).toBe(2);
    expect(fleet.failed).toBe(0);
    const [laptop, monitor] = fleet.items;
    expect(laptop).toMatchObject({ kind: "laptop", family: "terminal", archetype: "laptop-pro" });
    expect(laptop.impacts[0].embedded).toEqual({
      __typename: "Impact",
      value: 181,
      min: 181,
      max: 181,
      warnings: [GENERIC],
    });
    expect(laptop.impacts[0].use).toMatchObject({ value: 300, min: 12.09, max: 1190 });
    expect(monitor).toMatchObject({ kind: "monitor", family: "peripheral", archetype: "monitor-default" });
    expect(monitor.impacts[0].embedded).toMatchObject({ value: 64.7, min: 64.7, max: 64.7 });
    // 55 W (20–100), use time ratio 0.3, lifetime 57816 h; EEE factors 0.38 (0.023–1.13161).
    expect(monitor.impacts[0].use).toMatchObject({ value: 400, min: 7.979, max: 1963 });

    const [gwp, adp] = fleet.total;
    expect(gwp.criterion).toBe("gwp");
    expect(gwp.embedded).toEqual({
      value: 245.7,
      min: 245.7,
      max: 245.7,
      warnings: [GENERIC],
      items: 2,
      notImplemented: 0,
    });
    // 299.592 + 0.38·0.055·0.3·57816 (12.0888 + 7.9786, 1189.548 + 1962.77).
    expect(gwp.use).toEqual({ value: 700, min: 20.07, max: 3152, warnings: [], items: 2, notImplemented: 0 });
    // Terminals have no adp factor: embedded not implemented for both.
    expect(adp.embedded).toEqual({ value: 0, min: 0, max: 0, warnings: [], items: 0, notImplemented: 2 });
    expect(adp.use.items).toBe(2);
  });

  it("a type that the kind does not take fails its item", async () => {
    const { data, errors } = await graphql(
      `query ($inputs: [TerminalItemInput!]!) { terminals(inputs: $inputs) { count failed items { kind } } }`,
      { inputs: [{ kind: "laptop", type: "perso" }, { kind: "monitor", type: "pro" }, { kind: "laptop" }] },
    );
    expect(data.terminals.count).toBe(3);
    expect(data.terminals.failed).toBe(1);
    expect(data.terminals.items[1]).toBeNull();
    expect(errors?.[0].path).toEqual(["terminals", "items", 1]);
    expect(errors?.[0].extensions?.code).toBe("BAD_USER_INPUT");
  });

  it("the other fleets name the failing item's input field: inputs.<index>.…", async () => {
    const cloud = await graphql(
      "query ($inputs: [CloudInstanceItemInput!]!) { cloudInstances(inputs: $inputs) { failed items { instanceType } } }",
      {
        inputs: [{ instanceType: "a1.4xlarge" }, { instanceType: "a1.4xlarge", usage: { useTimeRatio: -1 } }],
      },
    );
    expect(cloud.errors?.[0].extensions?.field).toEqual(["inputs", "1", "usage", "useTimeRatio"]);
    expect(cloud.errors?.[0].message).toBe("inputs.1.usage.useTimeRatio: must not be negative");
  });

  // An invalid terminal item names its position: inputs.<index>.…
  it("terminals: an invalid item's error names inputs.<index>.…", async () => {
    const { data, errors } = await graphql(
      "query ($inputs: [TerminalItemInput!]!) { terminals(inputs: $inputs) { failed items { kind } } }",
      { inputs: [{ kind: "laptop" }, { kind: "laptop", usage: { useTimeRatio: -1 } }] },
    );
    expect(data.terminals.failed).toBe(1);
    expect(errors?.[0].path).toEqual(["terminals", "items", 1]);
    expect(errors?.[0].extensions?.field).toEqual(["inputs", "1", "usage", "useTimeRatio"]);
    expect(errors?.[0].message).toBe("inputs.1.usage.useTimeRatio: must not be negative");
  });
});

/** Counts the calls reaching `inner`, per lookup, with their arguments. */
function countingLookups(inner: ReferenceLookups) {
  const calls = new Map<string, unknown[][]>();
  const lookups = Object.fromEntries(
    Object.entries(inner).map(([name, fn]) => [
      name,
      (...args: unknown[]) => {
        if (!calls.has(name)) calls.set(name, []);
        calls.get(name)?.push(args);
        return (fn as (...a: unknown[]) => unknown)(...args);
      },
    ]),
  ) as unknown as ReferenceLookups;
  return { lookups, calls };
}

/** Runs a document with graphql-js against the app's schema in the given context. */
async function run(context: RequestContext, query: string, variables: Record<string, unknown>) {
  const result = (await execute({
    schema: app.schema,
    document: parse(query),
    variableValues: variables,
    contextValue: context,
  })) as ExecutionResult<{ servers: { count: number; failed: number; items: unknown[] } }>;
  return result;
}

const NAMED_FLEET = `query ($inputs: [ServerItemInput!]!) {
  servers(inputs: $inputs) {
    count
    failed
    items { impacts(criteria: [gwp]) { embedded { ... on Impact { value } } use { ... on Impact { value } } } }
  }
}`;

describe("memoization of reference lookups", () => {
  it("every request reads its edition's one shared memo (no layer of its own)", () => {
    const first = createRequestContext(app.service, { spellError: graphqlErrorOf }).edition();
    const second = createRequestContext(app.service, { spellError: graphqlErrorOf }).edition();
    expect(first.lookups).toBe(edition124.sharedLookups);
    expect(second.lookups).toBe(first.lookups);
    expect(first.engine.lookups).toBe(first.lookups);
  });

  // A specs row with a TDP (240 W): the CPU power is fitted to the TDP points (§10.2 step 3).
  const NAME = "Intel Xeon Platinum 8175M";
  const inputs = Array.from({ length: 1000 }, () => ({ configuration: { cpu: { name: NAME } } }));

  it("1,000 servers with the same CPU name cause one name match (and one TDP fit)", async () => {
    const counter = countingLookups(directLookups(edition124.tables));
    const context: RequestContext = createRequestContext(app.service, {
      lookups: () => memoizedLookups(counter.lookups),
      spellError: graphqlErrorOf,
    });
    const byId = vi.spyOn(edition124.data.archetypes.server.byId, "get");
    const result = await run(context, NAMED_FLEET, { inputs });
    expect(result.errors).toBeUndefined();
    expect(result.data?.servers.count).toBe(1000);
    expect(result.data?.servers.failed).toBe(0);

    const names = counter.calls.get("cpuByName") ?? [];
    expect(names.filter(([name]) => name === NAME)).toHaveLength(1);
    // Every call reaching the matcher is for a distinct name.
    expect(new Set(names.map(([name]) => name)).size).toBe(names.length);
    const fits = counter.calls.get("tdpProfile") ?? [];
    expect(fits).toHaveLength(1);
    expect(fits[0][0]).toBe(240);
    // The archetype is read from its table once for the whole fleet (DataLoader).
    expect(byId.mock.calls.filter(([id]) => id === "platform_compute_medium")).toHaveLength(1);

    // All 1,000 items answer the same impacts.
    const first = JSON.stringify(result.data?.servers.items[0]);
    expect(result.data?.servers.items.every((item) => JSON.stringify(item) === first)).toBe(true);
  });

  it("control: without the memoizing layer every server matches the name again", async () => {
    const counter = countingLookups(directLookups(edition124.tables));
    const context: RequestContext = createRequestContext(app.service, {
      lookups: () => counter.lookups,
      spellError: graphqlErrorOf,
    });
    const result = await run(context, NAMED_FLEET, { inputs: inputs.slice(0, 50) });
    expect(result.errors).toBeUndefined();
    const names = counter.calls.get("cpuByName") ?? [];
    expect(names.filter(([name]) => name === NAME).length).toBeGreaterThanOrEqual(50);
  });
});

describe("nothing unselected is computed, at fleet scale", () => {
  it("a gwp-embedded batch of 1,000 servers runs exactly 1,000 phase computations and no verbose", async () => {
    const embedded = vi.spyOn(Server.prototype, "embeddedImpact");
    const use = vi.spyOn(Server.prototype, "useImpact");
    const verbose = vi.spyOn(Evaluation.prototype, "verbose");
    const impact = vi.spyOn(Evaluation.prototype, "impact");
    const inputs = Array.from({ length: 1000 }, (_, i) => (i % 2 === 0 ? {} : { archetype: "dellR740" }));
    const { data, errors } = await graphql(
      `query ($inputs: [ServerItemInput!]!) {
        servers(inputs: $inputs) {
          count
          items { impacts(criteria: [gwp]) { embedded { ... on Impact { value } } } }
          total(criteria: [gwp]) { embedded { value items } }
        }
      }`,
      { inputs },
    );
    expect(errors).toBeUndefined();
    expect(data.servers.count).toBe(1000);
    expect(data.servers.total[0].embedded.items).toBe(1000);

    expect(embedded).toHaveBeenCalledTimes(1000);
    expect(new Set(embedded.mock.calls.map((call) => call[0]))).toEqual(new Set(["gwp"]));
    expect(use).not.toHaveBeenCalled();
    expect(verbose).not.toHaveBeenCalled();
    // One evaluation per server (the total reuses the items' evaluations), one computation each.
    const evaluations = new Set(impact.mock.contexts as Evaluation[]);
    expect(evaluations.size).toBe(1000);
    let computations = 0;
    for (const evaluation of evaluations) computations += evaluation.computations;
    expect(computations).toBe(1000);
    for (const call of impact.mock.calls) {
      expect(call[0].info.name).toBe("gwp");
      expect(call[1]).toBe("embedded");
    }
  });

  it("selecting only count evaluates nothing", async () => {
    const embedded = vi.spyOn(Server.prototype, "embeddedImpact");
    const impact = vi.spyOn(Evaluation.prototype, "impact");
    const { data } = await graphql(
      "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count failed } }",
      { inputs: Array.from({ length: 1000 }, () => ({})) },
    );
    expect(data.servers).toEqual({ count: 1000, failed: 0 });
    expect(embedded).not.toHaveBeenCalled();
    expect(impact).not.toHaveBeenCalled();
  });
});

describe("a fleet's totals keep no evaluation past its use", () => {
  const CRITERIA = ["gwp", "adp", "pe", "ir", "lu", "adpf", "ctuh_c", "wu"];
  const inputs = Array.from({ length: 20 }, (_, i) => ({ configuration: { cpu: { units: 1 + (i % 3) } } }));

  /** A query of `aliases` totals (a distinct duration each), with the items' gwp if asked. */
  const totalsQuery = (aliases: number, items: boolean) =>
    `query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs, edition: V2_4_1) { count ${
      items ? "items { impacts(criteria: [gwp]) { embedded { ... on Impact { value } } } }" : ""
    } ${Array.from(
      { length: aliases },
      (_, i) =>
        `t${i}: total(criteria: [${CRITERIA.join(", ")}], duration: ${1000 + i}) { embedded { ${TOTAL} } use { ${TOTAL} } }`,
    ).join(" ")} } }`;

  /** The totals answered and the evaluations the request's memo holds once it is answered. */
  async function evaluationsKept(aliases: number, items = false) {
    const context = createRequestContext(app.service, { spellError: graphqlErrorOf });
    const memo = vi.spyOn(context.evaluations, "set");
    const result = await run(context, totalsQuery(aliases, items), { inputs });
    expect(result.errors).toBeUndefined();
    const kept = memo.mock.calls.reduce((sum, [, byOptions]) => sum + byOptions.size, 0);
    return { kept, data: result.data as unknown as { servers: Record<string, unknown> } };
  }

  it("30 aliased totals keep none, as one total keeps none; their sums are one total's", async () => {
    const one = await evaluationsKept(1);
    const thirty = await evaluationsKept(30);
    expect(one.kept).toBe(0);
    expect(thirty.kept).toBe(0);
    expect(thirty.data.servers.t0).toEqual(one.data.servers.t0);
    const [last] = thirty.data.servers.t29 as { embedded: { items: number; value: number } }[];
    const { embedded } = last;
    expect(embedded.items).toBe(inputs.length);
    expect(embedded.value).toBeGreaterThan(0);
  });

  it("control: items that select their impacts keep theirs, and the totals share them", async () => {
    const alone = await evaluationsKept(3);
    const withItems = await evaluationsKept(3, true);
    expect(withItems.kept).toBeGreaterThanOrEqual(inputs.length);
    expect(withItems.data.servers.t2).toEqual(alone.data.servers.t2);
  });

  it("items and one total: each item's evaluation is made once, read by both, then forgotten", async () => {
    const query = `query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs, edition: V2_4_1) {
      items { impacts(criteria: [gwp, adp]) { embedded { ${IMPACT} } use { ${IMPACT} } } }
      total(criteria: [gwp, adp]) { embedded { ${TOTAL} } use { ${TOTAL} } } } }`;
    const answer = async (forgetting: boolean) => {
      const context = createRequestContext(app.service, { spellError: graphqlErrorOf });
      const made = vi.spyOn(context.evaluations, "set");
      const forgotten = vi.spyOn(context.evaluations, "delete");
      const embedded = vi.spyOn(Server.prototype, "embeddedImpact");
      // The control: the same fleet whose memo forgets nothing answers the same.
      if (!forgetting) forgotten.mockImplementation(() => false);
      const result = await run(context, query, { inputs });
      expect(result.errors).toBeUndefined();
      // The last chunk is told of its completion after the microtasks that answered it.
      await new Promise((resolve) => setImmediate(resolve));
      const counts = { made: made.mock.calls.length, forgotten: forgotten.mock.calls.length };
      const computations = embedded.mock.calls.length;
      vi.restoreAllMocks();
      return { counts, computations, data: result.data };
    };
    const forgetting = await answer(true);
    const keeping = await answer(false);
    expect(forgetting.counts).toEqual({ made: inputs.length, forgotten: inputs.length });
    // Two criteria, one embedded computation each per item: none made twice.
    expect(forgetting.computations).toBe(2 * inputs.length);
    expect(keeping.computations).toBe(2 * inputs.length);
    expect(forgetting.data).toEqual(keeping.data);
  });
});
