/**
 * The generative-AI use case (docs/methodology.md, "Generative AI"): a request to a model checked
 * (its input from the catalogue, its provider, model and zone found in the edition's tables) and
 * its evaluation prepared. What the tables lack is refused, never guessed: an unknown provider or
 * zone (BAD_USER_INPUT at its field), an unknown model (NOT_FOUND, naming the closest names).
 */

import type { Limits } from "../config/serviceConfig.js";
import {
  type AssetWith,
  aiModel,
  closeAiModels,
  type GenerativeAiReferences,
  type GenerativeAiShape,
  generativeAiModel,
} from "../engine/index.js";
import { GENERATIVE_AI } from "../inputs/inputFields.js";
import type { PreparedAsset } from "./asset.js";
import { DomainError } from "./errors.js";
import { checkedAsset } from "./inputs.js";
import type { GenerativeAiService } from "./open.js";

export interface PreparedGenerativeAi extends PreparedAsset {
  readonly build: () => AssetWith<GenerativeAiShape>;
  /** The edition it is evaluated in (`ecologits-0.11.3`). */
  readonly edition: string;
  readonly provider: string;
  readonly model: string;
}

type Path = readonly (string | number)[];

/** The request's model, its provider's data centre and its zone's mix, each found or refused. */
function references(
  ai: GenerativeAiService,
  input: { provider: string; model: string; zone?: string | null },
  path: Path,
): GenerativeAiReferences {
  const { data } = ai.engine;
  const provider = data.providers.get(input.provider);
  if (provider === undefined) {
    throw new DomainError(
      "BAD_USER_INPUT",
      `provider ${JSON.stringify(input.provider)} is not one of ${ai.edition.id}'s: ${[...data.providers.keys()].join(", ")}`,
      [...path, "provider"],
    );
  }
  const model = aiModel(data, input.provider, input.model);
  if (model === undefined) {
    const close = closeAiModels(data, input.provider, input.model);
    const hint = close.length > 0 ? `; the closest: ${close.join(", ")}` : "";
    throw new DomainError(
      "NOT_FOUND",
      `model ${JSON.stringify(input.model)} of ${input.provider} is not in ${ai.edition.id}'s data${hint}`,
      [...path, "model"],
    );
  }
  const zone = input.zone ?? provider.datacenterLocation;
  const mix = data.mixes.get(zone);
  if (mix === undefined) {
    throw new DomainError(
      "BAD_USER_INPUT",
      `zone ${JSON.stringify(zone)} has no electricity mix in ${ai.edition.id}: an ISO 3166-1 alpha-3 code (FRA, USA…) or WOR`,
      [...path, "zone"],
    );
  }
  return { model, provider, mix };
}

/**
 * Checks a request to a generative-AI model (the `generativeAi` query's input, within the
 * service's limits) and prepares its evaluation in the edition `ai`.
 */
export function prepareGenerativeAi(
  ai: GenerativeAiService,
  limits: Limits,
  rawInput: unknown,
  path: Path,
): PreparedGenerativeAi {
  const { input } = checkedAsset(limits, GENERATIVE_AI, rawInput, path);
  const found = references(ai, input, path);
  return {
    edition: ai.edition.id,
    provider: found.provider.provider,
    model: found.model.name,
    usageHours: null,
    build: () => generativeAiModel(ai.engine, found, input),
  };
}
