/**
 * The generative-AI kind (docs/methodology.md, "Generative AI"), computed by hand from the
 * edition's tables (data/ecologits-0.11.3/): the worked example of the methodology, a model with
 * ranges, and what the tables lack, refused.
 */
import { describe, expect, it } from "vitest";
import { DEFAULT_LIMITS } from "../../src/config/serviceConfig.js";
import { Evaluation, type RequestedCriterion, resolveCriterion } from "../../src/engine/index.js";
import { DomainError } from "../../src/service/errors.js";
import { prepareGenerativeAi } from "../../src/service/generativeAi.js";
import { generativeAiService } from "../../src/service/open.js";

const ai = generativeAiService();
const criterion = (name: string) => resolveCriterion(name, ai.edition.rules.criteria) as RequestedCriterion;

function evaluate(input: Record<string, unknown>) {
  const prepared = prepareGenerativeAi(ai, DEFAULT_LIMITS, input, ["input"]);
  const evaluation = new Evaluation(prepared.build(), {
    criteria: ["gwp", "adp", "pe", "fe", "wcf"].map(criterion),
  });
  return {
    prepared,
    evaluation,
    raw: (name: string, phase: "embedded" | "use") => evaluation.raw(criterion(name), phase),
  };
}

/** Relative closeness: the figures below are written to 12 significant digits. */
const near = (found: number | undefined, expected: number) =>
  expect(Math.abs((found ?? Number.NaN) - expected) / expected).toBeLessThan(1e-10);

describe("a request to ministral-8b-2512 (mistralai), 500 output tokens, in France", () => {
  // The methodology's worked example. Dense, 8.02 billion parameters; measured 81.5 tokens/s and
  // 0.32 s to the first token; mistralai's data centre: PUE 1.16, WUE 0.09 L/kWh; FRA's mix:
  // 0.04144 kgCO2eq, 4.858e-8 kgSbeq, 9.3135 MJ, 3.6737 L per kWh.
  //   GPU energy per token: 1.1665273170e-6 × exp(−0.011205921026 × 64) × 8.02 + 4.052928147e-5
  //     = 1.1665273170e-6 × 0.48812734923 × 8.02 + 4.052928147e-5 = 4.50959808417e-5 Wh
  //   GPUs: 1.2 × 8.02 × 16 / 8 = 19.248 GB, ⌈19.248 / 80⌉ = 1, a power of two: 1
  //   GPU energy: 500 × 4.50959808417e-5 / 1000 = 2.25479904208e-5 kWh
  //   generation: 500 / 81.5 + 0.32 = 6.45496932515 s
  //   server: 6.45496932515 / 3600 × 1.2 kW × 1/8 × 1/64 = 4.20245398773e-6 kWh
  //   IT energy: 4.20245398773e-6 + 1 × 2.25479904208e-5 = 2.67504444086e-5 kWh
  //   energy: × 1.16 = 3.10305155139e-5 kWh
  //   gwp use: × 0.04144 = 1.28590456290e-6 kgCO2eq; pe use: × 9.3135 = 2.89002706239e-4 MJ
  //   water: 2.67504444086e-5 × (0.09 + 1.16 × 3.6737) = 2.67504444086e-5 × 4.351492 = 1.16404344840e-4 L
  //   embodied gwp: 6.45496932515 × (1/8 × 5700 + 1 × 273) / (94,608,000 × 64)
  //     = 6.45496932515 × 985.5 / 6,054,912,000 = 1.05061349693e-6 kgCO2eq
  const { raw, prepared } = evaluate({
    provider: "mistralai",
    model: "ministral-8b-2512",
    outputTokens: 500,
    zone: "FRA",
  });

  it("computes its energy, use and embodied impacts and water as by hand", () => {
    near(raw("fe", "use")?.value, 3.10305155139e-5);
    near(raw("gwp", "use")?.value, 1.2859045629e-6);
    near(raw("pe", "use")?.value, 2.89002706239e-4);
    near(raw("wcf", "use")?.value, 1.1640434484e-4);
    near(raw("gwp", "embedded")?.value, 1.05061349693e-6);
    near(raw("adp", "embedded")?.value, (6.45496932515 * (0.37 / 8 + 0.00895)) / 6_054_912_000);
  });

  it("has no range (one model size, one PUE) and no embodied energy or water", () => {
    const gwp = raw("gwp", "use");
    expect(gwp?.min).toBe(gwp?.value);
    expect(gwp?.max).toBe(gwp?.value);
    expect(raw("fe", "embedded")).toBeNull();
    expect(raw("wcf", "embedded")).toBeNull();
    expect(raw("gwp", "use")?.warnings).toEqual([]);
  });

  it("names its edition, model and zone", () => {
    expect(prepared.edition).toBe("ecologits-0.11.3");
    const shape = prepared.build().shape;
    expect([shape.zone, shape.gpus, shape.generationLatency.min]).toEqual([
      "FRA",
      { min: 1, max: 1 },
      500 / 81.5 + 0.32,
    ]);
  });

  it("counts the generation no longer than the request's latency", () => {
    // 2 s instead of 6.455 s: the server's energy and the embodied impacts scale down.
    const capped = evaluate({
      provider: "mistralai",
      model: "ministral-8b-2512",
      outputTokens: 500,
      zone: "FRA",
      requestLatency: 2,
    });
    near(capped.raw("gwp", "embedded")?.value, (2 * 985.5) / 6_054_912_000);
    near(capped.raw("fe", "use")?.value, 1.16 * ((2 / 3600) * 1.2 * (1 / 8) * (1 / 64) + 2.25479904208e-5));
  });
});

