import type { Writable } from "node:stream";
import ExcelJS from "exceljs";
import { PHASES, withoutFloatNoise } from "./columns.js";
import {
  type AssessedRow,
  ENERGY_COLUMN,
  type Group,
  groupHeader,
  header,
  numberValues,
  type Sums,
  type TableLayout,
} from "./table.js";
import { withoutControls } from "./text.js";

/*
 * The table as an Excel workbook (exceljs, streamed: each row is written and released as it
 * comes, so memory stays flat whatever the number of rows): a sheet `rows` (the CSV's columns,
 * numbers as numbers), `groups` with --group-by, and `summary` (counts, totals per criterion and
 * phase with their unit and range). Each table sheet has its header frozen, an autofilter on it
 * and columns as wide as their names (within bounds), so it reads without resizing.
 */

/** Column widths in characters: a name's length within these bounds. */
const NARROWEST = 8;
const WIDEST = 32;

/** A sheet of a table: its columns sized to their names, its header bold, frozen and filtered. */
function tableSheet(workbook: ExcelJS.stream.xlsx.WorkbookWriter, name: string, columns: readonly string[]) {
  const sheet = workbook.addWorksheet(name, { views: [{ state: "frozen", ySplit: 1 }] });
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(columns.length, 1) } };
  sheet.columns = columns.map((column) => ({
    width: Math.min(Math.max(column.length + 2, NARROWEST), WIDEST),
  }));
  const top = sheet.addRow([...columns]);
  top.font = { bold: true };
  top.commit();
  return sheet;
}

/** Numbers as written elsewhere: 10 significant digits, no float noise. */
const tidy = (value: number | undefined) => (value === undefined ? null : withoutFloatNoise(value));

/** A decimal number of the input as a number (a spreadsheet sums it); any other cell as text. */
function inputCell(text: string): string | number {
  const trimmed = text.trim();
  if (trimmed.length <= 20 && /^-?(0|[1-9]\d*)(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  return withoutControls(text);
}

interface WorkbookWriter {
  row(row: AssessedRow): void;
  end(totals: Sums, groups: readonly Group[], groupColumns: readonly string[], note: string): Promise<void>;
}

export function workbookWriter(layout: TableLayout, stream: Writable): WorkbookWriter {
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useStyles: true });
  const rows = tableSheet(workbook, "rows", header(layout));
  return {
    row(row) {
      rows
        .addRow([
          ...row.cells.map(inputCell),
          ...numberValues(layout, row.energyKwh, row.impacts, row.gridGco2PerKwh).map(tidy),
          withoutControls(row.status),
          withoutControls(row.warnings.join("; ")),
        ])
        .commit();
    },
    async end(totals, groups, groupColumns, note) {
      rows.commit();
      if (groupColumns.length > 0) {
        const sheet = tableSheet(workbook, "groups", groupHeader(layout, groupColumns));
        for (const group of groups) {
          sheet
            .addRow([
              ...group.values.map(withoutControls),
              group.sums.rows,
              group.sums.failed,
              ...numberValues(layout, group.sums.energyKwh, group.sums.impacts).map(tidy),
            ])
            .commit();
        }
        sheet.commit();
      }
      const summary = workbook.addWorksheet("summary");
      for (const [label, value] of [
        ["rows", totals.rows],
        ["ok", totals.rows - totals.failed],
        ["failed", totals.failed],
        ["with warnings", totals.warned],
        [ENERGY_COLUMN, tidy(totals.energyKwh)],
        ["note", note],
      ] as const) {
        summary.addRow([label, value]).commit();
      }
      summary.addRow([]).commit();
      const top = summary.addRow(["criterion", "unit", "phase", "total", "min", "max"]);
      top.font = { bold: true };
      top.commit();
      for (const { criterion, unit } of layout.criteria) {
        for (const phase of PHASES) {
          const sum = totals.impacts[criterion]?.[phase];
          summary.addRow([criterion, unit, phase, tidy(sum?.value), tidy(sum?.min), tidy(sum?.max)]).commit();
        }
      }
      summary.commit();
      await workbook.commit();
    },
  };
}
