import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { DocumentNode, ExecutionResult, GraphQLSchema } from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import { FEATURE_LABELS } from "../editions/features.js";
import type { EditionDescription } from "../editions/index.js";
import { V1_NAMES } from "../inputs/catalogue.js";
import { snakeCase } from "../inputs/field.js";
import { graphqlErrorOf } from "../schema/errors.js";
import { createRequestContext, type Service } from "../service/context.js";
import type { AnswerName } from "./answers.js";
import type { BodyDoc, BodyParser } from "./body.js";
import type { CriterionImpactFieldsFragment, VerboseFieldsFragment } from "./generated/graphql.js";
import {
  IMPACT_QUERY_PARAMETERS,
  type ImpactQuery,
  impactQuery,
  type QueryParameterDoc,
  QueryValidationError,
} from "./query.js";
import { impactResponse } from "./shape.js";

export type { QueryParameterDoc } from "./query.js";

import type { FieldIssue, IssueKind } from "./errorDialect.js";
import type { RequestValidation } from "./validation.js";

/*
 * Building blocks of the REST shim: every route runs one GraphQL operation of
 * `src/rest/operations` and reshapes its result into the v1 JSON.
 */

/** A REST answer: status and JSON body. */
export interface RestResponse {
  readonly status: number;
  readonly body: unknown;
  /** The body already serialized (UTF-8 JSON, byte for byte `JSON.stringify(body)`), when it is. */
  readonly serialized?: Uint8Array;
}

export interface RestRequest {
  readonly method: string;
  readonly params: URLSearchParams;
  /** Parsed JSON body; `{}` when the request had none. */
  readonly body: unknown;
  /** How this request's body and query values are validated (its edition's rules). */
  readonly validation: RequestValidation;
}

/** What a handler reads besides its path, for the OpenAPI description (`src/rest/openapi.ts`). */
export interface HandlerDoc {
  readonly summary: string;
  readonly query: readonly QueryParameterDoc[];
  /** The JSON body a POST takes (named schema of `body.ts`). */
  readonly body?: BodyDoc;
  /** The 200 answer's schema (`answers.ts`), e.g. `ImpactAnswer` (`{impacts, verbose?}`). */
  readonly answer: AnswerName;
}

export type Handler = ((request: RestRequest, run: Runner) => Promise<RestResponse>) & {
  readonly doc?: HandlerDoc;
};

/** Attaches its description to a handler. */
export function documented(
  handler: (request: RestRequest, run: Runner) => Promise<RestResponse>,
  doc: Partial<HandlerDoc> & Pick<HandlerDoc, "summary" | "answer">,
): Handler {
  return Object.assign(handler, { doc: { query: [], ...doc } });
}

/** The summary of an impact route that states none. */
const IMPACT_SUMMARY = "Impacts (GET: from an archetype; POST: a body completing it)";

/**
 * Executes one GraphQL operation of the shim against the schema, in a fresh request context, with
 * the request's edition (every operation declares `$edition`; the runner supplies it).
 */
export type Runner = <R, V extends Record<string, unknown>>(
  document: TypedDocumentNode<R, V>,
  variables: V,
) => Promise<R>;

/** A GraphQL error reported to a REST client: status from its code, FastAPI-like body. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`REST ${status}`);
  }
}

/**
 * The shim's operations are fixed documents, so each is compiled once with graphql-jit (same
 * schema, resolvers and errors as graphql-js; several times faster on the large verbose answers).
 */
/**
 * Called with an unexpected error (a bug), what was being done and the id of the request it
 * happened in, before the 500 is answered.
 */
export type ErrorReporter = (message: string, error: unknown, requestId?: string) => void;

export function createRunner(
  schema: GraphQLSchema,
  service: Service,
  reportError: ErrorReporter,
): (
  edition: EditionDescription,
  cancellation?: { readonly signal?: AbortSignal },
  requestId?: string,
) => Runner {
  const compiled = new Map<DocumentNode, CompiledQuery>();
  const compile = (document: DocumentNode): CompiledQuery => {
    let query = compiled.get(document);
    if (!query) {
      const result = compileQuery(schema, document);
      if (!isCompiledQuery(result))
        throw new Error(`shim operation does not compile: ${result.errors?.[0]?.message}`);
      query = result;
      compiled.set(document, query);
    }
    return query;
  };
  return (edition, cancellation, requestId) => async (document, variables) => {
    // The cancellation's signal is read only when the execution asks for it (fleets, turns).
    const context = createRequestContext(service, { cancellation, spellError: graphqlErrorOf });
    const result = (await compile(document).query(undefined, context, {
      ...variables,
      edition: edition.id,
    })) as ExecutionResult;
    if (result.errors && result.errors.length > 0) throw restErrorOf(result.errors, reportError, requestId);
    return result.data as never;
  };
}

