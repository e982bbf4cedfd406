import { once } from "node:events";
import { PassThrough } from "node:stream";
import { formatNumber, PHASES } from "./columns.js";
import { csvLine } from "./csv.js";
import type { TextSink } from "./sink.js";
import {
  type AssessedRow,
  ENERGY_COLUMN,
  GRID_COLUMN,
  type Group,
  type Groups,
  groupCells,
  groupHeader,
  header,
  type RowImpacts,
  rowCells,
  type Sums,
  type TableLayout,
} from "./table.js";

/*
 * The table written row by row in a format (CSV, NDJSON, workbook). Sums are not written below
 * the rows — a spreadsheet's SUM of a column is then the total — but beside them: the groups in
 * `<output>.groups.<format>` (groupsText), the workbook's `groups` and `summary` sheets, NDJSON's
 * closing summary line. A writer's failure (a closed pipe, a full disk) is the sink's OutputError.
 */

/** The route's answer to a row (what NDJSON writes of it). */
export interface RouteAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly quantity: number;
}

export interface TableWriter {
  row(row: AssessedRow, answer: RouteAnswer): Promise<void>;
  end(totals: Sums, groups: Groups, interrupted: boolean): Promise<void>;
}

/** A number as JSON, without float noise. */
const tidy = (value: number) => Number(formatNumber(value));

/** Sums as JSON: criterion → phase → value (with `ranges`: → { value, min, max }). */
export function totalsJson(
  impacts: RowImpacts,
  ranges = false,
): Record<string, Record<string, number | { value: number; min: number; max: number }>> {
  return Object.fromEntries(
    Object.entries(impacts).map(([criterion, phases]) => [
      criterion,
      Object.fromEntries(
        PHASES.flatMap((phase) => {
          const bounds = phases[phase];
          if (bounds === undefined) return [];
          const value = tidy(bounds.value);
          return [[phase, ranges ? { value, min: tidy(bounds.min), max: tidy(bounds.max) } : value] as const];
        }),
      ),
    ]),
  );
}

/** A row's or sums' energy as an NDJSON field (none when there is none). */
const energyField = (energyKwh: number | undefined) =>
  energyKwh === undefined ? {} : { [ENERGY_COLUMN]: tidy(energyKwh) };

/** The energy field of a row's line, before its body (`"energy_kwh":227.3,`). */
const energyJson = (energyKwh: number | undefined) =>
  energyKwh === undefined ? "" : `"${ENERGY_COLUMN}":${tidy(energyKwh)},`;

/** The grid intensity field of a row's line, after its energy (`"grid_gco2_per_kwh":52.5,`). */
const gridJson = (gco2PerKwh: number | undefined) =>
  gco2PerKwh === undefined ? "" : `"${GRID_COLUMN}":${tidy(gco2PerKwh)},`;

/**
 * Batch NDJSON: each row's line — its input columns (a CSV input's), the route's status and body
 * — then a summary line.
 */
export function ndjsonWriter(sink: TextSink, inputColumns: readonly string[] | null): TableWriter {
  return {
    row: (row, outcome) => {
      const columns =
        inputColumns === null
          ? ""
          : `"columns":${JSON.stringify(Object.fromEntries(inputColumns.map((column, index) => [column, row.cells[index] ?? ""])))},`;
      const quantity = outcome.quantity !== 1 ? `"quantity":${outcome.quantity},` : "";
      const warnings = row.warnings.length > 0 ? `"warnings":${JSON.stringify(row.warnings)},` : "";
      const energy = energyJson(row.energyKwh) + gridJson(row.gridGco2PerKwh);
      return sink.write(
        `{"line":${row.line},${columns}${quantity}"status":${outcome.status},${warnings}${energy}"body":${JSON.stringify(outcome.body)}}\n`,
      );
    },
    async end(totals, _groups, interrupted) {
      const summary = {
        lines: totals.rows,
        ok: totals.rows - totals.failed,
        errors: totals.failed,
        warnings: totals.warned,
        ...(interrupted ? { interrupted: true } : {}),
        ...energyField(totals.energyKwh),
        total: totalsJson(totals.impacts),
      };
      await sink.write(`${JSON.stringify({ summary })}\n`);
    },
  };
}

export function csvWriter(sink: TextSink, layout: TableLayout): TableWriter {
  let started = false;
  return {
    async row(row) {
      const text = csvLine(rowCells(layout, row));
      await sink.write(started ? text : csvLine(header(layout)) + text);
      started = true;
    },
    async end() {
      if (!started) await sink.write(csvLine(header(layout)));
    },
  };
}

export function xlsxWriter(sink: TextSink, layout: TableLayout, note: string): TableWriter {
  // The workbook ends the stream it writes to: stdout cannot end, so it writes to its own stream,
  // whose bytes go on to the output without ending it (a file output is ended by its opener).
  const zip = new PassThrough();
  zip.pipe(sink.stream, { end: false });
  const zipped = once(zip, "end");
  // The workbook's library (exceljs: about a tenth of an inventory run's start) loads with the
  // first workbook written, not with every output's writers.
  const workbook = import("./xlsx.js").then(({ workbookWriter }) => workbookWriter(layout, zip));
  return {
    async row(row) {
      (await workbook).row(row);
      const failure = sink.failure();
      if (failure) throw failure;
    },
    async end(totals, groups, interrupted) {
      await (await workbook).end(
        totals,
        groups.list(),
        groups.columns,
        interrupted ? `${note}; interrupted` : note,
      );
      await Promise.race([zipped, sink.failed]);
      const failure = sink.failure();
      if (failure) throw failure;
    },
  };
}

/**
 * The sums per group as the groups file holds them: CSV under `groupHeader`, or NDJSON lines
 * `{"group": {team: …}, "rows", "failed", "total": …}` (with `ranges`, each phase's min and max).
 */
export function groupsText(
  format: "csv" | "ndjson",
  layout: TableLayout,
  columns: readonly string[],
  groups: readonly Group[],
): string {
  if (format === "csv") {
    return [groupHeader(layout, columns), ...groups.map((group) => groupCells(layout, group))]
      .map(csvLine)
      .join("");
  }
  return groups
    .map((group) => {
      const values = Object.fromEntries(columns.map((column, index) => [column, group.values[index]]));
      const { rows, failed, energyKwh, impacts } = group.sums;
      const total = totalsJson(impacts, layout.ranges);
      return `${JSON.stringify({ group: values, rows, failed, ...energyField(energyKwh), total })}\n`;
    })
    .join("");
}
