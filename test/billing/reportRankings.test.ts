/**
 * The report's rankings (ranked, src/billing/reportData.ts) sum their rows exactly
 * (src/duckdb/exactSum.ts): the correctly rounded sum of a row's lines, on 1 thread as on 4, where
 * DuckDB's SUM (Kahan's) is not.
 */
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect, it } from "vitest";
import { REPORT_LINES, ranked } from "../../src/billing/reportData.js";

/** The service ranking of `lines` (service, embedded) on a connection of `threads` threads. */
async function serviceRanking(lines: readonly (readonly [string, number])[], threads: string) {
  const instance = await DuckDBInstance.create(":memory:", { threads });
  const connection = await instance.connect();
  try {
    await connection.run(
      `CREATE TEMP TABLE ${REPORT_LINES} (method VARCHAR, service VARCHAR, service_id VARCHAR, region VARCHAR,
         account VARCHAR, resource VARCHAR, resource_id VARCHAR, cost DOUBLE, energy DOUBLE, c0_embedded DOUBLE,
         c0_use DOUBLE)`,
    );
    const values = lines.map(
      ([service, embedded]) => `('m', '${service}', NULL, 'r', 'a', NULL, NULL, 1, 0, ${embedded}, 0)`,
    );
    await connection.run(`INSERT INTO ${REPORT_LINES} VALUES ${values.join(", ")}`);
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
