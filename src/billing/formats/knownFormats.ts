/*
 * The billing formats read, each its own module of this folder (its columns, versions, dimensions
 * and the two queries it names in sql/classify/), and what reads a header against them.
 */

import { AZURE } from "./azure.js";
import { CUR } from "./cur.js";
import { FOCUS } from "./focus.js";
import type { BillingFormat, BillingFormatVersion } from "./format.js";
import { GCP } from "./gcp.js";
import { OCI } from "./oci.js";

export type {
  BillingFormat,
  BillingFormatVersion,
  Dimension,
  DimensionSource,
} from "./format.js";

/**
 * Every format, described once, in the order headers are tried and formats listed: a new one is
 * its module, its place here and its two queries (sql/classify/).
 */
const FORMATS = [FOCUS, CUR, AZURE, GCP, OCI] as const satisfies readonly BillingFormat[];

/** The formats' names (`--input`), in the order they are tried and listed: the names of FORMATS. */
export type BillingFormatName = (typeof FORMATS)[number]["name"];

/** A format of the list, whose name is one of BillingFormatName. */
export type KnownFormat = BillingFormat<BillingFormatName>;

/** Every format by its name. */
export const BILLING_FORMATS = Object.fromEntries(FORMATS.map((format) => [format.name, format])) as Readonly<
  Record<BillingFormatName, KnownFormat>
>;

export const BILLING_FORMAT_NAMES: readonly BillingFormatName[] = FORMATS.map((format) => format.name);

/** Whether a name is a format's (a BillingFormatName). */
export const isBillingFormatName = (name: string): name is BillingFormatName =>
  (BILLING_FORMAT_NAMES as readonly string[]).includes(name);

/** A column name's letters and digits, lower case: how spellings of one column compare. */
export function bareName(name: string): string {
  return name
    .normalize("NFC")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]/gu, "");
}

function spellings(column: string | readonly string[]): readonly string[] {
  return typeof column === "string" ? [column] : column;
}

/** The columns a format's queries read, each once, as they read them. */
export function readColumns(format: BillingFormat): readonly string[] {
  return [...new Set([...format.required.flat(), ...format.optional])];
}

/**
 * The columns whose text tells what a line is: every column a format's query reads but its
 * numbers, dates and identities (read per line, never to tell a line's kind). An empty text in one
 * is read as none (emptyAsNone), on every engine alike: DuckDB's CSV reader gives an empty cell as
 * NULL, Hive's and Athena's as an empty text, a Parquet file may hold either.
 */
export function decidingColumns(format: BillingFormat): readonly string[] {
  const perLine = new Set([...format.numbers, ...format.dates, ...format.identities]);
  return readColumns(format).filter((name) => !perLine.has(name));
}

/**
 * The file's spellings of a format's deciding columns in a header (headerColumn's), each once.
 */
export function decidingFileColumns(format: BillingFormat, header: readonly string[]): ReadonlySet<string> {
  return new Set(
    decidingColumns(format).flatMap((name) => {
      const found = headerColumn(format, name, header);
      return found === null ? [] : [found];
    }),
  );
}

/**
 * A cell read with an empty text (blanks alone) as none, whatever its type: a number or a date is
 * never empty, so it is read as it is (the cast to text only tests it). Written in the dialect the
 * engines share (src/billing/portable/render.ts renders the cast's type).
 */
export const emptyAsNone = (cell: string) =>
  `CASE WHEN TRIM(CAST(${cell} AS VARCHAR)) = '' THEN NULL ELSE ${cell} END`;

/**
 * The English name a localised header gives in parentheses (the portals' bilingual form
 * `Kategorie der Verbrauchseinheit (MeterCategory)`, `Quantité (Quantity)`), else null.
 */
function englishName(name: string): string | null {
  const match = /\(([^()]+)\)\s*$/.exec(name);
  return match === null || match.index === 0 ? null : match[1];
}

/**
 * The header's column a format reads as `column`: the one of its name (any case), else of its
 * letters and digits, else one of its aliases, else a localised name with it or an alias in
 * parentheses; null when the header has none.
 */
export function headerColumn(
  format: BillingFormat,
  column: string,
  header: readonly string[],
): string | null {
  const lower = column.toLowerCase();
  const exact = header.find((name) => name.toLowerCase() === lower);
  if (exact !== undefined) return exact;
  for (const spelling of [column, ...(format.aliases[column] ?? [])]) {
    const bare = bareName(spelling);
    const found = header.find((name) => bareName(name) === bare);
    if (found !== undefined) return found;
  }
  // The English name in parentheses may be an alias (OpenCost's German pay-as-you-go header:
  // `UsageQuantity (UsageQuantity)`, `PreTaxCost (PreTaxCost)`)
  for (const spelling of [column, ...(format.aliases[column] ?? [])]) {
    const bare = bareName(spelling);
    const found = header.find((name) => bareName(englishName(name) ?? "") === bare);
    if (found !== undefined) return found;
  }
  return null;
}

