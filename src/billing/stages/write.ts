/*
 * The write stage of a billing run: every line with its impacts to a temporary file, renamed to the
 * output once complete; with a grid series, how the lines fared; the sums per group read back from
 * the lines (src/billing/writing.ts); the small tables (--tables, src/billing/smallTables.ts) and
 * the report's data (src/billing/reportData.ts).
 */

import { renameSync, rmSync } from "node:fs";
import type { DuckDBConnection } from "@duckdb/node-api";
import { fileLiteral, identifier, literal } from "../../duckdb/database.js";
import { FileReadError, readFailing } from "../../duckdb/readErrors.js";
import type { GridRun } from "../grid.js";
import { billName } from "../reading/parts.js";
import { type BillReportData, writtenReportData } from "../reportData.js";
import { writePortableTables } from "../smallTables.js";
import { copyOptions, type OutputFormat, partialOf, writeLines } from "../writing.js";
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
 * read), the series' pass, the groups, the small tables and the report's data; the output renamed
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
  const temporary = partialOf(request.output);
  const target = { file: temporary, format: request.format };
  try {
    const lines = groups.reduce((sum, group) => sum + group.lines, 0);
    const grid = lookedUp.grid;
    const written = await readFailing(
      () => writeLines(connection, read.columns, impactColumnNames, { ...target, grid: grid !== null }),
      read.parts,
    );
    if (written !== lines) {
      throw new FileReadError(
        `${billName(read.parts)}: ${written} lines written of the ${lines} read before: the file changed while it was read; nothing written`,
      );
    }
    const gridRun = await readFailing(
      async () => grid?.run({ ...target, detailed: request.report === true }) ?? null,
      read.parts,
    );
    await writeGroupSums(connection, target, request.groupsOutput, read.groupColumns, impactColumnNames);
    await writePortableTables(connection, request.tablesFolder, gridRun !== null, terms.context);
    const lineColumns = { ...target, header: read.columns.names, input: read.format.name };
    const report =
      request.report === true
        ? await writtenReportData(connection, lineColumns, terms.criteria[0]?.info)
        : null;
    renameSync(temporary, request.output);
    return { grid: gridRun, report };
  } catch (error) {
    rmSync(temporary, { force: true });
    if (request.groupsOutput !== null) rmSync(partialOf(request.groupsOutput), { force: true });
    throw error;
  }
}

/**
 * The sums per group of the written lines (`written`, the evaluated ones), read back from them into
 * `groupsOutput` (its `.partial` first); nothing without a group column.
 */
async function writeGroupSums(
  connection: DuckDBConnection,
  written: { readonly file: string; readonly format: OutputFormat },
  groupsOutput: string | null,
  groupColumns: readonly GroupColumn[],
  impactColumnNames: readonly string[],
): Promise<void> {
  if (groupsOutput === null || groupColumns.length === 0) return;
  const source =
    written.format === "parquet"
      ? `read_parquet(${fileLiteral(written.file)})`
      : `read_csv(${fileLiteral(written.file)}, header = true, all_varchar = true)`;
  const sum = (column: string) => {
    const total = `SUM(TRY_CAST(${identifier(column)} AS DOUBLE))`;
    return written.format === "csv"
      ? `printf('%.10g', ${total}) AS ${identifier(column)}`
      : `${total} AS ${identifier(column)}`;
  };
  const groups = groupColumns.map((group) => `${group.expression} AS ${identifier(group.name)}`).join(", ");
  const temporary = partialOf(groupsOutput);
  await connection.run(
    `COPY (SELECT ${groups}, COUNT(*) AS lines, ${sum("hours")}, ${impactColumnNames.map(sum).join(", ")}
       FROM ${source} WHERE status = 'evaluated' GROUP BY ALL ORDER BY ALL)
     TO ${literal(temporary)} ${copyOptions(written.format)}`,
  );
  renameSync(temporary, groupsOutput);
}
