/**
 * Selection independence: whatever a GraphQL client selects — any subset and
 * order of `embedded`/`use`, any order of criteria, verbose before, after or not at all, one
 * asset or a fleet, `total` included — each number is the one the REST route answers for the
 * same input (the full evaluation, in the reference's order).
 *
 * A property test (fast-check) over random servers, components, cloud instances, terminals and
 * fleets; run counts are kept small so the suite stays fast on a loaded machine.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";
import { call } from "../support/rest.js";

const app = sharedApp();
const graphql = graphqlClient(app);

type Phase = "embedded" | "use";
type Outcome = { value: number; min: number; max: number } | "not implemented";

/** What a client selects on an asset. */
interface Selection {
  readonly criteria: readonly string[];
  readonly phases: readonly Phase[];
  readonly verbose: "none" | "before" | "after";
}

/** Criteria whose order, subsets and phases change lazily completed attributes. */
const CRITERIA_POOL = ["gwp", "adp", "pe", "ir", "lu", "adpf"];

const selectionArb: fc.Arbitrary<Selection> = fc.record({
  criteria: fc.shuffledSubarray(CRITERIA_POOL, { minLength: 1, maxLength: 4 }),
  phases: fc.shuffledSubarray<Phase>(["embedded", "use"], { minLength: 1 }),
  verbose: fc.constantFrom<Selection["verbose"]>("none", "before", "after"),
});

const usageArb = fc.record(
  {
    usageLocation: fc.constantFrom("FRA", "DEU", "USA", "EEE", "XYZ"),
    timeWorkload: fc.integer({ min: 0, max: 100 }),
    avgPower: fc.integer({ min: 10, max: 500 }),
    hoursLifeTime: fc.integer({ min: 8760, max: 52560 }),
    yearsUseTime: fc.integer({ min: 1, max: 4 }),
  },
  { requiredKeys: [] },
);

const cpuArb = fc.record(
  {
    name: fc.constantFrom("Intel Xeon Gold 6134", "AMD EPYC 7763", "Intel Xeon Platinum 8280", "xeon gold"),
    units: fc.integer({ min: 1, max: 4 }),
    coreUnits: fc.integer({ min: 4, max: 64 }),
    family: fc.constantFrom("Skylake", "skylak", "Cascade Lake"),
    tdp: fc.integer({ min: 80, max: 280 }),
  },
  // A named CPU is completed lazily (the case that made numbers depend on the selection).
  { requiredKeys: ["name"] },
);

const ramArb = fc.record(
  { units: fc.integer({ min: 1, max: 16 }), capacity: fc.constantFrom(8, 16, 32, 64) },
  { requiredKeys: [] },
);

const diskArb = fc.record(
  {
    type: fc.constantFrom("ssd", "hdd"),
    units: fc.integer({ min: 1, max: 4 }),
    capacity: fc.constantFrom(256, 1000, 4000),
  },
  { requiredKeys: [] },
);

const serverArb = fc.record(
  {
    archetype: fc.constantFrom("platform_compute_medium", "platform_memory_low", "dellR740", "c5.18xlarge"),
    configuration: fc.record(
      {
        // Half the servers name their CPU and nothing more (its completion is what a selection
        // could change); the others describe it at random.
        cpu: fc.oneof(fc.record({ name: cpuArb.map((cpu) => cpu.name) }), cpuArb),
        ram: fc.array(ramArb, { maxLength: 2 }),
        disk: fc.array(diskArb, { maxLength: 2 }),
      },
      { requiredKeys: ["cpu"] },
    ),
    usage: fc.oneof(fc.record({ usageLocation: fc.constantFrom("FRA", "XYZ") }), usageArb),
  },
  { requiredKeys: ["configuration"] },
);

