/*
 * What a change would save (the report's "what to act on", `--what-if`): for the largest usages of a
 * bill — an instance type at a place, its hours summed over its lines — the same hours evaluated
 * in the provider's region of the lowest electricity intensity on the same continent
 * (registry/regions.ts, COUNTRY_AREAS: the UN's M49 regions) that sells the type, as far as a price
 * list read tells (priceList.ts, offeredAt), and as the current family's type of
 * the same size (instanceShapes.ts, currentFamilyType), each at the edition's coefficients of one hour ×
 * the hours (the coefficient table's rule: docs/billing.md), with the cost per hour the bill gives
 * for the target type at the target place, or for a size of its family there scaled by the
 * provider's size factors (changePrices.ts), else none ("price unknown", and why). Every
 * figure is the service's own: each carries the requests (REST and GraphQL, one hour) that answer
 * it. gwp only: what a team moves for.
 */

import { type RequestedCriterion, resolveCriterion } from "../../engine/index.js";
import type { PlacePrice, Reproduction, WhatIf } from "../../output/reportParts/model.js";
import { type CoefficientRow, factorAt, instanceCoefficientRows } from "../../service/coefficients.js";
import type { EditionContext, EditionService } from "../../service/open.js";
import {
  type BillPrices,
  billPrices,
  type PairPrice,
  type PriceBasis,
  type PricedUsage,
  type PriceTarget,
} from "../changePrices.js";
import { currentFamilyType, sizeDownType } from "../instanceShapes.js";
import type { InstanceMatch } from "../matching.js";
import { billingCoefficientPlaces, type EditionPlaces } from "../places.js";
import { offeredAt, type PriceList } from "../priceList.js";
import { providerOf } from "../providers/index.js";
import { COUNTRY_AREAS } from "../registry/regions.js";
import type { LineGroup } from "./evaluate.js";
import { lookupKey } from "./lookUp.js";

/** Usages looked at: the largest by gwp. */
const USAGES = 10;

/** An instance type's hours at one place, summed over a bill's lines, with their costs paid and billed. */
export type Usage = PricedUsage;

/** A place a usage may move to: its place in the coefficient table, its country and how the reader reads it. */
export interface Place {
  readonly place: string;
  readonly country: string;
  readonly shown: string;
  /** The region (or country) a request names. */
  readonly request: { readonly region: string } | { readonly usageLocation: string };
}

/** The provider's places in the edition: its regions, or (an edition without) the countries of another's. */
function placesOf(edition: EditionService, known: EditionPlaces["known"], provider: string): Place[] {
  const own = edition.data.cloudRegions;
  if (own !== null) {
    return own
      .filter((row) => row.provider === provider)
      .map((row) => ({
        place: row.region,
        country: row.usageLocation,
        shown: row.region,
        request: { region: row.region },
      }));
  }
  const byCountry = new Map<string, Place>();
  for (const row of known.filter((region) => region.provider === provider)) {
    if (byCountry.has(row.usageLocation)) continue;
    const shown = `${row.usageLocation} (${row.region})`;
    byCountry.set(row.usageLocation, {
      place: row.usageLocation,
      country: row.usageLocation,
      shown,
      request: { usageLocation: row.usageLocation },
    });
  }
  return [...byCountry.values()];
}

/** A usage's own place as a Place (a region, or a country the bill's region fell back to), or null for the default. */
function placeOf(places: readonly Place[], place: string): Place | null {
  if (place === "") return null;
  return (
    places.find((candidate) => candidate.place === place) ??
    (COUNTRY_AREAS[place] === undefined
      ? null
      : { place, country: place, shown: place, request: { usageLocation: place } })
  );
}

/** The gwp criterion of the edition, or null where it computes none. */
export function gwpOf(edition: EditionService): RequestedCriterion | null {
  const gwp = resolveCriterion("gwp", edition.rules.criteria);
  return gwp?.computed ? gwp : null;
}

