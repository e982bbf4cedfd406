/*
 * The coefficient rows of a bill's generative-AI lines (docs/methodology.md, "Generative AI on a
 * bill"): for each model a line names (its key, src/billing/registry/generativeAi.ts) and each place
 * of its provider, the impacts of ONE output token as EcoLogits computes a request's, in the shape
 * of a method's row, so that a line reads its key's row as any method's line does.
 *
 * A bill counts tokens, not requests: a token's impacts are the request's without the time to its
 * first token (the model's `ttft`, counted once per request, which the bill cannot count), so that
 * a line of N tokens is N times a token whatever requests made it. The zone is the place's country
 * where EcoLogits has its mix, else (no region, a location EcoLogits lacks: Boavizta's Europe) the
 * provider's data centres', EcoLogits' own default. Criteria the generative-AI edition lacks (the
 * PEF ones) have no figure.
 */

import {
  aiModel,
  Evaluation,
  generativeAiModel,
  type RequestedCriterion,
  resolveCriterion,
} from "../../engine/index.js";
import type { CoefficientPlace } from "../../service/coefficients.js";
import type { EditionContext, GenerativeAiService } from "../../service/open.js";
import { aiVariantParts, UNKNOWN_AI_MODEL_KEY } from "../registry/generativeAi.js";
import type { MethodRow } from "./methodRows.js";

/** A model's key billed by a provider ('' for one not recognised). */
export interface BilledAiKey {
  readonly provider: string;
  readonly key: string;
}

const KEY_PREFIX = `${UNKNOWN_AI_MODEL_KEY}:`;

/**
 * The models' keys some line of the bill reads, by provider, in their order (a model no spelling
 * names has none), of the methods' keys its lines read (`billed`, in their order).
 */
export function billedAiKeys(billed: readonly BilledAiKey[]): BilledAiKey[] {
  return billed.filter(({ key }) => key.startsWith(KEY_PREFIX));
}

/** The zone of a place's electricity as EcoLogits has it: its country's mix, else none (the provider's data centres). */
function zoneOf(ai: GenerativeAiService, place: CoefficientPlace): string | null {
  const country = place.usageLocation;
  return country !== null && ai.engine.data.mixes.has(country) ? country : null;
}

/** One output token of a model at a zone (null: the provider's data centres'), as an evaluation of the edition's criteria. */
function tokenEvaluation(ai: GenerativeAiService, variant: string, zone: string | null): Evaluation {
  const { data, rules } = ai.engine;
  const { provider, model } = aiVariantParts(variant);
  const found = aiModel(data, provider, model);
  const datacentre = data.providers.get(provider);
  if (found === undefined || datacentre === undefined)
    throw new Error(`billing: the generative-AI key ${variant} names no model of ${ai.edition.id}`);
  const mix = data.mixes.get(zone ?? datacentre.datacenterLocation);
  if (mix === undefined) throw new Error(`billing: no electricity mix for ${zone} in ${ai.edition.id}`);
  // A request's figures without its time to the first token: those of its tokens alone.
  const asset = generativeAiModel(
    ai.engine,
    { model: { ...found, ttft: null }, provider: datacentre, mix },
    { provider, model, outputTokens: 1 },
  );
  return new Evaluation(asset, {
    criteria: rules.criteria.map((info) => ({ requested: info.name, info, computed: true })),
  });
}

/**
 * A model's key's rows at each place: per criterion of the bill (`criteria`, the Boavizta edition's),
 * the embedded and use impacts of one output token where the generative-AI edition computes the
 * criterion (gwp, adp, pe; fe the energy), none otherwise; the energy behind the use, PUE included.
 */
export function generativeAiRows(
  context: EditionContext,
  { provider, key }: BilledAiKey,
  places: readonly CoefficientPlace[],
  criteria: readonly RequestedCriterion[],
): MethodRow[] {
  const ai = context.generativeAi;
  const variant = key.slice(KEY_PREFIX.length);
  const byZone = new Map<string | null, Evaluation>();
  return places.map((place) => {
    const zone = zoneOf(ai, place);
    const evaluation = byZone.get(zone) ?? tokenEvaluation(ai, variant, zone);
    byZone.set(zone, evaluation);
    const perHour = criteria.map((criterion) => {
      const own = resolveCriterion(criterion.info.name, ai.engine.rules.criteria);
      return own === null
        ? { embedded: null, use: null }
        : { embedded: evaluation.raw(own, "embedded"), use: evaluation.raw(own, "use") };
    });
    const energy = resolveCriterion("fe", ai.engine.rules.criteria);
    return {
      energyKwh: energy === null ? 0 : (evaluation.raw(energy, "use")?.value ?? 0),
      row: { provider, instanceType: key, ...place, perHour },
    };
  });
}
