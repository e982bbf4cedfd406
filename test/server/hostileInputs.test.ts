/**
 * The input side: no input costs more than reading it. Each hostile input below is
 * sent to the real HTTP server and answered with a clear 4xx naming the limit (never a 5xx), and
 * the bound is shown to come before the work: the refusal names the bound rather than the
 * consequences of the work, the answer stays small, counters of the work done (the fleet
 * histogram of /metrics) do not move, and a /healthz sent meanwhile is answered first.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { DEFAULT_LIMITS } from "../../src/config/serviceConfig.js";
import { EDITION_IDS } from "../../src/editions/index.js";
import { MAX_NUMBER_TEXT_LENGTH } from "../../src/rest/validation/fieldTypes.js";
import { graphqlCall, type HttpAnswer, type HttpCall, send } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";
import { requestInFlight } from "../support/process.js";

let service: TestServer;

beforeAll(async () => {
  service = await startTestServer();
});
afterAll(async () => {
  await service.close();
});

const { maxListLength, maxNestingDepth, maxUrlLength, maxFleetItems } = DEFAULT_LIMITS;

/** `heavy` and a /healthz sent right after it, and the order in which their answers came. */
async function withHealthCheck(call: HttpCall): Promise<{ answer: HttpAnswer; order: string[] }> {
  const order: string[] = [];
  const heavy = send(service.port, call).then((answer) => {
    order.push("request");
    return answer;
  });
  const health = send(service.port, { path: "/healthz" }).then((answer) => {
    order.push("healthz");
    return answer;
  });
  const [answer, healthz] = await Promise.all([heavy, health]);
  expect(healthz.status).toBe(200);
  return { answer, order };
}

/** The count of fleets executed (the `graphql_fleet_items` histogram of /metrics). */
async function fleetsExecuted(): Promise<number> {
  const text = (await send(service.port, { path: "/metrics" })).text;
  return [...text.matchAll(/^graphql_fleet_items_count\{[^}]*\} (\d+)$/gm)].reduce(
    (sum, match) => sum + Number(match[1]),
    0,
  );
}

describe("1. numbers sent as text: bounded before any pattern runs", () => {
  for (const edition of EDITION_IDS) {
    it(`${edition}: a float field given 100,000 digits and an x is a small 422 naming the bound`, async () => {
      const digits = `${"1".repeat(100_000)}x`;
      const { answer } = await withHealthCheck({
        path: `/v1/component/ram?verbose=false&edition=${edition}`,
        body: { units: 1, capacity: 16, density: digits },
      });
      expect(answer.status).toBe(422);
      expect(answer.json.detail).toHaveLength(1);
      expect(answer.json.detail[0].loc).toEqual(["body", "density"]);
      expect(answer.json.detail[0].msg).toContain(`at most ${MAX_NUMBER_TEXT_LENGTH} characters`);
      // pydantic's refusal of a text past `max_length`, in the edition's dialect.
      expect(answer.json.detail[0]).toMatchObject(
        edition === "1.2.4"
          ? { type: "value_error.any_str.max_length", ctx: { limit_value: MAX_NUMBER_TEXT_LENGTH } }
          : { type: "string_too_long", ctx: { max_length: MAX_NUMBER_TEXT_LENGTH } },
      );
    });

    it(`${edition}: under the bound, a float text is read (" 1.5e1 ") or refused as not a number`, async () => {
      const ram = (density: string) =>
        send(service.port, {
          path: `/v1/component/ram?verbose=false&edition=${edition}`,
          body: { units: 1, capacity: 16, density },
        });
      const read = await ram(" 1.5e1 ");
      const number = await ram("1.5e1");
      expect(read.status).toBe(200);
      expect(read.json).toEqual(number.json);
      const refused = await ram(`${"1".repeat(MAX_NUMBER_TEXT_LENGTH - 1)}x`);
      expect(refused.status).toBe(422);
      expect(refused.json.detail[0].loc).toEqual(["body", "density"]);
      expect(refused.json.detail[0].msg).not.toContain("characters");
    });
  }

  it("duration=0x10 is not read as 16 hours: 422 at the query parameter (pydantic refuses it)", async () => {
    for (const edition of EDITION_IDS) {
      for (const duration of ["0x10", "0b1", "0o7", " "]) {
        const answer = await send(service.port, {
          path: `/v1/component/ram?verbose=false&edition=${edition}&duration=${encodeURIComponent(duration)}`,
          body: {},
        });
        expect(answer.status).toBe(422);
        expect(answer.json.detail[0].loc).toEqual(["query", "duration"]);
      }
      const hours = await send(service.port, {
        path: `/v1/component/ram?verbose=false&edition=${edition}&duration=16`,
        body: {},
      });
      expect(hours.status).toBe(200);
    }
  });
});