/** A move of a usage to another place: where, and why there. */
export interface PlaceMove {
  readonly from: Place;
  readonly to: Place;
  readonly why: string;
}

/**
 * The move of a provider's usage at `place` (a region, or a country: an edition without regions,
 * a region the edition lacks) to the provider's place of the lowest gwp factor on its continent,
 * lower than its own; null where none is (or its place is the default, or unknown).
 */
export function regionMove(
  edition: EditionService,
  known: EditionPlaces["known"],
  provider: string,
  place: string,
): PlaceMove | null {
  const gwp = gwpOf(edition);
  const places = placesOf(edition, known, provider);
  const from = placeOf(places, place);
  if (gwp === null || from === null) return null;
  const move = lowerIntensity(edition, provider, places, from, gwp);
  return move === null ? null : { from, ...move };
}

/** The partition a provider's place is in, as its module says (BillingProvider.partition): a move stays in its own. */
export function partitionOf(provider: string, place: string): string {
  return providerOf(provider)?.partition(place) ?? "";
}

/** Where a type is offered, as the price list read tells (offeredAt): the type, and whether a place offers it. */
interface Offer {
  readonly instanceType: string;
  readonly offered: (place: Place) => boolean;
}

/**
 * The provider's place of the lowest gwp intensity on the usage's continent, lower than its own;
 * null where none is. With `offer`, a region the price list says does not sell the type is passed
 * over, said in the why.
 */
function lowerIntensity(
  edition: EditionService,
  provider: string,
  places: readonly Place[],
  from: Place,
  gwp: RequestedCriterion,
  offer: Offer | null = null,
): { readonly to: Place; readonly why: string } | null {
  const context = { service: edition };
  const area = COUNTRY_AREAS[from.country];
  const own = factorAt(context, from.country, gwp);
  if (area === undefined || own === null) return null;
  let best: { place: Place; factor: number } | null = null;
  const passed: { place: Place; factor: number }[] = [];
  for (const place of places) {
    if (
      COUNTRY_AREAS[place.country] !== area ||
      partitionOf(provider, place.place) !== partitionOf(provider, from.place)
    )
      continue;
    const factor = factorAt(context, place.country, gwp);
    if (factor === null || factor >= own || (best !== null && factor >= best.factor)) continue;
    if (offer !== null && !offer.offered(place)) {
      passed.push({ place, factor });
      continue;
    }
    best = { place, factor };
  }
  if (best === null) return null;
  const g = (factor: number) => `${Math.round(factor * 1000)} gCO2eq/kWh`;
  // The regions passed over that are lower than the one chosen, named
  const chosen = best.factor;
  const lower = passed.filter((entry) => entry.factor < chosen).map((entry) => entry.place.shown);
  const offering = offer === null || lower.length === 0 ? "" : ` offering ${offer.instanceType}`;
  const unsold =
    offering === ""
      ? ""
      : `; ${lower.join(", ")}, lower, ${lower.length === 1 ? "sells" : "sell"} none by the price list`;
  return {
    to: best.place,
    why: `${area}'s lowest intensity of the provider's regions${offering}: ${best.place.country} ${g(best.factor)} against ${from.country} ${g(own)}${unsold}`,
  };
}

/** A type's gwp of one hour at a place (embedded + use), from its coefficient rows. */
function perHour(rows: readonly CoefficientRow[], place: string): number | null {
  const row = rows.find((candidate) => (candidate.region ?? candidate.usageLocation ?? "") === place);
  const phases = row?.perHour[0];
  if (phases === undefined || phases.embedded === null || phases.use === null) return null;
  return phases.embedded.value + phases.use.value;
}

