import {
  type DocumentNode,
  GraphQLError,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLSchema,
  getOperationAST,
  isInputObjectType,
  isInputType,
  isListType,
  isNonNullType,
  typeFromAST,
} from "graphql";
import type { GraphQLParams, Plugin } from "graphql-yoga";
import { bodyBoundRefusal, bodyJsonBounds, type Limits } from "../../config/serviceConfig.js";
import { OWN_TURNS, SLICE_MS, type TurnShare } from "../../service/chunks.js";
import type { RequestContext } from "../../service/context.js";
import { builtOncePer } from "../../support/builtOnce.js";
import { documentNestingExceeds, valueNestingExceeds } from "../../support/nesting.js";
import {
  BodyMemoryRefused,
  type BodyReading,
  type HeapAdmission,
  readJsonBody,
} from "../../support/steppedJson.js";
import { FLEET_ITEM_INPUTS } from "../batch.js";
import { limitExceeded, overloaded } from "../errors.js";

/*
 * The bounds of a /graphql request checked before the work they bound (yoga plugin):
 * - the JSON body's nesting, by one scan of its text before it is parsed; a malformed body is
 *   answered with a fixed message (V8's would quote the body);
 * - the document's nesting (`{`, `(`, `[`), by one scan before graphql-js parses it: its parser
 *   recurses once per level and overflowed the stack (a 500) on a document nested 2,000 deep;
 * - the variables' lists: fleets counted against MAX_FLEET_ITEMS and every other list measured
 *   against MAX_LIST_LENGTH in the raw variables, before graphql-js coerces them item by item
 *   (two million `{}` items took seconds of the event loop and hundreds of megabytes).
 */

const NESTING = "MAX_NESTING_DEPTH";

function nestingRefusal(what: string, limits: Limits): GraphQLError {
  return limitExceeded(
    `${what} nests more than ${limits.maxNestingDepth} levels deep (MAX_NESTING_DEPTH)`,
    NESTING,
    [],
    400,
  );
}

function badRequest(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: "BAD_REQUEST", http: { status: 400 } } });
}

/**
 * An array of operations is refused: MAX_FLEET_ITEMS, MAX_ANSWER_BYTES and the admission budget
 * bound one request, and a batch would be one request holding many operations' work.
 */
const BATCHING_REFUSED =
  "Batching (an array of operations in one request) is not supported: send one operation per request " +
  "(they share a keep-alive connection), or gather the work in one operation with aliases or a fleet field.";

/** Whether a request is a POST of one of these media types (yoga's test of its body parsers). */
function isPostOf(request: Request, types: readonly string[]): boolean {
  if (request.method !== "POST") return false;
  const type = request.headers.get("content-type")?.split(",")[0] ?? "";
  return types.some((expected) => type === expected || type.startsWith(`${expected};`));
}

const JSON_TYPES = ["application/json", "application/graphql+json"];
const FORM_TYPES = ["application/x-www-form-urlencoded"];
const MULTIPART_TYPES = ["multipart/form-data"];

/** Parameters whose JSON was read by this plugin: their nesting was measured on their text already. */
const scannedBodies = new WeakSet<object>();

/** A body the process has no room for now (503, Retry-After), or that would take more than all of it (413). */
function memoryRefusal({ message, status, limit, retryAfterSeconds }: BodyMemoryRefused): GraphQLError {
  return status === 503
    ? overloaded(message, limit, retryAfterSeconds ?? 1)
    : limitExceeded(message, limit, [], 413);
}

/**
 * A JSON text of the request read as a body is: its grammar and nesting checked first (at any
 * size), its heap admitted by the transport (`reading.admit`) before it is built; refused in the
 * words of `what` (`malformed`: the message of a text that is not JSON).
 */
async function readRequestJson(
  text: string,
  { what, malformed }: { what: string; malformed: string },
  limits: Limits,
  reading: BodyReading,
): Promise<unknown> {
  let read: Awaited<ReturnType<typeof readJsonBody>>;
  try {
    read = await readJsonBody(text, bodyJsonBounds(limits, "fleets"), reading);
  } catch (error) {
    if (error instanceof SyntaxError) throw badRequest(malformed);
    if (error instanceof BodyMemoryRefused) throw memoryRefusal(error);
    throw error;
  }
  if ("passed" in read) {
    if (read.passed === "depth") throw nestingRefusal(what, limits);
    const { message, setting } = bodyBoundRefusal(read.passed, limits);
    throw limitExceeded(`${message} (${setting})`, setting, [], 400);
  }
  return read.value;
}

/** The JSON body of a POST (malformed at any size: a fixed message, V8's would quote the body). */
async function parseJsonBody(request: Request, limits: Limits, reading: BodyReading): Promise<GraphQLParams> {
  const text = await request.text();
  const what = { what: "the JSON body", malformed: "POST body sent invalid JSON." };
  const body = await readRequestJson(text, what, limits, reading);
  if (Array.isArray(body)) throw badRequest(BATCHING_REFUSED);
  if (body === null || typeof body !== "object") {
    throw badRequest(
      `POST body is expected to be object but received ${body === null ? "null" : typeof body}`,
    );
  }
  scannedBodies.add(body);
  return body as GraphQLParams;
}

