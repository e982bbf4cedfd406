import type { ErrorDialect, IssueKind, IssueParams, WordingValue } from "../../editions/errorDialects.js";

/*
 * A 422 `detail` item in the dialect of the request's edition (`editions/errorDialects.ts`):
 * every route's refusals, whether found by the body schemas, the query parsing or the GraphQL
 * validation, are written here from the same description.
 */

export type { IssueKind } from "../../editions/errorDialects.js";

/** One refused value: why, with what bound or allowed values. */
export interface FieldIssue {
  readonly kind: IssueKind;
  readonly params?: IssueParams;
}

/** One item of a 422 `detail` list, its keys in the dialect's order. */
export type ValidationDetail = Readonly<Record<string, unknown>>;

/** A Python-like literal of a value, as pydantic writes allowed values in a message. */
const quoted = (value: string) => `'${value}'`;

function wordingValues(params: IssueParams): Record<WordingValue, unknown> {
  const values = (params.values ?? []).map(quoted);
  const expected =
    values.length > 1 ? `${values.slice(0, -1).join(", ")} or ${values[values.length - 1]}` : values.join("");
  return { ...params, permitted: values.join(", "), expected } as Record<WordingValue, unknown>;
}

/** The 422 detail item for `issue` at `loc`, refusing `input`, in `dialect`. */
export function dialectDetail(
  dialect: ErrorDialect,
  loc: readonly (string | number)[],
  issue: FieldIssue,
  input: unknown,
): ValidationDetail {
  const wording = dialect.wordings[issue.kind];
  const values = wordingValues(issue.params ?? {});
  const worded = wording.msg.replace(/\{(\w+)\}/g, (_match, name: string) =>
    String(values[name as WordingValue] ?? ""),
  );
  const msg = issue.params?.setting ? `${worded} (${issue.params.setting})` : worded;
  const ctx = wording.ctx
    ? Object.fromEntries(Object.entries(wording.ctx).map(([key, value]) => [key, values[value]]))
    : undefined;
  // pydantic 2 always echoes an input (null where there was none, e.g. a missing query parameter).
  const item: Record<string, unknown> = { type: wording.type, loc: [...loc], msg, input: input ?? null, ctx };
  return Object.fromEntries(
    dialect.keys.filter((key) => key !== "ctx" || ctx !== undefined).map((key) => [key, item[key]]),
  );
}

/** The value at `path` in a request body as sent (undefined where there is none). */
export function sentValue(root: unknown, path: readonly PropertyKey[]): unknown {
  let node = root;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = (node as Record<PropertyKey, unknown>)[key];
  }
  return node;
}