/** The requests that answer a type's hour at a place: REST's v1 route and GraphQL's field, unrounded. */
export function reproduction(
  edition: string,
  provider: string,
  instanceType: string,
  place: Place["request"] | null,
  load: number | null,
): Reproduction {
  const usage = {
    ...(place !== null && "region" in place ? { region: place.region } : {}),
    ...(place !== null && "usageLocation" in place ? { usage_location: place.usageLocation } : {}),
    ...(load !== null ? { time_workload: load } : {}),
  };
  const input = [
    ...(place !== null && "region" in place ? [`region: ${JSON.stringify(place.region)}`] : []),
    ...(place !== null && "usageLocation" in place
      ? [`usageLocation: ${JSON.stringify(place.usageLocation)}`]
      : []),
    ...(load !== null ? [`timeWorkload: ${load}`] : []),
  ];
  const phase = (name: string) => `${name} { ... on Impact { unrounded { value } } }`;
  return {
    rest: {
      path: `/v1/cloud/instance?verbose=false&duration=1&criteria=gwp&edition=${edition}`,
      body: { provider, instance_type: instanceType, ...(Object.keys(usage).length > 0 ? { usage } : {}) },
    },
    graphql: `{ cloudInstance(edition: ${JSON.stringify(edition)}, provider: ${JSON.stringify(provider)}, instanceType: ${JSON.stringify(instanceType)}${input.length > 0 ? `, usage: { ${input.join(", ")} }` : ""}) { impacts(criteria: [gwp], duration: 1) { ${phase("embedded")} ${phase("use")} } } }`,
  };
}

/** The terms a what-if is evaluated on: the run's edition, its known regions and load, the price list read (none where absent). */
export interface WhatIfTerms {
  readonly context: EditionContext;
  readonly knownRegions: EditionPlaces["known"];
  readonly load: number | null;
  readonly priceList?: PriceList | null;
}

/**
 * The what-ifs of `usages` (the largest USAGES of them by gwp: a --filter's), ranked by the gwp they
 * save; only changes that save some. `all`: every usage of the input, where a change's price is
 * looked up (the bill's rates are the whole bill's, whatever the filter).
 */
export async function whatIfs(
  terms: WhatIfTerms,
  usages: readonly Usage[],
  currency: string | null = null,
  all: readonly Usage[] = usages,
): Promise<WhatIf[]> {
  const gwp = gwpOf(terms.context.service);
  if (gwp === null) return [];
  const rowsOf = memoRows(terms.context, terms.load, gwp);
  const assessed = await Promise.all(
    usages.map(async (usage) => ({
      usage,
      hour: perHour(await rowsOf(usage.provider, usage.instanceType), usage.place),
    })),
  );
  const largest = assessed
    .filter((entry): entry is { usage: Usage; hour: number } => entry.hour !== null)
    .sort((a, b) => b.hour * b.usage.hours - a.hour * a.usage.hours)
    .slice(0, USAGES);
  const changes = { terms, gwp, rowsOf, priced: billPrices(all, currency, terms.priceList ?? null) };
  const found: WhatIf[] = [];
  for (const { usage, hour } of largest) found.push(...(await changesOf(changes, usage, hour)));
  return found
    .filter((change) => change.gwp > change.toGwp)
    .sort((a, b) => b.gwp - b.toGwp - (a.gwp - a.toGwp));
}

/** The prices of a usage and of its change as read from the bill, with the change's origin, or why unknown. */
function priceReading(pair: PairPrice): Pick<WhatIf, "price" | "toPrice" | "priceRead" | "priceOrigin"> {
  if (pair.basis === null)
    return { price: null, toPrice: null, priceRead: `price unknown: ${pair.why}`, priceOrigin: "" };
  const basis =
    pair.basis === "list"
      ? "as listed (the bill gives no rate of the change: both at their on-demand list price)"
      : pair.basis === "billed"
        ? "as billed (its billed cost: the bill paid nothing for these hours)"
        : "as billed";
  return {
    price: pair.from.price,
    toPrice: pair.to.price,
    priceRead: `${basis}, ${pair.from.read}; changed, ${pair.to.read}`,
    priceOrigin: pair.to.origin,
  };
}

