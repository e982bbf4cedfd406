/**
 * Generative AI on a bill (docs/methodology.md, "Generative AI on a bill"), through the command
 * (`main`, edition 2.4.1: the figures are the generative-AI edition's whatever it is): a CUR with Amazon Bedrock lines, an Azure export with Azure OpenAI
 * meters, a Google Cloud export with Vertex AI lines and a FOCUS export carrying the same, their
 * output tokens estimated line by line from the model they name, each against a value computed by
 * hand below; input and cached tokens, characters and images named as not estimated; a model the
 * data lacks named, never read as another. Fixtures: test/fixtures/billing/genai-*.csv, written
 * after the providers' documented usage types, meters and SKUs.
 *
 * One output token of a model (the time to a request's first token left out: a bill counts tokens,
 * not requests), with the fit's GPU energy per token e(P) = (1.1665273170e-6 × e^(−0.011205921 ×
 * 64) × P + 4.052928147e-5) / 1000 kWh = (5.69413497e-7 × P + 4.052928147e-5) / 1000 for P
 * billion active parameters, G GPUs, its measured tokens per second tps:
 *   server = (1 / tps) / 3600 × 1.2 kW × G/8 × 1/64;  energy = PUE × (server + G × e(P))
 *   gwp use = energy × the zone's kgCO2eq/kWh;  gwp embedded = (1 / tps) × (G/8 × 5700 + G × 273) / (94,608,000 × 64)
 * at both ends of P and of the PUE (min, max), the value their mean.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BILLED_AI_MODELS, billedAiModels } from "../../src/billing/registry/generativeAi.js";
import { readUnit, unitSpelling } from "../../src/billing/registry/units.js";
import { evaluatedLines, type OutputRow } from "../support/cli.js";
import { namesAsText } from "../support/reportHtml.js";
import { app } from "./support.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-genai-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const runs: Record<string, { stderr: string; lines: OutputRow[] }> = {};
beforeAll(async () => {
  for (const name of ["genai-cur", "genai-azure", "genai-gcp", "genai-focus"]) {
    runs[name] = await evaluatedLines(`test/fixtures/billing/${name}.csv`, join(scratch, `${name}.csv`), [
      "--criteria",
      "gwp",
      "--ranges",
      "--report",
      join(scratch, `${name}.html`),
    ]);
  }
}, 300_000);

const num = (line: OutputRow, column: string) => Number(line[column]);
const near = (found: number, expected: number) =>
  expect(Math.abs(found - expected) / Math.abs(expected)).toBeLessThan(1e-9);

/** A line's energy and gwp, value and bounds, against the hand computation's (min, max). */
function expectLine(
  line: OutputRow,
  energy: readonly [number, number],
  gwpUse: readonly [number, number],
  gwpEmbedded: number,
) {
  expect(line.status).toBe("evaluated");
  expect(line.method).toBe("generative-ai");
  near(num(line, "energy_kwh"), (energy[0] + energy[1]) / 2);
  near(num(line, "gwp_use_kgco2eq_min"), gwpUse[0]);
  near(num(line, "gwp_use_kgco2eq_max"), gwpUse[1]);
  near(num(line, "gwp_use_kgco2eq"), (gwpUse[0] + gwpUse[1]) / 2);
  near(num(line, "gwp_embedded_kgco2eq"), gwpEmbedded);
}

// claude-sonnet-4-5 (anthropic: PUE 1.09–1.14), 44–132 billion active of 440 (G = 16: 1,056 GB),
// 42 tokens/s; USA 0.3844 kgCO2eq/kWh. Per token: server 2.48015873016e-7 kWh; e(44) =
// 6.55834924986e-8, e(132) = 1.15691914561e-7; energy 1.09 × (2.48015873016e-7 + 16 × 6.55834924986e-8)
// = 1.41411341076e-6, 1.14 × 2.09908650599e-6 = 2.39295861683e-6; embedded (1/42) × 15,768 / 6,054,912,000.
const SONNET_45 = {
  energy: [1.41411341076e-6, 2.39295861683e-6],
  embedded: (1 / 42) * (2 * 5700 + 16 * 273),
} as const;
// gpt-4o-mini-2024-07-18 (openai: PUE 1.2), 8–28 billion (G = 1), 63 tokens/s; USA. Per token:
// server 1.0333994709e-8; e(8) = 4.50845925639e-8, e(28) = 5.64728703054e-8; energy 1.2 × 5.54185872729e-8
// = 6.65023047275e-8, 1.2 × 6.68068650144e-8 = 8.01682380173e-8; embedded (1/63) × 985.5 / 6,054,912,000.
const GPT_4O_MINI = {
  energy: [6.65023047275e-8, 8.01682380173e-8],
  embedded: (1 / 63) * (5700 / 8 + 273),
} as const;
// gemini-2.5-flash (google_genai: PUE 1.09), 44–132 billion active of 440 (G = 16), 68.5 tokens/s;
// FRA 0.04144 kgCO2eq/kWh. Per token: server 1.52068126521e-7; energy 1.09 × 1.2014040065e-6 =
// 1.30953036708e-6, 1.09 × 2.0031387595e-6 = 2.18342124785e-6; embedded (1/68.5) × 15,768 / 6,054,912,000.
const GEMINI_25_FLASH = {
  energy: [1.30953036708e-6, 2.18342124785e-6],
  embedded: (1 / 68.5) * (2 * 5700 + 16 * 273),
} as const;

