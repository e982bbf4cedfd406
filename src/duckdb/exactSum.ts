/*
 * Sums of doubles that do not depend on how DuckDB split the rows between its threads. DuckDB's
 * `fsum` is Kahan's summation: each thread sums its rows, then the partial sums are added in the
 * order the threads finish, so its last bit changes from run to run (a report printed
 * 0.06229751360000001 one run, 0.0622975136 the next). Here each number is cut into four integer
 * limbs of fixed weights (2^38, 2^-24, 2^-86, 2^-148), each limb summed exactly as an integer
 * (SUM of BIGINT is a HUGEINT in DuckDB: no overflow below 2^64 rows), and the total rounded once to
 * the nearest double (ties to even): the correctly rounded sum, whatever the order of the rows.
 *
 * Exact for every number of magnitude 2^-95 (2.5e-29) to 2^90 (1.2e27), zero included; a smaller
 * number is rounded to a multiple of 2^-148 first (a bill's reasonable numbers start at 1e-30:
 * src/support/numbers.ts). A number outside, NaN or infinite, is added to the total as DuckDB's
 * SUM adds it (its lines are bad rows; NaN stays NaN).
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier } from "./database.js";

/** Bits of a limb: its integer is below 2^62 in magnitude, so a BIGINT. */
const LIMB_BITS = 62;

/** The exponents of the limbs' weights, the largest first: the number = Σ limb × 2^weight. */
const WEIGHTS = [38, -24, -86, -148] as const;

/** The magnitude below which a number is cut into limbs (its top limb then below 2^52). */
const INSIDE = `${2 ** 90}::DOUBLE`;

/** 2^n as a DuckDB double literal (exact: a power of two). */
const power = (n: number) => `${2 ** n}::DOUBLE`;

/** The number `x` where it is cut into limbs, else NULL. */
const inside = (x: string) => `(CASE WHEN abs(${x}) < ${INSIDE} THEN ${x} END)`;

/**
 * The k-th limb of x (k = 0 the top one) as a BIGINT: x's bits from 2^WEIGHTS[k] up to the
 * limb above, x's sign. Each part is exact: a double scaled by a power of two, truncated, and the
 * difference of two doubles sharing their upper bits.
 */
function limb(x: string, k: number): string {
  const scaled = (weight: number) => `(${x} * ${power(-weight)})`;
  const own = k === WEIGHTS.length - 1 ? `round(${scaled(WEIGHTS[k])})` : `trunc(${scaled(WEIGHTS[k])})`;
  const above = k === 0 ? "" : ` - trunc(${scaled(WEIGHTS[k - 1])}) * ${power(LIMB_BITS)}`;
  return `CAST(${own}${above} AS BIGINT)`;
}

/** The column of a sum's part (`name$0`… its limbs' sums, `name$o` the numbers outside). */
const part = (name: string, which: string) => identifier(`${name}$${which}`);
const LIMB_NAMES = WEIGHTS.map((_, k) => String(k));
const STAGE_NAMES = ["o", "s", "h", "l1", "l2", "l3"];

/**
 * The select-list items of an aggregate query summing the DOUBLE expression `x` exactly as the
 * column `name`: a placeholder `name` (where the sum's column stands) and its parts, which
 * finishedSums turns into the sum. `x` is read several times: a plain column or a cheap expression.
 */
export function exactSumParts(x: string, name: string): string {
  const kept = inside(x);
  const limbs = WEIGHTS.map((_, k) => `sum(${limb(kept, k)}) AS ${part(name, String(k))}`);
  const outside = `sum(CASE WHEN NOT (abs(${x}) < ${INSIDE}) THEN ${x} END) AS ${part(name, "o")}`;
  return [`CAST(NULL AS DOUBLE) AS ${identifier(name)}`, ...limbs, outside].join(", ");
}

/**
 * The select-list items of an aggregate query over rows of partial sums (exactSumParts' columns
 * kept unfinished: a table of each group's parts) summing them again as the column `name`: the
 * limbs are integers, summed exactly, so finishedSums rounds the whole once, as if every number had
 * been summed in one step.
 */
export function exactSumAgainParts(name: string): string {
  const sums = [...LIMB_NAMES, "o"].map((k) => `sum(${part(name, k)}) AS ${part(name, k)}`);
  return [`CAST(NULL AS DOUBLE) AS ${identifier(name)}`, ...sums].join(", ");
}

/**
 * The aggregate query `query` (its sums written by exactSumParts) with each sum of `names` in its
 * placeholder's column, the parts dropped: in stages, each macro reading columns (a macro is
 * expanded where it is called: nested, the rounding's text grew past what DuckDB binds quickly).
 * Its connection must have the macros (createExactSumMacros).
 */