describe("2. request targets: trailing slashes trimmed by a scan, long targets refused (MAX_URL_LENGTH)", () => {
  it("8,000 slashes before a path segment: a plain 404, and /healthz is still answered", async () => {
    const { answer } = await withHealthCheck({ path: `/v1${"/".repeat(8_000)}x` });
    expect(answer.status).toBe(404);
  });

  it("trailing slashes still name the route (/v1/utils/case_type///)", async () => {
    const answer = await send(service.port, { path: "/v1/utils/case_type///" });
    expect(answer.json).toEqual(["blade", "rack"]);
  });

  it("a target one character past the limit is answered 414 naming MAX_URL_LENGTH; at the limit it is served", async () => {
    const base = "/v1/utils/case_type?pad=";
    const at = await send(service.port, { path: base + "a".repeat(maxUrlLength - base.length) });
    expect(at.status).toBe(200);
    const past = await send(service.port, { path: base + "a".repeat(maxUrlLength - base.length + 1) });
    expect(past.status).toBe(414);
    expect(past.json.detail).toContain(`exceeds ${maxUrlLength} characters (MAX_URL_LENGTH)`);
    const graphql = await send(service.port, { path: `/graphql?query=${"a".repeat(maxUrlLength)}` });
    expect(graphql.status).toBe(414);
    expect(graphql.json.errors[0].extensions).toMatchObject({
      code: "LIMIT_EXCEEDED",
      limit: "MAX_URL_LENGTH",
    });
  });
});

describe("3. lists: their length checked before their items (MAX_LIST_LENGTH)", () => {
  for (const edition of EDITION_IDS) {
    it(`${edition}: 200,000 RAM entries are one small 422 at body.configuration.ram`, async () => {
      const ram = Array.from({ length: 200_000 }, () => ({ units: "x" }));
      const answer = await send(service.port, {
        path: `/v1/server/?verbose=false&edition=${edition}`,
        body: { configuration: { ram } },
      });
      expect(answer.status).toBe(422);
      expect(answer.json.detail).toHaveLength(1);
      expect(answer.json.detail[0].loc).toEqual(["body", "configuration", "ram"]);
      // In the edition's dialect: pydantic 1 states the bound, pydantic 2 the length too.
      expect(answer.json.detail[0].msg).toContain(`at most ${maxListLength} items`);
      expect(answer.json.detail[0].msg).toContain("(MAX_LIST_LENGTH)");
      expect(answer.json.detail[0].ctx).toEqual(
        edition === "1.2.4"
          ? { limit_value: maxListLength }
          : { max_length: maxListLength, actual_length: 200_000 },
      );
      if (edition === "2.4.1") expect(answer.json.detail[0].msg).toContain("not 200000");
      expect(answer.text.length).toBeLessThan(500);
    });

    it(`${edition}: two million IoT blocks (6 MB) are one small 422 at body.functional_blocks`, async () => {
      const body = `{"functional_blocks": [${Array.from({ length: 2_000_000 }, () => "{}").join(",")}]}`;
      const { answer } = await withHealthCheck({
        path: `/v1/iot/iot_device?verbose=false&edition=${edition}`,
        body,
      });
      expect(answer.status).toBe(422);
      expect(answer.json.detail).toHaveLength(1);
      expect(answer.json.detail[0].loc).toEqual(["body", "functional_blocks"]);
      expect(answer.json.detail[0].msg).toContain("MAX_LIST_LENGTH");
    });
  }

  it("a 422 lists at most 50 refused values, whatever the body holds", async () => {
    const ram = Array.from({ length: maxListLength }, () => ({ units: "x", capacity: "y", density: "z" }));
    const answer = await send(service.port, {
      path: "/v1/server/?verbose=false&edition=2.4.1",
      body: { configuration: { ram } },
    });
    expect(answer.status).toBe(422);
    expect(answer.json.detail).toHaveLength(50);
    expect(answer.json.detail[0]).toMatchObject({ loc: ["body", "configuration", "ram", 0, "units"] });
  });

  it("GraphQL: a list in the variables past the limit is refused before coercion, at its path", async () => {
    const ram = Array.from({ length: 200_000 }, () => ({}));
    const answer = await send(
      service.port,
      graphqlCall("query ($s: ServerInput) { server(input: $s) { __typename } }", {
        s: { configuration: { ram } },
      }),
    );
    // application/json: 200 with the code (GraphQL over HTTP; 422 for application/graphql-response+json).
    expect(answer.status).toBe(200);
    expect(answer.json.errors).toHaveLength(1);
    expect(answer.json.errors[0].extensions).toMatchObject({
      code: "LIMIT_EXCEEDED",
      limit: "MAX_LIST_LENGTH",
      field: ["s", "configuration", "ram"],
    });
    expect(answer.json.errors[0].message).toContain("$s.configuration.ram has 200000 entries");
  });

  it("GraphQL: in a fleet measured in slices, the first item with a long list is named", async () => {
    const long = Array.from({ length: maxListLength + 1 }, () => ({}));
    const inputs = Array.from({ length: 1_000 }, (_, i) => ({
      configuration: i === 700 || i === 900 ? { ram: long } : { ram: [{ units: 1 }] },
    }));
    const answer = await send(
      service.port,
      graphqlCall("query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count } }", { inputs }),
    );
    expect(answer.json.errors).toHaveLength(1);
    expect(answer.json.errors[0].extensions).toMatchObject({
      limit: "MAX_LIST_LENGTH",
      field: ["inputs", 700, "configuration", "ram"],
    });
    expect(answer.json.errors[0].message).toContain(
      `$inputs.700.configuration.ram has ${maxListLength + 1} entries`,
    );
  });
});

