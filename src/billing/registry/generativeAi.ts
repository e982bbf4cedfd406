/*
 * Generative AI on a bill (docs/methodology.md, "Generative AI on a bill"): the lines of Amazon
 * Bedrock (a CUR's usage types, `USE1-Claude4.6Opus-output-tokens`,
 * `USW2-anthropic.claude-opus-4-8-mantle-output-tokens-global-standard`), Azure OpenAI (meters
 * per 1K or 1M tokens, `gpt-4o-mini-0718-Outp-glbl Tokens`, `gpt 4.1 Inp regnl Tokens`) and Vertex
 * AI (Google's SKUs, `Gemini 2.5 Flash Text Output`), and the FOCUS columns that carry the same
 * texts (`x_UsageType`, `x_SkuMeterName`, `SkuMeter`, `ChargeDescription`).
 *
 * A line's output tokens are estimated with the method `generative-ai`: the model its text names,
 * found in the generative-AI edition's data by a billed spelling (below), its impacts per output
 * token as EcoLogits computes a request's (src/billing/stages/generativeAiRows.ts). Input tokens,
 * cached tokens, characters and images are named as not estimated, each with why. A model the
 * data lacks is named on its lines, never read as the nearest one.
 *
 * The method and its rules are plain objects here, read by src/billing/registry/methods.ts (which
 * holds them among its methods and rules: BILLING_METHODS, LINE_RULES); the table of billed
 * spellings is written as `billing_ai_models` (src/billing/registry/sqlTables.ts).
 */

import { loadedGenerativeAi } from "../../config/referenceData.js";
import type { AiModel } from "../../data/generativeAi.js";
import { GENERATIVE_AI_EDITION } from "../../editions/index.js";
import { PROVIDERS } from "../providers/index.js";
import { all, any, conditionSql, has, resource } from "../rules/conditions.js";

/** The providers whose bills name generative-AI models, each with its services, patterns and spellings (src/billing/providers/). */
const AI_BILLING = PROVIDERS.flatMap((provider) =>
  provider.generativeAi === null ? [] : [{ provider: provider.id, ...provider.generativeAi }],
);

/** The services that bill generative AI, as a line's text names them (product code, meter category, service): each provider's. */
const AI_SERVICE = has(...AI_BILLING.flatMap((billing) => billing.services));

/** Words of a text saying input (prompt) tokens, cached or not. */
const INPUT_WORDS = has("input", "-inp-", " inp ", " inpt ", "cache", "cchd", " cd ");

/** Words of a text saying output (generated) tokens: Bedrock's `-output-tokens`, Azure's `Outp`, `outpt`, `opt`. */
const OUTPUT_WORDS = has("output", "outp", " opt ", "-opt-");

/** What EcoLogits' computation reads of a request: its output tokens (docs/methodology.md, "Generative AI"). */
const INPUT_REASON = "input tokens: EcoLogits computes a request from its output tokens only";

/**
 * The rules giving generative-AI lines no method, each with its reason (the summary's), before the
 * method's own rule: characters, images, then input and cached tokens. Places 41 to 44, after the
 * charges that are not usage and the licences and fees (10 to 40), before any hardware's method.
 */
export const GENERATIVE_AI_LINE_RULES = [
  {
    order: 41,
    why: [
      "Characters (Vertex AI's older models, billed per 1,000 characters): EcoLogits reads tokens,",
      "and no bill gives them",
    ],
    match: all(AI_SERVICE, has("character")),
    gives: "NULL",
    reason: "generative AI characters: EcoLogits reads tokens, the bill gives characters",
  },
  {
    order: 42,
    why: ["Images generated or read: EcoLogits computes the generation of text only"],
    match: all(AI_SERVICE, any(has("image"), resource("image"))),
    gives: "NULL",
    reason: "generative AI images: EcoLogits computes the generation of text only",
  },
  {
    order: 43,
    why: [
      "Input tokens, cached or not (Bedrock's `-input-tokens`, `-cache-read-input-token-count`;",
      "Azure's `Inp`, `cached Inp`; Vertex AI's `Text Input`): EcoLogits' computation has none",
    ],
    match: all(AI_SERVICE, INPUT_WORDS),
    gives: "NULL",
    reason: INPUT_REASON,
  },
] as const;

/** The method estimating a generative-AI line's output tokens. */
export const GENERATIVE_AI = "generative-ai";

/** The coefficient key of one output token of a model (`anthropic/claude-sonnet-4-5`). */
export const aiTokenKey = (variant: string): string => `method:ai-output-token:${variant}`;

/** The key of a model no billed spelling names: its lines are not evaluated (its factor is none). */
export const UNKNOWN_AI_MODEL_KEY = "method:ai-output-token";

/** A model of the data as a method's variant: `provider/name`. */
export const aiVariant = (model: Pick<AiModel, "provider" | "name">): string =>
  `${model.provider}/${model.name}`;

/** The variant's provider and model name (its first `/`: Hugging Face names hold one). */
export function aiVariantParts(variant: string): { readonly provider: string; readonly model: string } {
  const slash = variant.indexOf("/");
  return { provider: variant.slice(0, slash), model: variant.slice(slash + 1) };
}

/**
 * A text as billed spellings are compared: lower case, without blanks, hyphens, dots, underscores,
 * colons and slashes (`Claude4.6Opus` and `claude-4-6-opus` are `claude46opus`). The SQL's spelling
 * is the same (aiSpellingSql).
 */
export function aiSpelling(text: string): string {
  return text.toLowerCase().replace(/[ \-._:/]/g, "");
}

