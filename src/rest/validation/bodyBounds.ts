import { bodyBoundRefusal, bodyJsonBounds, type Limits } from "../../config/serviceConfig.js";
import type { JsonRefusal } from "../../support/jsonScan.js";
import { BodyMemoryRefused, type BodyReading, readJsonBody } from "../../support/steppedJson.js";
import { RestError } from "../graphqlErrors.js";
import type { FieldIssue } from "./fieldTypes.js";

/*
 * The bounds of a v1 JSON body checked before the work they bound: its nesting depth before it is
 * parsed (one scan of the text), every list's length before any of its items is validated (one
 * walk of the parsed value), so a body of two million list entries costs a length comparison,
 * not two million validations and a 422 of tens of megabytes.
 */

/** A v1 body past one of the limits: where and which (worded in the request's dialect by errorAnswer.ts). */
export class BodyBoundsError extends Error {
  constructor(
    readonly loc: readonly ["body", ...(string | number)[]],
    readonly issue: FieldIssue,
  ) {
    super("the request body is past a limit");
  }
}

/** A malformed JSON body (FastAPI answers 422). */
export class MalformedBodyError extends Error {}

/**
 * The JSON body, its grammar and nesting checked before it is parsed, its heap admitted
 * (`reading.admit`, the process's budget of parsed bodies) before it is built, its lists bounded
 * before their items (a list past MAX_LIST_LENGTH is never built); a large body scanned and parsed
 * in steps, each in the turns `reading.pause` shares (src/support/steppedJson.ts, readJsonBody).
 */
export async function parseBody(text: string, limits: Limits, reading: BodyReading = {}): Promise<unknown> {
  // A POST without a body is treated as `{}` (the reference fails on it).
  if (text.trim() === "") return {};
  let read: Awaited<ReturnType<typeof readJsonBody>>;
  try {
    read = await readJsonBody(text, bodyJsonBounds(limits, "v1"), reading);
  } catch (error) {
    if (error instanceof SyntaxError) throw new MalformedBodyError("body is not valid JSON");
    if (error instanceof BodyMemoryRefused) throw memoryRefusal(error);
    throw error;
  }
  if ("passed" in read) throw boundPassed(read.passed, limits);
  checkBodyLists(read.value, limits);
  return read.value;
}

/** A body the process has no room for (503, Retry-After) or that would take more than all of it (413). */
function memoryRefusal(refusal: BodyMemoryRefused): RestError {
  const retry = refusal.retryAfterSeconds;
  return new RestError(
    refusal.status,
    { detail: refusal.message },
    retry === undefined ? undefined : { "retry-after": String(retry) },
  );
}

/** The BodyBoundsError of a JSON body passing one of the bounds its text is scanned for. */
function boundPassed(bound: JsonRefusal, limits: Limits): BodyBoundsError {
  // Rules of the service's own (pydantic has none of them): worded as its value errors.
  const issue: FieldIssue = { kind: "invalid", params: bodyBoundRefusal(bound, limits) };
  return new BodyBoundsError(["body"], issue);
}

/**
 * Throws a BodyBoundsError at the first list (depth first) longer than MAX_LIST_LENGTH. The list
 * itself is not echoed back (its length is named instead). The body's depth is already bounded.
 */
export function checkBodyLists(body: unknown, limits: Limits): void {
  const at = longList(body, limits.maxListLength);
  if (at === null) return;
  const issue: FieldIssue = {
    kind: "listTooLong",
    params: { limit: limits.maxListLength, actual: at.length, setting: "MAX_LIST_LENGTH" },
  };
  throw new BodyBoundsError(["body", ...at.loc], issue);
}

interface LongList {
  /** Where the list is, filled in on the way back up (no location made for a body within bounds). */
  readonly loc: (string | number)[];
  readonly length: number;
}

function longList(value: unknown, max: number): LongList | null {
  if (value === null || typeof value !== "object") return null;
  if (Array.isArray(value)) {
    if (value.length > max) return { loc: [], length: value.length };
    for (let i = 0; i < value.length; i++) {
      const found = longList(value[i], max);
      if (found) {
        found.loc.unshift(i);
        return found;
      }
    }
    return null;
  }
  for (const key in value) {
    const found = longList((value as Record<string, unknown>)[key], max);
    if (found) {
      found.loc.unshift(key);
      return found;
    }
  }
  return null;
}
