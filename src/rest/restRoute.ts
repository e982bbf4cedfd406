import type { EditionFeature } from "./editionFeatures.js";
import type { AnswerName } from "./openapi/answers.js";
import type { Runner } from "./runner.js";
import type { RequestValidation } from "./validation/fieldTypes.js";
import { type QueryParameterDoc, QueryValidationError } from "./validation/query.js";
import type { BodyDoc } from "./validation/v1Body.js";

/*
 * What a route of the REST shim is: its handlers by method, each running GraphQL operations of
 * `src/rest/operations` (through the `Runner`) and answering the v1 JSON.
 */

/** A REST answer: status and JSON body. */
export interface RestResponse {
  readonly status: number;
  readonly body: unknown;
  /** The body already serialized (UTF-8 JSON, byte for byte `JSON.stringify(body)`), when it is. */
  readonly serialized?: Uint8Array;
  /** Headers besides its content type (a 503's Retry-After). */
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RestRequest {
  readonly method: string;
  readonly params: URLSearchParams;
  /** Parsed JSON body; `{}` when the request had none. */
  readonly body: unknown;
  /** How this request's body and query values are validated (its edition's rules). */
  readonly validation: RequestValidation;
}

/** What a handler reads besides its path, for the OpenAPI description (`src/rest/openapi/index.ts`). */
export interface HandlerDoc {
  readonly summary: string;
  readonly query: readonly QueryParameterDoc[];
  /** The JSON body a POST takes (named schema of `v1Body.ts`). */
  readonly body?: BodyDoc;
  /** The 200 answer's schema (`answers.ts`), e.g. `ImpactAnswer` (`{impacts, verbose?}`). */
  readonly answer: AnswerName;
  /** When the route answers 503 with Retry-After (a budget of the whole process is spent). */
  readonly busy?: string;
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

export const ok = (body: unknown): RestResponse => ({ status: 200, body });

/** Query parameters that are required by the v1 routes (FastAPI answers 422 without them). */
export function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null) throw new QueryValidationError(name, { kind: "missing" });
  return value;
}

export interface Route {
  readonly path: string;
  readonly methods: Readonly<Record<string, Handler>>;
  /**
   * What the edition's data must hold for the route to exist (absent: every edition has it); an
   * edition without it answers 404, as the API it reproduces has no such route.
   */
  readonly requires?: EditionFeature;
}
