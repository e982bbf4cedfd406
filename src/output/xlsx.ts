import type { Writable } from "node:stream";
import ExcelJS from "exceljs";
import { PHASES, withoutFloatNoise } from "./columns.js";
import {
  type AssessedRow,
  type Group,
  header,
  impactValues,
  type Sums,
  sumsAsImpacts,
  type TableLayout,
} from "./table.js";
import { withoutControls } from "./text.js";

/*
 * The table as an Excel workbook (exceljs, streamed: each row is written and released as it
 * comes, so memory stays flat whatever the number of rows): a sheet `rows` (the CSV's columns,
 * numbers as numbers), `groups` with --group-by, and `summary` (counts, totals per criterion and
 * phase with their unit and range).
 */

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
  const rows = workbook.addWorksheet("rows", { views: [{ state: "frozen", ySplit: 1 }] });
  const headerRow = rows.addRow(header(layout));
  headerRow.font = { bold: true };
  headerRow.commit();
  return {
    row(row) {
      rows
        .addRow([
          ...row.cells.map(inputCell),
          ...impactValues(layout, row.impacts).map(tidy),
          withoutControls(row.warnings.join("; ")),
          withoutControls(row.status),
        ])
        .commit();
    },
    async end(totals, groups, groupColumns, note) {
      rows.commit();
      if (groupColumns.length > 0) {
        const sheet = workbook.addWorksheet("groups", { views: [{ state: "frozen", ySplit: 1 }] });
        const impacts = header(layout).slice(layout.inputColumns.length, -2);
        const top = sheet.addRow([...groupColumns, "rows", "failed", ...impacts]);
        top.font = { bold: true };
        top.commit();
        for (const group of groups) {
          sheet
            .addRow([
              ...group.values.map(withoutControls),
              group.sums.rows,
              group.sums.failed,
              ...impactValues(layout, sumsAsImpacts(group.sums)).map(tidy),
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
