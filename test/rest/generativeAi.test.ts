/**
 * Generative-AI usage served like every asset (docs/methodology.md, "Generative AI"): the REST
 * route beside the specification's, the GraphQL type with `impacts` and `verbose`, a batch line
 * and an inventory row, each answering the engine's numbers (worked out by hand in
 * test/engine/generativeAi.test.ts); what the data lacks, refused with a 4xx naming the close ones.
 */
import { describe, expect, it } from "vitest";
import { evaluateBatch, ndjsonLines, type RouteEvaluator } from "../../src/batch/index.js";
import { rowLine } from "../../src/cli/inventory/inventory.js";
import { openApiDocument } from "../../src/rest/openapi/index.js";
import { evaluatedShape, evaluationFor } from "../../src/service/evaluations/evaluations.js";
import { prepareGenerativeAi } from "../../src/service/generativeAi.js";
import { createRequestContext } from "../../src/service/requestState.js";
import { sharedApp } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";

const app = sharedApp();
const query = graphqlClient(app);

// biome-ignore lint/suspicious/noExplicitAny: v1 JSON answers are checked field by field
type Json = any;

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const answer = await app.rest({ method, url, body: body === undefined ? "" : JSON.stringify(body) });
  return { status: answer.status, body: answer.body };
}

/** The methodology's worked example: ministral-8b-2512, 500 output tokens, in France. */
const MINISTRAL = { provider: "mistralai", model: "ministral-8b-2512", output_tokens: 500, zone: "FRA" };
const ENERGY = 3.10305155139e-5;
const GWP_USE = 1.2859045629e-6;
const GWP_EMBEDDED = 1.05061349693e-6;
const WATER = 1.1640434484e-4;

const near = (found: number, expected: number) =>
  expect(Math.abs(found - expected) / expected).toBeLessThan(1e-10);