describe("a request to claude-sonnet-4-5 (anthropic), 1,000 output tokens, no zone", () => {
  // An alias of claude-sonnet-4-5-20250929: a mixture of experts of 440 billion parameters, 44 to
  // 132 of them active (EcoLogits' estimate); 42 tokens/s, 1.15 s to the first token. Anthropic's
  // data centres: USA (0.3844 kgCO2eq/kWh, 3.1321 L/kWh), PUE 1.09–1.14, WUE 0.13–0.999.
  //   GPUs: 1.2 × 440 × 16 / 8 = 1,056 GB, ⌈13.2⌉ = 14 → 16
  //   generation: 1000 / 42 + 1.15 = 24.9595238095 s (both sides)
  //   server: 24.9595238095 / 3600 × 1.2 × 16/8 × 1/64 = 2.59995039683e-4 kWh
  //   min side: 6.55834924986e-5 Wh a token; IT 2.59995039683e-4 + 16 × 6.55834924986e-5 = 1.30933091966e-3 kWh;
  //     energy × 1.09 = 1.42717070243e-3; gwp use × 0.3844 = 5.48604418014e-4
  //   max side: 1.15691914561e-4 Wh a token; IT 2.11106567266e-3 kWh; energy × 1.14 = 2.40661486683e-3;
  //     gwp use 9.25102754810e-4
  //   embodied gwp: 24.9595238095 × (2 × 5700 + 16 × 273) / 6,054,912,000 = 6.49987599206e-5 (both)
  const { raw, prepared } = evaluate({
    provider: "anthropic",
    model: "claude-sonnet-4-5",
    outputTokens: 1000,
  });

  it("gives min and max from both ends of its ranges, the value their mean", () => {
    const gwp = raw("gwp", "use");
    near(gwp?.min, 5.48604418014e-4);
    near(gwp?.max, 9.2510275481e-4);
    near(gwp?.value, (5.48604418014e-4 + 9.2510275481e-4) / 2);
    const energy = raw("fe", "use");
    near(energy?.min, 1.42717070243e-3);
    near(energy?.max, 2.40661486683e-3);
    near(raw("gwp", "embedded")?.max, 6.49987599206e-5);
    expect(prepared.build().shape).toMatchObject({ zone: "USA", gpus: { min: 16, max: 16 } });
  });

  it("carries the data's caveat on every impact", () => {
    expect(raw("gwp", "use")?.warnings.join()).toContain("model-arch-not-released");
    expect(raw("pe", "embedded")?.warnings.join()).toContain("model-arch-not-released");
  });
});

describe("what the tables lack is refused, never guessed", () => {
  const refusal = (input: Record<string, unknown>) => {
    try {
      prepareGenerativeAi(ai, DEFAULT_LIMITS, input, ["input"]);
    } catch (error) {
      if (error instanceof DomainError) return error;
      throw error;
    }
    throw new Error("accepted");
  };

  it("a model the data lacks: NOT_FOUND naming the closest names", () => {
    const error = refusal({ provider: "openai", model: "gpt-4o-mni", outputTokens: 10 });
    expect(error.kind).toBe("NOT_FOUND");
    expect(error.message).toMatch(
      /^model "gpt-4o-mni" of openai is not in ecologits-0\.11\.3's data; the closest: gpt-4o-mini,/,
    );
    expect(error.field).toEqual(["input", "model"]);
  });

  it("an unknown provider and an unknown zone: BAD_USER_INPUT at their field", () => {
    const provider = refusal({ provider: "bedrock", model: "claude-sonnet-4-5", outputTokens: 10 });
    expect([provider.kind, provider.field]).toEqual(["BAD_USER_INPUT", ["input", "provider"]]);
    expect(provider.message).toContain("anthropic, cohere, google_genai, huggingface_hub, mistralai, openai");
    const zone = refusal({ provider: "openai", model: "gpt-4o", outputTokens: 10, zone: "FR" });
    expect([zone.kind, zone.field]).toEqual(["BAD_USER_INPUT", ["input", "zone"]]);
  });

  it("negative tokens: refused by the catalogue's bound", () => {
    const error = refusal({ provider: "openai", model: "gpt-4o", outputTokens: -1 });
    expect(error.field).toEqual(["input", "outputTokens"]);
  });
});
