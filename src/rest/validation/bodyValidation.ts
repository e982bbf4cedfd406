import type { z } from "zod";
import { sentValue } from "./errorDialect.js";
import {
  type FieldIssue,
  issueParams,
  type RequestValidation,
  type ValidationDetail,
  validationDetail,
} from "./fieldTypes.js";

/*
 * A v1 body validated by its schema (`v1Schema.ts`), its refusals answered in FastAPI's 422 shape
 * and the layout of the request's edition's rules.
 */

/** A v1 body that failed validation, in FastAPI's 422 shape (layout of the request's rules). */
export class BodyValidationError extends Error {
  constructor(readonly detail: ValidationDetail[]) {
    super("invalid request body");
  }
}

/** Most refused values listed in one 422 (a body's lists are bounded by MAX_LIST_LENGTH first). */
const MAX_REPORTED_ISSUES = 50;

/** Validates a v1 body (absent = `{}`) under `rules`, or throws the 422 of FastAPI's shape. */
export function parseV1Body<S extends z.ZodType>(
  schema: S,
  body: unknown,
  rules: RequestValidation,
  at: readonly (string | number)[] = [],
): z.infer<S> {
  const root = body ?? {};
  // `reportInput`: a required key absent is told apart from one given as null.
  const result = schema.safeParse(root, { reportInput: true });
  if (result.success) return result.data;
  throw new BodyValidationError(
    // The first ones only: the answer stays small whatever the body holds.
    firstStage(result.error.issues.flatMap((issue) => refusals(issue, [])))
      .slice(0, MAX_REPORTED_ISSUES)
      .map(({ path, issue, input }) => {
        const loc = ["body", ...at, ...path];
        // A required field absent: pydantic 2 echoes the object that lacks it.
        const echoed = issue.kind === "missing" ? sentValue(root, path.slice(0, -1)) : input;
        return validationDetail(rules, loc, issue, echoed);
      }),
  );
}

/**
 * The framework's refusals (types) come before the service's own completeness check (a key
 * absent, where the reference has no check and fails later): a body with both is answered the
 * former only, as the reference answers it.
 */
function firstStage(all: Refusal[]): Refusal[] {
  const framework = all.filter((refusal) => refusal.issue.kind !== "missing");
  return framework.length > 0 ? framework : all;
}

interface Refusal {
  readonly path: (string | number)[];
  readonly issue: FieldIssue;
  readonly input: unknown;
}

/**
 * The refusals of a zod issue: a field type's own (carried in its params), or one zod raises itself
 * (an object or a list expected); a value fitting no member of a union is refused by each member,
 * as pydantic lists them.
 */
function refusals(issue: z.core.$ZodIssue, prefix: readonly (string | number)[]): Refusal[] {
  const path = [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
  const params = issueParams(issue);
  if (params) return [{ path, issue: params.pydantic, input: params.input }];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const members = issue.errors.map((member) => member.flatMap((inner) => refusals(inner, path)));
    // A member refused only for absent keys is the one the framework accepts (it has no such
    // check): the service's completeness check answers for it alone.
    const completed = members.find((member) => member.every((refusal) => refusal.issue.kind === "missing"));
    return completed ?? members.flat();
  }
  return [{ path, issue: structuralIssue(issue), input: issue.input }];
}

/** Issues zod raises itself: the kind pydantic gives them. */
function structuralIssue(issue: z.core.$ZodIssue): FieldIssue {
  if (issue.code === "invalid_type" && issue.input === undefined) return { kind: "missing" };
  if (issue.code === "invalid_type" && issue.expected === "array") return { kind: "listType" };
  if (issue.code === "invalid_type" && issue.expected === "object") return { kind: "objectType" };
  return { kind: "invalid", params: { message: issue.message } };
}