/** A run's columns as a format looks them up: see filedColumns. */
export interface FiledColumns {
  /** The run's names, each renamed one under the file's name. */
  readonly header: readonly string[];
  /** The run's name of a column of `header`. */
  readonly runName: (column: string) => string;
}

/**
 * A run's column names (`names`) as a format finds its columns among them: a column the run renamed
 * (`renamed`: the file's name to the run's) is looked up by the file's name, since a format spells
 * the file's columns — snake_case FOCUS's `billing_currency`, which the run writes as
 * `input_billing_currency` (a working column's prefix), is FOCUS's `BillingCurrency`.
 */
export function filedColumns(names: readonly string[], renamed: ReadonlyMap<string, string>): FiledColumns {
  const fileName = new Map([...renamed].map(([file, run]) => [run, file]));
  const header = names.map((name) => fileName.get(name) ?? name);
  return { header, runName: (column) => names[header.indexOf(column)] ?? column };
}

/**
 * The columns naming the currency of a bill's amounts (the format's `currency`, the first found
 * first), as the run names them: found by the file's spelling among the run's `names`.
 */
export function currencyColumns(
  format: BillingFormat,
  names: readonly string[],
  renamed: ReadonlyMap<string, string>,
): string[] {
  const { header, runName } = filedColumns(names, renamed);
  return format.currency.flatMap((name) => headerColumn(format, name, header) ?? []).map(runName);
}

/** The required columns a header lacks for a format (each named by its spellings). */
export function missingColumns(format: BillingFormat, header: readonly string[]): string[] {
  return format.required
    .filter((column) => spellings(column).every((name) => headerColumn(format, name, header) === null))
    .map((column) => spellings(column).join(" or "));
}

/** The columns of a format's query that a header lacks (added empty to its view). */
export function absentColumns(format: BillingFormat, header: readonly string[]): string[] {
  return readColumns(format).filter((name) => headerColumn(format, name, header) === null);
}

/**
 * The columns of a format's query the header lacks that a map column of it keys (keyed):
 * [the query's name, the header's map column, the key].
 */
export function keyedColumns(format: BillingFormat, header: readonly string[]): [string, string, string][] {
  return Object.entries(format.keyed ?? {}).flatMap(([name, { map, key }]): [string, string, string][] => {
    if (headerColumn(format, name, header) !== null) return [];
    const found = header.find((column) => column.toLowerCase() === map);
    return found === undefined ? [] : [[name, found, key]];
  });
}

/** The columns of a format's query a header spells otherwise: [the header's name, the query's]. */
export function aliasedColumns(format: BillingFormat, header: readonly string[]): [string, string][] {
  return readColumns(format).flatMap((name): [string, string][] => {
    const found = headerColumn(format, name, header);
    return found === null || found.toLowerCase() === name.toLowerCase() ? [] : [[found, name]];
  });
}

/** A column name's words, lower case, whatever signs stand between them (`lineItem__UsageType`: lineitem usagetype). */
const words = (name: string) =>
  name
    .normalize("NFC")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "")
    .join(" ");

/** What a run says it reads a header as: its version's title, else its format's. */
export function readAs(format: BillingFormat, header: readonly string[]): string {
  const spellings = {
    exactly: (name: string) => name.toLowerCase(),
    words,
    bare: bareName,
  };
  // A bilingual header's English name (`PreTaxCost (PreTaxCost)`) tells a version too
  const names = header.flatMap((name) => {
    const english = englishName(name);
    return english === null ? [name] : [name, english];
  });
  const has = ({ column, spelled }: BillingFormatVersion) => {
    const spelling = spellings[spelled ?? "bare"];
    return names.some((name) => spelling(name) === spelling(column));
  };
  return format.versions.find(has)?.title ?? format.title;
}

/** The columns of the cost paid for the hours a header has, as it spells them. */
export function amortisedCostColumns(format: BillingFormat, header: readonly string[]): string[] {
  return format.amortisedCost.flatMap((name) => headerColumn(format, name, header) ?? []);
}

