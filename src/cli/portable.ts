/*
 * The command line's commands for a bill too large for one machine (docs/billing.md, "Beyond one
 * machine"):
 *
 * - `impact-service sql --engine duckdb|spark|trino|bigquery --header <file> …`: the billing
 *   pipeline as one script for the engine (src/billing/portable/script.ts), or with --keys the
 *   script that groups the export's lines into kinds;
 * - `impact-service tables --keys keys.csv --tables DIR`: the small tables the script reads, from
 *   that grouping's result (src/billing/portable/kindTables.ts).
 */

import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { ParseArgsConfig } from "node:util";
import { billingImpactColumns } from "../billing/bill.js";
import { BillingInputError } from "../billing/errors.js";
import {
  BILLING_FORMAT_NAMES,
  BILLING_FORMATS,
  missingColumns,
  recognisedFormat,
  unrecognisedHeader,
} from "../billing/formats/knownFormats.js";
import { DIALECTS, ENGINE_NAMES, SPARK_DELTA } from "../billing/portable/dialects.js";
import {
  bigQuerySchemaHeader,
  type ExportHeader,
  flatExportHeader,
  formatHeader,
  relationHeader,
} from "../billing/portable/header.js";
import { billingScript, LINE_ID } from "../billing/portable/script.js";
import { checkColumnCount } from "../billing/reading/exportScan.js";
import { billLayout, isPlainCsv } from "../billing/reading/layout.js";
import { renamedColumns } from "../billing/reading/notes.js";
import { partialOf, smallTableFiles } from "../billing/stages/write.js";
import { loadConfig } from "../config/serviceConfig.js";
import { openDatabase } from "../duckdb/database.js";
import { literal } from "../duckdb/sqlText.js";
import { NEW_WORK_DEFAULT } from "../editions/index.js";
import { coefficientCriteria } from "../service/coefficients.js";
import { openEdition } from "../service/open.js";
import {
  checkedFolder,
  environmentReads,
  named,
  type RunFiles,
  readByName,
  refuseOverlappingFiles,
} from "../support/namedFiles.js";
import { writeOutput } from "../support/outputFile.js";

import {
  type CommandIo,
  checkedCriteria,
  editionOf,
  failure,
  loadOf,
  oneOf,
  parsedOptions,
  UsageError,
} from "./options.js";

export const SQL_USAGE = `usage: impact-service sql --engine <engine> --header <file> [options]

  The billing pipeline as one script for an engine (docs/billing.md, "Beyond one machine"): it
  reads the tables billing_export (the export and a line_id column), coefficients and the small
  tables of \`impact-service tables\`, and stores billing_result (line_id, then the columns
  \`evaluate\` writes); with --keys, billing_line_kinds (for \`impact-service tables --keys\`).

  --engine ${ENGINE_NAMES.join("|")}
  --header <file>       the export's header: the export itself or any file starting with its
                        header line (CSV, CSV.gz) or of its columns (Parquet, records included),
                        or a BigQuery table's schema (bq show --schema --format=prettyjson)
  --input ${BILLING_FORMAT_NAMES.join("|")}  the export's format (default: recognised by its header)
  --keys                the script grouping the lines into kinds (its result: keys.csv)
  --grid                the lines' gwp use from a grid series' tables (tables --grid-intensity)
  --ranges              each impact's min and max too
  --delta               Spark: billing_result a Delta table (Unity Catalog's managed tables)
  --edition <id>        edition, for its criteria (default: ${NEW_WORK_DEFAULT})
  --criteria <list>     criteria, comma-separated (default: the edition's)
  --instance-type-column <column>  the machine type of Google Cloud lines
  -o, --output <file>   where to write the script (default: stdout)
`;

export const TABLES_USAGE = `usage: impact-service tables --keys <keys.csv> --tables <folder> [options]

  The small tables of \`evaluate <export> --tables\`, from the result of \`sql --keys\`'s script
  (billing_line_kinds, Parquet or CSV: an empty cell NULL, "" an empty text): only the export's kinds of
  lines leave the engine that holds it.

  --keys <file>         billing_line_kinds as Parquet (.parquet) or CSV
  --tables <folder>     where to write the tables (created if absent)
  --format csv|parquet  the small tables' files (default csv, as evaluate --tables; Parquet keeps
                        their types and NULL apart from an empty text, whatever reads them)
  --edition <id>        edition (default: ${NEW_WORK_DEFAULT})
  --criteria <list>     criteria, comma-separated (default: the edition's)
  --load <percent>      constant load of every instance (default: the archetype's)
  --grid-intensity <file>  a grid series: its tables too (as evaluate --grid-intensity)
  --grid-zones <file>   provider,place,zone rows overriding places' zones
`;