/** GraphQL arguments the shim fills from query parameters. */
const QUERY_ARGUMENTS: ReadonlySet<string> = new Set(["criteria", "duration", "allocation"]);

/**
 * A request value the GraphQL validation refused, located in the v1 request; the 422 is worded
 * when the answer is built, with the value as sent (`input`) read from the request.
 */
export class RefusedValue extends Error {
  constructor(
    readonly loc: readonly ["body" | "query", ...(string | number)[]],
    readonly issue: FieldIssue,
  ) {
    super(`refused ${loc.join(".")}: ${issue.kind}`);
  }
}

/**
 * The bound a GraphQL refusal names (`extensions.constraint`, JSON Schema's keywords) as the issue
 * pydantic raises for it; other refusals are the service's own rules, worded by their message.
 */
const CONSTRAINT_ISSUES: Readonly<Record<string, IssueKind>> = {
  minimum: "greaterThanOrEqual",
  exclusiveMinimum: "greaterThan",
  maximum: "lessThanOrEqual",
  maxLength: "textTooLong",
  maxItems: "listTooLong",
};

function refusalOf(error: GraphQLFormattedErrorLike): FieldIssue {
  const constraint = error.extensions?.constraint as Record<string, number> | undefined;
  const setting = error.extensions?.limit as string | undefined;
  for (const [keyword, limit] of Object.entries(constraint ?? {})) {
    const kind = CONSTRAINT_ISSUES[keyword];
    if (kind) return { kind, params: { limit, setting } };
  }
  return { kind: "invalid", params: { message: error.message.replace(/^[^:]*: /, "") } };
}

type GraphQLFormattedErrorLike = NonNullable<ExecutionResult["errors"]>[number];

function restErrorOf(
  errors: NonNullable<ExecutionResult["errors"]>,
  reportError: ErrorReporter,
  requestId: string | undefined,
): RestError | RefusedValue {
  const [first] = errors;
  const code = first.extensions?.code;
  if (code === "NOT_FOUND") return new RestError(404, { detail: first.extensions?.detail ?? first.message });
  if (code === "CANCELLED") return new RestError(422, { detail: first.message });
  if (code === "BAD_USER_INPUT" || code === "LIMIT_EXCEEDED" || first.path === undefined) {
    const field = (first.extensions?.field as (string | number)[] | undefined) ?? [];
    // The GraphQL `input` argument is the whole v1 body; other arguments (usage, workload) are body keys.
    const loc = (field[0] === "input" ? field.slice(1) : field).map(v1FieldName);
    // Impact arguments come from the query string (e.g. a criterion the edition lacks).
    const where = QUERY_ARGUMENTS.has(String(field[0])) ? "query" : "body";
    return new RefusedValue([where, ...loc], refusalOf(first));
  }
  // Not the client's doing: logged (with its cause), answered 500 without details.
  reportError(
    `REST: unexpected GraphQL error at ${first.path.join(".")}: ${first.message}`,
    first.originalError ?? first,
    requestId,
  );
  return new RestError(500, "Internal Server Error");
}

/**
 * The v1 name of a GraphQL input field or list index, for error locations: the catalogue's
 * (src/inputs), or the snake_case of an argument it does not describe.
 */
function v1FieldName(field: string | number): string | number {
  if (typeof field === "number") return field;
  if (isIndex(field)) return Number(field);
  return V1_NAMES.get(field) ?? snakeCase(field);
}

function isIndex(text: string): boolean {
  if (text.length === 0 || text.length > 10) return false;
  for (const char of text) if (char < "0" || char > "9") return false;
  return true;
}

export const ok = (body: unknown): RestResponse => ({ status: 200, body });

