/*
 * The write stage of a billing run: every line with its impacts to a temporary file, renamed to the
 * output once complete; the sums per group read back from it; with a grid series, how the lines
 * fared; the small tables (--tables) and the report's data.
 */

import { mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { fileLiteral, identifier, literal } from "../../duckdb/database.js";
import { FileReadError, readFailing } from "../../duckdb/readErrors.js";
import { impactColumn } from "../../output/columns.js";
import type { EditionContext } from "../../service/context.js";
import type { GridRun } from "../grid.js";
import { type BillReportData, billReportData } from "../reportData.js";
import { smallTableFiles } from "../smallTables.js";
import { copyOptions, partialOf as partial, writeLines } from "../writing.js";
import type { LineGroup } from "./evaluate.js";
import type { LookedUp } from "./lookUp.js";
import type { GroupColumn, ReadExport } from "./read.js";
import type { BillingRequest, BillingTerms } from "./request.js";

/** What the write stage tells besides the files: how the lines fared with the series, the report's data. */
export interface WrittenRun {
  readonly grid: GridRun | null;
  readonly report: BillReportData | null;
}

/**
 * The write stage: the lines (as many as the kinds counted, else the file changed while it was
 * read), the groups, the series' pass, the small tables and the report's data; the output renamed
 * once all are written. A failure leaves no partial file behind.
 */
export async function writeOutputs(
  connection: DuckDBConnection,
  request: BillingRequest,
  read: ReadExport,
  groups: readonly LineGroup[],
  lookedUp: LookedUp,
  terms: BillingTerms,
): Promise<WrittenRun> {
  const { impactColumnNames } = terms;
  const temporary = partial(request.output);
  const target = { file: temporary, format: request.format };
  try {
    const lines = groups.reduce((sum, group) => sum + group.lines, 0);
    const grid = lookedUp.grid;
    const written = await readFailing(
      () => writeLines(connection, read.columns, impactColumnNames, { ...target, grid: grid !== null }),
      read.file,
    );
    if (written !== lines) {
      throw new FileReadError(
        `${read.file}: ${written} lines written of the ${lines} read before: the file changed while it was read; nothing written`,
      );
    }
    await writeGroups(connection, request, temporary, read.groupColumns, impactColumnNames);
    const gridRun = await readFailing(
      async () => grid?.run({ ...target, detailed: request.report === true }) ?? null,
      read.file,
    );
    await writePortableTables(connection, request.tablesFolder, gridRun !== null, terms.context);
    const report = request.report === true ? await reportOf(connection, target, read, terms) : null;
    renameSync(temporary, request.output);
    return { grid: gridRun, report };
  } catch (error) {
    rmSync(temporary, { force: true });
    if (request.groupsOutput !== null) rmSync(partial(request.groupsOutput), { force: true });
    throw error;
  }
}

/** The report's rankings, read back from the written lines (by the first criterion's impacts). */
async function reportOf(
  connection: DuckDBConnection,
  target: { readonly file: string; readonly format: "csv" | "parquet" },
  read: ReadExport,
  terms: BillingTerms,
): Promise<BillReportData | null> {
  const first = terms.criteria[0]?.info;
  if (first === undefined) return null;
  return billReportData(connection, {
    ...target,
    header: read.columns.names,
    input: read.format.name,
    embeddedColumn: impactColumn(first.name, first.unit, "embedded", "value"),
    useColumn: impactColumn(first.name, first.unit, "use", "value"),
  });
}

/** The files a run writes to a --tables folder (each written as its `.partial` first). */
export function portableTableFiles(folder: string, grid: boolean): string[] {
  return smallTableFiles(grid).map(({ file }) => join(folder, file));
}

/**
 * The small tables a run built, in `folder`, for the same SQL on another engine (docs/billing.md,
 * "Beyond one machine"; src/billing/smallTables.ts): instance_matches, billing_places and
 * billing_energy as CSV, and the methods' rows of the coefficient table
 * (method_coefficients.parquet: its shape and types, to append to it).
 */
export async function writePortableTables(
  connection: DuckDBConnection,
  folder: string | null | undefined,
  grid: boolean,
  context: EditionContext,
  parquet = false,
): Promise<void> {
  if (!folder) return;
  const regions = context.service.data.cloudRegions !== null;
  // Made here, once the lines are written: a run that fails leaves no folder behind.
  mkdirSync(folder, { recursive: true });
  for (const { file: name, query, parquet: typed } of smallTableFiles(grid, parquet, regions)) {
    const file = join(folder, name);
    const options = typed ? copyOptions("parquet") : "(FORMAT csv, HEADER true)";
    await connection.run(`COPY (${query} ORDER BY ALL) TO ${literal(partial(file))} ${options}`);
    renameSync(partial(file), file);
  }
}

/** The sums per group of the written lines (evaluated ones), read back from the output. */
async function writeGroups(
  connection: DuckDBConnection,
  request: BillingRequest,
  written: string,
  groupColumns: readonly GroupColumn[],
  impactColumnNames: readonly string[],
): Promise<void> {
  if (request.groupsOutput === null || groupColumns.length === 0) return;
  const source =
    request.format === "parquet"
      ? `read_parquet(${fileLiteral(written)})`
      : `read_csv(${fileLiteral(written)}, header = true, all_varchar = true)`;
  const sum = (column: string) => {
    const total = `SUM(TRY_CAST(${identifier(column)} AS DOUBLE))`;
    return request.format === "csv"
      ? `printf('%.10g', ${total}) AS ${identifier(column)}`
      : `${total} AS ${identifier(column)}`;
  };
  const groups = groupColumns.map((group) => `${group.expression} AS ${identifier(group.name)}`).join(", ");
  const temporary = partial(request.groupsOutput);
  await connection.run(
    `COPY (SELECT ${groups}, COUNT(*) AS lines, ${sum("hours")}, ${impactColumnNames.map(sum).join(", ")}
       FROM ${source} WHERE status = 'evaluated' GROUP BY ALL ORDER BY ALL)
     TO ${literal(temporary)} ${copyOptions(request.format)}`,
  );
  renameSync(temporary, request.groupsOutput);
}