describe("4. fleets counted in the raw variables, before GraphQL coerces them (MAX_FLEET_ITEMS)", () => {
  it("two million {} items are refused with LIMIT_EXCEEDED before any fleet runs", async () => {
    const before = await fleetsExecuted();
    const body = `{"query": "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count } }", "variables": {"inputs": [${Array.from({ length: 2_000_000 }, () => "{}").join(",")}]}}`;
    const { answer } = await withHealthCheck({ path: "/graphql", body });
    // application/json: 200 with the code (GraphQL over HTTP; 422 for application/graphql-response+json).
    expect(answer.status).toBe(200);
    expect(answer.json.errors).toHaveLength(1);
    expect(answer.json.errors[0].extensions).toMatchObject({
      code: "LIMIT_EXCEEDED",
      limit: "MAX_FLEET_ITEMS",
    });
    expect(answer.json.errors[0].message).toContain(`at most ${maxFleetItems}`);
    expect(await fleetsExecuted()).toBe(before);
  });

  it("fleets in several variables are counted together", async () => {
    const half = Array.from({ length: maxFleetItems / 2 + 1 }, () => ({}));
    const answer = await send(
      service.port,
      graphqlCall(
        `query ($a: [ServerItemInput!]!, $b: [ServerItemInput!]!) {
          a: servers(inputs: $a) { count }
          b: servers(inputs: $b) { count }
        }`,
        { a: half, b: half },
      ),
    );
    // application/json: 200 with the code (GraphQL over HTTP; 422 for application/graphql-response+json).
    expect(answer.status).toBe(200);
    expect(answer.json.errors[0].extensions.limit).toBe("MAX_FLEET_ITEMS");
    expect(answer.json.errors[0].message).toContain(String(2 * half.length));
  });
});

