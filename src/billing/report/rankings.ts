/*
 * The report's rankings of the evaluated lines (REPORT_LINES) by method, service, region, account
 * and resource: the twelve largest rows by the first criterion (embedded and use), the rest summed
 * in one row, every sum exact (src/duckdb/exactSum.ts) so that a row's sums, and so the ranks, do
 * not depend on how DuckDB's threads shared the lines, and each table adds up to the coverage.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import {
  createExactSumMacros,
  exactSumAgainParts,
  exactSumParts,
  finishedSums,
} from "../../duckdb/exactSum.js";
import type { Measured, Ranking } from "../../output/reportParts/model.js";
import { impactOf, measureColumns, REPORT_LINES } from "./lines.js";

export type Ranked = "method" | "service" | "region" | "account" | "resource";

/** Rows of each ranking kept; the rest are summed in one row (`others`). */
const RANKED = 12;

/** What a ranking groups by (its id, where it has one) and names its rows with. */
const RANKINGS: Readonly<Record<Ranked, { readonly id: string; readonly name: string }>> = {
  method: { id: "method", name: "method" },
  service: { id: "COALESCE(service_id, service)", name: "service" },
  region: { id: "region", name: "region" },
  account: { id: "account", name: "account" },
  // A line without a resource id is a resource of its own kind, named so
  resource: { id: "resource_id", name: "COALESCE(resource, resource_id, '(no resource)')" },
};

/** A row's sums as the report's model holds them, from a row of `measureColumns`' names. */
export function measuredOf(row: Record<string, unknown>, criteria: number): Measured {
  const value = (column: string) => Number(row[column] ?? 0);
  return {
    lines: Number(row.lines ?? 0),
    cost: value("cost"),
    energy: value("energy"),
    impacts: Array.from({ length: criteria }, (_, index) => ({
      embedded: value(impactOf(index, "embedded")),
      use: value(impactOf(index, "use")),
    })),
  };
}

/** The ranking of REPORT_LINES by `by`, its rows ordered by the first criterion (ties by name, id). */
export async function ranked(connection: DuckDBConnection, by: Ranked, criteria: number): Promise<Ranking> {
  const { id, name } = RANKINGS[by];
  await createExactSumMacros(connection);
  const sums = measureColumns(criteria);
  const parts = sums.map((column) => exactSumParts(column, column)).join(", ");
  const first = criteria === 0 ? "0" : `${impactOf(0, "embedded")} + ${impactOf(0, "use")}`;
  const groups = finishedSums(
    `SELECT ${id} AS id, MIN(${name}) AS name, SUM(lines) AS lines, ${sums.map(exactSumAgainParts).join(", ")}
     FROM ${REPORT_LINES} GROUP BY 1`,
    sums,
  );
  const places = finishedSums(
    `SELECT CASE WHEN rank <= ${RANKED} THEN rank ELSE ${RANKED + 1} END AS place,
       MIN(id) AS id, MIN(name) AS name, COUNT(*)::DOUBLE AS groups, SUM(lines) AS lines, ${parts}
     FROM (SELECT *, ROW_NUMBER() OVER (ORDER BY ${first} DESC, name, id) AS rank FROM (${groups}))
     GROUP BY 1`,
    sums,
  );
  const reader = await connection.runAndReadAll(`SELECT * FROM (${places}) ORDER BY place`);
  const rows = reader.getRowObjects().map((row) => {
    const rowName = row.name === null ? "" : String(row.name);
    const rowId = row.id === null ? undefined : String(row.id);
    return {
      place: Number(row.place),
      groups: Number(row.groups),
      row: {
        name: rowName,
        ...(rowId !== undefined && rowId !== rowName ? { id: rowId } : {}),
        ...measuredOf(row, criteria),
      },
    };
  });
  const rest = rows.find((row) => row.place > RANKED);
  return {
    rows: rows.filter((row) => row.place <= RANKED).map((row) => row.row),
    others:
      rest === undefined
        ? null
        : { ...rest.row, name: `${rest.groups.toLocaleString("en-US")} more`, id: undefined },
    more: rest?.groups ?? 0,
  };
}