/**
 * The parameters of a GET's query string or of a form's body (yoga's parsers, whose JSON.parse of
 * `variables` or `extensions` that were not JSON answered 500): those two read as a JSON body is.
 */
async function searchParams(
  search: URLSearchParams,
  where: string,
  limits: Limits,
  reading: BodyReading,
): Promise<GraphQLParams> {
  const json = (name: "variables" | "extensions") => {
    const text = search.get(name);
    const what = {
      what: `the ${name} of the ${where}`,
      malformed: `the ${name} of the ${where} are not valid JSON`,
    };
    return text ? readRequestJson(text, what, limits, reading) : undefined;
  };
  const params = {
    operationName: search.get("operationName") || undefined,
    query: search.get("query") || undefined,
    variables: (await json("variables")) as GraphQLParams["variables"],
    extensions: (await json("extensions")) as GraphQLParams["extensions"],
  };
  scannedBodies.add(params);
  return params;
}

/** A multipart request is refused: it is GraphQL's way of sending files, and no field takes one. */
const multipartRefused = () =>
  new GraphQLError(
    "multipart/form-data is not read here (no field takes a file): send the operation as application/json",
    { extensions: { code: "BAD_REQUEST", http: { status: 415 } } },
  );

/** Why the request's parameters are refused before parsing, if they are. */
function paramsRefusal(params: GraphQLParams, limits: Limits): GraphQLError | null {
  if (typeof params.query === "string" && documentNestingExceeds(params.query, limits.maxNestingDepth)) {
    return nestingRefusal("the GraphQL document", limits);
  }
  // Parameters this plugin did not read (rewritten by a plugin before it) were not scanned.
  if (scannedBodies.has(params)) return null;
  if (valueNestingExceeds(params.variables, limits.maxNestingDepth))
    return nestingRefusal("the variables", limits);
  if (valueNestingExceeds(params.extensions, limits.maxNestingDepth))
    return nestingRefusal("the extensions", limits);
  return null;
}

interface LongList {
  readonly path: readonly (string | number)[];
  readonly length: number;
  readonly max: number;
}

/** Whether values of `type` can hold a list (a list type, or an input object with such a field). */
function holdsList(type: GraphQLInputType, visiting: Set<GraphQLInputType>): boolean {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return true;
  if (!isInputObjectType(inner) || visiting.has(inner)) return false;
  visiting.add(inner);
  return Object.values(inner.getFields()).some((field) => holdsList(field.type, visiting));
}

/** `holdsList`, computed once per type of the schema. */
const canHoldList = builtOncePer((type: GraphQLInputType) => holdsList(type, new Set()));

/** The fields of an input object type that can hold a list (the only ones the walk visits). */
const listHoldingFields = builtOncePer((type: GraphQLInputObjectType) =>
  Object.values(type.getFields())
    .filter((field) => canHoldList(field.type))
    .map((field) => [field.name, field.type] as const),
);

/**
 * The first list of a variable's raw value longer than its bound (`bound` for a list at this
 * level, MAX_LIST_LENGTH below), following the variable's type: its length is read before its
 * items, and only the fields that can hold a list are visited. `path` is the position being
 * visited (pushed and popped; copied when a list is found).
 */
function longList(
  type: GraphQLInputType,
  value: unknown,
  bound: number,
  limits: Limits,
  path: (string | number)[],
): LongList | null {
  if (isNonNullType(type)) return longList(type.ofType, value, bound, limits, path);
  if (value === null || typeof value !== "object") return null;
  if (isListType(type)) {
    const item = type.ofType as GraphQLInputType;
    // A single value where a list is expected is read as a list of one.
    if (!Array.isArray(value)) return longList(item, value, limits.maxListLength, limits, path);
    if (value.length > bound) return { path: [...path], length: value.length, max: bound };
    if (!canHoldList(item)) return null;
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      const found = longList(item, value[i], limits.maxListLength, limits, path);
      path.pop();
      if (found) return found;
    }
    return null;
  }
  if (isInputObjectType(type) && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    for (const [name, fieldType] of listHoldingFields(type)) {
      const child = Object.hasOwn(record, name) ? record[name] : undefined;
      if (child === undefined || child === null) continue;
      path.push(name);
      const found = longList(fieldType, child, limits.maxListLength, limits, path);
      path.pop();
      if (found) return found;
    }
  }
  return null;
}

/** A fleet this long has its items' lists measured in slices of the turns (a few ms below it). */
const SLICED_FLEET_ITEMS = 256;

/**
 * `longList` of a fleet's items, in slices of the service's turns (src/service/chunks.ts): item by
 * item, in order, as `longList` visits them — a 10,000-server fleet took 17 ms in one turn at load.
 */