describe("11. nesting bounded by a scan of the text before parsing (MAX_NESTING_DEPTH)", () => {
  it("a GraphQL document nested 3,000 levels (under the token limit) is a 400 naming the limit", async () => {
    const query = `{ ${"a { ".repeat(3_000)}b${" }".repeat(3_000)} }`;
    const answer = await send(service.port, graphqlCall(query));
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0].extensions).toMatchObject({
      code: "LIMIT_EXCEEDED",
      limit: "MAX_NESTING_DEPTH",
    });
    expect(answer.json.errors[0].message).toContain(`more than ${maxNestingDepth} levels`);
    expect(service.logs.filter((line) => (line.level as number) >= 50)).toEqual([]);
  });

  it("a list value nested 3,000 levels in a document, and brackets inside strings and comments", async () => {
    const deep = await send(
      service.port,
      graphqlCall(`{ cpuByName(name: ${"[".repeat(3_000)}"x"${"]".repeat(3_000)}) { name } }`),
    );
    expect(deep.status).toBe(400);
    expect(deep.json.errors[0].extensions.limit).toBe("MAX_NESTING_DEPTH");
    // Brackets in strings, block strings and comments are not nesting.
    const brackets = "{".repeat(maxNestingDepth + 1);
    const quoted = await send(
      service.port,
      graphqlCall(
        `# ${brackets}\n{ a: cpuByName(name: "${brackets}") { name } b: cpuByName(name: """${brackets}""") { name } }`,
      ),
    );
    expect(quoted.status).toBe(200);
    expect(quoted.json.data).toEqual({ a: null, b: null });
  });

  it("/graphql: a JSON body nested 10,000 levels, and variables nested deeply in a query string, are 400s", async () => {
    const body = `{"query": "{ __typename }", "variables": {"a": ${"[".repeat(10_000)}${"]".repeat(10_000)}}}`;
    const answer = await send(service.port, { path: "/graphql", body });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0].extensions.limit).toBe("MAX_NESTING_DEPTH");
    const variables = encodeURIComponent(`{"a": ${"[".repeat(1_000)}${"]".repeat(1_000)}}`);
    const get = await send(service.port, {
      path: `/graphql?query=${encodeURIComponent("{ __typename }")}&variables=${variables}`,
      headers: { accept: "application/json" },
    });
    expect(get.status).toBe(400);
    expect(get.json.errors[0].extensions.limit).toBe("MAX_NESTING_DEPTH");
  });

  it("/graphql: a large body is scanned in steps: nesting past its first steps is refused, brackets in a string are not", async () => {
    // 600 KB of padding before the nesting: the scan's third step (256 K characters each) meets it.
    const padding = " ".repeat(600_000);
    const deep = `{"query": "{ __typename }",${padding}"variables": {"a": ${"[".repeat(1_000)}${"]".repeat(1_000)}}}`;
    const answer = await send(service.port, { path: "/graphql", body: deep });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0].extensions.limit).toBe("MAX_NESTING_DEPTH");
    const quoted = `{"query": "{ __typename }", "variables": {"a": "${'[\\"'.repeat(200_000)}"}}`;
    const fine = await send(service.port, { path: "/graphql", body: quoted });
    expect(fine.status).toBe(200);
    expect(fine.json.data).toEqual({ __typename: "Query" });
  });

  for (const edition of EDITION_IDS) {
    it(`${edition} REST: a field nested 10,000 levels is a small 422 naming the limit (no echo of it)`, async () => {
      const body = `{"units": ${"[".repeat(10_000)}${"]".repeat(10_000)}}`;
      const answer = await send(service.port, { path: `/v1/component/cpu?edition=${edition}`, body });
      expect(answer.status).toBe(422);
      expect(answer.json.detail[0].loc).toEqual(["body"]);
      expect(answer.json.detail[0].msg).toContain(
        `more than ${maxNestingDepth} levels deep (MAX_NESTING_DEPTH)`,
      );
      expect(answer.text.length).toBeLessThan(500);
    });
  }
});

describe("12. name matching: the root fields of a request take turns on the event loop", () => {
  it("30 aliases of cpuByName with distinct 100-character names: /healthz is answered in between", async () => {
    const name = (i: number) =>
      Array.from({ length: 100 }, (_, j) => "abcdefghij klmnopqrstu"[(i * 7 + j * 13) % 22]).join("");
    const fields = Array.from({ length: 30 }, (_, i) => `a${i}: cpuByName(name: "${name(i)}") { name }`);
    const { answer, order } = await withHealthCheck(graphqlCall(`{ ${fields.join(" ")} }`));
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.json.data)).toHaveLength(30);
    expect(order).toEqual(["healthz", "request"]);
  });

  it("the answers are those of one field at a time (aliases of one name agree)", async () => {
    const answer = await send(
      service.port,
      graphqlCall(
        `{ a: cpuByName(name: "Xeon Gold 6134") { name } b: cpuByName(name: "Xeon Gold 6134") { name } }`,
      ),
    );
    expect(answer.json.data.a).toEqual(answer.json.data.b);
    expect(answer.json.data.a.name.toLowerCase()).toContain("6134");
  });
});

describe("15. smaller points", () => {
  it("malformed JSON on /graphql: a fixed message, no excerpt of the body", async () => {
    const answer = await send(service.port, { path: "/graphql", body: '{"query": secret}' });
    expect(answer.status).toBe(400);
    expect(answer.json.errors[0].message).toBe("POST body sent invalid JSON.");
    expect(answer.text).not.toContain("secret");
  });

  it("a client that drops its upload is logged once at info with status 499, without a stack", async () => {
    // In flight: the server has its headers (its "100 Continue" says so) and reads its body.
    const client = await requestInFlight(service.port, "/v1/server/?dropped=1", 1000);
    client.send("{");
    client.socket.destroy();
    await vi.waitFor(() => {
      const line = service.logs.find(
        (record) => String(record.path).includes("/v1/server/") && record.status === 499,
      );
      expect(line).toBeDefined();
    });
    const lines = service.logs.filter((record) => record.method === "POST" && record.status === 499);
    expect(lines.every((record) => record.level === 30)).toBe(true);
    expect(service.logs.filter((record) => (record.level as number) >= 50)).toEqual([]);
  });
});
