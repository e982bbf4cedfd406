/*
 * How the price list's sources are merged (scripts/price-list.ts): a type's prices all come from
 * ONE source, the first in precedence that prices the type at any region. A region move is priced
 * "list price, both sides" (src/billing/changePrices.ts): its saving is the difference of the
 * type's prices at two regions, so both must be of one source and one date; prices of two sources
 * read a year apart would put the price changes between their dates into the saving.
 */
import type { GeneratedPrices } from "./karpenter.js";

/** One source's prices (`region,type` or `region,type,engine` → USD an hour) of a provider, in precedence order. */
export interface SourcePrices {
  readonly name: string;
  readonly provider: string;
  readonly prices: GeneratedPrices;
}

/** A key's type: `region,type`, or `region,type,engine` for a managed service's node. */
const typeOf = (key: string) => key.split(",")[1];

/**
 * What a source sells where it is read: its regions (every region it prices a type at, where it
 * lists every type sold), and the types the list took from it. A type of these, not priced at one
 * of these regions, is not sold there at the source's date.
 */
export interface SoldWhereListed {
  readonly provider: string;
  readonly name: string;
  readonly regions: readonly string[];
  readonly types: readonly string[];
}

/**
 * Each provider's `region,type` → price, each type's from the first source that has it, how many
 * types each source gave (a source whose every type an earlier one has gives none), and what each
 * source sells where it is read.
 */
export function byPrecedence(sources: readonly SourcePrices[]): {
  readonly prices: Map<string, Map<string, number>>;
  readonly typesGiven: Map<string, number>;
  readonly sold: readonly SoldWhereListed[];
} {
  const prices = new Map<string, Map<string, number>>();
  const typesGiven = new Map<string, number>();
  const sold: SoldWhereListed[] = [];
  const taken = new Map<string, Map<string, string>>();
  for (const source of sources) {
    const known = prices.get(source.provider) ?? new Map<string, number>();
    prices.set(source.provider, known);
    const owners = taken.get(source.provider) ?? new Map<string, string>();
    taken.set(source.provider, owners);
    const given = new Set<string>();
    const regions = new Set<string>();
    for (const [key, price] of source.prices) {
      regions.add(key.split(",")[0]);
      const type = typeOf(key);
      const owner = owners.get(type);
      if (owner !== undefined && owner !== source.name) continue;
      owners.set(type, source.name);
      given.add(type);
      known.set(key, price);
    }
    typesGiven.set(source.name, (typesGiven.get(source.name) ?? 0) + given.size);
    if (given.size > 0)
      sold.push({
        provider: source.provider,
        name: source.name,
        regions: [...regions].sort(),
        types: [...given].sort(),
      });
  }
  return { prices, typesGiven, sold };
}