async function longListInSlices(
  item: GraphQLInputType,
  list: readonly unknown[],
  limits: Limits,
  name: string,
  turns: TurnShare,
): Promise<LongList | null> {
  for (let at = 0; at < list.length; ) {
    await turns.nextSlice();
    const started = performance.now();
    for (; at < list.length && performance.now() - started < SLICE_MS; at++) {
      const found = longList(item, list[at], limits.maxListLength, limits, [name, at]);
      if (found) return found;
    }
  }
  return null;
}

/** The items of a fleet worth measuring in slices (`longListInSlices`), or null. */
function slicedFleetItems(type: GraphQLInputType, value: unknown, limits: Limits): GraphQLInputType | null {
  if (!Array.isArray(value) || value.length < SLICED_FLEET_ITEMS || value.length > limits.maxFleetItems)
    return null;
  const list = isNonNullType(type) ? type.ofType : type;
  if (!isListType(list) || !canHoldList(list.ofType as GraphQLInputType)) return null;
  return list.ofType as GraphQLInputType;
}

/** A list of fleet items (`[ServerItemInput!]!` and the like). */
export function isFleet(type: GraphQLInputType): boolean {
  const list = isNonNullType(type) ? type.ofType : type;
  if (!isListType(list)) return false;
  const item = isNonNullType(list.ofType) ? list.ofType.ofType : list.ofType;
  return "name" in item && FLEET_ITEM_INPUTS.has(item.name);
}

/** Why the operation's raw variables are refused before graphql-js coerces them, if they are. */
async function variablesRefusal(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | null | undefined,
  limits: Limits,
  turns: TurnShare,
): Promise<GraphQLError | null> {
  if (!variables) return null;
  const operation = getOperationAST(document, operationName);
  if (!operation) return null;
  let fleetItems = 0;
  for (const definition of operation.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type);
    const value = variables[name];
    if (!type || !isInputType(type) || value === undefined || value === null) continue;
    const fleet = isFleet(type);
    if (fleet && Array.isArray(value)) {
      fleetItems += value.length;
      if (fleetItems > limits.maxFleetItems) {
        return limitExceeded(
          `this request's variables hold at least ${fleetItems} fleet items; at most ${limits.maxFleetItems} are evaluated per request (MAX_FLEET_ITEMS)`,
          "MAX_FLEET_ITEMS",
          [name],
        );
      }
    }
    const bound = fleet ? limits.maxFleetItems : limits.maxListLength;
    const items = fleet ? slicedFleetItems(type, value, limits) : null;
    const found = items
      ? await longListInSlices(items, value as unknown[], limits, name, turns)
      : longList(type, value, bound, limits, [name]);
    if (found) {
      const at = [`$${name}`, ...found.path.slice(1)].join(".");
      return limitExceeded(
        `${at} has ${found.length} entries; at most ${found.max} are accepted (MAX_LIST_LENGTH)`,
        "MAX_LIST_LENGTH",
        found.path,
      );
    }
  }
  return null;
}

/**
 * The yoga plugin checking the bounds above, with the service's limits; a body read in steps
 * shares the service's `turns` with the other requests' background work.
 */
export function inputLimitsPlugin(limits: Limits, turns: TurnShare = OWN_TURNS): Plugin {
  const pause = () => turns.nextSlice();
  return {
    onRequestParse({ request, serverContext, setRequestParser }) {
      // The transport's admission of the body's heap (src/http/limits/bodyHeap.ts), when it has one
      const admit = (serverContext as { admitBodyHeap?: HeapAdmission }).admitBodyHeap;
      const reading = { admit, pause };
      if (isPostOf(request, JSON_TYPES)) setRequestParser((parsed) => parseJsonBody(parsed, limits, reading));
      else if (request.method === "GET")
        setRequestParser((parsed) =>
          searchParams(new URL(parsed.url).searchParams, "query string", limits, reading),
        );
      else if (isPostOf(request, FORM_TYPES))
        setRequestParser(async (parsed) =>
          searchParams(new URLSearchParams(await parsed.text()), "form", limits, reading),
        );
      else if (isPostOf(request, MULTIPART_TYPES))
        setRequestParser(() => {
          throw multipartRefused();
        });
    },
    onParams({ params, setResult }) {
      const refusal = paramsRefusal(params, limits);
      if (refusal) setResult({ errors: [refusal] });
    },
    async onExecute({ args, setResultAndStopExecution }) {
      const variables = args.variableValues as Record<string, unknown> | null | undefined;
      const turns = (args.contextValue as Partial<RequestContext>).service?.turns ?? OWN_TURNS;
      const refusal = await variablesRefusal(
        args.schema,
        args.document,
        args.operationName,
        variables,
        limits,
        turns,
      );
      if (refusal) setResultAndStopExecution({ errors: [refusal] });
    },
  };
}
