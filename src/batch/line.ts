import {
  type BodyLimits,
  bodyBoundRefusal,
  bodyJsonBounds,
  DEFAULT_LIMITS,
} from "../config/serviceConfig.js";
import { type JsonRefusal, scanWholeJson } from "../support/jsonScan.js";
import { BodyMemoryRefused, type BodyReading, readJsonBody } from "../support/steppedJson.js";

/*
 * One line of a batch: a request to a single `/v1` route, written as JSON
 * (`{"method": "POST", "path": "/v1/cloud/instance?verbose=false", "body": {...}}`), and its answer.
 * No HTTP here: the route itself is evaluated by the function the caller hands over (the REST
 * shim's dispatch, in-process), so a line answers exactly what its single route answers.
 */

import type { LocationCheck } from "./locations.js";

/** A request to a single route, as the REST shim takes it. */
interface LineCall {
  readonly method: string;
  /** Path and query string. */
  readonly url: string;
  /** Body text ("" when absent or given parsed). */
  readonly body: string;
  /**
   * The body parsed with its line (readLine: its nesting bounded with the line's), so that a long
   * one is not written and read again in one stretch of the main thread; read instead of `body`.
   */
  readonly parsedBody?: unknown;
  readonly signal?: AbortSignal;
  /** The id of the HTTP request the line belongs to (the batch's), for its logged errors. */
  readonly requestId?: string;
}

/** A route's answer: status and JSON body. */
interface LineAnswer {
  readonly status: number;
  readonly body: unknown;
}

/** Evaluates one single-route request (the REST shim's dispatch). */
export type RouteEvaluator = (call: LineCall) => Promise<LineAnswer>;

/** A line's answer, with how much it weighs in the batch's total. */
export interface LineOutcome extends LineAnswer {
  /** How many of the asset the line stands for (1 unless the line gives `quantity`). */
  readonly quantity: number;
  /** What the line's answer keeps silent about (an unknown usage location); absent when nothing. */
  readonly warnings?: readonly string[];
}

/**
 * What the whole batch sets for its lines. (Its edition is resolved once by its transport and
 * handed to its evaluator as served, never written into a line's path: src/rest/routes/batch.ts,
 * src/cli/chunk.ts.)
 */
export interface BatchDefaults {
  /** Criteria given to every line whose path names none (the command line's `--criteria`). */
  readonly criteria?: readonly string[];
}

/** The path every line must start with; the batch route itself is not a line's route. */
const V1_PREFIX = "/v1/";
const BATCH_PATH = /^\/v1\/batch\/*(\?|$)/;
/** A path with its query string is at most this long (a line's other text is bounded by its size). */
const MAX_LINE_PATH_LENGTH = 2048;
/** The largest `quantity` of a line. */
const MAX_QUANTITY = 1_000_000_000;

/** A line refused before its route is asked: 422 with the field, in the shim's error layout. */
function lineError(loc: readonly (string | number)[], msg: string, type = "value_error"): LineOutcome {
  return {
    status: 422,
    body: { detail: [{ loc: ["line", ...loc], msg, type }] },
    quantity: 1,
  };
}

/** A line read: the route's request and the line's quantity. */
export interface ParsedLine {
  readonly call: Omit<LineCall, "signal">;
  readonly quantity: number;
  /** The body's `usage.usage_location`, if any, and the edition the line's path names. */
  readonly location?: unknown;
  readonly edition?: string;
}

type Parsed = ParsedLine | LineOutcome;

/** A line nested deeper than its body may be, or holding too wide an object anywhere. */
function boundPassed(bound: JsonRefusal, limits: BodyLimits): LineOutcome {
  const { message, setting } = bodyBoundRefusal(bound, limits, { body: "the line's body", text: "the line" });
  return lineError(bound === "depth" ? ["body"] : [], `${message} (${setting})`);
}

const notJson = () => lineError([], "line is not valid JSON", "value_error.jsondecode");

