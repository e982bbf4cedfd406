/**
 * Abuse protection on /graphql (graphql-armor, `GRAPHQL_LIMITS`): a document just past each limit
 * is refused with a clear message, one at the limit is accepted, and a realistic fleet query (the
 * fleet travels in variables) stays far below every limit. Unexpected resolver errors are masked.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { GRAPHQL_LIMITS } from "../../src/app/main.js";
import { Server } from "../../src/engine/assets/server.js";
import { sharedApp } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";

const app = sharedApp();

const graphql = graphqlClient(app);

afterEach(() => {
  vi.restoreAllMocks();
});

/** `{ ... on Query { ... on Query { … __typename } } }`: depth `n` (each fragment is a level). */
function depthQuery(n: number): string {
  return `{ ${"... on Query { ".repeat(n - 1)}__typename${" }".repeat(n - 1)} }`;
}

/** `n` aliased fields. */
function aliasQuery(n: number): string {
  return `{ ${Array.from({ length: n }, (_, i) => `a${i}: serverArchetypes`).join(" ")} }`;
}

/** `n` directives, one per (merged) field. */
function directiveQuery(n: number): string {
  return `{ ${Array.from({ length: n }, () => "__typename @include(if: true)").join(" ")} }`;
}

/**
 * Exactly `n` lexical tokens: 22 of structure plus `n − 22` list values. The field is skipped, so
 * a document that passes the token limit costs nothing to execute.
 */
function tokenQuery(n: number): string {
  return `{ server @skip(if: true) { impacts(criteria: [${"gwp ".repeat(n - 22)}]) { criterion } } }`;
}

/** `k` nested inline fragments around `n` scalar selections. */
function costQuery(k: number, n: number): string {
  return `{ ${"... on Query { ".repeat(k)}${"__typename ".repeat(n)}${"} ".repeat(k)}}`;
}

/**
 * graphql-armor's cost of `costQuery(k, n)` with its defaults (scalar 1, object 2, depth factor
 * 1.5; an inline fragment costs like an object): f₁ = 2 + 1.5·n, f₍ⱼ₊₁₎ = 2 + 1.5·fⱼ.
 */
function armorCost(k: number, n: number): number {
  let cost = 2 + 1.5 * n;
  for (let j = 1; j < k; j++) cost = 2 + 1.5 * cost;
  return cost;
}

const FRAGMENTS = 10;
/** The fewest selections that put `costQuery(FRAGMENTS, n)` past the cost limit. */
const OVER_COST = (() => {
  let n = 1;
  while (armorCost(FRAGMENTS, n) <= GRAPHQL_LIMITS.maxCost) n++;
  return n;
})();

interface LimitCase {
  readonly limit: string;
  readonly atLimit: string;
  readonly pastLimit: string;
  readonly message: string | RegExp;
}

const LIMITS: readonly LimitCase[] = [
  {
    limit: "depth",
    atLimit: depthQuery(GRAPHQL_LIMITS.maxDepth),
    pastLimit: depthQuery(GRAPHQL_LIMITS.maxDepth + 1),
    message: `Query depth limit of ${GRAPHQL_LIMITS.maxDepth} exceeded, found ${GRAPHQL_LIMITS.maxDepth + 1}.`,
  },
  {
    limit: "aliases",
    atLimit: aliasQuery(GRAPHQL_LIMITS.maxAliases),
    pastLimit: aliasQuery(GRAPHQL_LIMITS.maxAliases + 1),
    message: `Aliases limit of ${GRAPHQL_LIMITS.maxAliases} exceeded, found ${GRAPHQL_LIMITS.maxAliases + 1}.`,
  },
  {
    limit: "tokens",
    atLimit: tokenQuery(GRAPHQL_LIMITS.maxTokens),
    pastLimit: tokenQuery(GRAPHQL_LIMITS.maxTokens + 1),
    message: `Token limit of ${GRAPHQL_LIMITS.maxTokens} exceeded.`,
  },
  {
    limit: "cost",
    atLimit: costQuery(FRAGMENTS, OVER_COST - 1),
    pastLimit: costQuery(FRAGMENTS, OVER_COST),
    message: `Query Cost limit of ${GRAPHQL_LIMITS.maxCost} exceeded, found ${armorCost(FRAGMENTS, OVER_COST)}.`,
  },
  {
    limit: "directives",
    atLimit: directiveQuery(GRAPHQL_LIMITS.maxDirectives),
    pastLimit: directiveQuery(GRAPHQL_LIMITS.maxDirectives + 1),
    message: `Directives limit of ${GRAPHQL_LIMITS.maxDirectives} exceeded, found ${GRAPHQL_LIMITS.maxDirectives + 1}.`,
  },
];

