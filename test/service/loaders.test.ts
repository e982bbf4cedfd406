/**
 * The request's reference loaders (src/service/loaders.ts): the keys asked for in one turn of the
 * event loop reach their table or matcher once per distinct key, in one batch; a batch of several
 * names is matched in the request's slices, a batch of one at once; a fleet asks once per distinct
 * key for the whole request.
 */
// The executor the service serves GraphQL with (graphql-yoga's): it completes a fleet's items
// handed out as an async iterable (src/schema/execution/scheduling.ts), which graphql-js's does not.
import { execute } from "@graphql-tools/executor";
import { type ExecutionResult, parse } from "graphql";
import { afterEach, describe, expect, it, vi } from "vitest";
import { directLookups, type ReferenceLookups } from "../../src/engine/lookups/lookups.js";
import { graphqlErrorOf } from "../../src/schema/errors.js";
import type { ChunkScheduler } from "../../src/service/eventLoopSlices.js";
import { ReferenceLoaders } from "../../src/service/loaders.js";
import type { EditionService } from "../../src/service/open.js";
import { createRequestContext } from "../../src/service/requestState.js";
import { lazy, sharedApp } from "../support/app.js";

const app = sharedApp();
const edition124 = lazy(() => app.service.editions.get("1.2.4") as EditionService);
const edition241 = lazy(() => app.service.editions.get("2.4.1") as EditionService);

afterEach(() => {
  vi.restoreAllMocks();
});

/** The edition's matcher, its CPU name matches counted. */
function countedLookups(served: EditionService): { lookups: ReferenceLookups; names: string[] } {
  const direct = directLookups(served.tables);
  const names: string[] = [];
  const lookups: ReferenceLookups = {
    ...direct,
    cpuByName: (name) => {
      names.push(name);
      return direct.cpuByName(name);
    },
  };
  return { lookups, names };
}

/**
 * A request whose slices run every item at once, its batches recorded (and whether it was made),
 * with `reserved` fleet items (a fleet by default: its keys are batched).
 */
function recordedRequest(reserved = 300) {
  const batches: unknown[][] = [];
  const scheduler: ChunkScheduler = {
    map: async (items, fn) => {
      batches.push([...items]);
      return items.map(fn);
    },
  };
  const request = {
    made: 0,
    fleetItems: { reserved },
    get chunks() {
      request.made += 1;
      return scheduler;
    },
  };
  return { request, batches };
}

const NAMES = ["Intel Xeon Gold 6134", "AMD EPYC 7763", "Intel Xeon Platinum 8280"];