const LIFETIME_BATCH = 94_608_000 * 64;

/** A line of `tokens` output tokens of a model at a zone of `gwp` kgCO2eq/kWh. */
function expectTokens(
  line: OutputRow,
  tokens: number,
  model: { energy: readonly [number, number]; embedded: number },
  gwp: number,
) {
  const [low, high] = model.energy;
  expectLine(
    line,
    [tokens * low, tokens * high],
    [tokens * low * gwp, tokens * high * gwp],
    (tokens * model.embedded) / LIFETIME_BATCH,
  );
}

const USA = 0.3844;
const FRA = 0.04144;

describe("a CUR with Amazon Bedrock lines", () => {
  const line = (id: string) =>
    runs["genai-cur"].lines.find((row) => row.identity_line_item_id === id) as OutputRow;

  it("estimates output tokens of the model a usage type names, in its unit (1K, 1M tokens)", SLOW, () => {
    // USE1-Claude4.5Sonnet-output-tokens, 250 × 1K tokens in us-east-1
    expectTokens(line("ai-1"), 250_000, SONNET_45, USA);
    expect(line("ai-1").method_unit).toBe("output tokens of anthropic/claude-sonnet-4-5");
    expect(num(line("ai-1"), "method_quantity")).toBe(250_000);
    // USW2-anthropic.claude-opus-4-8-mantle-output-tokens-global-standard, 0.5 × 1M tokens
    expect(line("ai-5").method_unit).toBe("output tokens of anthropic/claude-opus-4-8");
    expect(num(line("ai-5"), "method_quantity")).toBe(500_000);
    // EUC1-Claude4.6Opus-output-tokens-cross-region-global, in eu-central-1
    expect(line("ai-4").method_unit).toBe("output tokens of anthropic/claude-opus-4-6");
  });

  it("names input and cached tokens as not estimated, and a model the data lacks", SLOW, () => {
    expect([line("ai-2").status, line("ai-3").status]).toEqual(["not compute", "not compute"]);
    expect(runs["genai-cur"].stderr).toContain(
      "input tokens: EcoLogits computes a request from its output tokens only: 2 rows, cost 5.67",
    );
    expect(line("ai-6").status).toBe(
      "not evaluated: generative AI model claude3sonnet has no EcoLogits figures",
    );
    expect(line("ai-7").status).toBe("not evaluated: generative AI model novalite has no EcoLogits figures");
    expect(line("ai-8").method).toBe("instance");
  });

  it("counts AI usage as its own method in the coverage, its own row of the report", SLOW, () => {
    expect(runs["genai-cur"].stderr).toMatch(/ {2}generative-ai: 3 rows, cost 14\.25 \(57\.7 %\)/);
    const report = namesAsText(readFileSync(join(scratch, "genai-cur.html"), "utf8"));
    // The report's table by method: AI usage's lines and cost apart from the instance's
    const byMethod = report.slice(report.indexOf('id="chart-method"'));
    expect(byMethod).toContain(
      '<td class="name">generative-ai</td><td class="n wide" data-v="3">3</td><td data-v="14.25" ',
    );
    expect(byMethod).toContain(
      '<td class="name">instance</td><td class="n wide" data-v="1">1</td><td data-v="4.608" ',
    );
  });
});