/** CPUs weigh most: their lazy completion is what a selection could change. */
const componentArb = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant("cpu" as const),
      // Half the CPUs are a bare name (with at most a location): the shape whose completion used
      // to depend on the selection.
      input: fc.oneof(
        fc.record(
          { name: cpuFields().name, usage: fc.record({ usageLocation: fc.constantFrom("FRA", "XYZ") }) },
          { requiredKeys: ["name"] },
        ),
        fc.record({ ...cpuFields(), usage: usageArb }, { requiredKeys: ["name"] }),
      ),
    }),
  },
  fc.record({
    kind: fc.constant("ram" as const),
    input: fc.record(
      { units: fc.integer({ min: 1, max: 8 }), capacity: fc.constantFrom(16, 32), usage: usageArb },
      { requiredKeys: [] },
    ),
  }),
  fc.record({
    kind: fc.constant("ssd" as const),
    input: fc.record({ capacity: fc.constantFrom(256, 1000), usage: usageArb }, { requiredKeys: [] }),
  }),
  fc.record({
    kind: fc.constant("hdd" as const),
    input: fc.record({ units: fc.integer({ min: 1, max: 3 }), usage: usageArb }, { requiredKeys: [] }),
  }),
);

function cpuFields() {
  return {
    name: fc.constantFrom("Intel Xeon Gold 6134", "AMD EPYC 7763", "xeon gold"),
    units: fc.integer({ min: 1, max: 3 }),
    coreUnits: fc.integer({ min: 4, max: 64 }),
    family: fc.constantFrom("Skylake", "skylak"),
  };
}

const cloudArb = fc.record({
  instanceType: fc.constantFrom(
    "a1.4xlarge",
    "m5.xlarge",
    "c5.large",
    "r5n.4xlarge",
    "d3en.2xlarge",
    "c6gd.4xlarge",
  ),
  usage: fc.option(usageArb, { nil: undefined }),
});

/** `type` only applies to the kinds whose factors depend on it. */
const terminalArb = fc.oneof(
  fc.record({
    kind: fc.constantFrom("laptop", "desktop", "television"),
    type: fc.option(fc.constantFrom("pro", "perso"), { nil: undefined }),
    usage: fc.option(usageArb, { nil: undefined }),
  }),
  fc.record({
    kind: fc.constantFrom("smartphone", "tablet", "box"),
    usage: fc.option(usageArb, { nil: undefined }),
  }),
);

