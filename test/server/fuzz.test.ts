/**
 * HTTP-level fuzzing through the real server (fast-check): malformed request targets, big
 * bodies, long strings, wrong types, odd numbers (denormals, overflows, -0), GraphQL documents
 * and variables. Whatever the request, the answer is complete and never a 5xx. A failure prints
 * the shrunk request, and its seed replays it.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { send } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

/** Small enough for "big body" cases to cost little; large enough for every legitimate case here. */
const BODY_LIMIT = 32 * 1024;
let service: TestServer;

beforeAll(async () => {
  service = await startTestServer({ MAX_BODY_BYTES: BODY_LIMIT });
});
afterAll(async () => {
  await service.close();
});

const ROUTES = [
  "/",
  "/v1/server/",
  "/v1/server/archetypes",
  "/v1/server/archetype_config",
  "/v1/component/cpu",
  "/v1/component/ram",
  "/v1/component/ssd",
  "/v1/component/hdd",
  "/v1/component/case",
  "/v1/component/motherboard",
  "/v1/component/power_supply",
  "/v1/cloud/instance",
  "/v1/cloud/aws",
  "/v1/cloud/instance/all_instances",
  "/v1/cloud/instance/instance_config",
  "/v1/terminal/laptop",
  "/v1/terminal/smartphone",
  "/v1/peripheral/monitor",
  "/v1/iot/iot_device",
  "/v1/consumption_profile/cpu",
  "/v1/utils/name_to_cpu",
  "/v1/utils/country_code",
  "/graphql",
];

/** Odd values as JSON text (so overflows such as 1e309 reach the server as written). */
const ODD_JSON = fc.constantFrom(
  "1e309",
  "-1e309",
  "5e-324",
  "1e-320",
  "-0",
  "0",
  "1",
  "-1",
  "0.5",
  "100",
  "101",
  "1e30",
  "1e31",
  "2147483648",
  "9007199254740993",
  '"12"',
  '"abc"',
  '"1e309"',
  '""',
  "null",
  "true",
  "[]",
  "{}",
  '[{"load_percentage": 50, "power_watt": 5e-324}]',
  '"FRA"',
  '"Intel Xeon Gold 6134"',
);

const longText = fc.integer({ min: 50, max: 400 }).map((n) => JSON.stringify("x".repeat(n)));
const oddValue = fc.oneof({ weight: 5, arbitrary: ODD_JSON }, { weight: 1, arbitrary: longText });

const KEYS = [
  "units",
  "capacity",
  "density",
  "name",
  "family",
  "manufacturer",
  "core_units",
  "tdp",
  "unit_weight",
  "case_type",
  "type",
  "provider",
  "instance_type",
  "usage_location",
  "hours_life_time",
  "avg_power",
  "time_workload",
  "use_time_ratio",
  "years_use_time",
  "load_percentage",
  "power_watt",
];

/** A JSON object text of odd values under known keys, nested a few levels. */
const oddObject: fc.Arbitrary<string> = fc.letrec<{ object: string }>((tie) => ({
  object: fc
    .array(
      fc.tuple(
        fc.constantFrom(
          ...KEYS,
          "configuration",
          "cpu",
          "ram",
          "disk",
          "power_supply",
          "usage",
          "model",
          "workload",
        ),
        fc.oneof(
          { depthSize: "small", withCrossShrink: true },
          oddValue,
          tie("object"),
          tie("object").map((o) => `[${o}]`),
        ),
      ),
      { maxLength: 5 },
    )
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(", ")}}`),
})).object;

const body = fc.oneof(
  { weight: 6, arbitrary: oddObject },
  { weight: 1, arbitrary: fc.json() },
  { weight: 1, arbitrary: fc.string({ maxLength: 200 }) },
  // Past the body limit.
  {
    weight: 1,
    arbitrary: fc.integer({ min: BODY_LIMIT + 1, max: 3 * BODY_LIMIT }).map((n) => " ".repeat(n)),
  },
);

/** Request-target characters that node:http sends as they are (printable ASCII). */
const segment = fc.oneof(
  fc.constantFrom(
    "v1",
    "server",
    "cloud",
    "component",
    "cpu",
    "aws",
    "%",
    "%E0%A4%A",
    "%ZZ",
    "%2F",
    "..",
    ".",
    "",
    "graphql",
  ),
  fc.stringMatching(/^[A-Za-z0-9._~%!$&'()*+,;=:@-]{0,12}$/),
);

const QUERY_KEYS = [
  "verbose",
  "criteria",
  "duration",
  "archetype",
  "allocation",
  "provider",
  "instance_type",
  "cpu_name",
  "query",
];
const QUERY_VALUES = [
  "1e309",
  "-1",
  "NaN",
  "",
  "5e-324",
  "%",
  "%E0%A4%A",
  "true",
  "gwp",
  "TOTAL",
  "dellR740",
  "x".repeat(300),
];

const query = fc
  .array(fc.tuple(fc.constantFrom(...QUERY_KEYS), fc.constantFrom(...QUERY_VALUES)), { maxLength: 4 })
  .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`));

