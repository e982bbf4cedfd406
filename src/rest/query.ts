import { EVERY_EDITION_CRITERION } from "../editions/index.js";
import type { Allocation, Criterion } from "./generated/graphql.js";
import { type FieldIssue, isNumericText } from "./validation.js";

/** A query parameter that failed validation (FastAPI answers 422). */
export class QueryValidationError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
    /** pydantic 2's type and message for the refusal, when it has one (FastAPI's 2.4.1 wording). */
    readonly issue: FieldIssue | null = null,
    readonly input: unknown = null,
  ) {
    super(message);
  }
}

const BOOL_PARSING: FieldIssue = {
  type: "bool_parsing",
  msg: "Input should be a valid boolean, unable to interpret input",
};
const FLOAT_PARSING: FieldIssue = {
  type: "float_parsing",
  msg: "Input should be a valid number, unable to parse string as a number",
};

/** Criteria of any edition; the GraphQL layer rejects those the requested edition lacks. */
const CRITERION_SPELLINGS = new Set(EVERY_EDITION_CRITERION.flatMap((c) => [c.key, c.name]));

/** A query parameter as the OpenAPI description states it (JSON Schema of its value). */
export interface QueryParameterDoc {
  readonly name: string;
  readonly description: string;
  readonly required?: boolean;
  readonly schema: Readonly<Record<string, unknown>>;
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
  throw new QueryValidationError(name, "value could not be parsed to a boolean", BOOL_PARSING, raw);
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
    throw new QueryValidationError(name, "value is not a valid float", FLOAT_PARSING, raw);
  }
  throw new QueryValidationError(name, "value must be a finite number", null, raw);
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
    if (!CRITERION_SPELLINGS.has(criterion)) {
      throw new QueryValidationError("criteria", `unknown criterion ${criterion}`);
    }
  }
  const allocation = (params.get("allocation") ?? "LINEAR").toUpperCase();
  if (allocation !== "LINEAR" && allocation !== "TOTAL") {
    throw new QueryValidationError("allocation", "allocation must be LINEAR or TOTAL");
  }
  const hours = duration === null ? null : parseNumber("duration", duration);
  if (hours !== null && !(hours >= 0))
    throw new QueryValidationError("duration", "duration must not be negative");
  return {
    verbose: verbose === null ? true : parseBoolean("verbose", verbose),
    criteria: criteria.length > 0 ? (criteria as Criterion[]) : null,
    duration: hours,
    allocation,
  };
}
