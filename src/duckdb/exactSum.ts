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

import { DOUBLE, type DuckDBConnection, DuckDBScalarFunction, HUGEINT } from "@duckdb/node-api";
import { identifier } from "./sqlText.js";

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

/** The function rounding a sum's limbs once (registerExactSum), as SQL calls it. */
const ROUNDING = "exact_sum_total";

/**
 * The aggregate query `query` (its sums written by exactSumParts) with each sum of `names` in its
 * placeholder's column, the parts dropped: its limbs' sums rounded once by the function
 * registerExactSum gives the connection, the numbers outside added after, as SUM adds them. The
 * rounding is one call a sum because in SQL (the carries, the sign, the leading limbs, round to
 * odd) it costs DuckDB about 3 ms of planning a sum, the largest part of a small bill's run, and
 * runs at half the call's pace over 1,000,000 groups (docs/billing.md, "Sums whatever the threads").
 */
export function finishedSums(query: string, names: readonly string[]): string {
  const total = names
    .map((name) => {
      const limbs = LIMB_NAMES.map((k) => part(name, k)).join(", ");
      const outside = part(name, "o");
      return `CASE WHEN ${part(name, "0")} IS NULL THEN ${outside} ELSE ${ROUNDING}(${limbs}) + COALESCE(${outside}, 0) END AS ${identifier(name)}`;
    })
    .join(", ");
  const dropped = names.flatMap((name) => [...LIMB_NAMES, "o"].map((k) => part(name, k)));
  return `SELECT * EXCLUDE (${dropped.join(", ")}) REPLACE (${total}) FROM (${query})`;
}

/** Each limb's weight as a shift of the total in units of its last limb's (2^WEIGHTS[3]). */
const SHIFTS = WEIGHTS.map((weight) => BigInt(weight - WEIGHTS[WEIGHTS.length - 1]));

/** A unit of the last limb, 2^-148: a power of two, so the scaling is exact. */
const LAST_UNIT = 2 ** WEIGHTS[WEIGHTS.length - 1];

/**
 * The sum of limbs' sums `limbs` (each HUGEINT, the largest weight first) rounded once to the
 * nearest double: their exact total in units of 2^-148 is an integer, which BigInt's conversion
 * to a number rounds to the nearest double, ties to even (ECMAScript's Number(bigint)); scaled by
 * 2^-148 it stays exact, its magnitude 2^-148 or more (or zero).
 */
export function roundedLimbs(limbs: readonly bigint[]): number {
  let total = 0n;
  for (let k = 0; k < SHIFTS.length; k++) total += limbs[k] << SHIFTS[k];
  return Number(total) * LAST_UNIT;
}

/**
 * Gives the connection's database the function finishedSums' SQL calls, `exact_sum_total(l0, l1,
 * l2, l3)`: roundedLimbs on each row. DuckDB runs it on the JavaScript thread, a chunk of rows at a
 * time; a database given it again keeps one. Every billing database is given it as it is opened
 * (src/duckdb/database.ts, openDatabase).
 */
export function registerExactSum(connection: DuckDBConnection): void {
  connection.registerScalarFunction(
    DuckDBScalarFunction.create({
      name: ROUNDING,
      mainFunction: (_info, input, output) => {
        const vectors = LIMB_NAMES.map((_, k) => input.getColumnVector(k));
        const limbs: bigint[] = vectors.map(() => 0n);
        for (let row = 0; row < input.rowCount; row++) {
          for (let k = 0; k < vectors.length; k++) limbs[k] = vectors[k].getItem(row) as bigint;
          output.setItem(row, roundedLimbs(limbs));
        }
        output.flush();
      },
      returnType: DOUBLE,
      parameterTypes: LIMB_NAMES.map(() => HUGEINT),
    }),
  );
}
