/**
 * The report's rankings (ranked, src/billing/report/reportData.ts) sum their rows exactly
 * (src/duckdb/exactSum.ts): the correctly rounded sum of a row's lines, on 1 thread as on 4, where
 * DuckDB's SUM (Kahan's) is not.
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { summedLines } from "../../src/billing/report/bounds.js";
import { rankings } from "../../src/billing/report/rankings.js";
import { ranked } from "../../src/billing/report/reportData.js";
import { registerExactSum } from "../../src/duckdb/exactSum.js";

const RANKED_BY = ["method", "service", "region", "account", "resource"] as const;

/** A line: its service and embedded impact, its method, region, account and resource where not the default's. */
type Line = readonly [
  string,
  number,
  {
    readonly method?: string;
    readonly region?: string;
    readonly account?: string;
    readonly resource?: string;
    readonly resourceId?: string;
  }?,
];

/** The lines as the report's table sums them (summedLines), then `read` on the connection of `threads` threads. */
async function summedThen<T>(
  lines: readonly Line[],
  threads: string,
  read: (connection: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const instance = await DuckDBInstance.create(":memory:", { threads });
  const connection = await instance.connect();
  // As every billing database is given it (openDatabase)
  registerExactSum(connection);
  try {
    // The lines as the report's table sums them (summedLines: each group's sums left in their exact parts)
    const text = (value: string | undefined) => (value === undefined ? "NULL::VARCHAR" : `'${value}'`);
    const values = lines.map(
      ([service, embedded, more]) =>
        `('${more?.method ?? "m"}', '${service}', NULL::VARCHAR, '${more?.region ?? "r"}', '${more?.account ?? "a"}', ${text(more?.resource)}, ${text(more?.resourceId)}, 1.0, 0.0, ${embedded}::DOUBLE, 0.0, NULL::DOUBLE, NULL::DOUBLE)`,
    );
    await summedLines(
      connection,
      `SELECT * FROM (VALUES ${values.join(", ")}) lines(method, service, service_id, region, account, resource,
         resource_id, cost, energy, c0_embedded, c0_use, period_start, period_end)`,
      1,
    );
    return await read(connection);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** The service ranking of `lines` (service, embedded) on a connection of `threads` threads. */
const serviceRanking = (lines: readonly Line[], threads: string) =>
  summedThen(lines, threads, (connection) => ranked(connection, "service", 1));

describe("the report's rankings", () => {
  it("sum a row's lines exactly, whatever the threads", async () => {
    // Service a: 1 + 1e20 + 1 - 1e20 = 2 exactly (Kahan's SUM in this order: 0); 14 services of 0.25
    // each after it, the last three past the twelve ranked rows: "3 more", 0.75, 3 lines, cost 3
    const lines: [string, number][] = [
      ["a", 1],
      ["a", 1e20],
      ["a", 1],
      ["a", -1e20],
      ...Array.from({ length: 14 }, (_, k): [string, number] => [`s${String(k + 10)}`, 0.25]),
    ];
    const one = await serviceRanking(lines, "1");
    expect(one.rows[0]).toEqual({
      name: "a",
      lines: 4,
      cost: 4,
      energy: 0,
      impacts: [{ embedded: 2, use: 0 }],
    });
    expect(one.rows).toHaveLength(12);
    expect(one.others).toEqual({
      name: "3 more",
      id: undefined,
      lines: 3,
      cost: 3,
      energy: 0,
      impacts: [{ embedded: 0.75, use: 0 }],
    });
    expect(one.more).toBe(3);
    expect(await serviceRanking(lines, "4")).toEqual(one);
  });

  it("read in one query are each the ranking read alone", async () => {
    // Two methods, three regions and accounts, resources with and without an id: each ranking of
    // the report's one query (its partition) equals the one query of its dimension alone
    const lines = Array.from(
      { length: 30 },
      (_, k): Line => [
        `s${String(k % 17)}`,
        0.5 + k,
        {
          method: k % 4 === 0 ? "by-cost" : "instance",
          region: `r${String(k % 3)}`,
          account: `a${String(k % 14)}`,
          ...(k % 5 === 0 ? {} : { resource: `vm ${String(k % 7)}`, resourceId: `i-${String(k % 7)}` }),
        },
      ],
    );
    const all = await summedThen(lines, "2", (connection) => rankings(connection, RANKED_BY, 1));
    for (const by of RANKED_BY) {
      const alone = await summedThen(lines, "2", (connection) => ranked(connection, by, 1));
      expect(all[by], by).toEqual(alone);
    }
    expect(all.service.rows).toHaveLength(12);
    expect(all.service.more).toBe(5);
    expect(all.method.rows.map((row) => row.name)).toEqual(["instance", "by-cost"]);
    expect(all.region.rows).toHaveLength(3);
    expect(all.account.more).toBe(2);
  });
});
