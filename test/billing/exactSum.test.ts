/**
 * The billing command's sums (src/duckdb/exactSum.ts) are the exact sum of their numbers rounded
 * once to the nearest double, whatever the number of DuckDB's threads and the order of the rows:
 * checked against the exact sum computed here with BigInt, and with 1 thread against 4.
 */
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { exactSumParts, finishedSums, registerExactSum } from "../../src/duckdb/exactSum.js";

/** Units of 2^-200 in a number of magnitude 2^-95 or more (exact: its last bit is 2^-147 or above). */
const SCALE = 200;

function scaled(value: number): bigint {
  const buffer = new DataView(new ArrayBuffer(8));
  buffer.setFloat64(0, value);
  const bits = buffer.getBigUint64(0);
  const exponent = Number((bits >> 52n) & 0x7ffn);
  const mantissa = (bits & ((1n << 52n) - 1n)) | (exponent === 0 ? 0n : 1n << 52n);
  const shift = BigInt(Math.max(exponent, 1) - 1075 + SCALE);
  const magnitude = shift >= 0n ? mantissa << shift : mantissa >> -shift;
  return value < 0 ? -magnitude : magnitude;
}

/** The exact sum rounded once: BigInt's conversion rounds to nearest, ties to even; 2^-200 exact. */
function exactly(values: readonly number[]): number {
  const total = values.reduce((sum, value) => sum + scaled(value), 0n);
  return Number(total) * 2 ** -SCALE;
}

const connections: DuckDBConnection[] = [];
const instances: DuckDBInstance[] = [];

async function connectWith(threads: string): Promise<DuckDBConnection> {
  const instance = await DuckDBInstance.create(":memory:", { threads });
  const connection = await instance.connect();
  registerExactSum(connection);
  instances.push(instance);
  connections.push(connection);
  return connection;
}

/** Each group's sum by the command's SQL, over the rows (group, value) as a table of many row groups. */
async function sums(connection: DuckDBConnection, rows: readonly (readonly [number, number])[]) {
  await connection.run("CREATE OR REPLACE TABLE numbers (g INTEGER, x DOUBLE)");
  const appender = await connection.createAppender("numbers");
  for (const [group, value] of rows) {
    appender.appendInteger(group);
    appender.appendDouble(value);
    appender.endRow();
  }
  appender.closeSync();
  const query = finishedSums(`SELECT g, ${exactSumParts("x", "total")} FROM numbers GROUP BY g`, ["total"]);
  const reader = await connection.runAndReadAll(`SELECT g, total FROM (${query}) ORDER BY g`);
  return new Map(reader.getRowObjects().map((row) => [Number(row.g), row.total as number | null]));
}

/** A reproducible stream of numbers (a linear congruential generator). */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

let one: DuckDBConnection;
let four: DuckDBConnection;

beforeAll(async () => {
  one = await connectWith("1");
  four = await connectWith("4");
});

afterAll(() => {
  for (const connection of connections) connection.closeSync();
  for (const instance of instances) instance.closeSync();
});

describe("exact sums", () => {
  it("is the correctly rounded sum where Kahan's fsum is not (a bill's S3 costs)", async () => {
    // 0.0373056399 + 0.0031754852 + 0.0198270865 + 0.0019881299: exactly 0.0622963415 to 17 digits;
    // summed in this order, DuckDB's fsum gives 0.062296341500000005
    const values = [0.0373056399, 0.0031754852, 0.0198270865, 0.0019881299];
    const result = await sums(
      one,
      values.map((value) => [1, value]),
    );
    expect(result.get(1)).toBe(0.0622963415);
    expect(exactly(values)).toBe(0.0622963415);
  });

  it("rounds to even at a tie and up past it, negatives and cancellation included", async () => {
    // 1 + 2^-53: a tie between 1 and 1 + 2^-52, to even (1); with 2^-100 more, past it (1 + 2^-52)
    const cases: [number, number[], number][] = [
      [1, [1, 2 ** -53], 1],
      [2, [1, 2 ** -53, 2 ** -90], 1 + 2 ** -52],
      [3, [-1, -(2 ** -53), -(2 ** -90)], -(1 + 2 ** -52)],
      [4, [1e20, 3.5, -1e20], 3.5],
      [5, [0.1, 0.2, -0.3], exactly([0.1, 0.2, -0.3])],
      [6, [0, 0], 0],
      [7, [1e-30, 1e-30], exactly([1e-30, 1e-30])],
    ];
    const result = await sums(
      one,
      cases.flatMap(([group, values]) => values.map((value) => [group, value] as const)),
    );
    for (const [group, , expected] of cases) expect(result.get(group), `group ${group}`).toBe(expected);
    // the doubles 0.1 + 0.2 - 0.3 are exactly 2^-55 apart (2.7755575615628914e-17); added one by one
    // in doubles, 5.551115123125783e-17 (0.1 + 0.2 rounded first)
    expect(result.get(5)).toBe(2 ** -55);
  });

  it("adds a number too large to cut, NaN and infinity as SUM does; no number is NULL", async () => {
    await one.run(
      "CREATE OR REPLACE TABLE odd AS SELECT * FROM (VALUES (1, 1e30), (1, 2.5), (2, 'nan'::DOUBLE), (2, 1.0), (3, NULL::DOUBLE)) v(g, x)",
    );
    const query = finishedSums(`SELECT g, ${exactSumParts("x", "total")} FROM odd GROUP BY g`, ["total"]);
    const reader = await one.runAndReadAll(`SELECT g, total FROM (${query}) ORDER BY g`);
    const totals = reader.getRowObjects().map((row) => row.total);
    expect(totals[0]).toBe(1e30 + 2.5);
    expect(Number.isNaN(totals[1])).toBe(true);
    expect(totals[2]).toBeNull();
  });

  it("rounds every group of 10,000 exactly, past DuckDB's chunks of 2,048 rows, the function given twice", async () => {
    registerExactSum(four);
    const random = generator(11);
    const rows: [number, number][] = [];
    for (let index = 0; index < 40_000; index++) {
      const value = (random() - 0.3) * 10 ** Math.floor(random() * 30 - 15);
      rows.push([index % 10_000, value]);
    }
    const totals = await sums(four, rows);
    expect(totals.size).toBe(10_000);
    const byGroup = new Map<number, number[]>();
    for (const [group, value] of rows) byGroup.set(group, [...(byGroup.get(group) ?? []), value]);
    const wrong = [...byGroup].filter(([group, values]) => totals.get(group) !== exactly(values));
    expect(wrong.map(([group]) => group)).toEqual([]);
  });

  it("gives the same sums with 1 thread and with 4, over 600,000 rows, and they are exact", async () => {
    const random = generator(63);
    const rows: [number, number][] = [];
    for (let index = 0; index < 600_000; index++) {
      // costs of a bill: a few decimals, magnitudes from 1e-10 to 1e4, some credits
      const magnitude = 10 ** Math.floor(random() * 14 - 10);
      const value = (Math.round(random() * 1e10) / 1e10) * magnitude * (random() < 0.1 ? -1 : 1);
      rows.push([index % 7, value]);
    }
    const [single, parallel] = [await sums(one, rows), await sums(four, rows)];
    expect([...parallel]).toEqual([...single]);
    for (let group = 0; group < 7; group++) {
      expect(single.get(group)).toBe(exactly(rows.filter(([g]) => g === group).map(([, value]) => value)));
    }
  });
});
