/** src/batch without HTTP: reading NDJSON lines, a line's request, the summary. */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createSummary,
  evaluateBatch,
  type InputLine,
  ndjsonLines,
  parseLine,
  type RouteEvaluator,
} from "../../src/batch/index.js";
import { EDITION_IDS } from "../../src/editions/index.js";
import { servedEdition } from "../../src/service/open.js";
import { sharedApp } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";

const app = sharedApp();

async function read(chunks: readonly (string | Uint8Array)[], maxBytes: number): Promise<InputLine[]> {
  const lines: InputLine[] = [];
  for await (const line of ndjsonLines(chunks, maxBytes)) lines.push(line);
  return lines;
}

describe("ndjsonLines", () => {
  it("gives the same lines however the bytes are cut", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc
            .string({ unit: "grapheme", minLength: 1, maxLength: 12 })
            .filter((s) => !s.includes("\n") && s.trim() !== ""),
          {
            maxLength: 20,
          },
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (texts, cuts) => {
          const bytes = Buffer.from(texts.map((text) => `${text}\n`).join(""));
          const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
          const chunks = [0, ...points, bytes.length]
            .slice(1)
            .map((end, i, ends) => bytes.subarray(i === 0 ? 0 : ends[i - 1], end));
          const lines = await read(chunks, 1 << 20);
          expect(lines.map((line) => ("text" in line ? line.text : null))).toEqual(texts);
          expect(lines.map((line) => line.number)).toEqual(texts.map((_, i) => i + 1));
        },
      ),
    );
  });

  it("reports a line past the limit without keeping it, drops blank lines, reads a last line without newline", async () => {
    const lines = await read(["ab\n", "x".repeat(6), "y".repeat(6), "\n\r\n", "  \n", "cd"], 8);
    expect(lines).toEqual([
      { text: "ab", number: 1, more: false },
      { tooLarge: true, number: 2, more: true },
      { text: "cd", number: 5, more: false },
    ]);
  });

  it("says when another line is already at hand", async () => {
    const lines = await read(["a\nb\nc", "\n"], 100);
    expect(lines.map((line) => line.more)).toEqual([true, false, false]);
  });
});

describe("parseLine", () => {
  it("adds the batch's criteria where the path names none, and never its edition (handed over served)", () => {
    const defaults = { criteria: ["gwp", "pe"] };
    const call = (path: string) => {
      const parsed = parseLine(JSON.stringify({ path, body: { a: 1 } }), defaults);
      if (!("call" in parsed)) throw new Error(JSON.stringify(parsed.body));
      return parsed.call;
    };
    expect(call("/v1/cloud/instance")).toEqual({
      method: "POST",
      url: "/v1/cloud/instance?criteria=gwp&criteria=pe",
      body: '{"a":1}',
    });
    expect(call("/v1/server/?verbose=false&edition=1.2.4").url).toBe(
      "/v1/server/?verbose=false&edition=1.2.4&criteria=gwp&criteria=pe",
    );
    expect(call("/v1/server/?criteria=adp&").url).toBe("/v1/server/?criteria=adp&");
  });

  it("sends no body with GET and defaults the method to POST", () => {
    const get = parseLine(JSON.stringify({ method: "get", path: "/v1/server/", body: { a: 1 } }), {});
    expect("call" in get && get.call).toEqual({ method: "GET", url: "/v1/server/", body: "" });
    const post = parseLine(JSON.stringify({ path: "/v1/server/" }), {});
    expect("call" in post && post.call).toEqual({ method: "POST", url: "/v1/server/", body: "" });
  });

  it("refuses what is not a single /v1 request", () => {
    const refused = (line: unknown) => {
      const parsed = parseLine(typeof line === "string" ? line : JSON.stringify(line), {});
      return "call" in parsed ? null : (parsed.body as { detail: { loc: unknown[] }[] }).detail[0].loc;
    };
    expect(refused("nope")).toEqual(["line"]);
    expect(refused(null)).toEqual(["line"]);
    expect(refused({ body: {} })).toEqual(["line", "path"]);
    expect(refused({ path: "/graphql" })).toEqual(["line", "path"]);
    expect(refused({ path: "/v1/batch/?x=1" })).toEqual(["line", "path"]);
    expect(refused({ path: `/v1/${"a".repeat(3000)}` })).toEqual(["line", "path"]);
    expect(refused({ path: "/v1/server/", method: 3 })).toEqual(["line", "method"]);
    expect(refused({ path: "/v1/server/", quantity: 1.5 })).toEqual(["line", "quantity"]);
  });
});