describe("GRAPHQL_LIMITS", () => {
  it("are the documented values", () => {
    expect(GRAPHQL_LIMITS).toEqual({
      maxDepth: 15,
      maxAliases: 30,
      maxTokens: 20_000,
      maxCost: 20_000,
      maxDirectives: 50,
    });
    // The cost probe is just past the limit: one selection fewer is under it.
    expect(armorCost(FRAGMENTS, OVER_COST)).toBeGreaterThan(GRAPHQL_LIMITS.maxCost);
    expect(armorCost(FRAGMENTS, OVER_COST - 1)).toBeLessThanOrEqual(GRAPHQL_LIMITS.maxCost);
  });

  it.each(LIMITS)("$limit: a document at the limit is accepted", async ({ atLimit }) => {
    const { status, errors, data } = await graphql(atLimit);
    expect(errors).toBeUndefined();
    expect(status).toBe(200);
    expect(data).toBeDefined();
  });

  it.each(LIMITS)("$limit: a document just past the limit is refused, naming the limit", async (c) => {
    const { status, errors, data } = await graphql(c.pastLimit);
    // application/json (the default answer type): errors are reported with HTTP 200.
    expect(status).toBe(200);
    expect(data ?? null).toBeNull();
    expect(errors).toHaveLength(1);
    expect(errors?.[0].message).toEqual(c.message);
  });

  it("tokens: the parse failure is a 400 for a GraphQL-over-HTTP client", async () => {
    const { status, errors } = await graphql(
      tokenQuery(GRAPHQL_LIMITS.maxTokens + 1),
      undefined,
      "application/graphql-response+json",
    );
    expect(status).toBe(400);
    expect(errors?.[0].extensions?.code).toBe("GRAPHQL_PARSE_FAILED");
  });

  // Every limit is a validation failure: 400 with GRAPHQL_VALIDATION_FAILED for GraphQL-over-HTTP clients.
  it.each(LIMITS.filter((c) => c.limit !== "tokens"))(
    "$limit: refused as a validation failure (400, GRAPHQL_VALIDATION_FAILED) for a GraphQL-over-HTTP client",
    async (c) => {
      const { status, errors } = await graphql(c.pastLimit, undefined, "application/graphql-response+json");
      expect(errors?.[0].message).toEqual(c.message);
      expect(errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
      expect(status).toBe(400);
    },
  );
});

const IMPACT = "__typename ... on Impact { value min max warnings } ... on NotImplemented { reason }";
const ATTRIBUTE = "name value status unit source min max hasMin hasMax warnings";
const TOTAL = "value min max warnings items notImplemented";

/** A fleet report: impacts, full verbose and totals of every server (the fleet is a variable). */
const FLEET = `query Fleet($inputs: [ServerItemInput!]!, $criteria: [Criterion!]) {
  servers(inputs: $inputs) {
    count
    failed
    items {
      archetype
      impacts(criteria: $criteria) { criterion unit description embedded { ${IMPACT} } use { ${IMPACT} } }
      verbose(criteria: $criteria) {
        duration
        attributes { ${ATTRIBUTE} }
        components {
          key
          duration
          attributes { ${ATTRIBUTE} }
          impacts { criterion unit description embedded { ${IMPACT} } use { ${IMPACT} } }
        }
      }
    }
    total(criteria: $criteria) { criterion unit description embedded { ${TOTAL} } use { ${TOTAL} } }
  }
}`;

describe("a realistic fleet query", () => {
  it("1,000 servers with verbose selected pass every limit", async () => {
    const inputs = Array.from({ length: 1000 }, (_, i) =>
      i % 2 === 0
        ? { archetype: "dellR740", usage: { usageLocation: "FRA" } }
        : { configuration: { cpu: { name: "intel xeon gold 6134", units: 2 } } },
    );
    const { status, errors, data } = await graphql(FLEET, { inputs, criteria: ["gwp", "adp", "pe"] });
    expect(errors).toBeUndefined();
    expect(status).toBe(200);
    const fleet = data.servers;
    expect(fleet.count).toBe(1000);
    expect(fleet.failed).toBe(0);
    expect(fleet.items).toHaveLength(1000);
    expect(fleet.items[0].verbose.components.map((c: { key: string }) => c.key)).toContain("CPU-1");
    expect(fleet.total.map((t: { criterion: string }) => t.criterion)).toEqual(["gwp", "adp", "pe"]);
    expect(fleet.total[0].embedded.items).toBe(1000);
    // Identical inputs give identical answers.
    expect(fleet.items[2]).toEqual(fleet.items[0]);
    expect(fleet.items[3]).toEqual(fleet.items[1]);
  });
});

describe("a body read in steps (64 K characters and more: src/support/steppedJson.ts)", () => {
  const inputs = Array.from({ length: 2_000 }, (_, i) => ({
    archetype: "dellR740",
    usage: { usageLocation: ["FRA", "DEU"][i % 2] },
  }));
  const body = JSON.stringify({
    query: "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count failed } }",
    variables: { inputs },
  });
  const post = (text: string) =>
    app.yoga.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: text,
    });

  it("answers the fleet it holds", async () => {
    expect(body.length).toBeGreaterThan(64 * 1024);
    const answer = await post(body);
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ data: { servers: { count: 2_000, failed: 0 } } });
  });

  it("refuses it with the fixed message when one character in its middle breaks it", async () => {
    const middle = body.indexOf(":", body.length / 2);
    const answer = await post(`${body.slice(0, middle)};${body.slice(middle + 1)}`);
    expect(answer.status).toBe(400);
    expect(((await answer.json()) as { errors: { message: string }[] }).errors[0].message).toBe(
      "POST body sent invalid JSON.",
    );
  });
});

