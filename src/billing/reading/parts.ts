/*
 * A bill delivered in parts (AWS writes a large CUR as report-00001.csv.gz, report-00002.csv.gz, …;
 * Azure partitions its exports; `bq extract` with a wildcard splits a table): the parts are read as
 * one relation, in the order given, so each must be read as the first is. A text part's layout is
 * told from its own first bytes and held against the first part's here; a Parquet part's columns
 * are held against the first's where its footer is read (src/billing/reading/source.ts).
 */

import { basename, dirname } from "node:path";
import { BillingInputError } from "../errors.js";
import type { BillLayout } from "./layout.js";

/**
 * Parts one run reads at most: DuckDB opens each as it goes, and a bill's month in parts is tens
 * of files (AWS cuts a CUR's CSV at about 1 GB uncompressed). Checked before any part is opened.
 */
export const MAX_BILL_PARTS = 1_000;

/** What a part is read as, each a name and the text it is shown by: a difference is named by the first that differs. */
function traits(layout: BillLayout): [string, string][] {
  const kind: [string, string] = [
    "kind",
    layout.kind === "csv" ? "CSV text" : layout.kind === "json" ? "JSON lines" : "Parquet",
  ];
  if (layout.kind === "parquet") return [kind];
  const gzip: [string, string] = ["compression", layout.gzip ? "gzip" : "none"];
  if (layout.kind === "json") return [kind, gzip];
  return [
    kind,
    gzip,
    ["separator", JSON.stringify(layout.separator)],
    ["lines above the header", String(layout.skipped)],
    ["line end", layout.lineEnd === "\r" ? "CR" : "LF"],
    ["decimal mark", JSON.stringify(layout.decimalMark)],
    ["column count", String(layout.header.length)],
    ...layout.header.map((name, index): [string, string] => [`column ${index + 1}`, JSON.stringify(name)]),
  ];
}

/**
 * Refuses a part not read as the first part is (its kind, compression, separator, lines above the
 * header, line end, decimal mark, or header), naming the part and the first trait that differs; a
 * part with no header at all is refused as such.
 */
export function checkPartLayout(
  first: string,
  firstLayout: BillLayout,
  part: string,
  layout: BillLayout | null,
): void {
  if (layout === null) {
    throw new BillingInputError(
      `${part}: no header (an empty file, or not CSV); it is a part of the bill ${first}`,
    );
  }
  const expected = new Map(traits(firstLayout));
  const found = traits(layout);
  // The column count is compared before the columns, so a header shorter or longer is said as such.
  for (const [trait, value] of found) {
    const wanted = expected.get(trait);
    if (wanted !== value) {
      throw new BillingInputError(
        `${part}: ${trait} ${value}, where ${first} has ${wanted ?? "none"}; the parts of one bill are read alike`,
      );
    }
  }
}

/** A bill as its messages and summary name it: the file, or its first part and how many more there are. */
export function billName(parts: readonly string[]): string {
  const more = parts.length - 1;
  return more === 0 ? parts[0] : `${parts[0]} (and ${more} more part${more === 1 ? "" : "s"})`;
}

/** A part's name as an exporter numbers it: its folder and the text around its last run of digits, and that number. */
function numbered(part: string): { series: string; number: number } | null {
  const name = basename(part);
  let end = name.length;
  while (end > 0 && !/\d/.test(name[end - 1])) end -= 1;
  let start = end;
  while (start > 0 && /\d/.test(name[start - 1])) start -= 1;
  if (start === end || end - start > 15) return null;
  return {
    series: `${dirname(part)}/${name.slice(0, start)}#${name.slice(end)}`,
    number: Number(name.slice(start, end)),
  };
}

/** Numbers of a series said missing at most, and the widest range looked into. */
const MISSING_SHOWN = 5;
const RANGE_CHECKED = 100_000;

/**
 * The numbers missing among parts named as one numbered series (`report-00001.csv.gz`,
 * `report-00003.csv.gz`: 2; `bill-000000000001.json` alone past 0: 0), said before the run: a
 * shell's `report-*` reads what was downloaded, and a part that was not is a bill read short.
 * Null when the parts are no such series, or none is missing. Exporters count from 0 (BigQuery)
 * or 1 (AWS, Azure): a series from 2 on lacks its first.
 */
export function missingPartsNote(parts: readonly string[]): string | null {
  const series = parts.map(numbered);
  const first = series[0];
  if (parts.length < 2 || first === null || series.some((part) => part?.series !== first.series)) return null;
  const numbers = new Set(series.map((part) => part?.number ?? 0));
  const low = Math.min(...numbers);
  const high = Math.max(...numbers);
  if (high - low > RANGE_CHECKED) return null;
  const missing: number[] = low > 1 ? [1] : [];
  for (let number = low + 1; number < high && missing.length <= MISSING_SHOWN; number += 1) {
    if (!numbers.has(number)) missing.push(number);
  }
  if (missing.length === 0) return null;
  const shown = missing.slice(0, MISSING_SHOWN).join(", ");
  const more = missing.length > MISSING_SHOWN ? ", …" : "";
  return `${parts[0]}: the parts are numbered ${low} to ${high} and none is numbered ${shown}${more}: a part not given is a bill read short (name it too, or give the report's manifest)`;
}