describe("summary", () => {
  it("sums values per criterion and phase, weighted by quantity, skipping what is not implemented and errors", () => {
    const summary = createSummary();
    const impacts = (embedded: unknown, use: unknown) => ({
      impacts: {
        gwp: { unit: "kgCO2eq", embedded, use },
        adp: { embedded: { value: 1 }, use: "not implemented" },
      },
    });
    summary.add({ status: 200, body: impacts({ value: 2, min: 1, max: 3 }, { value: 0.5 }), quantity: 1 });
    summary.add({ status: 200, body: impacts({ value: 10 }, "not implemented"), quantity: 3 });
    summary.add({ status: 404, body: { detail: "x not found" }, quantity: 1 });
    summary.add({ status: 200, body: ["no impacts"], quantity: 1 });
    expect(summary.result()).toEqual({
      lines: 4,
      ok: 3,
      errors: 1,
      warnings: 0,
      total: { gwp: { embedded: 32, use: 0.5 }, adp: { embedded: 4 } },
    });
  });
});

describe("a batch's answer lines", () => {
  const CLOUD = "/v1/cloud/instance?verbose=false&criteria=gwp";
  const m5 = (location: string) =>
    JSON.stringify({
      path: CLOUD,
      body: { provider: "aws", instance_type: "m5.xlarge", usage: { usage_location: location } },
    });
  const evaluate: RouteEvaluator = (call) => app.rest(call);

  /** The batch's answer; `edition`: the batch's, handed to the lines' route served (as src/rest/routes/batch.ts does). */
  async function answer(text: string, edition?: string): Promise<string[]> {
    let out = "";
    const lines = ndjsonLines([text], 1 << 20);
    const served = edition === undefined ? undefined : servedEdition(app.service, edition);
    const inEdition: RouteEvaluator =
      served === undefined ? evaluate : (call) => app.rest({ ...call, edition: served });
    for await (const piece of evaluateBatch(lines, inEdition, {
      defaults: {},
      ...(edition === undefined ? {} : { edition }),
      maxLineBytes: 1 << 20,
    })) {
      out += piece;
    }
    return out.trim().split("\n");
  }

  it("name their input line (blank lines counted) and carry the single route's body byte for byte", async () => {
    const lines = await answer(
      `${m5("FRA")}\n\n${JSON.stringify({ path: CLOUD, body: { provider: "aws", instance_type: "nope" } })}\n`,
    );
    const single = await app.rest({
      method: "POST",
      url: CLOUD,
      body: JSON.stringify(JSON.parse(m5("FRA")).body),
    });
    expect(lines[0]).toBe(`{"line":1,"status":200,"body":${JSON.stringify(single.body)}}`);
    expect(JSON.parse(lines[1])).toEqual({ line: 3, status: 404, body: { detail: "nope at aws not found" } });
    expect(JSON.parse(lines[2]).summary).toMatchObject({ lines: 2, ok: 1, errors: 1, warnings: 0 });
  });

  it("warn of a usage location the edition does not know (France, fra), counted in the summary; the body stays the route's", async () => {
    const lines = await answer([m5("France"), m5("fra"), m5("FRA"), m5("EEE")].join("\n"), "2.4.1");
    const answers = lines.map((line) => JSON.parse(line));
    expect(answers[0].warnings).toEqual([
      'usage_location "France" is not a location of edition 2.4.1 (see /v1/utils/country_code): the default location\'s electricity was used',
    ]);
    expect(answers[1].warnings).toHaveLength(1);
    expect(answers[2].warnings).toBeUndefined();
    expect(answers[3].warnings).toBeUndefined();
    // The fallback is the default mix: far more than France's.
    expect(answers[0].body.impacts.gwp.use.value).toBeGreaterThan(2 * answers[2].body.impacts.gwp.use.value);
    const single = await app.rest({
      method: "POST",
      url: `${CLOUD}&edition=2.4.1`,
      body: JSON.stringify(JSON.parse(m5("France")).body),
    });
    expect(lines[0]).toBe(
      `{"line":1,"status":200,"warnings":${JSON.stringify(answers[0].warnings)},"body":${JSON.stringify(single.body)}}`,
    );
    expect(answers[4].summary).toMatchObject({ lines: 4, ok: 4, errors: 0, warnings: 2 });
  });

  it("take a line's own electricity factors (usage.elec_factors, as boaviztapi's usage does), as GraphQL's usage.elecFactors", async () => {
    const LAPTOP = "/v1/terminal/laptop?verbose=false&criteria=gwp&criteria=pe";
    const laptop = (usage: Record<string, unknown>) =>
      JSON.stringify({
        path: LAPTOP,
        body: { usage: { usage_location: "FRA", hours_use_time: 8760, ...usage } },
      });
    for (const edition of ["1.2.4", "2.4.1"]) {
      const [plain, factored] = (
        await answer(`${laptop({})}\n${laptop({ elec_factors: { gwp: 0.5 } })}`, edition)
      )
        .slice(0, 2)
        .map((line) => JSON.parse(line).body.impacts);
      // The archetype's 75 W × 30 % of 8,760 h = 197.1 kWh, × 0.098 (FRA) or × the line's 0.5: 98.55, rounded.
      expect(plain.gwp.use.value).toBe(19);
      expect(factored.gwp.use.value).toBe(99);
      expect(factored.pe.use).toEqual(plain.pe.use);
    }
    const { data, errors } = await graphqlClient(app)(`{
      plain: terminal(kind: laptop, input: {usage: {usageLocation: "FRA", hoursUseTime: 8760}}) {
        impacts(criteria: [gwp]) { use { ... on Impact { unrounded { value } } } }
      }
      factored: terminal(kind: laptop, input: {usage: {usageLocation: "FRA", hoursUseTime: 8760, elecFactors: {gwp: 0.5}}}) {
        impacts(criteria: [gwp]) { use { ... on Impact { unrounded { value } } } }
      }
    }`);
    expect(errors).toBeUndefined();
    expect(data.plain.impacts[0].use.unrounded.value).toBeCloseTo(197.1 * 0.098, 9);
    expect(data.factored.impacts[0].use.unrounded.value).toBeCloseTo(197.1 * 0.5, 9);
  });
});

