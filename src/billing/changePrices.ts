/*
 * The hourly prices a what-if's change is costed at (src/billing/stages/whatIf.ts), each with its origin:
 * the bill's own rate of the target type at the target place (its cost ÷ its hours), else, within
 * the target's family, the bill's rate of a sibling size at that place scaled by the provider's
 * published size factors (SizePricing: AWS's normalization factors, Google's vCPUs within a
 * series; Azure and Oracle none), else, where a public on-demand price list is read
 * (src/billing/priceList.ts) and the bill is in its currency, both the usage and its change at
 * their list prices; else the usage's own rate × the ratio of the two types' list prices (any
 * currency: a ratio converts nothing); else none, and why. A usage and its change are priced on one basis: the cost
 * paid for the hours (the report's), else, where the bill paid nothing for them (hours a
 * commitment covered, a sample's zero), the billed cost, else the list's (docs/billing.md, "What-if").
 */

import { formatNumber } from "../output/columns.js";
import { figure, money } from "../output/readable.js";
import { LIST_CURRENCY, listPrice, listRatio, type PriceList } from "./priceList.js";
import { PROVIDERS } from "./providers/index.js";
import type { SizePricing } from "./providers/provider.js";

/** A bill's hours of an instance type at one place, and their costs paid and billed. */
export interface PricedUsage {
  readonly provider: string;
  readonly instanceType: string;
  /** The coefficient table's place: a region id, a country (an edition without regions), '' the default. */
  readonly place: string;
  readonly hours: number;
  /** Its cost on the report's basis (paid for the hours); null where the input has none (an inventory). */
  readonly cost: number | null;
  /** Its billed cost; null where the input has none. */
  readonly billedCost: number | null;
}

/** The cost a rate is read on: the cost paid for the hours, the cost billed, or (both sides) a price list's. */
export type PriceBasis = "paid" | "billed" | "list";
const BASES: readonly ("paid" | "billed")[] = ["paid", "billed"];

