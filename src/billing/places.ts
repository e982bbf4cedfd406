/*
 * Where a billing line ran, as the coefficient table names it: a region spelling of the export
 * (`eu-west-3`, `westeurope`, `West Europe`, `EU West`) mapped to the edition's region (editions
 * with cloud regions) or to the region's country (editions without: through the regions of an
 * edition that has them).
 */

import type { CloudRegion } from "../data/types.js";
import { type CoefficientPlace, coefficientPlaces } from "../service/coefficients.js";
import type { EditionContext } from "../service/open.js";
import { PROVIDERS } from "./providers/index.js";
import { NO_REGION_SPELLINGS, PLACELESS_SPELLINGS, REGION_COUNTRIES } from "./registry/regions.js";

/** A region spelling as the billing query compares it: lower case, no blanks, hyphens or underscores. */
export function spellingKey(text: string): string {
  return text.toLowerCase().replace(/[\s_-]+/g, "");
}

export interface BillingPlace {
  readonly provider: string;
  readonly spelling: string;
  /** The coefficient table's place: the region id, a country code, or '' (the default place). */
  readonly place: string;
  /** Why the place is not the region's own (a country, the default), else null. */
  readonly warning: string | null;
}

/** What an edition offers places from: its regions (null without), its countries with a factor, its default location. */
export interface EditionPlaces {
  readonly own: readonly CloudRegion[] | null;
  readonly known: readonly CloudRegion[];
  readonly countries: ReadonlySet<string>;
  readonly defaultLocation: string;
}

/** The registry's regions (src/billing/registry/regions.ts) the edition lacks, as places of their country. */
function registryPlaces(edition: EditionPlaces, add: (place: BillingPlace) => void): void {
  const regions = edition.own ?? edition.known;
  for (const [provider, countries] of Object.entries(REGION_COUNTRIES)) {
    for (const [region, country] of Object.entries(countries)) {
      if (regions.some((row) => row.provider === provider && row.region === region)) continue;
      const known = edition.countries.has(country);
      const warning = !known
        ? `region ${region} is not in the edition and ${country} has no factor: the default place (${edition.defaultLocation})`
        : edition.own === null
          ? null
          : `region ${region} is not in the edition: its country ${country}'s factor`;
      add({ provider, spelling: spellingKey(region), place: known ? country : "", warning });
    }
  }
  for (const provider of Object.keys(REGION_COUNTRIES)) {
    for (const spelling of PLACELESS_SPELLINGS) {
      add({
        provider,
        spelling: spellingKey(spelling),
        place: "",
        warning: `region ${spelling} names no one place: the default place (${edition.defaultLocation})`,
      });
    }
    for (const spelling of NO_REGION_SPELLINGS) {
      add({
        provider,
        spelling: spellingKey(spelling),
        place: "",
        warning: `no region: the default place (${edition.defaultLocation})`,
      });
    }
  }
}

/**
 * The places of an edition: its regions (in an edition without, the countries of the regions of
 * one that has them), the providers' other spellings of them (Azure's billing names), then the registry's regions it lacks (their country,
 * with a warning) and the spellings of no one place (the default, with a warning).
 */
export function billingPlaces(edition: EditionPlaces): BillingPlace[] {
  const { own } = edition;
  const regions = own ?? edition.known;
  const places = new Map<string, BillingPlace>();
  const add = (place: BillingPlace) => {
    const key = `${place.provider}\u0000${place.spelling}`;
    if (!places.has(key)) places.set(key, place);
  };
  for (const region of regions) {
    add({
      provider: region.provider,
      spelling: spellingKey(region.region),
      place: own ? region.region : region.usageLocation,
      warning: null,
    });
  }
  for (const provider of PROVIDERS) {
    for (const [name, id] of Object.entries(provider.regionSpellings)) {
      const region = regions.find((row) => row.provider === provider.id && row.region === id);
      if (region)
        add({
          provider: provider.id,
          spelling: name,
          place: own ? region.region : region.usageLocation,
          warning: null,
        });
    }
  }
  registryPlaces(edition, add);
  return [...places.values()];
}

/**
 * The coefficient table's places of a provider for a bill: the edition's (src/service/coefficients.ts)
 * and the countries its registry regions fall back to.
 */
export function billingCoefficientPlaces(context: EditionContext, provider: string): CoefficientPlace[] {
  const places = coefficientPlaces(context, provider);
  const { electricity } = context.service.data;
  const seen = new Set(places.map((place) => `${place.region ?? ""}\u0000${place.usageLocation ?? ""}`));
  for (const country of new Set(Object.values(REGION_COUNTRIES[provider] ?? {}))) {
    const key = `\u0000${country}`;
    if (seen.has(key) || !electricity.countryCodes.has(country)) continue;
    seen.add(key);
    places.push({ region: null, usageLocation: country });
  }
  return places;
}