describe("consumption-profile lines", () => {
  it("answer the profile's use impacts as the single route, summed in the summary with their quantity", async () => {
    const ROUTE = "/v1/consumption_profile/cpu/impacts?verbose=false&criteria=gwp&duration=1000";
    const body = {
      workload: [
        { load_percentage: 0, power_watt: 30 },
        { load_percentage: 50, power_watt: 100 },
        { load_percentage: 100, power_watt: 150 },
      ],
      usage: { time_workload: 50, usage_location: "FRA", elec_factors: { gwp: 0.1 } },
    };
    let out = "";
    const lines = ndjsonLines(
      [
        `${JSON.stringify({ path: ROUTE, body, quantity: 3 })}
`,
      ],
      1 << 20,
    );
    for await (const piece of evaluateBatch(lines, (call) => app.rest(call), {
      defaults: {},
      maxLineBytes: 1 << 20,
    })) {
      out += piece;
    }
    const [line, summary] = out
      .trim()
      .split("\n")
      .map((text) => JSON.parse(text));
    const single = await app.rest({ method: "POST", url: ROUTE, body: JSON.stringify(body) });
    expect(line).toEqual({ line: 1, status: 200, body: single.body });
    // The curve through (50, 100 W): 100 W × 1000 h × 0.1 kgCO2eq/kWh = 10 kg a line; no embedded phase.
    expect(Object.keys(line.body.impacts.gwp)).toEqual(["unit", "description", "use"]);
    expect(line.body.energy).toEqual({ value: 100, min: 100, max: 100, unit: "kWh" });
    expect(summary.summary.total.gwp.use).toBeCloseTo(30, 9);
    expect(summary.summary.total.gwp.embedded).toBeUndefined();
  });
});

describe("a 404 for what another served edition has", () => {
  type Asked = { method: string; url: string; body: string };
  /** The other served editions answering the request (the 404 must name exactly these). */
  async function answeredIn(asked: Asked): Promise<string> {
    const ids: string[] = [];
    for (const id of EDITION_IDS.filter((other) => other !== app.service.defaultEdition)) {
      const url = `${asked.url}${asked.url.includes("?") ? "&" : "?"}edition=${id}`;
      if ((await app.rest({ ...asked, url })).status === 200) ids.push(id);
    }
    expect(ids).toContain("2.4.1");
    return ids.join(", ");
  }

  it("says which edition has it: instance type, archetype, device kind", async () => {
    const gcpAsked = {
      method: "POST",
      url: "/v1/cloud/instance?verbose=false",
      body: JSON.stringify({ provider: "gcp", instance_type: "n2-standard-8" }),
    };
    expect(await app.rest(gcpAsked)).toEqual({
      status: 404,
      body: { detail: `n2-standard-8 at gcp not found (exists in edition ${await answeredIn(gcpAsked)})` },
    });
    const azureAsked = {
      method: "POST",
      url: "/v1/cloud/instance?verbose=false",
      body: JSON.stringify({ provider: "azure", instance_type: "Standard_D4ads_v5" }),
    };
    expect((await app.rest(azureAsked)).body).toEqual({
      detail: `Standard_D4ads_v5 at azure not found (exists in edition ${await answeredIn(azureAsked)})`,
    });
    const nowhere = await app.rest({
      method: "POST",
      url: "/v1/cloud/instance?verbose=false",
      body: JSON.stringify({ provider: "aws", instance_type: "m5.nowhere" }),
    });
    expect(nowhere.body).toEqual({ detail: "m5.nowhere at aws not found" });
    const archetypeAsked = {
      method: "GET",
      url: "/v1/server/?verbose=false&archetype=DCadsv5-Type1",
      body: "",
    };
    expect((await app.rest(archetypeAsked)).body).toEqual({
      detail: `DCadsv5-Type1 not found (exists in edition ${await answeredIn(archetypeAsked)})`,
    });
    const headsetAsked = { method: "POST", url: "/v1/terminal/vr_headset?verbose=false", body: "{}" };
    expect(await app.rest(headsetAsked)).toEqual({
      status: 404,
      body: {
        detail: `vr_headset is not a terminal of this edition (exists in edition ${await answeredIn(headsetAsked)})`,
      },
    });
  });
});