/** The characters aiSpelling drops, as the SQL drops them (nested REPLACE: every engine has it). */
const DROPPED = [" ", "-", ".", "_", ":", "/"];

/**
 * The SQL of the line marked `-- @generative-ai model of <alias>`: `billing_ai_name`, the model a
 * line of a generative-AI service names, the provider's pattern's group as the bill writes it (''
 * when none matches, or for another service's line: no pattern is read on those).
 */
export function aiNameSql(indent: string, alias: string): string {
  const text = `${alias}.billing_usage_text`;
  const service = [conditionSql(AI_SERVICE, alias)];
  // Where each provider's bill names a model: its pattern's first group (a Bedrock usage type, an Azure meter, a Vertex AI SKU)
  const cases = AI_BILLING.map(
    ({ provider, pattern }) =>
      `${indent}  WHEN '${provider}' THEN COALESCE(REGEXP_EXTRACT(${text}, '${pattern}', 1), '')`,
  );
  return [
    `${indent}CASE WHEN ${service.join("\n")}`,
    `${indent}THEN CASE COALESCE(${alias}.billing_provider, '')`,
    ...cases,
    `${indent}  ELSE ''`,
    `${indent}END ELSE '' END AS billing_ai_name,`,
  ].join("\n");
}

/**
 * The SQL of the line marked `-- @generative-ai spelling of <alias>`: `billing_ai_model`, the
 * spelling (aiSpelling) of the view's `billing_ai_name`, by nested REPLACE (every engine has it),
 * which the table billing_ai_models is joined on.
 */
export function aiSpellingSql(indent: string, alias: string): string {
  const spelt = DROPPED.reduce(
    (sql, character) => `REPLACE(${sql}, '${character}', '')`,
    `${alias}.billing_ai_name`,
  );
  return `${indent}${spelt} AS billing_ai_model,`;
}

/** The method's rule: output tokens of a generative-AI service (at place 44, after the rules above). */
export const GENERATIVE_AI_RULE = {
  order: 44,
  why: [
    "Output tokens of a generative-AI model (Bedrock, Azure OpenAI, Vertex AI): EcoLogits' impacts",
    "of the model named, per output token (src/billing/registry/generativeAi.ts)",
  ],
  match: all(AI_SERVICE, OUTPUT_WORDS),
  thenApart: true,
} as const;

/** A row of the table billing_ai_models: a provider's billed spelling and the model it names. */
export interface BilledAiModel {
  /** The bill's provider (aws, azure, gcp), as the formats' queries name it. */
  readonly provider: string;
  /** aiSpelling of the billed text. */
  readonly spelling: string;
  /** The model of the data it names (`provider/name`, aiVariant). */
  readonly variant: string;
}

/** Two models' figures alike (an alias and its model): one spelling may name either. */
const sameFigures = (a: AiModel, b: AiModel) =>
  a.aliasOf === b.name || b.aliasOf === a.name || (a.aliasOf !== null && a.aliasOf === b.aliasOf);

/**
 * Every billed spelling of the models of the data, per bill provider. A spelling two models of
 * different figures share is left out (neither is guessed): their lines say the model is unknown.
 */
export function billedAiModels(models: readonly AiModel[]): BilledAiModel[] {
  const rows: BilledAiModel[] = [];
  // Each provider's spellings of the models it bills (Bedrock: Claude; Azure: OpenAI's; Vertex: Gemini and Claude)
  for (const { provider, sources, spellings } of AI_BILLING) {
    const named = new Map<string, AiModel[]>();
    for (const model of models) {
      if (!sources.includes(model.provider)) continue;
      for (const spelling of new Set(spellings(model.name).map(aiSpelling))) {
        named.set(spelling, [...(named.get(spelling) ?? []), model]);
      }
    }
    for (const [spelling, found] of named) {
      if (found.every((model) => sameFigures(model, found[0]) || model === found[0]))
        rows.push({ provider, spelling, variant: aiVariant(found[0]) });
    }
  }
  return rows;
}

/**
 * The billed spellings of the generative-AI edition's models (its data, read once per process:
 * src/config/referenceData.ts), the table billing_ai_models.
 */
export const BILLED_AI_MODELS: readonly BilledAiModel[] = billedAiModels(
  loadedGenerativeAi(GENERATIVE_AI_EDITION).models,
);

/** The models some bill names, each once, in the table's order: the method's variants. */
const BILLED_VARIANTS: readonly string[] = [...new Set(BILLED_AI_MODELS.map((row) => row.variant))];

/**
 * The method `generative-ai` (read by src/billing/registry/methods.ts among BILLING_METHODS): a
 * line's tokens in its unit (`1K tokens`, `1M`, Google's `count`), a key per model named, its
 * coefficient row EcoLogits' impacts of one output token (src/billing/stages/generativeAiRows.ts);
 * and the key of a model no spelling names, which no line is evaluated with.
 */
export const GENERATIVE_AI_METHOD = {
  method: GENERATIVE_AI,
  dimension: "count",
  variantOf: "model",
  labelSuffix: "",
  multiplier: 1,
  keys: [
    ...BILLED_VARIANTS.map((variant) => ({
      variant,
      key: aiTokenKey(variant),
      unit: `output tokens of ${variant}`,
      energy: { generativeAi: variant },
      embedded: { generativeAi: variant },
    })),
    {
      variant: "",
      key: UNKNOWN_AI_MODEL_KEY,
      unit: "output tokens",
      energy: { generativeAi: "" },
      embedded: { none: "a model no billed spelling names is not evaluated" },
    },
  ],
  rules: [GENERATIVE_AI_RULE],
} as const;
