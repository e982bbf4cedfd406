import { CRITERION_SPELLINGS, criterionEnumName, parseCriterion } from "../../service/criteria.js";
import type { Allocation, Criterion } from "../generated/graphql.js";
import { type FieldIssue, isNumericText } from "./fieldTypes.js";

/**
 * A query parameter that failed validation (FastAPI answers 422), worded in the request's
 * dialect when the answer is built.
 */
export class QueryValidationError extends Error {
  constructor(
    readonly parameter: string,
    readonly issue: FieldIssue,
    /** The refused text (null when the parameter is absent). */
    readonly input: string | null = null,
  ) {
    super(`query parameter ${parameter}: ${issue.kind}`);
  }
}

/** The allocation modes (docs/methodology.md §16). */
const ALLOCATIONS = ["LINEAR", "TOTAL"] as const;

/** A query parameter as the OpenAPI description states it (JSON Schema of its value). */
export interface QueryParameterDoc {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
  readonly schema: Readonly<Record<string, unknown>>;
  /** A value answered 200 (Swagger UI's "Try it out" fills it in). */
  readonly example?: unknown;
}

/** The query parameters of every impact route, as `impactQuery` reads them (§16). */
export const IMPACT_QUERY_PARAMETERS: readonly QueryParameterDoc[] = [
  {
    name: "verbose",
    description: "Add the verbose report (attributes with their status, per-component impacts).",
    schema: { type: "boolean", default: true },
  },
  {
    name: "criteria",
    description: "Impact criteria to evaluate (repeat the parameter for several); default gwp, adp, pe.",
    schema: { type: "array", items: { type: "string", enum: [...CRITERION_SPELLINGS] } },
  },
  {
    name: "duration",
    description: "Evaluated duration in hours (default: the use time given in the usage, else the lifetime).",
    schema: { type: "number", minimum: 0 },
  },
  {
    name: "archetype",
    description: "Archetype id whose values complete the input (default: the asset's default archetype).",
    schema: { type: "string" },
  },
  {
    name: "allocation",
    description:
      "LINEAR: embedded impacts × duration / lifetime (at most 1); TOTAL: the whole embedded impact.",
    schema: { type: "string", enum: ["LINEAR", "TOTAL"], default: "LINEAR" },
  },
];

/** FastAPI's boolean spellings. */
function parseBoolean(name: string, raw: string): boolean {
  const lowered = raw.toLowerCase();
  if (["1", "true", "on", "yes"].includes(lowered)) return true;
  if (["0", "false", "off", "no"].includes(lowered)) return false;
  throw new QueryValidationError(name, { kind: "booleanParsing" }, raw);
}

/** Infinity as Python's `float()` spells it (a number, though not a finite one). */
const INFINITE_TEXT = /^\s*[+-]?(?:inf|infinity)\s*$/i;

/**
 * A float query value read as pydantic reads it: decimal text only. `Number()` alone would also
 * read `0x10` (16), `0b1`, `0o7` and a blank text, which pydantic refuses.
 */
function parseNumber(name: string, raw: string): number {
  if (isNumericText(raw)) {
    const value = Number(raw);
    if (Number.isFinite(value)) return value;
  } else if (raw.length > 20 || !INFINITE_TEXT.test(raw)) {
    throw new QueryValidationError(name, { kind: "floatParsing" }, raw);
  }
  throw new QueryValidationError(name, { kind: "notFinite" }, raw);
}

/**
 * `verbose` on a route that has no verbose report (the profile's): the reference declares it, so
 * it is validated as a boolean, then not read.
 */
export const UNREAD_VERBOSE: QueryParameterDoc = {
  name: "verbose",
  description:
    "Accepted and checked as a boolean, not read: the profile has no verbose report (the reference's parameter).",
  schema: { type: "boolean", default: true },
};

/** Checks `verbose` where it is accepted and not read (UNREAD_VERBOSE). */
export function checkUnreadVerbose(params: URLSearchParams): void {
  const verbose = params.get("verbose");
  if (verbose !== null) parseBoolean("verbose", verbose);
}

export interface ImpactQuery {
  readonly verbose: boolean;
  readonly criteria: Criterion[] | null;
  readonly duration: number | null;
  readonly allocation: Allocation;
}

export function impactQuery(params: URLSearchParams): ImpactQuery {
  const verbose = params.get("verbose");
  const duration = params.get("duration");
  const criteria = params.getAll("criteria");
  for (const criterion of criteria) {
    // Criteria of any edition pass here; the use case refuses those the requested edition lacks.
    if (parseCriterion(criterion) === null) {
      throw new QueryValidationError(
        "criteria",
        { kind: "invalid", params: { message: `unknown criterion ${criterion}` } },
        criterion,
      );
    }
  }
  const given = params.get("allocation");
  const allocation = (given ?? "LINEAR").toUpperCase();
  if (allocation !== "LINEAR" && allocation !== "TOTAL") {
    throw new QueryValidationError("allocation", { kind: "choice", params: { values: ALLOCATIONS } }, given);
  }
  const hours = duration === null ? null : parseNumber("duration", duration);
  if (hours !== null && !(hours >= 0))
    throw new QueryValidationError(
      "duration",
      { kind: "greaterThanOrEqual", params: { limit: 0 } },
      duration,
    );
  return {
    verbose: verbose === null ? true : parseBoolean("verbose", verbose),
    // The GraphQL value of each v1 spelling (`CTUh_c` is `CTUh_c_listed` there).
    criteria: criteria.length > 0 ? (criteria.map(criterionEnumName) as Criterion[]) : null,
    duration: hours,
    allocation,
  };
}
