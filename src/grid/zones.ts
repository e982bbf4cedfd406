/*
 * Which grid zone a place draws its electricity from: an edition's cloud regions and countries
 * mapped to their country's zone (the region's country of the reference data), named as the
 * series name it (docs/methodology.md, "Grid intensity series").
 */

import { readFileSync } from "node:fs";
import type { DuckDBConnection } from "@duckdb/node-api";
import { parse } from "csv-parse/sync";
import type { CloudRegion, ReferenceData } from "../data/types.js";
import { createTable } from "../duckdb/database.js";
import { builtOncePer } from "../support/builtOnce.js";
import { GridInputError } from "./errors.js";
import { boundedText } from "./inputFile.js";

/**
 * ISO 3166-1 alpha-2 → alpha-3 (data/grid/iso3166-1.csv, from Debian's iso-codes 4.15, which
 * follows the ISO 3166 Maintenance Agency's list): Electricity Maps names a country zone by its
 * alpha-2 code (`FR`), the reference data and Ember by its alpha-3 code (`FRA`).
 */
const ISO_3166_FILE = new URL("../../data/grid/iso3166-1.csv", import.meta.url);

/** The ISO table, read once per file: shipped data, never changed by a run. */
const alpha3Table = builtOncePer((file: URL): ReadonlyMap<string, string> => {
  const rows = parse(readFileSync(file, "utf8"), { columns: true }) as Record<string, string>[];
  return new Map(rows.map((row) => [row.alpha2, row.alpha3]));
});

function isoAlpha3(): ReadonlyMap<string, string> {
  return alpha3Table(ISO_3166_FILE);
}

/** The ISO alpha-2 → alpha-3 pairs, for a join in SQL. */
export function isoCountryCodes(): ReadonlyMap<string, string> {
  return isoAlpha3();
}

/**
 * A zone as the series and the zone table compare it: a country's ISO alpha-2 code becomes its
 * alpha-3 code (`FR` → `FRA`); anything else (`FRA`, `US-CAL-CISO`, `DK-DK1`) is kept as written.
 */
export function normalisedZone(zone: string): string {
  const text = zone.trim();
  return text.length === 2 ? (isoAlpha3().get(text.toUpperCase()) ?? text) : text;
}

/** A place of an edition and its country: a cloud region (provider, region id) or a country (provider ''). */
export interface GridPlace {
  readonly provider: string;
  readonly place: string;
  readonly country: string;
}

/**
 * The places of an edition: its cloud regions (or, for an edition without, those of one that has
 * them: billing lines name regions either way) with the reference data's country, and its
 * electricity table's locations (countries, each its own country).
 */
export function gridPlaces(regions: readonly CloudRegion[], locations: Iterable<string>): GridPlace[] {
  return [
    ...regions.map((region) => ({
      provider: region.provider,
      place: region.region,
      country: region.usageLocation,
    })),
    ...[...locations].map((location) => ({ provider: "", place: location, country: location })),
  ];
}

/**
 * The places of an edition's data: its regions (or `knownRegions`, an edition's that has them, for
 * one without) and its electricity table's countries.
 */
export function editionGridPlaces(
  data: Pick<ReferenceData, "cloudRegions" | "electricity">,
  knownRegions: readonly CloudRegion[],
): GridPlace[] {
  return gridPlaces(data.cloudRegions ?? knownRegions, data.electricity.byLocation.keys());
}

/** A --grid-zones file's bounds: a hand-written table of overrides, not a data set. */
const ZONES_FILE_BYTES = 1 << 20;
const ZONES_FILE_ROWS = 10_000;

/** The rows of a --grid-zones file (`provider,place,zone`; an empty provider for a country). */
export function readZonesFile(file: string): GridPlace[] {
  // Read as the series is: a regular file within its bound (a FIFO or a device is refused unread).
  const text = boundedText({ file, role: "grid zones file", maxBytes: ZONES_FILE_BYTES });
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, skip_empty_lines: true }) as string[][];
  } catch (error) {
    throw new GridInputError(`${file}: not a CSV file (${(error as Error).message.split("\n")[0]})`);
  }
  const [header, ...body] = rows;
  const names = header?.map((name) => name.trim().toLowerCase()).join(",");
  if (names !== "provider,place,zone")
    throw new GridInputError(`${file}: line 1: the grid zones file's header must be provider,place,zone`);
  if (body.length > ZONES_FILE_ROWS)
    throw new GridInputError(`${file}: a grid zones file holds at most ${ZONES_FILE_ROWS} rows`);
  return body.map((row, index) => {
    const [provider = "", place = "", zone = ""] = row.map((cell) => cell.trim());
    const column = place === "" ? "place" : zone === "" ? "zone" : null;
    if (column !== null) throw new GridInputError(`${file}: line ${index + 2}, column ${column}: empty`);
    return { provider: provider.toLowerCase(), place, country: zone };
  });
}

/**
 * Creates `grid_zone(provider, place, zone)`: each place's country zone, overridden or completed
 * by the rows of `zonesFile` (e.g. `aws,us-west-1,US-CAL-CISO`).
 */
export async function loadGridZones(
  connection: DuckDBConnection,
  places: readonly GridPlace[],
  zonesFile: string | null,
): Promise<void> {
  const zones = new Map<string, readonly [string, string, string]>();
  const add = (place: GridPlace) =>
    zones.set(`${place.provider}\u0000${place.place}`, [
      place.provider,
      place.place,
      normalisedZone(place.country),
    ]);
  for (const place of places) add(place);
  if (zonesFile !== null) for (const place of readZonesFile(zonesFile)) add(place);
  await createTable(
    connection,
    "grid_zone",
    [
      ["provider", "VARCHAR"],
      ["place", "VARCHAR"],
      ["zone", "VARCHAR"],
    ],
    zones.values(),
  );
}