/**
 * The line's request (with the batch's defaults), or why it is refused. Its grammar, nesting and
 * objects' members are checked by one scan before it is parsed (JSON.parse of 4,000,000 nested
 * brackets held the event loop for seconds), whatever the bounds it passes: a line that is not JSON
 * is refused as such. The line's own object is one level above the route's body. Its body is
 * handed on as text (the command line's workers, whose event loop no one else waits on).
 */
export function parseLine(
  text: string,
  defaults: BatchDefaults,
  limits: BodyLimits = DEFAULT_LIMITS,
): Parsed {
  let value: unknown;
  try {
    const { passed } = scanWholeJson(text, bodyJsonBounds(limits, "v1", 1));
    if (passed !== null) return boundPassed(passed, limits);
    value = JSON.parse(text);
  } catch {
    return notJson();
  }
  return lineOf(value, defaults, (body) => ({ body: JSON.stringify(body) }));
}

/** A line whose heap had no room (503, as its single route answers) or would take more than all of it (413). */
const memoryRefused = (refusal: BodyMemoryRefused): LineOutcome => ({
  status: refusal.status,
  body: { detail: refusal.message },
  quantity: 1,
});

/**
 * parseLine's reading in the service: a long line scanned and parsed in steps, each after
 * `reading.pause` (src/support/steppedJson.ts), its heap admitted (`reading.admit`) before it is
 * built, its body handed on parsed: an 8 MB line of 2.8 million `{}` held the event loop 663 ms at
 * once in JSON.parse, and as long again written and read back.
 */
export async function readLine(
  text: string,
  defaults: BatchDefaults,
  limits: BodyLimits = DEFAULT_LIMITS,
  reading: BodyReading = {},
): Promise<Parsed> {
  let read: Awaited<ReturnType<typeof readJsonBody>>;
  try {
    read = await readJsonBody(text, bodyJsonBounds(limits, "v1", 1), reading);
  } catch (error) {
    if (error instanceof BodyMemoryRefused) return memoryRefused(error);
    if (error instanceof SyntaxError) return notJson();
    throw error;
  }
  if ("passed" in read) return boundPassed(read.passed, limits);
  return lineOf(read.value, defaults, (body) => ({
    body: "",
    parsedBody: body,
  }));
}

/** The request a parsed line makes, its body given on as `bodyOf` makes it; or why it is refused. */
function lineOf(
  value: unknown,
  defaults: BatchDefaults,
  bodyOf: (body: unknown) => Pick<LineCall, "body" | "parsedBody">,
): Parsed {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return lineError([], "a line is a JSON object: {method, path, body}", "type_error.dict");
  }
  const { method = "POST", path, body, quantity = 1 } = value as Record<string, unknown>;
  if (typeof method !== "string" || method.length > 16) {
    return lineError(["method"], "method is GET or POST", "type_error.str");
  }
  if (typeof path !== "string") return lineError(["path"], "field required", "value_error.missing");
  if (path.length > MAX_LINE_PATH_LENGTH) {
    return lineError(["path"], `path is longer than ${MAX_LINE_PATH_LENGTH} characters`);
  }
  // A fragment is not part of the request: the route is what comes before it (a `#` could
  // otherwise hide the batch's edition behind it).
  const fragment = path.indexOf("#");
  const route = fragment === -1 ? path : path.slice(0, fragment);
  if (!route.startsWith(V1_PREFIX) || BATCH_PATH.test(route)) {
    return lineError(["path"], "path is a single /v1 route, e.g. /v1/cloud/instance?verbose=false");
  }
  if (
    typeof quantity !== "number" ||
    !Number.isInteger(quantity) ||
    quantity < 1 ||
    quantity > MAX_QUANTITY
  ) {
    return lineError(["quantity"], `quantity is a whole number from 1 to ${MAX_QUANTITY}`);
  }
  const upperMethod = method.toUpperCase();
  const url = withDefaults(route, defaults);
  const usage = (body as { usage?: { usage_location?: unknown } } | null)?.usage;
  return {
    call: {
      method: upperMethod,
      url,
      ...(upperMethod === "POST" && body !== undefined ? bodyOf(body) : { body: "" }),
    },
    quantity,
    ...(upperMethod === "POST" && typeof usage === "object" && usage !== null && "usage_location" in usage
      ? { location: usage.usage_location, edition: editionOf(url) }
      : {}),
  };
}

