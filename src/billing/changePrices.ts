/*
 * The hourly prices a what-if's change is costed at (src/billing/whatIf.ts), each with its origin:
 * the bill's own rate of the target type at the target place (its cost ÷ its hours), else, within
 * the target's family, the bill's rate of a sibling size at that place scaled by the provider's
 * published size factors (SizePricing: AWS's normalization factors, Google's vCPUs within a
 * series; Azure and Oracle none), else none, and why. A usage and its change are priced on one
 * basis: the cost paid for the hours (the report's), else, where the bill paid nothing for them
 * (hours a commitment covered, a sample's zero), the billed cost. No price list is read: none that
 * is public, dated and kept by its publisher installs through the project's package clients, and
 * the service reaches no other address (docs/billing.md, "What-if").
 */

import { formatNumber } from "../output/columns.js";
import { figure, money } from "../output/readable.js";
import { PROVIDERS } from "./providers/index.js";
import type { SizePricing } from "./providers/provider.js";

/** A bill's hours of an instance type at one place, and their costs paid and billed. */
export interface PricedUsage {
  readonly provider: string;
  readonly instanceType: string;
  readonly place: string;
  readonly hours: number;
  /** Its cost on the report's basis (paid for the hours); null where the input has none. */
  readonly cost: number | null;
  /** Its billed cost; null where the input has none. */
  readonly billedCost: number | null;
}

/** The cost a rate is read on: the cost paid for the hours, or the cost billed. */
export type PriceBasis = "paid" | "billed";
const BASES: readonly PriceBasis[] = ["paid", "billed"];

/** An hourly price, its origin as shown beside a figure, and what it was read from. */
export interface HourlyPrice {
  readonly price: number;
  /** `bill's rate`, `bill's billed rate × AWS size factor`. */
  readonly origin: string;
  readonly read: string;
}

/** A price, or why there is none. */
export type PriceFound = HourlyPrice | { readonly price: null; readonly why: string };

/** A usage and its change priced on one basis, or why they are not. */
export type PairPrice =
  | { readonly basis: PriceBasis; readonly from: HourlyPrice; readonly to: HourlyPrice }
  | { readonly basis: null; readonly why: string };

/** Where a price is looked for: a provider, type and place, the place as shown. */
export interface PriceTarget {
  readonly provider: string;
  readonly instanceType: string;
  readonly place: string;
  readonly shown: string;
}

const usageKey = (provider: string, instanceType: string, place: string) =>
  `${provider}\u0000${instanceType}\u0000${place}`;

const costOn = (usage: PricedUsage, basis: PriceBasis) => (basis === "paid" ? usage.cost : usage.billedCost);

/** A usage's rate on a basis, or null where its hours cost nothing on it. */
function rateOf(usage: PricedUsage, basis: PriceBasis): number | null {
  const cost = costOn(usage, basis);
  return cost === null || !(cost > 0) || !(usage.hours > 0) ? null : cost / usage.hours;
}

const sizePricingOf = (provider: string): SizePricing | null =>
  PROVIDERS.find((entry) => entry.id === provider)?.sizePricing ?? null;

/** A sibling size of the target's family at its place with a rate on the basis, the most hours first. */
function siblingRate(
  usages: readonly PricedUsage[],
  target: PriceTarget,
  basis: PriceBasis,
  pricing: SizePricing,
) {
  if (pricing.factor === null) return null;
  const own = pricing.factor(target.instanceType);
  if (own === null) return null;
  let best: { usage: PricedUsage; factor: number; rate: number } | null = null;
  for (const usage of usages) {
    if (usage.provider !== target.provider || usage.place !== target.place) continue;
    const theirs = pricing.factor(usage.instanceType);
    const rate = rateOf(usage, basis);
    if (theirs === null || theirs.family !== own.family || rate === null) continue;
    if (best === null || usage.hours > best.usage.hours) best = { usage, factor: theirs.factor, rate };
  }
  return best === null ? null : { ...best, own: own.factor, origin: pricing.origin };
}

/**
 * A usage and its change on the first basis both have a price on (the cost paid, then the
 * billed); else why: the change's where it has a price on no basis, else the usage's.
 */
function pairPrice(
  priceOf: (target: PriceTarget, basis: PriceBasis, scaled?: boolean) => PriceFound,
  from: PriceTarget,
  to: PriceTarget,
): PairPrice {
  // A usage is priced at its own rate on the basis: the change is what a sibling's may stand for
  const tried = BASES.map((basis) => ({
    basis,
    own: priceOf(from, basis, false),
    changed: priceOf(to, basis),
  }));
  for (const { basis, own, changed } of tried)
    if (own.price !== null && changed.price !== null) return { basis, from: own, to: changed };
  const unpriced = tried.find(({ changed }) => changed.price !== null) === undefined;
  const last = tried[tried.length - 1];
  const why = (found: PriceFound) => (found.price === null ? found.why : "");
  return { basis: null, why: unpriced ? why(last.changed) : why(tried[0].own) || why(last.own) };
}

/** The prices a bill gives: `priceOf` a target on a basis, `pairOf` a usage and its change on one basis. */
export function billPrices(usages: readonly PricedUsage[], currency: string | null) {
  const byKey = new Map(
    usages.map((usage) => [usageKey(usage.provider, usage.instanceType, usage.place), usage]),
  );
  const unit = currency === null ? "" : ` ${currency}`;
  const costText = (usage: PricedUsage, basis: PriceBasis) =>
    `${money(costOn(usage, basis) ?? 0)}${unit}${basis === "billed" ? " billed" : ""} over ${formatNumber(usage.hours)} h of ${usage.instanceType}`;
  const origin = (basis: PriceBasis) => (basis === "paid" ? "bill's rate" : "bill's billed rate");

  /** A target's price on a basis: its own rate, else (`scaled`) a sibling size's scaled. */
  const priceOf = (target: PriceTarget, basis: PriceBasis, scaled = true): PriceFound => {
    const usage = byKey.get(usageKey(target.provider, target.instanceType, target.place));
    const rate = usage === undefined ? null : rateOf(usage, basis);
    if (usage !== undefined && rate !== null)
      return {
        price: rate,
        origin: origin(basis),
        read: `${figure(rate)}${unit} an hour: ${costText(usage, basis)} in ${target.shown}`,
      };
    const pricing = sizePricingOf(target.provider);
    const found = pricing === null || !scaled ? null : siblingRate(usages, target, basis, pricing);
    if (found !== null) {
      const price = (found.rate * found.own) / found.factor;
      return {
        price,
        origin: `${origin(basis)} × ${found.origin}`,
        read: `${figure(price)}${unit} an hour: ${figure(found.rate)}${unit} × ${formatNumber(found.own)}/${formatNumber(found.factor)} (${found.origin}), ${costText(found.usage, basis)} in ${target.shown}`,
      };
    }
    const family =
      pricing === null
        ? ""
        : pricing.factor === null
          ? `; ${pricing.why}`
          : ", nor of a size of its family there";
    return {
      price: null,
      why:
        usage === undefined
          ? `the bill has no hours of ${target.instanceType} in ${target.shown}${family}`
          : `the bill's ${formatNumber(usage.hours)} h of ${target.instanceType} in ${target.shown} cost nothing on its basis`,
    };
  };

  const pairOf = (from: PriceTarget, to: PriceTarget): PairPrice => pairPrice(priceOf, from, to);

  return { priceOf, pairOf };
}

export type BillPrices = ReturnType<typeof billPrices>;
