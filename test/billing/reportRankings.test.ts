/**
 * The report's rankings (ranked, src/billing/report/reportData.ts) sum their rows exactly
 * (src/duckdb/exactSum.ts): the correctly rounded sum of a row's lines, on 1 thread as on 4, where
 * DuckDB's SUM (Kahan's) is not.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { summedLines } from "../../src/billing/report/bounds.js";
import { ranked } from "../../src/billing/report/reportData.js";

/** The service ranking of `lines` (service, embedded) on a connection of `threads` threads. */
async function serviceRanking(lines: readonly (readonly [string, number])[], threads: string) {
  const instance = await DuckDBInstance.create(":memory:", { threads });
  const connection = await instance.connect();
  try {
    // The lines as the report's table sums them (summedLines: each group's sums left in their exact parts)
    const values = lines.map(
      ([service, embedded]) =>
        `('m', '${service}', NULL::VARCHAR, 'r', 'a', NULL::VARCHAR, NULL::VARCHAR, 1.0, 0.0, ${embedded}::DOUBLE, 0.0, NULL::DOUBLE, NULL::DOUBLE)`,
    );
    await summedLines(
      connection,
      `SELECT * FROM (VALUES ${values.join(", ")}) lines(method, service, service_id, region, account, resource,
         resource_id, cost, energy, c0_embedded, c0_use, period_start, period_end)`,
      1,
    );
    return await ranked(connection, "service", 1);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

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
});
