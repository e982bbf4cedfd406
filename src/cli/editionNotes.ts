import type { CloudRegion } from "../data/types.js";
import { editionsWhere } from "../editions/features.js";
import { EDITIONS, type EditionDescription } from "../editions/index.js";
import type { AssessedRow } from "../output/table.js";
import { parseCriterion } from "../service/criteria.js";
import { columnName, INVENTORY_KINDS, type InventoryRow, regionCountry } from "./inventory/inventory.js";

/*
 * What an inventory's reader must know of the edition it was evaluated in, read from the
 * edition's description (its rules are data): whether a terminal's or peripheral's embedded impact
 * is allocated over the hours evaluated (`rules.userDeviceEmbedded`, docs/methodology.md
 * Appendix D.9 and §19.3.6) — said on each row it changes and in the report — and what each
 * criterion measures (the criteria's own descriptions).
 */

interface EditionNotes {
  /** The row with the edition's note added to its warnings, where one applies. */
  annotate(row: AssessedRow): AssessedRow;
  /** What the report says of the embedded phase in this edition. */
  readonly embedded: string;
  /** What a criterion measures, in a line (`Total climate change`). */
  meaning(criterion: string): string;
}

/** The built-in editions that allocate a terminal's embedded impact over the hours evaluated. */
const ALLOCATING = editionsWhere((edition) => edition.rules.userDeviceEmbedded === "allocated");
const SEVERAL_ALLOCATE =
  EDITIONS.filter((edition) => edition.rules.userDeviceEmbedded === "allocated").length > 1;

const allocatingText = () =>
  ALLOCATING === ""
    ? ""
    : `; ${SEVERAL_ALLOCATE ? "editions" : "edition"} ${ALLOCATING} ${SEVERAL_ALLOCATE ? "allocate" : "allocates"} it over the lifetime`;

function meaningOf(criterion: string): string {
  const info = parseCriterion(criterion)?.info;
  if (info === undefined) return "";
  return info.method === null ? info.description : `${info.description} (${info.method})`;
}

/**
 * A cloud row's region the edition lacks, evaluated at the country the billing registry gives it
 * (src/cli/inventory/inventory.ts sets the row's usage location): the note naming both; a region neither
 * knows, evaluated at the edition's default location: the note naming it; else null.
 */
function regionNote(
  names: readonly string[],
  row: AssessedRow,
  regions: readonly CloudRegion[] | null,
): string | null {
  const cells: Record<string, string> = {};
  for (const [index, name] of names.entries()) cells[name] ??= row.cells[index] ?? "";
  const inventoryRow = cells as InventoryRow;
  const provider = (cells.provider ?? "").trim().toLowerCase();
  const region = (cells.region ?? "").trim();
  if (region === "" || (cells.usage_location ?? "").trim() !== "") return null;
  if (regions?.some((known) => known.provider === provider && known.region === region)) return null;
  const country = regionCountry(inventoryRow);
  return country === null
    ? `region ${region} is not known: the edition's default location`
    : `region ${region} is not in the edition: its country ${country}'s factor`;
}

/**
 * The notes of the served `edition` for rows under `inputColumns`; `regions`: the edition's cloud
 * regions (null for an edition without, or rows without a region column), read for the rows'
 * regions it lacks.
 */
export function editionNotes(
  edition: EditionDescription,
  inputColumns: readonly string[],
  regions: readonly CloudRegion[] | null = null,
): EditionNotes {
  const { id } = edition;
  const whole = edition.rules.userDeviceEmbedded === "whole";
  const names = inputColumns.map(columnName);
  const kindAt = names.indexOf("kind");
  const hoursAt = names.indexOf("hours");
  const cellAt = (row: AssessedRow, index: number) => (index === -1 ? "" : (row.cells[index] ?? "").trim());
  return {
    annotate(assessed) {
      if (assessed.impacts === null) return assessed;
      const place =
        cellAt(assessed, kindAt).toLowerCase() === "cloud" ? regionNote(names, assessed, regions) : null;
      const row = place === null ? assessed : { ...assessed, warnings: [...assessed.warnings, place] };
      if (!whole) return row;
      const kind = cellAt(row, kindAt).toLowerCase();
      const family = INVENTORY_KINDS.get(kind);
      const hours = cellAt(row, hoursAt);
      // Without hours the evaluation spans the whole lifetime: whole and allocated agree.
      if ((family !== "terminal" && family !== "peripheral") || hours === "") return row;
      const note = `embedded not allocated: edition ${id} counts the whole manufacturing impact of each ${kind} whatever the hours (${hours} h here)${allocatingText()}`;
      return { ...row, warnings: [...row.warnings, note] };
    },
    embedded: whole
      ? `Embedded is manufacturing allocated over the hours evaluated for servers, cloud instances and components; for terminals and peripherals, edition ${id} counts the whole manufacturing impact whatever the hours${allocatingText()}, so they weigh more than their share of a year (their rows say so).`
      : "Embedded is each asset's manufacturing impact allocated over the hours evaluated (their share of its lifetime).",
    meaning: meaningOf,
  };
}