/**
 * A text export's header, when the scripts read the file as it is laid out: comma-separated, its
 * header on line 1 (their `read_csv`/external tables take no other layout). Another layout is
 * refused, naming it, not read as one column or from the wrong line (src/billing/reading/layout.ts).
 */
function plainCsvHeader(file: string): string[] | null {
  const layout = billLayout(file);
  if (layout === null) return null;
  if (layout.kind === "json") {
    throw new BillingInputError(
      `--header ${file}: newline-delimited JSON; the scripts read CSV or Parquet exports, or a BigQuery table's schema (bq show --schema --format=prettyjson) (evaluate reads this file)`,
    );
  }
  if (layout.kind === "csv" && !isPlainCsv(layout)) {
    const how =
      layout.skipped > 0
        ? `its header is line ${layout.skipped + 1}, below report lines`
        : layout.separator !== ","
          ? `its columns are separated by ${layout.separator === ";" ? "semicolons" : "tabs"}`
          : "its lines end in CR alone (a classic Mac CSV)";
    throw new BillingInputError(
      `--header ${file}: ${how}; the scripts read comma-separated exports with their header on line 1 (evaluate reads this file)`,
    );
  }
  return layout.kind === "csv" ? [...layout.header] : null;
}

/** A BigQuery table's schema is read whole: a schema of 500 columns is about 100 KB. */
const SCHEMA_BYTES = 1 << 20;