/** The path with the batch's criteria where it names none. */
function withDefaults(path: string, defaults: BatchDefaults): string {
  if (defaults.criteria === undefined) return path;
  const mark = path.indexOf("?");
  const query = new URLSearchParams(mark === -1 ? "" : path.slice(mark + 1));
  const added = new URLSearchParams();
  if (!query.has("criteria")) {
    for (const criterion of defaults.criteria) added.append("criteria", criterion);
  }
  if (added.size === 0) return path;
  return `${path}${mark === -1 ? "?" : path.endsWith("?") || path.endsWith("&") ? "" : "&"}${added}`;
}

/** The edition a line's path names (its last `edition`), if any. */
function editionOf(url: string): string | undefined {
  const mark = url.indexOf("?");
  if (mark === -1) return undefined;
  const editions = new URLSearchParams(url.slice(mark + 1)).getAll("edition");
  return editions.length > 0 ? editions[editions.length - 1] : undefined;
}

/** A line too large to be read: refused as the single routes refuse such a body. */
export function lineTooLarge(maxBytes: number): LineOutcome {
  return {
    status: 413,
    body: { detail: `the line exceeds ${maxBytes} bytes (MAX_BODY_BYTES)` },
    quantity: 1,
  };
}

/** What a line is evaluated with besides its text. */
export interface LineContext {
  /** Aborted when the batch's reader is gone. */
  readonly signal?: AbortSignal;
  readonly locations?: LocationCheck;
  /** The bounds of the line's body (the single routes'). */
  readonly limits?: BodyLimits;
  /** Waits for room for the line's heap (the process's budget of parsed bodies). */
  readonly admit?: BodyReading["admit"];
  /** Awaited between two steps of a long line (the turns the batch shares). */
  readonly pause?: BodyReading["pause"];
}

/**
 * Evaluates one line: its route's answer, or the reason it was refused. A line throws only the
 * reason of a wait its batch gave up (its reader gone).
 */
export async function evaluateLine(
  evaluate: RouteEvaluator,
  text: string,
  defaults: BatchDefaults,
  { signal, locations, limits, admit, pause }: LineContext = {},
): Promise<LineOutcome> {
  const parsed = await readLine(text, defaults, limits, { admit, pause });
  if (!("call" in parsed)) return parsed;
  return evaluateParsedLine(evaluate, parsed, signal, locations);
}

/** Evaluates a line already read (parseLine): its route's answer and the location's warnings. */
export async function evaluateParsedLine(
  evaluate: RouteEvaluator,
  parsed: ParsedLine,
  signal?: AbortSignal,
  locations?: LocationCheck,
): Promise<LineOutcome> {
  const answer = await evaluate({ ...parsed.call, signal });
  const outcome = {
    status: answer.status,
    body: answer.body,
    quantity: parsed.quantity,
  };
  if (answer.status !== 200 || locations === undefined || parsed.location === undefined) return outcome;
  const warnings = await locations(parsed.location, parsed.edition);
  return warnings.length > 0 ? { ...outcome, warnings } : outcome;
}

/**
 * The answer line written for an input line: its number, its route's status, the warnings the
 * body keeps silent about, and the body exactly as the single route sends it.
 */
export function answerLine(outcome: LineOutcome, line: number): string {
  const warnings = outcome.warnings ? `"warnings":${JSON.stringify(outcome.warnings)},` : "";
  return `{"line":${line},"status":${outcome.status},${warnings}"body":${JSON.stringify(outcome.body)}}\n`;
}
