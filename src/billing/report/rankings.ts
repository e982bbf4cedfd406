/*
 * The report's rankings of the evaluated lines by method, service, region, account and resource,
 * read from their parts of REPORT_SUMS (src/billing/report/bounds.ts): the twelve largest rows by
 * the first criterion (embedded and use), the rest summed in one row, every sum exact
 * (src/duckdb/exactSum.ts) so that a row's sums, and so the ranks, do not depend on how DuckDB's
 * threads shared the lines, and each table adds up to the coverage.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { exactSumAgainParts, exactSumParts, finishedSums } from "../../duckdb/exactSum.js";
import { literal } from "../../duckdb/sqlText.js";
import type { Measured, Ranking } from "../../output/reportParts/model.js";
import { impactOf, measureColumns } from "../stages/writtenLines.js";
import { partOf, RANKED, type Ranked, REPORT_SUMS } from "./bounds.js";

export type { Ranked } from "./bounds.js";

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

/** A ranking's columns in REPORT_SUMS: the value, its name, whether the row is the rest's (not kept). */
const rankedColumns = (by: Ranked) =>
  by === "method"
    ? { key: "method", name: "method", rest: "false" }
    : { key: `${by}_key`, name: `${by}_name`, rest: `${by}_rest` };

/** The column of REPORT_SUMS each ranking of `by` reads for `field`, chosen by the row's part. */
function byPart(by: readonly Ranked[], field: "key" | "name" | "rest"): string {
  return `CASE part ${by.map((one) => `WHEN ${literal(one)} THEN ${rankedColumns(one)[field]}`).join(" ")} END`;
}

/**
 * The rankings by each of `by` from their parts of REPORT_SUMS, each's rows ordered by the first
 * criterion (ties by name, id); the rest's row, and the values past RANKED, summed in one
 * (`groups`: how many). One query for them all, each ranking a partition of it: the exact sums
 * (17 of three criteria) are planned once, not once per ranking — DuckDB's planning, not the few
 * rows, is what such a statement costs.
 */
export async function rankings(
  connection: DuckDBConnection,
  by: readonly Ranked[],
  criteria: number,
): Promise<Record<Ranked, Ranking>> {
  const sums = measureColumns(criteria);
  const parts = sums.map((column) => exactSumParts(column, column)).join(", ");
  const first = criteria === 0 ? "0" : `${impactOf(0, "embedded")} + ${impactOf(0, "use")}`;
  const groups = finishedSums(
    `SELECT part, ${byPart(by, "key")} AS id, MIN(${byPart(by, "name")}) AS name, ${byPart(by, "rest")} AS rest,
       MAX(more) AS more, ${["lines", ...sums].map(exactSumAgainParts).join(", ")}
     FROM ${REPORT_SUMS} WHERE (${by.map(partOf).join(" OR ")}) AND NOT piece GROUP BY 1, 2, 4`,
    ["lines", ...sums],
  );
  const places = finishedSums(
    `SELECT part, CASE WHEN rank <= ${RANKED} THEN rank ELSE ${RANKED + 1} END AS place,
       MIN(id) AS id, MIN(name) AS name, SUM(CASE WHEN rest THEN more ELSE 1 END)::DOUBLE AS groups,
       SUM(lines) AS lines, ${parts}
     FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY part ORDER BY rest, ${first} DESC, name, id) AS rank
       FROM (${groups}))
     GROUP BY 1, 2`,
    sums,
  );
  const reader = await connection.runAndReadAll(`SELECT * FROM (${places}) ORDER BY part, place`);
  const rows = reader.getRowObjects().map((row) => {
    const rowName = row.name === null ? "" : String(row.name);
    const rowId = row.id === null ? undefined : String(row.id);
    return {
      part: String(row.part),
      place: Number(row.place),
      groups: Number(row.groups),
      row: {
        name: rowName,
        ...(rowId !== undefined && rowId !== rowName ? { id: rowId } : {}),
        ...measuredOf(row, criteria),
      },
    };
  });
  const ranking = (one: Ranked): Ranking => {
    const own = rows.filter((row) => row.part === one);
    const rest = own.find((row) => row.place > RANKED);
    return {
      rows: own.filter((row) => row.place <= RANKED).map((row) => row.row),
      others:
        rest === undefined
          ? null
          : { ...rest.row, name: `${rest.groups.toLocaleString("en-US")} more`, id: undefined },
      more: rest?.groups ?? 0,
    };
  };
  return Object.fromEntries(by.map((one) => [one, ranking(one)])) as Record<Ranked, Ranking>;
}

/** The ranking by `by` alone (rankings' of one dimension). */
export async function ranked(connection: DuckDBConnection, by: Ranked, criteria: number): Promise<Ranking> {
  return (await rankings(connection, [by], criteria))[by];
}