describe("POST /v1/generative_ai", () => {
  it("answers every criterion of the edition by default, unrounded, with the request's own fields", async () => {
    const { status, body } = await call("POST", "/v1/generative_ai?verbose=false", MINISTRAL);
    expect(status).toBe(200);
    expect(Object.keys(body.impacts)).toEqual(["gwp", "adp", "pe", "fe", "wcf"]);
    near(body.impacts.gwp.use.value, GWP_USE);
    near(body.impacts.gwp.embedded.value, GWP_EMBEDDED);
    near(body.impacts.fe.use.value, ENERGY);
    near(body.impacts.wcf.use.value, WATER);
    expect([body.impacts.fe.unit, body.impacts.wcf.unit]).toEqual(["kWh", "L"]);
    expect([body.impacts.fe.embedded, body.impacts.wcf.embedded]).toEqual([
      "not implemented",
      "not implemented",
    ]);
    expect(body).toMatchObject({ edition: "ecologits-0.11.3", provider: "mistralai", zone: "FRA" });
    expect(body).not.toHaveProperty("verbose");
    expect(body).not.toHaveProperty("warnings");
  });

  it("shows in its verbose every input, figure and factor read, with its status and source", async () => {
    const { body } = await call("POST", "/v1/generative_ai?criteria=gwp", { ...MINISTRAL, zone: undefined });
    const { verbose } = body;
    expect(verbose.zone).toEqual({ value: "SWE", status: "DEFAULT", source: "mistralai's data centres" });
    expect(verbose.output_tokens).toEqual({ value: 500, status: "INPUT", unit: "tokens" });
    expect(verbose.total_parameters).toMatchObject({ value: 8.02, status: "COMPLETED", unit: "billion" });
    expect(verbose.gpu_required_count.value).toBe(1);
    expect(verbose.datacenter_pue).toMatchObject({ value: 1.16, source: "ecologits 0.11.3 providers.csv" });
    expect(verbose.batch_size).toMatchObject({ value: 64, status: "DEFAULT" });
  });

  it("gives a range's min and max and their mean for a model whose size is EcoLogits' estimate", async () => {
    const { body } = await call("POST", "/v1/generative_ai?criteria=gwp", {
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      output_tokens: 1000,
    });
    near(body.impacts.gwp.use.min, 5.48604418014e-4);
    near(body.impacts.gwp.use.max, 9.2510275481e-4);
    expect(body.verbose.active_parameters).toMatchObject({ value: 88, min: 44, max: 132 });
    expect(body.warnings.join()).toContain("model-arch-not-released");
  });

  it("refuses a model the data lacks with a 404 naming the closest names, never a guess", async () => {
    const { status, body } = await call("POST", "/v1/generative_ai", {
      provider: "openai",
      model: "gpt-4o-mni",
      output_tokens: 10,
    });
    expect(status).toBe(404);
    expect(body.detail).toMatch(/not in ecologits-0\.11\.3's data; the closest: gpt-4o-mini, /);
  });

  it("refuses an unknown zone or provider with a 422 at its field, and what the body lacks", async () => {
    const zone = await call("POST", "/v1/generative_ai", { ...MINISTRAL, zone: "FR" });
    expect(zone.status).toBe(422);
    expect(JSON.stringify(zone.body)).toContain("zone");
    const provider = await call("POST", "/v1/generative_ai", { ...MINISTRAL, provider: "bedrock" });
    expect(provider.status).toBe(422);
    const empty = await call("POST", "/v1/generative_ai");
    expect(empty.status).toBe(422);
    expect(empty.body.detail.map((d: Json) => d.loc.at(-1))).toEqual(["provider", "model", "output_tokens"]);
    const criterion = await call("POST", "/v1/generative_ai?criteria=gwppb", MINISTRAL);
    expect(criterion.status).toBe(422);
  });

  it("lists the models of the data, one provider's when asked", async () => {
    const { body } = await call("GET", "/v1/generative_ai/models?provider=mistralai");
    expect(body).toContainEqual({ provider: "mistralai", name: "ministral-8b-2512" });
    expect(body.every((model: Json) => model.provider === "mistralai")).toBe(true);
    const all = await call("GET", "/v1/generative_ai/models");
    expect(all.body.length).toBeGreaterThan(300);
  });

  it("is described in the OpenAPI document, its body and its answer", () => {
    // biome-ignore lint/suspicious/noExplicitAny: the document is walked generically
    const document: any = openApiDocument({
      serviceVersion: "9.9.9",
      methodology: "1.2.4",
      editions: ["1.2.4"],
    });
    const post = document.paths["/v1/generative_ai"].post;
    expect(Object.keys(post.responses).sort()).toEqual(["200", "404", "422"]);
    expect(post.responses["200"].content["application/json"].schema.$ref).toContain("GenerativeAiAnswer");
    expect(JSON.stringify(document.components.schemas.GenerativeAi)).toContain("output_tokens");
    expect(document.paths["/v1/generative_ai/models"].get.summary).toContain("models");
  });
});

describe("the GraphQL type GenerativeAiUsage", () => {
  it("answers impacts(criteria) and its own fields from the model its impacts read", async () => {
    const answer = await query(`{
      generativeAi(input: {provider: "mistralai", model: "ministral-8b-2512", outputTokens: 500, zone: "FRA"}) {
        edition zone gpus { min max } generationLatency { min }
        impacts(criteria: [gwp, wcf]) { criterion unit use { ... on Impact { value unrounded { value } } } }
        verbose(criteria: [gwp]) { attributes { name status } }
      }
    }`);
    expect(answer.errors).toBeUndefined();
    const usage = answer.data.generativeAi;
    expect([usage.edition, usage.zone, usage.gpus]).toEqual(["ecologits-0.11.3", "FRA", { min: 1, max: 1 }]);
    near(usage.impacts[0].use.value, GWP_USE);
    expect(usage.impacts[0].use.unrounded.value).toBe(usage.impacts[0].use.value);
    near(usage.impacts[1].use.value, WATER);
    expect(usage.verbose.attributes.map((a: Json) => a.name)).toContain("generation_latency");
    const request = createRequestContext(app.service, { spellError: (error) => error });
    const prepared = prepareGenerativeAi(
      app.service.generativeAi,
      app.service.limits,
      {
        provider: "mistralai",
        model: "ministral-8b-2512",
        outputTokens: 500,
      },
      [],
    );
    expect(evaluatedShape(request, prepared)).toBe(evaluationFor(request, prepared, {}).asset.shape);
  });

  it("a model the data lacks is NOT_FOUND naming the closest names; an unknown zone BAD_USER_INPUT", async () => {
    const answer = await query(`{
      a: generativeAi(input: {provider: "openai", model: "gpt-4o-mni", outputTokens: 1}) { model }
      b: generativeAi(input: {provider: "openai", model: "gpt-4o", outputTokens: 1, zone: "FR"}) { model }
      c: generativeAi(input: {provider: "openai", model: "gpt-4o", outputTokens: 1}) { model }
    }`);
    const errors: readonly Json[] = answer.errors ?? [];
    const codes = errors.map((error) => [error.path[0], error.extensions.code]);
    expect(codes).toEqual([
      ["a", "NOT_FOUND"],
      ["b", "BAD_USER_INPUT"],
    ]);
    expect(errors[0].message).toContain("the closest: gpt-4o-mini");
    expect(answer.data.c.model).toBe("gpt-4o");
  });
});

describe("a batch line and an inventory row", () => {
  const evaluate: RouteEvaluator = (request) => app.rest(request);

  async function batch(text: string): Promise<Json[]> {
    let out = "";
    for await (const piece of evaluateBatch(ndjsonLines([text], 1 << 20), evaluate, {
      defaults: {},
      maxLineBytes: 1 << 20,
    })) {
      out += piece;
    }
    return out
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
  }

  it("a batch line answers what the single route answers, its quantity counted in the total", async () => {
    const path = "/v1/generative_ai?verbose=false&criteria=gwp";
    const [line, summary] = await batch(`${JSON.stringify({ path, body: MINISTRAL, quantity: 1000 })}\n`);
    const single = await call("POST", path, MINISTRAL);
    expect(line.body).toEqual(single.body);
    near(summary.summary.total.gwp.use, 1000 * GWP_USE);
  });

  it("an inventory row of kind generative_ai is a batch line to the route, quantity its requests", () => {
    const row = rowLine({
      kind: "generative_ai",
      quantity: "1000",
      provider: "mistralai",
      model: "ministral-8b-2512",
      output_tokens: "500",
      zone: "FRA",
      hours: "8760",
    });
    expect(row).toEqual({
      line: JSON.stringify({
        method: "POST",
        path: "/v1/generative_ai?verbose=true",
        body: { provider: "mistralai", model: "ministral-8b-2512", output_tokens: 500, zone: "FRA" },
        quantity: 1000,
      }),
    });
  });
});
