/*
 * Every region the providers bill, with the country it is in (ISO 3166-1 alpha-3), from their own
 * lists: AWS "Regions and Availability Zones", Azure "Azure geographies" (and the billing zone
 * names of older exports), Google Cloud "Regions and zones", Oracle "Regions and Availability
 * Domains". An edition's own regions come first (src/billing/places.ts); a region listed here and
 * not in the edition is evaluated at its country's electricity factor, with a warning naming both.
 * Spellings that name no place (`global`, Google's multi-regions, Azure's `Zone 1`…) stand for the
 * provider's default place, with a warning.
 */

import { PROVIDERS } from "../providers/index.js";

/** Region id → country, per provider (each provider's own list: src/billing/providers/). */
export const REGION_COUNTRIES: Readonly<Record<string, Readonly<Record<string, string>>>> =
  Object.fromEntries(PROVIDERS.map((provider) => [provider.id, provider.regions]));

/**
 * The part of the world each country of the providers' regions is in (ISO 3166-1 alpha-3): the
 * United Nations' M49 standard's regions (Africa, Asia, Europe, Oceania), the Americas as its
 * sub-regions Northern America and Latin America and the Caribbean (unstats.un.org, "Standard
 * country or area codes for statistical use", M49). What-if's moves stay within one (a usage moved
 * to a region of lower intensity on the same continent: src/billing/stages/whatIf.ts).
 */
export const COUNTRY_AREAS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(["DZA", "EGY", "KEN", "MAR", "NGA", "ZAF"].map((code) => [code, "Africa"])),
  ...Object.fromEntries(
    [
      "ARE",
      "BHR",
      "CHN",
      "HKG",
      "IDN",
      "IND",
      "ISR",
      "JPN",
      "KOR",
      "MYS",
      "QAT",
      "SAU",
      "SGP",
      "THA",
      "TWN",
    ].map((code) => [code, "Asia"]),
  ),
  ...Object.fromEntries(
    [
      "AUT",
      "BEL",
      "CHE",
      "CZE",
      "DEU",
      "DNK",
      "ESP",
      "FIN",
      "FRA",
      "GBR",
      "GRC",
      "IRL",
      "ITA",
      "NLD",
      "NOR",
      "POL",
      "PRT",
      "SRB",
      "SWE",
    ].map((code) => [code, "Europe"]),
  ),
  ...Object.fromEntries(["AUS", "NZL"].map((code) => [code, "Oceania"])),
  ...Object.fromEntries(["CAN", "USA"].map((code) => [code, "Northern America"])),
  ...Object.fromEntries(
    ["ARG", "BRA", "CHL", "COL", "MEX"].map((code) => [code, "Latin America and the Caribbean"]),
  ),
};

/**
 * Spellings billed for no one place: a global service (CloudFront, Route 53: `global`), Google's
 * multi-regions spanning countries, Azure's billing zones and `Unassigned`. Evaluated at the
 * provider's default place, with a warning.
 */
export const PLACELESS_SPELLINGS: readonly string[] = [
  "global",
  "unassigned",
  "intercontinental",
  "zone 1",
  "zone 2",
  "zone 3",
  "zone 4",
  "eu",
  "europe",
  "asia",
  "nam",
  "emea",
  "apac",
  "multi-region",
  "all regions",
  "any",
];

/** Spellings of no region at all (the FinOps Foundation's sample writes `NULL`): as an empty region. */
export const NO_REGION_SPELLINGS: readonly string[] = ["", "null", "none", "n/a", "na", "-"];