describe("reference loaders", () => {
  it("match the distinct CPU names of 300 loads of one turn in one batch, once each", async () => {
    const counted = countedLookups(edition124);
    const { request, batches } = recordedRequest();
    const loaders = new ReferenceLoaders(edition124, counted.lookups, request);
    const rows = await Promise.all(Array.from({ length: 300 }, (_, i) => loaders.cpuName(NAMES[i % 3])));

    expect(batches).toEqual([NAMES]);
    expect(counted.names).toEqual(NAMES);
    const direct = directLookups(edition124.tables);
    expect(rows.map((row) => row?.name)).toEqual(
      Array.from({ length: 300 }, (_, i) => direct.cpuByName(NAMES[i % 3])?.name),
    );
    expect(rows[0]?.name).toBe("Intel Xeon Gold 6134");

    // The same names in a later turn are the request's cached answers: no batch, no match.
    await Promise.all(NAMES.map((name) => loaders.cpuName(name)));
    expect(batches).toHaveLength(1);
    expect(counted.names).toHaveLength(3);
  });

  it("match a batch of one name at once, without the request's slices", async () => {
    const counted = countedLookups(edition124);
    const { request, batches } = recordedRequest();
    const loaders = new ReferenceLoaders(edition124, counted.lookups, request);
    const row = await loaders.cpuName(NAMES[1]);

    expect(row?.name).toBe("AMD EPYC 7763");
    expect(counted.names).toEqual([NAMES[1]]);
    expect(batches).toEqual([]);
    expect(request.made).toBe(0);
    // No name, no loader and no match.
    expect(await loaders.cpuName(undefined)).toBeNull();
    expect(counted.names).toHaveLength(1);
  });

  it("read each distinct archetype of one turn from its table once", async () => {
    const { request } = recordedRequest();
    const table = edition124.data.archetypes.server;
    const reads = vi.spyOn(table.byId, "get");
    const loaders = new ReferenceLoaders(edition124, edition124.sharedLookups, request);
    const ids = ["dellR740", "platform_compute_medium", "no such server"];
    const rows = await Promise.all(
      Array.from({ length: 300 }, (_, i) => loaders.archetype(table, ids[i % 3])),
    );

    expect(reads.mock.calls.map(([id]) => id)).toEqual(ids);
    expect(rows.slice(0, 3).map((row) => row?.id ?? null)).toEqual([
      "dellR740",
      "platform_compute_medium",
      null,
    ]);
    expect(request.made).toBe(0);
  });

  it("match the distinct instance types of one turn in one batch, an approximate one with its warning", async () => {
    const { request, batches } = recordedRequest();
    const cloudTables = vi.spyOn(edition241.data.cloudInstances, "get");
    const loaders = new ReferenceLoaders(edition241, edition241.sharedLookups, request);
    const types = ["m5.xlarge", "a14xlarge", "c5.2xlarge"];
    const matches = await Promise.all(
      Array.from({ length: 300 }, (_, i) => loaders.instance("aws", types[i % 3])),
    );

    expect(batches).toEqual([types.map((instanceType) => ({ provider: "aws", instanceType }))]);
    expect(cloudTables).toHaveBeenCalledTimes(3);
    expect(matches.slice(0, 3).map((match) => match?.row.id)).toEqual([
      "m5.xlarge",
      "a1.xlarge",
      "c5.2xlarge",
    ]);
    expect(matches[1]?.warning).toBe(
      "Instance 'a14xlarge' not found; using closest match 'a1.xlarge' (fuzzy match)",
    );
    expect(matches[0]?.warning).toBeNull();
  });

  it("resolve a request without fleet items at once, each load on its own", async () => {
    const counted = countedLookups(edition241);
    const { request, batches } = recordedRequest(0);
    const loaders = new ReferenceLoaders(edition241, counted.lookups, request);
    const table = edition241.data.archetypes.server;
    const [cpu, again, archetype, instance] = await Promise.all([
      loaders.cpuName(NAMES[0]),
      loaders.cpuName(NAMES[0]),
      loaders.archetype(table, "dellR740"),
      loaders.instance("aws", "a14xlarge"),
    ]);

    expect([cpu?.name, again?.name]).toEqual(["Intel Xeon Gold 6134", "Intel Xeon Gold 6134"]);
    // No DataLoader: no batch, no request cache (the edition's shared memo answers the second).
    expect(counted.names).toEqual([NAMES[0], NAMES[0]]);
    expect(archetype?.id).toBe("dellR740");
    expect(instance?.row.id).toBe("a1.xlarge");
    expect(instance?.warning).toBe(
      "Instance 'a14xlarge' not found; using closest match 'a1.xlarge' (fuzzy match)",
    );
    expect(batches).toEqual([]);
    expect(request.made).toBe(0);
  });
});

const CLOUD_FLEET = `query ($inputs: [CloudInstanceItemInput!]!) {
  cloudInstances(inputs: $inputs, edition: V2_4_1) { count failed items { instanceType warnings } }
}`;

describe("a fleet through the loaders", () => {
  it("matches each distinct instance type once for the whole request, however its items are sliced", async () => {
    const context = createRequestContext(app.service, { spellError: graphqlErrorOf });
    const cloudTables = vi.spyOn(edition241.data.cloudInstances, "get");
    const types = ["m5.xlarge", "a14xlarge", "c5.2xlarge"];
    const inputs = Array.from({ length: 600 }, (_, i) => ({ provider: "aws", instanceType: types[i % 3] }));
    const result = (await execute({
      schema: app.schema,
      document: parse(CLOUD_FLEET),
      variableValues: { inputs },
      contextValue: context,
    })) as ExecutionResult<{
      cloudInstances: {
        count: number;
        failed: number;
        items: { instanceType: string; warnings: string[] }[];
      };
    }>;

    expect(result.errors).toBeUndefined();
    expect(result.data?.cloudInstances.count).toBe(600);
    expect(result.data?.cloudInstances.failed).toBe(0);
    expect(cloudTables).toHaveBeenCalledTimes(3);
    const items = result.data?.cloudInstances.items ?? [];
    expect(items[1]).toEqual({
      instanceType: "a1.xlarge",
      warnings: ["Instance 'a14xlarge' not found; using closest match 'a1.xlarge' (fuzzy match)"],
    });
    expect(items[599]).toEqual({ instanceType: "c5.2xlarge", warnings: [] });
  });
});