const target = fc.oneof(
  fc.tuple(fc.constantFrom(...ROUTES), query).map(([path, q]) => path + q),
  fc.tuple(fc.array(segment, { maxLength: 5 }), query).map(([segments, q]) => `/${segments.join("/")}${q}`),
  fc.constantFrom("//", "///v1/server", "//host:1/x", "/v1/cloud/%E0%A4%A", "/%", "/?%"),
);

function expectAnswered(answer: { status: number; text: string }, request: unknown): void {
  expect(answer.status, JSON.stringify(request).slice(0, 500)).toBeGreaterThanOrEqual(200);
  expect(answer.status, JSON.stringify(request).slice(0, 500)).toBeLessThan(500);
}

describe("HTTP fuzzing: no 5xx, no hang", () => {
  it("REST and anything else: random methods, targets and bodies", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom("GET", "POST", "PUT", "DELETE", "OPTIONS"),
        target,
        fc.option(body),
        async (method, path, text) => {
          const request = { method, path, body: text ?? undefined };
          expectAnswered(await send(service.port, request), request);
        },
      ),
      { numRuns: 500 },
    );
  }, 120_000);

  const DOCUMENTS = [
    "query ($input: ServerInput) { server(input: $input) { impacts { criterion embedded { ... on Impact { value min max } } use { ... on Impact { value } } } } }",
    "query ($input: CpuInput) { cpu(input: $input) { impacts(criteria: [gwp]) { embedded { __typename } } verbose { duration } } }",
    "query ($d: Float, $c: [Criterion!]) { server { impacts(duration: $d, criteria: $c) { criterion use { __typename } } } }",
    "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count failed total { criterion embedded { value } } } }",
    "query ($n: String!) { cpuByName(name: $n) { name } }",
    "query ($cpu: ProfileCpuInput, $w: [WorkloadPointInput!]) { consumptionProfile(cpu: $cpu, workload: $w) { a b c d power(workload: 50) } }",
    "query ($p: String, $t: String, $u: UsageInput) { cloudInstance(provider: $p, instanceType: $t, usage: $u) { impacts { criterion } } }",
  ];
  /** Variables in GraphQL's camelCase, with odd values. */
  const GRAPHQL_KEYS = [
    "input",
    "inputs",
    "configuration",
    "cpu",
    "ram",
    "usage",
    "units",
    "name",
    "family",
    "usageLocation",
    "hoursLifeTime",
    "avgPower",
    "unitWeight",
    "d",
    "c",
    "n",
    "w",
    "p",
    "t",
    "u",
    "loadPercentage",
    "powerWatt",
  ];
  const variables = fc
    .array(
      fc.tuple(
        fc.constantFrom(...GRAPHQL_KEYS),
        fc.oneof(
          oddValue,
          oddObject,
          oddObject.map((o) => `[${o}]`),
        ),
      ),
      { maxLength: 4 },
    )
    .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}: ${v}`).join(", ")}}`);
  const document = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...DOCUMENTS) },
    // A document cut anywhere.
    {
      weight: 1,
      arbitrary: fc.tuple(fc.constantFrom(...DOCUMENTS), fc.nat()).map(([d, n]) => d.slice(0, n % d.length)),
    },
    { weight: 1, arbitrary: fc.string({ maxLength: 100 }) },
  );

  it("GraphQL: documents, cut documents and garbage, with odd variables", async () => {
    await fc.assert(
      fc.asyncProperty(document, variables, async (doc, vars) => {
        const request = { path: "/graphql", body: `{"query": ${JSON.stringify(doc)}, "variables": ${vars}}` };
        const answer = await send(service.port, request);
        expectAnswered(answer, request);
        expect(answer.text).not.toContain("Unexpected error");
      }),
      { numRuns: 500 },
    );
  }, 120_000);
});
