import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type { CriterionImpactFieldsFragment, VerboseFieldsFragment } from "./generated/graphql.js";
import type { AnswerName } from "./openapi/answers.js";
import { documented, type Handler, type HandlerDoc, ok, type RestRequest } from "./restRoute.js";
import { impactResponse } from "./shape.js";
import {
  IMPACT_QUERY_PARAMETERS,
  type ImpactQuery,
  impactQuery,
  type QueryParameterDoc,
} from "./validation/query.js";
import type { BodyParser } from "./validation/v1Body.js";

/*
 * The shapes most routes take: an impact route (query string and body → the operation's
 * variables → v1 `{impacts, verbose?}`) and a listing.
 */

/** The summary of an impact route that states none. */
const IMPACT_SUMMARY = "Impacts (GET: from an archetype; POST: a body completing it)";

/** The variables every impact operation takes from the query string (§16). */
interface ImpactQueryVariables {
  readonly archetype: string | null;
  readonly criteria: ImpactQuery["criteria"];
  readonly duration: number | null;
  readonly allocation: ImpactQuery["allocation"];
  readonly verbose: boolean;
}

/** What an impact operation answers for its asset. */
interface ImpactAnswer {
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
  /** The evaluated asset; null only beside an error, which the runner has thrown. */
  answer: (data: R) => ImpactAnswer | null,
  /** Top-level keys after `impacts` and `verbose` (cloud warnings). */
  extra: (data: R) => Record<string, unknown> = () => ({}),
  doc: Partial<HandlerDoc> = {},
): Handler {
  return documented(
    async (request, run) => {
      const query = impactQuery(request.params);
      const common = { ...query, archetype: request.params.get("archetype") };
      const data = await run(document, variables(common, request) as V & Record<string, unknown>);
      const evaluated = answer(data);
      if (evaluated === null) throw new Error("the operation answered no asset and no error");
      // The extra keys after `impacts` and `verbose`, in the answer itself (no copy of it).
      return ok(Object.assign(impactResponse(evaluated), extra(data)));
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
  answer: (data: R) => ImpactAnswer | null,
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