/** A BigQuery table's JSON schema (`bq show --schema --format=prettyjson`), or null for another file. */
function schemaHeader(file: string): ExportHeader | null {
  if (statSync(file).size > SCHEMA_BYTES) return null;
  const text = readFileSync(file, "utf8");
  // Newline-delimited JSON (the table's lines) does not read as one JSON document
  return /^\s*[[{]/.test(text) ? bigQuerySchemaHeader(text) : null;
}

/** The export's columns as its table names them (records whole, line_id apart). */
async function headerOf(file: string): Promise<ExportHeader> {
  let header: ExportHeader | null;
  if (readByName("--header", file) === "parquet") {
    const db = await openDatabase();
    try {
      header = await relationHeader(db.connection, `read_parquet(${literal(file)})`);
    } finally {
      db.close();
    }
  } else {
    header = schemaHeader(file);
    const flat = header === null ? plainCsvHeader(file) : null;
    if (flat !== null) header = flatExportHeader(flat);
  }
  if (header === null) throw new BillingInputError(`--header ${file}: no header line`);
  checkColumnCount(file, formatHeader(header).length);
  // An engine loads the export under the file's names: two that differ only by case, or none, fail
  // there (or are renamed its own way), where evaluate renames them (src/billing/reading/layout.ts).
  const renamed = renamedColumns(header.columns);
  if (renamed !== "") {
    throw new BillingInputError(
      `--header ${file}: names an engine's table cannot hold (names ignore case, none may be empty): rename ${renamed} in the export (evaluate reads it so)`,
    );
  }
  return { ...header, columns: header.columns.filter((column) => column.toLowerCase() !== LINE_ID) };
}

function parsed<T extends NonNullable<ParseArgsConfig["options"]>>(argv: readonly string[], options: T) {
  return parsedOptions({ args: [...argv], options: { ...options, help: { type: "boolean", short: "h" } } });
}

const SQL_OPTIONS = {
  engine: { type: "string" },
  header: { type: "string" },
  input: { type: "string" },
  keys: { type: "boolean" },
  grid: { type: "boolean" },
  ranges: { type: "boolean" },
  delta: { type: "boolean" },
  edition: { type: "string" },
  criteria: { type: "string" },
  "instance-type-column": { type: "string" },
  output: { type: "string", short: "o" },
} as const;

/** `impact-service sql …`; the exit code. */
export async function sqlMain(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const { values } = parsed(argv, SQL_OPTIONS);
    if (values.help === true) {
      io.stdout.write(SQL_USAGE);
      return 0;
    }
    if (values.engine === undefined) throw new UsageError(`sql needs --engine ${ENGINE_NAMES.join("|")}`);
    const engine = oneOf("--engine", values.engine, ENGINE_NAMES);
    if (values.header === undefined) throw new UsageError("--header <file> names the export's columns");
    const input = values.input === undefined ? null : oneOf("--input", values.input, BILLING_FORMAT_NAMES);
    const config = loadConfig(process.env);
    const edition = editionOf(values.edition, config);
    const criteria = checkedCriteria(values.criteria, edition, config);
    // The script is never written over a file the command reads (src/support/namedFiles.ts)
    refuseOverlappingFiles({
      reads: [...named("--header", values.header), ...environmentReads(process.env)],
      writes: named("--output", values.output),
    });
    if (values.delta === true && engine !== "spark")
      throw new UsageError("--delta is Spark's (--engine spark)");
    const header = await headerOf(values.header);
    const columns = formatHeader(header);
    const format = input === null ? recognisedFormat(columns) : BILLING_FORMATS[input];
    if (format === null || missingColumns(format, columns).length > 0) {
      throw new BillingInputError(unrecognisedHeader(columns, input));
    }
    const hint = values["instance-type-column"];
    const typeHintColumn =
      hint === undefined ? null : columns.find((column) => column.toLowerCase() === hint.toLowerCase());
    if (typeHintColumn === undefined)
      throw new BillingInputError(`--instance-type-column: the header has no column ${hint}`);
    const { context } = openEdition(config, edition, false);
    const impactColumns = billingImpactColumns(
      coefficientCriteria(context, criteria),
      values.ranges === true,
    );
    const script = billingScript(
      {
        dialect: values.delta === true ? SPARK_DELTA : DIALECTS[engine],
        format,
        header,
        impactColumns,
        grid: values.grid === true,
        typeHintColumn,
      },
      values.keys === true,
    );
    if (values.output === undefined) io.stdout.write(script);
    else await writeOutput(values.output, script);
    return 0;
  } catch (error) {
    return failure(io, error);
  }
}

const TABLES_OPTIONS = {
  keys: { type: "string" },
  tables: { type: "string" },
  edition: { type: "string" },
  criteria: { type: "string" },
  load: { type: "string" },
  format: { type: "string" },
  "grid-intensity": { type: "string" },
  "grid-zones": { type: "string" },
} as const;

/** Every file of a `tables` run: the keys, the series, the zones and editions files read; each table written, beside its `.partial`. */
function tablesFiles(
  values: { readonly keys?: string; readonly "grid-intensity"?: string; readonly "grid-zones"?: string },
  folder: string,
  parquet: boolean,
): RunFiles {
  const written = smallTableFiles(values["grid-intensity"] !== undefined, parquet).map(({ file }) =>
    join(folder, file),
  );
  return {
    reads: [
      ...named("--keys", values.keys),
      ...named("--grid-intensity", values["grid-intensity"]),
      ...named("--grid-zones", values["grid-zones"]),
      ...environmentReads(process.env),
    ],
    writes: written.flatMap((path) => [
      { option: "--tables", path },
      { option: "--tables' partial file", path: partialOf(path) },
    ]),
  };
}

/** `impact-service tables …`; the exit code. */
export async function tablesMain(argv: readonly string[], io: CommandIo): Promise<number> {
  try {
    const { values } = parsed(argv, TABLES_OPTIONS);
    if (values.help === true) {
      io.stdout.write(TABLES_USAGE);
      return 0;
    }
    if (values.keys === undefined || values.tables === undefined) {
      throw new UsageError("tables needs --keys <keys.csv> and --tables <folder>");
    }
    const load = loadOf(values.load);
    const series = values["grid-intensity"];
    if (series === undefined && values["grid-zones"] !== undefined) {
      throw new UsageError("--grid-zones needs --grid-intensity <file>");
    }
    const format = oneOf("--format", values.format ?? "csv", ["csv", "parquet"] as const);
    const folder = checkedFolder("--tables", values.tables);
    refuseOverlappingFiles(tablesFiles(values, folder, format === "parquet"));
    readByName("--keys", values.keys);
    const config = loadConfig(process.env);
    const edition = editionOf(values.edition, config);
    const criteria = checkedCriteria(values.criteria, edition, config);
    const { context, knownRegions } = openEdition(config, edition, true);
    const { writeTablesFromKeys } = await import("../billing/portable/kindTables.js");
    await writeTablesFromKeys(context, knownRegions, {
      keys: values.keys,
      folder,
      parquet: format === "parquet",
      criteria,
      load,
      grid: series === undefined ? null : { series, zones: values["grid-zones"] ?? null },
    });
    return 0;
  } catch (error) {
    return failure(io, error);
  }
}
