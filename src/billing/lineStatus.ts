/*
 * A billed line's status, as codes: every line carries the code of its status and, for a line
 * that is not evaluated, the code of its problem (`billing_problem_code`,
 * sql/evaluate/billing_impacts.sql). The words the output's `status` writes are derived from the
 * codes here, once (lineProblemWordsSql writes them into the query at its marker `-- @line problem
 * words of <alias>`); every reader of a status reads its code, never its words.
 */

/** What became of a line: the output's `status` says it in words (LINE_STATUSES). */
export type LineStatusCode =
  | "evaluated"
  | "not-compute"
  | "unknown-instance-type"
  | "not-evaluated"
  | "bad-row";

/** The words of each status; a status with a reason writes it after them (`bad row: unknown region x`). */
export const LINE_STATUSES: Readonly<
  Record<LineStatusCode, { readonly words: string; readonly reasoned: boolean }>
> = {
  evaluated: { words: "evaluated", reasoned: false },
  "not-compute": { words: "not compute", reasoned: false },
  "unknown-instance-type": { words: "unknown instance type", reasoned: false },
  "not-evaluated": { words: "not evaluated", reasoned: true },
  "bad-row": { words: "bad row", reasoned: true },
};

/** A status's words, with its reason where the status has one. */
export function statusWords(code: LineStatusCode, reason: string | null = null): string {
  const status = LINE_STATUSES[code];
  return status.reasoned && reason !== null ? `${status.words}: ${reason}` : status.words;
}

/**
 * Why a line is not evaluated, each problem with its status and its reason: SQL over the alias of
 * the line's view (`$.` stands for it), its parts joined (CONCAT), or none.
 */
interface LineProblem {
  readonly status: Exclude<LineStatusCode, "evaluated">;
  readonly reason: readonly string[];
}

/** The problems of sql/evaluate/billing_impacts.sql's `billing_problem_code`, and the last line too long to be read. */
export const LINE_PROBLEMS = {
  "unit-not-read": { status: "not-evaluated", reason: ["'unknown unit '", "$.billing_unknown_unit"] },
  "no-method": { status: "not-compute", reason: [] },
  "machine-type-not-billed": {
    status: "not-evaluated",
    reason: ["'Google Cloud bills cores and memory, not machine types'"],
  },
  "method-unit-not-read": {
    status: "not-evaluated",
    reason: [
      "COALESCE($.billing_method_warning,\n            CONCAT($.billing_method, ' does not read the unit ', COALESCE(NULLIF(TRIM($.billing_usage_unit), ''), '(none)')))",
    ],
  },
  "quantity-not-a-number": {
    status: "bad-row",
    reason: ["'quantity is missing or not a number (or a quantity or cost is not finite within 1e30)'"],
  },
  "negative-quantity": { status: "not-evaluated", reason: ["'negative quantity (a refund or correction)'"] },
  "quantity-past-bound": {
    status: "bad-row",
    reason: [
      "'quantity times its unit '",
      "COALESCE(NULLIF(TRIM(CASE WHEN $.billing_method_key IS NULL\n            THEN $.billing_unit ELSE $.billing_usage_unit END), ''), '(none)')",
      "' past 1e30'",
    ],
  },
  "managed-size-unmatched": {
    status: "not-evaluated",
    reason: ["COALESCE($.billing_match_warning, 'managed-size: no server')"],
  },
  "no-rate": {
    status: "not-evaluated",
    reason: ["$.billing_method", "' has no rate: no instance line of its provider has a cost'"],
  },
  "unit-unknown": {
    status: "bad-row",
    reason: ["'unknown unit '", "COALESCE(NULLIF(TRIM($.billing_unit), ''), '(none)')"],
  },
  "instance-type-unknown": { status: "unknown-instance-type", reason: [] },
  "region-unknown": { status: "bad-row", reason: ["'unknown region '", "$.billing_region"] },
  /** A last line too long to be read, counted after the run (src/billing/reading/notes.ts). */
  "line-too-long": { status: "bad-row", reason: [] },
} as const satisfies Record<string, LineProblem>;

export type LineProblemCode = keyof typeof LINE_PROBLEMS;

/** The status of a kind of lines from its problem's code (null: none, so evaluated unless its instance type is unknown). */
export const problemStatus = (code: LineProblemCode): LineStatusCode => LINE_PROBLEMS[code].status;

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** SQL of a problem's words over `alias`: its status's words, then its reason. */
function problemWordsSql(problem: LineProblem, alias: string): string {
  const status = LINE_STATUSES[problem.status];
  if (!status.reasoned || problem.reason.length === 0) return quoted(status.words);
  const parts = problem.reason.map((part) => part.replaceAll("$.", `${alias}.`));
  return `CONCAT(${[quoted(`${status.words}: `), ...parts].join(", ")})`;
}

/** The CASE giving a line its problem's words from its code (`-- @line problem words of <alias>`). */
export function lineProblemWordsSql(indent: string, alias: string): string {
  const whens = Object.entries(LINE_PROBLEMS)
    .filter(([code]) => code !== "line-too-long")
    .map(([code, problem]) => `${indent}  WHEN ${quoted(code)} THEN ${problemWordsSql(problem, alias)}`);
  return [`${indent}CASE ${alias}.billing_problem_code`, ...whens, `${indent}END AS billing_problem,`].join(
    "\n",
  );
}

/** SQL: the status of a problem's code (`column`), NULL for none. */
export function problemStatusSql(column: string): string {
  const whens = Object.entries(LINE_PROBLEMS).map(
    ([code, problem]) => `WHEN ${quoted(code)} THEN ${quoted(problem.status)}`,
  );
  return `CASE ${column} ${whens.join(" ")} END`;
}

/** A status code read back from SQL (problemStatusSql), checked. */
export function lineStatusCode(code: string): LineStatusCode {
  if (!Object.hasOwn(LINE_STATUSES, code)) throw new Error(`billing: no line status ${code}`);
  return code as LineStatusCode;
}

/** A problem's code read back from SQL (billing_problem_code), checked. */
export function lineProblemCode(code: string): LineProblemCode {
  if (!Object.hasOwn(LINE_PROBLEMS, code)) throw new Error(`billing: no line problem ${code}`);
  return code as LineProblemCode;
}

/**
 * SQL: the reason of a problem's code over `alias` (what its words say after its status's: `unknown
 * region x` of `bad row: unknown region x`), NULL for a problem without one; the reader takes it
 * from here, never from the words.
 */
export function problemReasonSql(alias: string): string {
  const whens = Object.entries(LINE_PROBLEMS)
    .filter(([, problem]) => LINE_STATUSES[problem.status].reasoned && problem.reason.length > 0)
    .map(([code, problem]) => {
      const parts = problem.reason.map((part) => part.replaceAll("$.", `${alias}.`));
      return `WHEN ${quoted(code)} THEN CONCAT(${parts.join(", ")})`;
    });
  return `CASE ${alias}.billing_problem_code ${whens.join(" ")} END`;
}