/** The v1 (snake_case) spelling of a GraphQL input. */
function snakeCase(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(snakeCase);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`),
      snakeCase(inner),
    ]),
  );
}

function withoutUndefined<T extends object>(value: T): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

function outcomeOf(phase: unknown): Outcome {
  if (phase === "not implemented" || (typeof phase === "object" && phase !== null && "reason" in phase)) {
    return "not implemented";
  }
  const { value, min, max } = phase as { value: number; min: number; max: number };
  return { value, min, max };
}

/** The impacts the REST route answers (verbose=false: the full evaluation of the criteria). */
async function restImpacts(url: string, body: unknown, criteria: readonly string[]) {
  const query = criteria.map((c) => `criteria=${c}`).join("&");
  const answer = await call(
    app,
    "POST",
    `${url}${url.includes("?") ? "&" : "?"}verbose=false&${query}`,
    body,
  );
  expect(answer.status).toBe(200);
  return answer.body.impacts as Record<string, Record<Phase, unknown>>;
}

const PHASE_FIELDS = "... on Impact { value min max } ... on NotImplemented { reason }";

function assetSelection(selection: Selection): string {
  const criteria = `[${selection.criteria.join(", ")}]`;
  const phases = selection.phases.map((phase) => `${phase} { ${PHASE_FIELDS} }`).join(" ");
  const impacts = `impacts(criteria: ${criteria}) { criterion ${phases} }`;
  const verbose = `verbose(criteria: ${criteria}) { duration attributes { name } }`;
  if (selection.verbose === "before") return `${verbose} ${impacts}`;
  if (selection.verbose === "after") return `${impacts} ${verbose}`;
  return impacts;
}

interface GraphQLImpact {
  readonly criterion: string;
  readonly embedded?: unknown;
  readonly use?: unknown;
}

/** Every selected number equals the REST route's number for the same criterion and phase. */
function expectSameAsRest(
  impacts: readonly GraphQLImpact[],
  rest: Record<string, Record<Phase, unknown>>,
  selection: Selection,
) {
  expect(impacts.map((i) => i.criterion)).toEqual(selection.criteria);
  for (const impact of impacts) {
    for (const phase of selection.phases) {
      expect(outcomeOf(impact[phase]), `${impact.criterion} ${phase}`).toEqual(
        outcomeOf(rest[impact.criterion][phase]),
      );
    }
  }
}

/** Runs per asset kind: enough to meet the selection-sensitive shapes, few enough for a loaded machine. */
const RUNS = { numRuns: 25 };

describe("selection independence: GraphQL answers the REST numbers whatever is selected", () => {
  it("a two-CPU server in France: use alone, use before embedded and a fleet total give the REST figure", async () => {
    const input = {
      configuration: { cpu: { name: "Intel Xeon Gold 6134", units: 2 } },
      usage: { usageLocation: "FRA" },
    };
    const rest = await restImpacts("/v1/server/", snakeCase(input), ["gwp"]);
    expect(outcomeOf(rest.gwp.use)).toMatchObject({ value: 1200 });
    const { data, errors } = await graphql(
      `query ($input: ServerInput, $inputs: [ServerItemInput!]!) {
        a: server(input: $input) { impacts(criteria: [gwp]) { use { ${PHASE_FIELDS} } } }
        b: server(input: $input) { impacts(criteria: [gwp]) { use { ${PHASE_FIELDS} } embedded { ${PHASE_FIELDS} } } }
        fleet: servers(inputs: $inputs) { total(criteria: [gwp]) { use { value min max } } }
      }`,
      { input, inputs: [input, input] },
    );
    expect(errors).toBeUndefined();
    expect(outcomeOf(data.a.impacts[0].use)).toEqual(outcomeOf(rest.gwp.use));
    expect(outcomeOf(data.b.impacts[0].use)).toEqual(outcomeOf(rest.gwp.use));
    expect(outcomeOf(data.b.impacts[0].embedded)).toEqual(outcomeOf(rest.gwp.embedded));
    expect(data.fleet.total[0].use.value).toBe(2400);
  });

  it("a CPU component by name: use alone gives the REST figure", async () => {
    const input = { name: "Intel Xeon Gold 6134" };
    const rest = await restImpacts("/v1/component/cpu", snakeCase(input), ["gwp"]);
    expect(outcomeOf(rest.gwp.use)).toMatchObject({ value: 900 });
    const { data, errors } = await graphql(
      `query ($input: CpuInput) { cpu(input: $input) { impacts(criteria: [gwp]) { use { ${PHASE_FIELDS} } } } }`,
      { input },
    );
    expect(errors).toBeUndefined();
    expect(outcomeOf(data.cpu.impacts[0].use)).toEqual(outcomeOf(rest.gwp.use));
  });

  it("servers", async () => {
    await fc.assert(
      fc.asyncProperty(serverArb, selectionArb, async (server, selection) => {
        const { archetype, ...input } = withoutUndefined(server);
        const rest = await restImpacts(
          `/v1/server/${archetype ? `?archetype=${archetype}` : ""}`,
          snakeCase(input),
          selection.criteria,
        );
        const { data, errors } = await graphql(
          `query ($archetype: String, $input: ServerInput) {
            asset: server(archetype: $archetype, input: $input) { ${assetSelection(selection)} }
          }`,
          { archetype, input },
        );
        expect(errors).toBeUndefined();
        expectSameAsRest(data.asset.impacts, rest, selection);
      }),
      { numRuns: 50 },
    );
  });

  it("components", async () => {
    await fc.assert(
      fc.asyncProperty(componentArb, selectionArb, async ({ kind, input: raw }, selection) => {
        const input = withoutUndefined(raw);
        const rest = await restImpacts(`/v1/component/${kind}`, snakeCase(input), selection.criteria);
        const type = { cpu: "CpuInput", ram: "RamInput", ssd: "DiskInput", hdd: "SimpleComponentInput" }[
          kind
        ];
        const { data, errors } = await graphql(
          `query ($input: ${type}) { asset: ${kind}(input: $input) { ${assetSelection(selection)} } }`,
          { input },
        );
        expect(errors).toBeUndefined();
        expectSameAsRest(data.asset.impacts, rest, selection);
      }),
      RUNS,
    );
  });

  it("cloud instances", async () => {
    await fc.assert(
      fc.asyncProperty(cloudArb, selectionArb, async (instance, selection) => {
        const { instanceType, usage } = withoutUndefined(instance);
        const body = {
          provider: "aws",
          instance_type: instanceType,
          ...(usage ? { usage: snakeCase(usage) } : {}),
        };
        const rest = await restImpacts("/v1/cloud/instance", body, selection.criteria);
        const { data, errors } = await graphql(
          `query ($type: String!, $usage: UsageInput) {
            asset: cloudInstance(instanceType: $type, usage: $usage) { ${assetSelection(selection)} }
          }`,
          { type: instanceType, usage },
        );
        expect(errors).toBeUndefined();
        expectSameAsRest(data.asset.impacts, rest, selection);
      }),
      RUNS,
    );
  });

  it("terminals", async () => {
    await fc.assert(
      fc.asyncProperty(terminalArb, selectionArb, async (terminal, selection) => {
        const { kind, ...input } = withoutUndefined(terminal);
        const rest = await restImpacts(`/v1/terminal/${kind}`, snakeCase(input), selection.criteria);
        const { data, errors } = await graphql(
          `query ($kind: TerminalKind!, $input: TerminalInput) {
            asset: terminal(kind: $kind, input: $input) { ${assetSelection(selection)} }
          }`,
          { kind, input },
        );
        expect(errors).toBeUndefined();
        expectSameAsRest(data.asset.impacts, rest, selection);
      }),
      RUNS,
    );
  });

  it("fleets: items and totals, whatever the selection, equal the full evaluation", async () => {
    const fleetArb = fc.record({
      servers: fc.array(serverArb, { minLength: 1, maxLength: 3 }),
      selection: selectionArb,
      totalFirst: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fleetArb, async ({ servers, selection, totalFirst }) => {
        const inputs = servers.map((server) => withoutUndefined(server));
        const criteria = `[${selection.criteria.join(", ")}]`;
        const phases = (fields: string) =>
          selection.phases.map((phase) => `${phase} { ${fields} }`).join(" ");
        const total = `total(criteria: ${criteria}) { criterion ${phases("value min max")} }`;
        const items = `items { ${assetSelection(selection)} }`;
        const { data, errors } = await graphql(
          `query ($inputs: [ServerItemInput!]!) { fleet: servers(inputs: $inputs) { ${totalFirst ? `${total} ${items}` : `${items} ${total}`} } }`,
          { inputs },
        );
        expect(errors).toBeUndefined();
        // The full evaluation: every phase of every item, in the reference's order, then the total.
        const full = await graphql(
          `query ($inputs: [ServerItemInput!]!) {
            fleet: servers(inputs: $inputs) {
              items { verbose(criteria: ${criteria}) { duration } impacts(criteria: ${criteria}) { criterion v1 } }
              total(criteria: ${criteria}) { criterion embedded { value min max } use { value min max } }
            }
          }`,
          { inputs },
        );
        expect(full.errors).toBeUndefined();
        expect(data.fleet.total.length).toBe(selection.criteria.length);
        for (const [index, criterionTotal] of data.fleet.total.entries()) {
          for (const phase of selection.phases) {
            expect(criterionTotal[phase]).toEqual(full.data.fleet.total[index][phase]);
          }
        }
        for (const [index, server] of inputs.entries()) {
          const { archetype, ...input } = server;
          const rest = await restImpacts(
            `/v1/server/${archetype ? `?archetype=${archetype}` : ""}`,
            snakeCase(input),
            selection.criteria,
          );
          expectSameAsRest(data.fleet.items[index].impacts, rest, selection);
        }
      }),
      { numRuns: 10 },
    );
  });
});