export function finishedSums(query: string, names: readonly string[]): string {
  const limbs = (name: string, sign = "") => LIMB_NAMES.map((k) => `${sign}${part(name, k)}`).join(", ");
  const each = (item: (name: string) => string) => names.map(item).join(", ");
  const signed = (name: string) => `${part(name, "s")} * `;
  const sign = each(
    (name) => `CASE WHEN exact_sum_top(${limbs(name)}) < 0 THEN -1 ELSE 1 END AS ${part(name, "s")}`,
  );
  const carried = each((name) => {
    const [s0, s1, s2, s3] = LIMB_NAMES.map((k) => `${signed(name)}${part(name, k)}`);
    return [
      `exact_sum_top(${s0}, ${s1}, ${s2}, ${s3}) AS ${part(name, "h")}`,
      `exact_sum_low(${s1} + exact_sum_carry(${s2} + exact_sum_carry(${s3}))) AS ${part(name, "l1")}`,
      `exact_sum_low(${s2} + exact_sum_carry(${s3})) AS ${part(name, "l2")}`,
      `exact_sum_low(${s3}) AS ${part(name, "l3")}`,
    ].join(", ");
  });
  const value = (name: string) =>
    `${part(name, "s")} * exact_sum_positive(${["h", "l1", "l2", "l3"].map((k) => part(name, k)).join(", ")})`;
  const total = each(
    (name) =>
      `CASE WHEN ${part(name, "0")} IS NULL THEN ${part(name, "o")} ELSE ${value(name)} + COALESCE(${part(name, "o")}, 0) END AS ${identifier(name)}`,
  );
  const dropped = names.flatMap((name) => [...LIMB_NAMES, ...STAGE_NAMES].map((k) => part(name, k)));
  return `SELECT * EXCLUDE (${dropped.join(", ")}) REPLACE (${total})
    FROM (SELECT *, ${carried} FROM (SELECT *, ${sign} FROM (${query})))`;
}

const LIMB = `${2n ** BigInt(LIMB_BITS)}::HUGEINT`;

/**
 * The macros rounding the limbs' sums (HUGEINTs s0, the top one, to s3) to the nearest double:
 * the sums carried so that each lower limb is in [0, 2^62) (exact_sum_low, exact_sum_carry), the
 * total's sign from its top limb (finishedSums: the sums of a negative total negated and carried
 * again), the magnitude's leading limbs taken as one integer m (≥ 2^62 where bits are left below
 * it), its bits past 62 dropped with its last bit set where any bit dropped or below was set
 * (round to odd: 55 bits or more are kept, so the BIGINT's conversion to the nearest double, ties
 * to even, rounds it as it rounds the total).
 */
const MACROS = [
  `exact_sum_low(a) AS ((a % ${LIMB}) + ${LIMB}) % ${LIMB}`,
  `exact_sum_carry(a) AS (a - exact_sum_low(a)) // ${LIMB}`,
  `exact_sum_top(s0, s1, s2, s3) AS s0 + exact_sum_carry(s1 + exact_sum_carry(s2 + exact_sum_carry(s3)))`,
  // m ≥ 0 times 2^e; the bits m drops: k of them, 0 below 2^62
  `exact_sum_drop(m) AS greatest(0, CAST(floor(log2(greatest(CAST(m AS DOUBLE), 1))) AS INTEGER) - 61)`,
  `exact_sum_odd(m, k, sticky, e) AS CAST(CAST((m >> k) | CASE WHEN sticky OR (m >> k) << k <> m THEN 1 ELSE 0 END
     AS BIGINT) AS DOUBLE) * (2.0::DOUBLE ** (e + k))`,
  `exact_sum_round(m, sticky, e) AS exact_sum_odd(m, exact_sum_drop(m), sticky, e)`,
  // s0 ≥ 0 (the top limb carried), s1..s3 in [0, 2^62)
  `exact_sum_positive(s0, s1, s2, s3) AS CASE
     WHEN s0 >= 1::HUGEINT << 64 THEN exact_sum_round(s0, s1 + s2 + s3 > 0, ${WEIGHTS[0]})
     WHEN s0 > 0 THEN exact_sum_round(s0 * ${LIMB} + s1, s2 + s3 > 0, ${WEIGHTS[1]})
     WHEN s1 > 0 THEN exact_sum_round(s1 * ${LIMB} + s2, s3 > 0, ${WEIGHTS[2]})
     ELSE exact_sum_round(s2 * ${LIMB} + s3, false, ${WEIGHTS[3]}) END`,
];

/** Creates the macros finishedSums' SQL calls (temporary, replaced if present: a stage may run twice). */
export async function createExactSumMacros(connection: DuckDBConnection): Promise<void> {
  for (const macro of MACROS) await connection.run(`CREATE OR REPLACE TEMP MACRO ${macro}`);
}