/** Query parameters that are required by the v1 routes (FastAPI answers 422 without them). */
export function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null) throw new QueryValidationError(name, { kind: "missing" });
  return value;
}

/** The variables every impact operation takes from the query string (§16). */
export interface ImpactQueryVariables {
  readonly archetype: string | null;
  readonly criteria: ImpactQuery["criteria"];
  readonly duration: number | null;
  readonly allocation: ImpactQuery["allocation"];
  readonly verbose: boolean;
}

/** What an impact operation answers for its asset. */
export interface ImpactAnswer {
  readonly impacts: readonly CriterionImpactFieldsFragment[];
  readonly verbose?: VerboseFieldsFragment | null;
}

/**
 * GET and POST of an impact route: query string and body → the operation's variables →
 * GraphQL → v1 JSON (`{impacts, verbose?}`).
 */
export function impactRoute<R, V>(
  document: TypedDocumentNode<R, V>,
  variables: (query: ImpactQueryVariables, request: RestRequest) => V,
  answer: (data: R) => ImpactAnswer,
  /** Top-level keys after `impacts` and `verbose` (cloud warnings). */
  extra: (data: R) => Record<string, unknown> = () => ({}),
  doc: Partial<HandlerDoc> = {},
): Handler {
  return documented(
    async (request, run) => {
      const query = impactQuery(request.params);
      const common = { ...query, archetype: request.params.get("archetype") };
      const data = await run(document, variables(common, request) as V & Record<string, unknown>);
      return ok({ ...impactResponse(answer(data)), ...extra(data) });
    },
    { summary: IMPACT_SUMMARY, query: IMPACT_QUERY_PARAMETERS, answer: "ImpactAnswer", ...doc },
  );
}

/** The `input` variable type of an operation. */
type InputOf<V> = V extends { input?: infer I } ? Exclude<I, undefined> : never;

/**
 * The common impact route: the query variables, the POST body parsed as the operation's `input`
 * (null on GET) and any route-fixed variables (`kind`).
 */
export function inputRoute<R, V>(
  document: TypedDocumentNode<R, V>,
  parse: BodyParser<InputOf<V>>,
  answer: (data: R) => ImpactAnswer,
  fixed: Readonly<Record<string, unknown>> = {},
  summary: string = IMPACT_SUMMARY,
): Handler {
  return impactRoute(
    document,
    (query, request) => ({ ...query, ...fixed, input: postedBody(request, parse) }) as V,
    answer,
    undefined,
    { summary, body: parse.doc },
  );
}

/** The parsed body of a POST, or null for a GET (archetype only). */
export function postedBody<T>(request: RestRequest, parse: BodyParser<T>): T | null {
  return request.method === "POST" ? parse(request.body, request.validation) : null;
}

export function listing<R, K extends keyof R & string>(
  document: TypedDocumentNode<R, Record<string, never>>,
  field: K,
  summary = `The \`${field}\` listing`,
  answer: AnswerName = "Names",
): Handler {
  return documented(async (_request, run) => ok((await run(document, {}))[field]), { summary, answer });
}

/** The `archetype` query parameter of the `archetype_config` routes. */
export const ARCHETYPE_PARAMETER: QueryParameterDoc = {
  name: "archetype",
  description: "Archetype id (see the `archetypes` route of the same asset).",
  required: true,
  schema: { type: "string" },
};

export interface Route {
  readonly path: string;
  readonly methods: Readonly<Record<string, Handler>>;
  /**
   * What the edition's data must hold for the route to exist (absent: every edition has it); an
   * edition without it answers 404, as the API it reproduces has no such route.
   */
  readonly requires?: EditionFeature;
}

/** Something only some editions have, as their description states it (`EditionDescription.features`). */
export interface EditionFeature {
  /** For the route's documentation: "GPUs", "cloud regions". */
  readonly name: string;
  readonly offeredBy: (edition: EditionDescription) => boolean;
}

/** GPU components, name lookups and server GPUs. */
export const GPUS: EditionFeature = {
  name: FEATURE_LABELS.gpus,
  offeredBy: (edition) => edition.features.gpus,
};

/** Cloud regions (`usage.region`). */
export const CLOUD_REGIONS: EditionFeature = {
  name: FEATURE_LABELS.cloudRegions,
  offeredBy: (edition) => edition.features.cloudRegions,
};
