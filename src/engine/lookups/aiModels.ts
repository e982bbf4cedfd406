import type { AiModel, GenerativeAiData } from "../../data/generativeAi.js";
import { ratio } from "./fuzzy.js";

/*
 * A generative-AI model is found by its provider and exact name, never by the nearest one: the
 * names of a family differ by a digit or a suffix (`gpt-4o` and `gpt-4o-mini`, twenty times
 * apart). A name the data lacks is refused with the names closest to it, for the client to choose.
 */

/** The model a provider's name designates, exactly (aliases are rows of their own). */
export function aiModel(data: GenerativeAiData, provider: string, name: string): AiModel | undefined {
  return data.byProvider.get(provider)?.get(name);
}

/** The similarity below which a name is not offered as close (per cent, rapidfuzz's `ratio`). */
const CLOSE_ENOUGH = 60;

/**
 * The names closest to `name` (case aside) among the provider's models, or every provider's when it
 * has none of that name's kind, best first, at most `count`, each at least CLOSE_ENOUGH similar;
 * another provider's names are given as `provider/name`.
 */
export function closeAiModels(data: GenerativeAiData, provider: string, name: string, count = 5): string[] {
  const wanted = name.toLowerCase();
  const scored = data.models.map((model) => {
    const score = ratio(wanted, model.name.toLowerCase());
    const own = model.provider === provider;
    return { label: own ? model.name : `${model.provider}/${model.name}`, score, own };
  });
  return scored
    .filter((entry) => entry.score >= CLOSE_ENOUGH)
    .sort((a, b) => Number(b.own) - Number(a.own) || b.score - a.score || a.label.localeCompare(b.label))
    .slice(0, count)
    .map((entry) => entry.label);
}
