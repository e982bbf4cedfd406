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
const LIMB = `${2n ** BigInt(LIMB_BITS)}::HUGEINT`;

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

/**
 * The aggregate query `query` (its sums written by exactSumParts) with each sum of `names` in its
 * placeholder's column, the parts dropped. The rounding runs in steps, one projection each, whose
 * macros read columns or the sum of two: a macro is expanded where it is called, so a macro given
 * another's call (the carries nested in the top limb, the leading limbs in the rounding) binds as
 * many copies of it as it reads its argument. Eight sums finished in one step each of the sign,
 * the carries and the rounding took DuckDB 73–80 ms of CPU to plan; in these steps 30–36 ms (their
 * values the same: integers, then one rounding). Its connection must have the macros
 * (createExactSumMacros).
 */
export function finishedSums(query: string, names: readonly string[]): string {
  const steps = FINISHING_STEPS.map((step) => names.map(step).join(", "));
  const nested = steps.reduce((inner, step) => `(SELECT *, ${step} FROM ${inner})`, `(${query})`);
  const total = names
    .map((name) => {
      const [s, o] = [part(name, "s"), part(name, "o")];
      const rounded = `exact_sum_odd(${["m", "k", "t", "e"].map((k) => part(name, k)).join(", ")})`;
      return `CASE WHEN ${part(name, "0")} IS NULL THEN ${o} ELSE ${s} * ${rounded} + COALESCE(${o}, 0) END AS ${identifier(name)}`;
    })
    .join(", ");
  const dropped = names.flatMap((name) => [...LIMB_NAMES, ...STEP_NAMES].map((k) => part(name, k)));
  return `SELECT * EXCLUDE (${dropped.join(", ")}) REPLACE (${total}) FROM ${nested}`;
}

/** The limbs' sum `k` of `name` times the total's sign. */
const signed = (name: string, k: string) => `${part(name, "s")} * ${part(name, k)}`;

/**
 * The leading limbs of a positive total (h its top limb carried, l1..l3 the lower ones in
 * [0, 2^62)) as one integer m ≥ 2^62 where bits are left below it, whether a bit below m is set
 * (t), and the exponent of m's last bit (e): the first of these whose condition holds.
 */
const LEADING = [
  { when: "h >= 1::HUGEINT << 64", m: "h", t: "l1 + l2 + l3 > 0", e: WEIGHTS[0] },
  { when: "h > 0", m: `h * ${LIMB} + l1`, t: "l2 + l3 > 0", e: WEIGHTS[1] },
  { when: "l1 > 0", m: `l1 * ${LIMB} + l2`, t: "l3 > 0", e: WEIGHTS[2] },
  { when: null, m: `l2 * ${LIMB} + l3`, t: "false", e: WEIGHTS[3] },
] as const;

/** LEADING's `field` of `name`'s sum as a CASE over its columns. */
function leading(name: string, field: "m" | "t" | "e"): string {
  const columns = (text: string) => text.replace(/\b(h|l1|l2|l3)\b/g, (k) => part(name, k));
  const branches = LEADING.map((branch) => {
    const value = columns(String(branch[field]));
    return branch.when === null ? `ELSE ${value}` : `WHEN ${columns(branch.when)} THEN ${value}`;
  });
  return `CASE ${branches.join(" ")} END AS ${part(name, field)}`;
}

/**
 * The steps finishing a sum, each a function of its name giving the columns it adds: the total's
 * sign from its top limb carried (u3, u2: the unsigned carries), the limbs times the sign carried
 * (c3, c2) so that each lower limb is in [0, 2^62) (l3, l2, l1) and the top one h, then the
 * leading limbs and the bits the rounding drops from them (k).
 */
const FINISHING_STEPS: readonly ((name: string) => string)[] = [
  (name) => `exact_sum_carry(${part(name, "3")}) AS ${part(name, "u3")}`,
  (name) => `exact_sum_carry(${part(name, "2")} + ${part(name, "u3")}) AS ${part(name, "u2")}`,
  (name) =>
    `CASE WHEN ${part(name, "0")} + exact_sum_carry(${part(name, "1")} + ${part(name, "u2")}) < 0 THEN -1 ELSE 1 END AS ${part(name, "s")}`,
  (name) =>
    `exact_sum_carry(${signed(name, "3")}) AS ${part(name, "c3")}, exact_sum_low(${signed(name, "3")}) AS ${part(name, "l3")}`,
  (name) => {
    const limb = `${signed(name, "2")} + ${part(name, "c3")}`;
    return `exact_sum_carry(${limb}) AS ${part(name, "c2")}, exact_sum_low(${limb}) AS ${part(name, "l2")}`;
  },
  (name) => {
    const limb = `${signed(name, "1")} + ${part(name, "c2")}`;
    return `${signed(name, "0")} + exact_sum_carry(${limb}) AS ${part(name, "h")}, exact_sum_low(${limb}) AS ${part(name, "l1")}`;
  },
  (name) => ["m", "t", "e"].map((field) => leading(name, field as "m" | "t" | "e")).join(", "),
  (name) => `exact_sum_drop(${part(name, "m")}) AS ${part(name, "k")}`,
];

/** The columns of the parts and the steps, dropped once the sum is finished. */
const STEP_NAMES = ["o", "u3", "u2", "s", "c3", "l3", "c2", "l2", "h", "l1", "m", "t", "e", "k"];

/**
 * The macros of the rounding (finishedSums' steps), each given columns: a limbs' sum carried so
 * that the limb is in [0, 2^62) (exact_sum_low) and what it carries to the limb above
 * (exact_sum_carry); the bits the leading limbs m drop (exact_sum_drop: k of them, past 62, 0
 * below 2^62); m's bits past k dropped with its last bit set where any bit dropped or below was
 * set (round to odd: 55 bits or more are kept, so the BIGINT's conversion to the nearest double,
 * ties to even, rounds it as it rounds the total), times 2^(e + k).
 */
const MACROS = [
  `exact_sum_low(a) AS ((a % ${LIMB}) + ${LIMB}) % ${LIMB}`,
  `exact_sum_carry(a) AS (a - exact_sum_low(a)) // ${LIMB}`,
  `exact_sum_drop(m) AS greatest(0, CAST(floor(log2(greatest(CAST(m AS DOUBLE), 1))) AS INTEGER) - 61)`,
  `exact_sum_odd(m, k, sticky, e) AS CAST(CAST((m >> k) | CASE WHEN sticky OR (m >> k) << k <> m THEN 1 ELSE 0 END
     AS BIGINT) AS DOUBLE) * (2.0::DOUBLE ** (e + k))`,
];

/** Creates the macros finishedSums' SQL calls (temporary, replaced if present: a stage may run twice). */
export async function createExactSumMacros(connection: DuckDBConnection): Promise<void> {
  for (const macro of MACROS) await connection.run(`CREATE OR REPLACE TEMP MACRO ${macro}`);
}
