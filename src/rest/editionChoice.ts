import { UnknownEditionError } from "../editions/index.js";
import { type EditionService, type Service, servedEdition } from "../service/open.js";
import { errorResponse } from "./errorAnswer.js";
import type { RestResponse } from "./restRoute.js";
import type { RequestValidation } from "./validation/fieldTypes.js";
import { QueryValidationError } from "./validation/query.js";

/*
 * The edition a v1 request is served by: its `edition` query parameter (a built-in or a custom
 * edition's id), or the service's default.
 */

/** The editions a request may name, read once from the service. */
export interface RestEditions {
  /** The default edition's rules: errors found before the request's edition is known are worded in them. */
  readonly defaultValidation: RequestValidation;
  /**
   * The edition a request's parameters name, as the service serves it (422 naming the allowed
   * values when unknown): resolved here once, then read by every layer of the request. A request
   * naming none is served `fallback` (the edition its transport resolved: a batch's), else the
   * service's default.
   */
  readonly requested: (params: URLSearchParams, fallback?: EditionService) => EditionService;
}

export function restEditions(service: Service): RestEditions {
  const ids = [...service.editions.keys()];
  return {
    defaultValidation: servedEdition(service, null).edition.requestValidation,
    requested: (params, fallback) => {
      const requested = params.get("edition");
      if (requested === null && fallback !== undefined) return fallback;
      try {
        return servedEdition(service, requested);
      } catch (error) {
        if (error instanceof UnknownEditionError) {
          throw new QueryValidationError(
            "edition",
            { kind: "choice", params: { values: ids } },
            error.requested,
          );
        }
        throw error;
      }
    },
  };
}

/**
 * The edition a request's query string asks for, as served (null: it names none), or the answer
 * refusing it — the same 422 as every route's. For routes outside the route table (the batch, the
 * coefficient stream).
 */
export function queryEdition(
  params: URLSearchParams,
  editions: RestEditions,
): { readonly served: EditionService | null } | { readonly refused: RestResponse } {
  try {
    return { served: params.has("edition") ? editions.requested(params) : null };
  } catch (error) {
    return { refused: errorResponse(error, editions.defaultValidation, null, () => {}, undefined) };
  }
}
