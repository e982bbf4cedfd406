import { once } from "node:events";
import { PassThrough } from "node:stream";
import { formatNumber } from "./columns.js";
import { csvLine } from "./csv.js";
import type { TextSink } from "./sink.js";
import {
  type AssessedRow,
  type Groups,
  header,
  rowCells,
  type Sums,
  sumsAsImpacts,
  sumsStatus,
  type TableLayout,
} from "./table.js";
import { workbookWriter } from "./xlsx.js";

/*
 * The table written row by row in a format (CSV, workbook), then its sums: the groups' and the
 * total. A writer's failure (a closed pipe, a full disk) is the sink's OutputError.
 */

interface TableWriter {
  row(row: AssessedRow): Promise<void>;
  end(totals: Sums, groups: Groups, interrupted: boolean): Promise<void>;
}

/** A number as JSON, without float noise. */
const tidy = (value: number) => Number(formatNumber(value));

/** Sums as JSON: criterion → phase → value. */
export function totalsJson(sums: Sums): Record<string, Record<string, number>> {
  return Object.fromEntries(
    Object.entries(sums.impacts).map(([criterion, phases]) => [
      criterion,
      Object.fromEntries(Object.entries(phases).map(([phase, bounds]) => [phase, tidy(bounds?.value ?? 0)])),
    ]),
  );
}

export function csvWriter(sink: TextSink, layout: TableLayout): TableWriter {
  let started = false;
  const sumRow = (cells: readonly string[], sums: Sums, status: string) =>
    csvLine(rowCells(layout, { line: 0, cells, impacts: sumsAsImpacts(sums), warnings: [], status }));
  return {
    async row(row) {
      const text = csvLine(rowCells(layout, row));
      await sink.write(started ? text : csvLine(header(layout)) + text);
      started = true;
    },
    async end(totals, groups, interrupted) {
      let text = started ? "" : csvLine(header(layout));
      const width = layout.inputColumns.length;
      const indices = groups.columns.map((column) => layout.inputColumns.indexOf(column));
      // Sums follow the rows, told apart by their status: `group …`, then `total …`.
      for (const group of groups.list()) {
        const cells = new Array<string>(width).fill("");
        indices.forEach((index, at) => {
          cells[index] = group.values[at];
        });
        text += sumRow(cells, group.sums, `group: ${sumsStatus(group.sums)}`);
      }
      const status = `total: ${sumsStatus(totals)}${interrupted ? " (interrupted)" : ""}`;
      text += sumRow(new Array<string>(width).fill(""), totals, status);
      await sink.write(text);
    },
  };
}

export function xlsxWriter(sink: TextSink, layout: TableLayout, note: string): TableWriter {
  // The workbook ends the stream it writes to: stdout cannot end, so it writes to its own stream,
  // whose bytes go on to the output without ending it (a file output is ended by its opener).
  const zip = new PassThrough();
  zip.pipe(sink.stream, { end: false });
  const zipped = once(zip, "end");
  const workbook = workbookWriter(layout, zip);
  return {
    async row(row) {
      workbook.row(row);
      const failure = sink.failure();
      if (failure) throw failure;
    },
    async end(totals, groups, interrupted) {
      await workbook.end(totals, groups.list(), groups.columns, interrupted ? `${note}; interrupted` : note);
      await Promise.race([zipped, sink.failed]);
      const failure = sink.failure();
      if (failure) throw failure;
    },
  };
}
