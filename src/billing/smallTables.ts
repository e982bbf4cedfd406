/*
 * The small tables the lookup table is built from (sql/billing_keys.sql): billing_places, the
 * region spellings of an edition and the places they stand for (with a warning where that is not
 * the region itself: src/billing/places.ts), and instance_matches, each billed
 * instance type and the edition's type it matches.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { createTable } from "../duckdb/database.js";
import type { InstanceMatch } from "./matching.js";
import type { BillingPlace } from "./places.js";

export async function createPlaceTable(
  connection: DuckDBConnection,
  places: readonly BillingPlace[],
): Promise<void> {
  await createTable(
    connection,
    "billing_places",
    [
      ["provider", "VARCHAR"],
      ["spelling", "VARCHAR"],
      ["place", "VARCHAR"],
      ["place_warning", "VARCHAR"],
    ],
    places.map((place) => [place.provider, place.spelling, place.place, place.warning]),
  );
}

export async function createMatchTable(
  connection: DuckDBConnection,
  matches: Iterable<InstanceMatch>,
): Promise<void> {
  await createTable(
    connection,
    "instance_matches",
    [
      ["provider", "VARCHAR"],
      ["billing_instance_type", "VARCHAR"],
      ["matched_instance_type", "VARCHAR"],
      ["match_warning", "VARCHAR"],
    ],
    [...matches].map((match) => [
      match.provider,
      match.billingInstanceType,
      match.matchedInstanceType,
      match.warning,
    ]),
  );
}