describe("masked errors", () => {
  it("an unexpected resolver error is masked; its message does not leak", async () => {
    vi.spyOn(Server.prototype, "embeddedImpact").mockImplementation(() => {
      throw new Error("secret internal detail");
    });
    // Yoga logs the original error, with its stack, on the server side (the service's logger).
    const log = vi.spyOn(app.logger, "error").mockImplementation(() => {});
    const { status, text, errors } = await graphql(
      "{ server { impacts(criteria: [gwp]) { embedded { ... on Impact { value } } } } }",
    );
    expect(status).toBe(200);
    expect(errors).toHaveLength(1);
    expect(errors?.[0].message).toBe("Unexpected error.");
    expect(errors?.[0].path).toEqual(["server", "impacts", 0, "embedded"]);
    expect(text).not.toContain("secret");
    expect(log).toHaveBeenCalled();
    const logged = JSON.stringify(log.mock.calls, (_key, value) =>
      value instanceof Error ? { message: value.message, stack: value.stack } : value,
    );
    expect(logged).toContain("secret internal detail");
  });

  it("errors raised on purpose keep their message and code", async () => {
    const { errors } = await graphql('{ server(archetype: "nope") { archetype } }');
    expect(errors?.[0].message).toBe("nope not found");
    expect(errors?.[0].extensions?.code).toBe("NOT_FOUND");
  });
});