/** What the changes of every usage are evaluated with: the terms, gwp, the types' rows, the bill's prices. */
interface ChangeTerms {
  readonly terms: WhatIfTerms;
  readonly gwp: RequestedCriterion;
  readonly rowsOf: ReturnType<typeof memoRows>;
  readonly priced: BillPrices;
}

/** A change of a usage as the what-if reads it: its kind, target type and place, why. */
type ChangeOf = Omit<
  WhatIf,
  | keyof Usage
  | "gwp"
  | "times"
  | "price"
  | "toPrice"
  | "priceRead"
  | "priceOrigin"
  | "placePrices"
  | "requests"
>;

/**
 * What a usage's changes are made with: where it runs, and `changed`, the change made of its
 * target, that target's hour and place (its price read from the bill, its requests).
 */
function usageChanges(changes: ChangeTerms, usage: Usage, hour: number) {
  const { terms } = changes;
  const edition = terms.context.service.edition.id;
  const places = placesOf(terms.context.service, terms.knownRegions, usage.provider);
  const from = placeOf(places, usage.place);
  const shown = from?.shown ?? "(default place)";
  const request = (instanceType: string, place: Place["request"] | null) =>
    reproduction(edition, usage.provider, instanceType, place, terms.load);
  const own = { provider: usage.provider, instanceType: usage.instanceType, place: usage.place, shown };
  const { billedCost: _billed, ...shownUsage } = usage;
  const base = {
    ...shownUsage,
    place: shown,
    gwp: hour * usage.hours,
    times: { value: usage.hours, what: "h" },
  };
  const changed = (
    change: Omit<ChangeOf, "toGwp">,
    to: { place: string; request: Place["request"] | null },
    toHour: number,
  ): WhatIf => {
    const target = { ...own, instanceType: change.toInstanceType, place: to.place, shown: change.toPlace };
    const pair = changes.priced.pairOf(own, target);
    return {
      ...base,
      ...change,
      toGwp: toHour * usage.hours,
      ...priceReading(pair),
      placePrices: change.change === "region" ? placePrices(changes.priced, places, own, pair.basis) : [],
      requests: {
        from: request(usage.instanceType, from?.request ?? null),
        to: request(change.toInstanceType, to.request),
      },
    };
  };
  return {
    edition,
    places,
    from,
    shown,
    changed,
    here: { place: usage.place, request: from?.request ?? null },
  };
}

/** A usage's changes: moved to the region of lowest intensity on its continent, renewed to its line's current family, one size down. */
async function changesOf(changes: ChangeTerms, usage: Usage, hour: number): Promise<WhatIf[]> {
  const { terms, gwp, rowsOf } = changes;
  const { edition, places, from, shown, changed, here } = usageChanges(changes, usage, hour);
  const found: WhatIf[] = [];
  const list = terms.priceList ?? null;
  // A region the price list says sells no such type is no move (a country, an edition without regions: unknown)
  const offer: Offer | null =
    list === null
      ? null
      : {
          instanceType: usage.instanceType,
          offered: (place) =>
            !("region" in place.request) || offeredAt(list, usage.provider, usage.instanceType, place.place),
        };
  const move =
    from === null ? null : lowerIntensity(terms.context.service, usage.provider, places, from, gwp, offer);
  const moved =
    move === null ? null : perHour(await rowsOf(usage.provider, usage.instanceType), move.to.place);
  if (move !== null && moved !== null) {
    const change = {
      change: "region" as const,
      toInstanceType: usage.instanceType,
      toPlace: move.to.shown,
      why: move.why,
    };
    found.push(changed(change, { place: move.to.place, request: move.to.request }, moved));
  }
  const ids = terms.context.service.data.cloudInstances.get(usage.provider)?.ids ?? [];
  const others = [
    {
      change: "family" as const,
      type: currentFamilyType(usage.provider, usage.instanceType, ids),
      why: `the current family of ${usage.instanceType}'s line and size in edition ${edition}`,
    },
    {
      change: "size" as const,
      type: sizeDownType(usage.provider, usage.instanceType, ids),
      why: `${usage.instanceType}'s family one size down (half its vCPUs or fewer): where its load fits, the same work`,
    },
  ];
  for (const other of others) {
    const toHour =
      other.type === null ? null : perHour(await rowsOf(usage.provider, other.type), usage.place);
    if (other.type === null || toHour === null) continue;
    found.push(
      changed(
        { change: other.change, toInstanceType: other.type, toPlace: shown, why: other.why },
        here,
        toHour,
      ),
    );
  }
  return found;
}