/** The cost the coverage reads, as the summary names it: the paid cost's columns, else the billed cost's. */
export function coverageCostColumn(format: BillingFormat, header: readonly string[]): string {
  const billed = headerColumn(format, format.numbers[1], header) ?? format.numbers[1];
  const amortised = amortisedCostColumns(format, header);
  if (amortised.length === 0) return billed;
  return format.name === "focus" ? amortised.join(", ") : `${billed} amortised by ${amortised.join(", ")}`;
}

/** The format a header fits, the first that fits. */
export function recognisedFormat(header: readonly string[]): KnownFormat | null {
  for (const name of BILLING_FORMAT_NAMES) {
    if (missingColumns(BILLING_FORMATS[name], header).length === 0) return BILLING_FORMATS[name];
  }
  return null;
}

/** What a header is: a format's, nearly one's (at least half its required columns, two or more), or neither. */
export type HeaderClass =
  | { readonly format: BillingFormat }
  | { readonly nearMiss: BillingFormat; readonly missing: readonly string[] }
  | null;

/**
 * The class of a header: the billing path takes a format's header and a near miss (to say what it
 * lacks, exit 2), the inventory reader any other. Of near misses, the format the header has the
 * largest share of the required columns of (the first of equals).
 */
export function classifyHeader(header: readonly string[]): HeaderClass {
  const format = recognisedFormat(header);
  if (format !== null) return { format };
  let closest: { nearMiss: BillingFormat; missing: string[]; share: number } | null = null;
  for (const name of BILLING_FORMAT_NAMES) {
    const candidate = BILLING_FORMATS[name];
    const missing = missingColumns(candidate, header);
    const present = candidate.required.length - missing.length;
    const share = present / candidate.required.length;
    if (present >= 2 && share >= 0.5 && (closest === null || share > closest.share)) {
      closest = { nearMiss: candidate, missing, share };
    }
  }
  return closest === null ? null : { nearMiss: closest.nearMiss, missing: closest.missing };
}

/**
 * FOCUS's datasets besides Cost and Usage (the specification's datasets/<name>/dataset.md): each
 * told by a mandatory column only it has. They hold no usage to estimate: such a file is named
 * and refused, never read as a bill that lacks columns, nor as an inventory.
 */
const FOCUS_SUPPORTING_DATASETS: readonly {
  readonly name: string;
  readonly introduced: string;
  readonly column: string;
  readonly holds: string;
}[] = [
  {
    name: "Contract Commitment",
    introduced: "1.3",
    column: "ContractCommitmentId",
    holds: "the terms of contract commitments",
  },
  {
    name: "Billing Period",
    introduced: "1.4",
    column: "BillingPeriodStatus",
    holds: "billing periods and their status",
  },
  { name: "Invoice Detail", introduced: "1.4", column: "InvoiceDetailId", holds: "the charges as invoiced" },
];

/** Why a header of one of FOCUS's supporting datasets is not evaluated; null for any other header. */
export function focusDatasetProblem(header: readonly string[]): string | null {
  const present = new Set(header.map(bareName));
  const dataset = FOCUS_SUPPORTING_DATASETS.find(({ column }) => present.has(bareName(column)));
  if (dataset === undefined) return null;
  return `FOCUS's ${dataset.name} dataset (FOCUS ${dataset.introduced} and later, told by its ${dataset.column} column): it holds ${dataset.holds}, no usage to estimate; it is not evaluated (the same export's Cost and Usage dataset is)`;
}

/** Why a header fits no format (or not the one asked for): what each lacks, and the formats known. */
export function unrecognisedHeader(header: readonly string[], asked: BillingFormatName | null): string {
  const dataset = asked === null || asked === "focus" ? focusDatasetProblem(header) : null;
  if (dataset !== null) return `the file is ${dataset}`;
  const near = asked === null ? classifyHeader(header) : null;
  if (near !== null && "nearMiss" in near) {
    const { title, name } = near.nearMiss;
    const article = /^[AEIOU]/.test(title) ? "an" : "a";
    return `the header is nearly ${article} ${title} export's (--input ${name}) but lacks ${near.missing.join(", ")}`;
  }
  const formats =
    asked === null ? BILLING_FORMAT_NAMES.map((name) => BILLING_FORMATS[name]) : [BILLING_FORMATS[asked]];
  const lacks = formats.map(
    (format) => `${format.title} (--input ${format.name}) lacks ${missingColumns(format, header).join(", ")}`,
  );
  const known = BILLING_FORMAT_NAMES.map((name) => BILLING_FORMATS[name].title).join(", ");
  return `the header fits no known billing export: ${lacks.join("; ")}. Known formats: ${known}.`;
}
