import {
  AI_FIGURE_COLUMNS,
  AI_MIX_COLUMNS,
  AI_MODEL_COLUMNS,
  AI_PROVIDER_COLUMNS,
} from "../data/generativeAi.js";
import { CRITERIA, type CriterionInfo, WATER_CONSUMPTION } from "../engine/index.js";
import type { GenerativeAiEditionDescription } from "./types.js";

const criterion = (name: string): CriterionInfo =>
  CRITERIA.find((info) => info.name === name) as CriterionInfo;

/**
 * What EcoLogits computes, as criteria: gwp, adp (its ADPe, in kgSbeq: the criterion whose
 * electricity factor Boavizta reads as `adpe`), pe, fe (its energy, kWh at the plug: the use
 * phase only) and wcf (its water consumption footprint, litres: the use phase only), in that order.
 */
const CRITERIA_ECOLOGITS: readonly CriterionInfo[] = [
  criterion("gwp"),
  criterion("adp"),
  criterion("pe"),
  { ...criterion("fe"), unit: "kWh", description: "Final energy consumption (at the plug, PUE included)" },
  WATER_CONSUMPTION,
];

/**
 * EcoLogits 0.11.3 (GenAI Impact; the Python package index's release of October 2026, MPL-2.0):
 * the impacts of one request to a generative-AI model from its provider, model, output tokens,
 * latency and electricity zone. Its figures are not rounded: EcoLogits answers its floats as
 * computed.
 */
export const EDITION_ECOLOGITS_0_11_3: GenerativeAiEditionDescription = {
  id: "ecologits-0.11.3",
  summary:
    "EcoLogits 0.11.3 (docs/methodology.md, Generative AI): a request's energy, gwp, adp, pe and water from its model, output tokens, latency and zone.",
  dataSet: {
    upstream: "ecologits 0.11.3 (the package index's release, wheel sha256 c477b77a…)",
    tables: [
      {
        file: "models.csv",
        purpose: "each model's provider, architecture, parameters, measured speed, warnings and sources",
        columns: AI_MODEL_COLUMNS,
      },
      {
        file: "electricity_mixes.csv",
        purpose: "the impacts of a kWh per zone (ISO 3166-1 alpha-3, WOR the world)",
        columns: AI_MIX_COLUMNS,
      },
      {
        file: "figures.csv",
        purpose: "the fits of GPU energy and latency per token, the GPU and server figures, the batch",
        columns: AI_FIGURE_COLUMNS,
      },
      {
        file: "providers.csv",
        purpose: "each provider's data centre: location, PUE, WUE",
        columns: AI_PROVIDER_COLUMNS,
      },
    ],
  },
  rules: {
    version: "ecologits 0.11.3",
    criteria: CRITERIA_ECOLOGITS,
    defaultCriteria: CRITERIA_ECOLOGITS.map((info) => info.name),
    roundImpact: (value, min, max) => ({ value, min, max, warnings: [] }),
  },
};