/**
 * A type's prices at each of the provider's places (keyed as a request names the place): the
 * bill's on `basis` where it prices the place, else (or on the list's basis) the list's, with the
 * usage's own list price beside it, else the usage's rate on `basis` × the list's ratio, so that
 * every place "Try a change" offers is priced on one basis.
 */
function placePrices(
  priced: BillPrices,
  places: readonly Place[],
  own: PriceTarget,
  basis: PriceBasis | null,
): PlacePrice[] {
  return places.flatMap((place) => {
    const key = "region" in place.request ? place.request.region : place.request.usageLocation;
    const target = { ...own, place: place.place, shown: place.shown };
    const found = basis === null || basis === "list" ? null : priced.priceOf(target, basis);
    if (found !== null && found.price !== null)
      return [{ place: key, price: found.price, origin: found.origin }];
    const listed = priced.priceOf(target, "list");
    const from = priced.priceOf(own, "list");
    if (listed.price !== null && from.price !== null)
      return [{ place: key, price: listed.price, origin: listed.origin, fromPrice: from.price }];
    // Else the usage's own rate on the move's basis × the list's ratio of the two places' prices
    const pair = basis === null || basis === "list" ? null : priced.pairOf(own, target);
    if (pair === null || pair.basis === null || pair.basis !== basis) return [];
    return [{ place: key, price: pair.to.price, origin: pair.to.origin }];
  });
}

const usageKey = (provider: string, instanceType: string, place: string) =>
  `${provider}\u0000${instanceType}\u0000${place}`;

/** Each type's coefficient rows of gwp at every place of its provider (the run's table's places), computed once. */
function memoRows(context: EditionContext, load: number | null, gwp: RequestedCriterion) {
  const memo = new Map<string, Promise<CoefficientRow[]>>();
  return (provider: string, instanceType: string) => {
    const key = `${provider}\u0000${instanceType}`;
    let rows = memo.get(key);
    if (rows === undefined) {
      rows = instanceCoefficientRows(
        context,
        provider,
        instanceType,
        load,
        [gwp],
        billingCoefficientPlaces(context, provider),
      ).catch(
        // A type the single route cannot evaluate (its platform missing) has no row
        () => [],
      );
      memo.set(key, rows);
    }
    return rows;
  };
}

/**
 * A bill's instance usages: its evaluated instance lines' kinds by provider, matched type and
 * place, their hours and cost (the coverage's) summed.
 */
export function billUsages(
  groups: readonly LineGroup[],
  matches: ReadonlyMap<string, InstanceMatch>,
): Usage[] {
  const usages = new Map<
    string,
    { provider: string; instanceType: string; place: string; hours: number; cost: number; billedCost: number }
  >();
  for (const group of groups) {
    if (
      group.problem !== null ||
      group.method !== "instance" ||
      group.provider === null ||
      group.instanceType === null
    )
      continue;
    const matched = matches.get(lookupKey(group.provider, group.instanceType))?.matchedInstanceType ?? null;
    if (matched === null || group.hours <= 0) continue;
    const key = usageKey(group.provider, matched, group.place ?? "");
    const usage = usages.get(key) ?? {
      provider: group.provider,
      instanceType: matched,
      place: group.place ?? "",
      hours: 0,
      cost: 0,
      billedCost: 0,
    };
    usage.hours += group.hours;
    usage.cost += group.cost;
    usage.billedCost += group.billedCost;
    usages.set(key, usage);
  }
  return [...usages.values()];
}