/** An hourly price, its origin as shown beside a figure, and what it was read from. */
export interface HourlyPrice {
  readonly price: number;
  /** `bill's rate`, `bill's billed rate × AWS size factor`, `list price, both sides`. */
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

type BillBasis = "paid" | "billed";
const costOn = (usage: PricedUsage, basis: BillBasis) => (basis === "paid" ? usage.cost : usage.billedCost);

/** A usage's rate on a basis, or null where its hours cost nothing on it. */
function rateOf(usage: PricedUsage, basis: BillBasis): number | null {
  const cost = costOn(usage, basis);
  return cost === null || !(cost > 0) || !(usage.hours > 0) ? null : cost / usage.hours;
}

const sizePricingOf = (provider: string): SizePricing | null =>
  PROVIDERS.find((entry) => entry.id === provider)?.sizePricing ?? null;

/** A sibling size of the target's family at its place with a rate on the basis, the most hours first. */
function siblingRate(
  usages: readonly PricedUsage[],
  target: PriceTarget,
  basis: BillBasis,
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
 * billed, then the list's); else why: the change's where it has a price on no basis of the bill,
 * else the usage's, and the list's.
 */
function pairPrice(
  priceOf: (target: PriceTarget, basis: BillBasis, scaled?: boolean) => PriceFound,
  listed: (from: PriceTarget, to: PriceTarget) => PairPrice,
  ratioed: (from: PriceTarget, to: PriceTarget) => PairPrice,
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
  const listPair = listed(from, to);
  if (listPair.basis !== null) return listPair;
  const ratioPair = ratioed(from, to);
  if (ratioPair.basis !== null) return ratioPair;
  const unpriced = tried.find(({ changed }) => changed.price !== null) === undefined;
  const last = tried[tried.length - 1];
  const why = (found: PriceFound) => (found.price === null ? found.why : "");
  const bill = unpriced ? why(last.changed) : why(tried[0].own) || why(last.own);
  // The ratio's reason where it says more than the bill's and the list's
  const said = `${bill}; ${listPair.why}`;
  return {
    basis: null,
    why: ratioPair.why === "" || said.includes(ratioPair.why) ? said : `${said}; ${ratioPair.why}`,
  };
}

/**
 * A usage and its change both at their list prices, where the bill is in the list's currency; else
 * why not: no list, the bill's currency another or unnamed, a type or region the list lacks.
 */
function listPair(
  list: PriceList | null,
  currency: string | null,
  from: PriceTarget,
  to: PriceTarget,
): PairPrice {
  if (list === null) return { basis: null, why: "no price list is read" };
  if (currency !== LIST_CURRENCY)
    return {
      basis: null,
      why:
        currency === null
          ? `the list is in ${LIST_CURRENCY}, the bill names no currency`
          : `the list is in ${LIST_CURRENCY}, the bill in ${currency}`,
    };
  // The source is named once, beside the usage's own price
  const read = (target: PriceTarget, source: string) => {
    const found =
      target.place === "" ? null : listPrice(list, target.provider, target.instanceType, target.place);
    if (found === null) return { price: null, why: "the list prices no default place" } as const;
    if (found.price === null) return { price: null, why: `the list has no ${found.missing}` } as const;
    return {
      price: found.price,
      origin: LIST_ORIGIN,
      read: `${figure(found.price)} ${LIST_CURRENCY} an hour: ${target.instanceType} in ${target.shown}${source}`,
    };
  };
  const own = read(from, ` (the list: ${list.source})`);
  const changed = read(to, "");
  // The change's side first: what the list lacks to price the target, then the usage's own type
  if (changed.price === null) return { basis: null, why: changed.why };
  if (own.price === null) return { basis: null, why: `${own.why}, the usage's own` };
  return { basis: "list", from: own, to: changed };
}

/** The origin of a price read from the list: both sides of the change are the list's. */
export const LIST_ORIGIN = "list price, both sides";

/**
 * The origin of a change priced at the usage's own rate scaled by the list: the ratio of the two
 * types' list prices (a ratio, so a bill in any currency, or naming none, is read in its own).
 */
export const RATIO_ORIGIN = "list ratio";

/** How a price read on the bill's basis is named beside its figure. */
const origin = (basis: BillBasis) => (basis === "paid" ? "bill's rate" : "bill's billed rate");

/** A usage's cost on a basis, as a price's reading says it. */
const usageCostText = (usage: PricedUsage, basis: BillBasis, unit: string) =>
  `${money(costOn(usage, basis) ?? 0)}${unit}${basis === "billed" ? " billed" : ""} over ${formatNumber(usage.hours)} h of ${usage.instanceType}`;

/**
 * The usage at its own rate on the bill (`ownPrice`, on the first basis it has one), its change
 * at that rate × the list's ratio of the two types' prices; else why not ("" where the list says
 * no more than the list's pair).
 */
function ratioPair(
  list: PriceList | null,
  ownPrice: (target: PriceTarget, basis: BillBasis) => PriceFound,
  unit: string,
  from: PriceTarget,
  to: PriceTarget,
): PairPrice {
  if (list === null) return { basis: null, why: "" };
  for (const basis of BASES) {
    const own = ownPrice(from, basis);
    if (own.price === null) continue;
    const found = listRatio(
      list,
      from.provider,
      { instanceType: from.instanceType, region: from.place },
      { instanceType: to.instanceType, region: to.place },
    );
    if (found.ratio === null)
      return { basis: null, why: found.missing === "" ? "" : `the list has no ${found.missing}` };
    const price = own.price * found.ratio;
    return {
      basis,
      from: own,
      to: {
        price,
        origin: `${origin(basis)} × ${RATIO_ORIGIN}`,
        read: `${figure(price)}${unit} an hour: ${figure(own.price)}${unit} × ${figure(found.to)}/${figure(found.from)} (${RATIO_ORIGIN}: ${to.instanceType} and ${from.instanceType} ${found.where}, ${list.source})`,
      },
    };
  }
  return { basis: null, why: "" };
}

/**
 * The prices a bill gives: `priceOf` a target on a basis, `pairOf` a usage and its change on one
 * basis (the list's, `list`, where the bill gives none).
 */
export function billPrices(
  usages: readonly PricedUsage[],
  currency: string | null,
  list: PriceList | null = null,
) {
  const byKey = new Map(
    usages.map((usage) => [usageKey(usage.provider, usage.instanceType, usage.place), usage]),
  );
  const unit = currency === null ? "" : ` ${currency}`;
  const costText = (usage: PricedUsage, basis: BillBasis) => usageCostText(usage, basis, unit);

  /** A target's price on a basis: its own rate, else (`scaled`) a sibling size's scaled. */
  const billPriceOf = (target: PriceTarget, basis: BillBasis, scaled = true): PriceFound => {
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

  const listed = (from: PriceTarget, to: PriceTarget) => listPair(list, currency, from, to);
  const ratioed = (from: PriceTarget, to: PriceTarget) =>
    ratioPair(list, (target, basis) => billPriceOf(target, basis, false), unit, from, to);
  const pairOf = (from: PriceTarget, to: PriceTarget) => pairPrice(billPriceOf, listed, ratioed, from, to);
  /** A target's price on a basis; on the list's, its list price where the bill is in the list's currency. */
  const priceOf = (target: PriceTarget, basis: PriceBasis): PriceFound => {
    if (basis !== "list") return billPriceOf(target, basis);
    const pair = listed(target, target);
    return pair.basis === null ? { price: null, why: pair.why } : pair.to;
  };

  return { priceOf, pairOf };
}

export type BillPrices = ReturnType<typeof billPrices>;