describe("an Azure export with Azure OpenAI meters", () => {
  const line = (meter: string) =>
    runs["genai-azure"].lines.find((row) => row.MeterName === meter) as OutputRow;

  it("estimates a meter's output tokens per 1K or 1M, its model's dated version included", SLOW, () => {
    // gpt-4o-mini-0718-Outp-glbl Tokens, 500 × 1K in eastus
    expectTokens(line("gpt-4o-mini-0718-Outp-glbl Tokens"), 500_000, GPT_4O_MINI, USA);
    expect(line("gpt 4.1 Outp regnl Tokens").method_unit).toBe("output tokens of openai/gpt-4.1");
    // `5.4 opt Dz 1M Tokens`: GPT-5.4, 2 × 1M
    expect(line("5.4 opt Dz 1M Tokens").method_unit).toBe("output tokens of openai/gpt-5.4");
    expect(num(line("5.4 opt Dz 1M Tokens"), "method_quantity")).toBe(2_000_000);
    expect(line("gpt-4o-0513-Outp-regnl Tokens").method_unit).toBe(
      "output tokens of openai/gpt-4o-2024-05-13",
    );
  });

  it("names input, cached input and image tokens as not estimated", SLOW, () => {
    expect(line("gpt-4o-mini-0718-Inp-glbl Tokens").status).toBe("not compute");
    expect(line("gpt 4o 1120 cached Inp regnl Tokens").status).toBe("not compute");
    expect(runs["genai-azure"].stderr).toContain(
      "generative AI images: EcoLogits computes the generation of text only: 1 row, cost 1.2",
    );
  });
});

describe("a Google Cloud export with Vertex AI lines", () => {
  const line = (sku: string) =>
    runs["genai-gcp"].lines.find((row) => row.sku_description === sku) as OutputRow;

  it("estimates a SKU's output tokens, Gemini's and Claude's on Vertex AI", SLOW, () => {
    // Gemini 2.5 Flash Text Output, 2,000,000 tokens (count) in europe-west9
    expectTokens(line("Gemini 2.5 Flash Text Output"), 2_000_000, GEMINI_25_FLASH, FRA);
    expect(line("Gemini 2.5 Pro Thinking Output").method_unit).toBe(
      "output tokens of google_genai/gemini-2.5-pro",
    );
    expect(line("Claude Sonnet 4.5 Output Tokens").method_unit).toBe(
      "output tokens of anthropic/claude-sonnet-4-5",
    );
  });

  it("names input tokens, characters and images as not estimated, and a model the data lacks", SLOW, () => {
    const { stderr } = runs["genai-gcp"];
    expect(line("Gemini 2.5 Flash Text Input").status).toBe("not compute");
    expect(stderr).toContain(
      "generative AI characters: EcoLogits reads tokens, the bill gives characters: 1 row",
    );
    expect(stderr).toContain("generative AI images: EcoLogits computes the generation of text only: 1 row");
    expect(line("Gemini 1.5 Pro Text Output").status).toBe(
      "not evaluated: generative AI model gemini 1.5 pro has no EcoLogits figures",
    );
  });
});

describe("the FOCUS columns that carry them", () => {
  it("give each provider's line the numbers its own format gives", SLOW, () => {
    const [bedrock, input, azure, vertex] = runs["genai-focus"].lines;
    expectTokens(bedrock, 250_000, SONNET_45, USA);
    expect(input.status).toBe("not compute");
    expectTokens(azure, 500_000, GPT_4O_MINI, USA);
    expectTokens(vertex, 2_000_000, GEMINI_25_FLASH, FRA);
  });
});

describe("the registry of billed names", () => {
  it("reads tokens per 1K and 1M as counts of tokens", () => {
    expect(readUnit(unitSpelling("1K tokens") ?? "")).toMatchObject({
      dimension: "count",
      factor: 1000,
      resource: "token",
    });
    expect(readUnit(unitSpelling("1M") ?? "")).toMatchObject({ dimension: "count", factor: 1_000_000 });
    expect(readUnit(unitSpelling("Tokens") ?? "")).toMatchObject({
      dimension: "count",
      factor: 1,
      resource: "token",
    });
  });

  it("names each spelling once per provider, and every model it names is in the data", () => {
    const keys = BILLED_AI_MODELS.map((row) => `${row.provider}\u0000${row.spelling}`);
    expect(new Set(keys).size).toBe(keys.length);
    const data = app.service.generativeAi.engine.data;
    for (const row of BILLED_AI_MODELS) {
      const slash = row.variant.indexOf("/");
      expect(
        data.byProvider.get(row.variant.slice(0, slash))?.has(row.variant.slice(slash + 1)),
        row.variant,
      ).toBe(true);
    }
  });

  it("leaves out a spelling two models of different figures share, rather than choose one", () => {
    const model = (name: string, parameters: number) => ({
      provider: "openai",
      name,
      aliasOf: null,
      architecture: "dense" as const,
      totalParameters: { min: parameters, max: parameters },
      activeParameters: { min: parameters, max: parameters },
      tps: null,
      ttft: null,
      warnings: [],
      sources: [],
    });
    // `gpt-4.1` and `gpt-41` are both spelt gpt41
    const rows = billedAiModels([model("gpt-4.1", 100), model("gpt-41", 10)]);
    expect(rows.filter((row) => row.spelling === "gpt41")).toEqual([]);
  });
});
