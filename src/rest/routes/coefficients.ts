import { CloudCoefficientsDocument, type CloudCoefficientsQueryVariables } from "../generated/graphql.js";
import { RestError } from "../graphqlErrors.js";
import { documented, ok, type Route } from "../restRoute.js";
import type { QueryParameterDoc } from "../validation/query.js";

/*
 * `GET /v1/cloud/coefficients`: the coefficient table of a provider's instance types (or of one),
 * the per-hour impacts a billing export's hours multiply (docs/billing.md), as columns and rows —
 * the layout of `impact-service coefficients --format csv`. The same table streamed, as CSV or
 * NDJSON written as its rows are computed: `GET /v1/cloud/coefficients/stream` (coefficientStream.ts).
 */

const PARAMETERS: readonly QueryParameterDoc[] = [
  {
    name: "provider",
    description: "Cloud provider (default aws).",
    schema: { type: "string", default: "aws" },
  },
  { name: "instance_type", description: "Only this instance type (exact id).", schema: { type: "string" } },
  {
    name: "load",
    description: "Constant load of every instance, 0–100 % (default: the archetypes').",
    schema: { type: "number", minimum: 0, maximum: 100 },
  },
  {
    name: "criteria",
    description: "Criteria (repeat the parameter for several); default: the edition's (gwp, adp, pe).",
    schema: { type: "array", items: { type: "string" } },
  },
];

/** The `load` query parameter (422 when not a number). */
export function queryLoad(params: URLSearchParams): number | null {
  const text = params.get("load");
  if (text === null) return null;
  const load = Number(text);
  if (text.trim() === "" || !Number.isFinite(load)) {
    throw new RestError(422, {
      detail: [
        { loc: ["query", "load"], msg: "Input should be a valid number", type: "float_parsing", input: text },
      ],
    });
  }
  return load;
}

export const coefficientRoutes: readonly Route[] = [
  {
    path: "/v1/cloud/coefficients",
    methods: {
      GET: documented(
        async (request, run) => {
          const criteria = request.params.getAll("criteria");
          const variables: CloudCoefficientsQueryVariables = {
            provider: request.params.get("provider") ?? "aws",
            instanceType: request.params.get("instance_type"),
            load: queryLoad(request.params),
            criteria: criteria.length > 0 ? (criteria as CloudCoefficientsQueryVariables["criteria"]) : null,
          };
          return ok((await run(CloudCoefficientsDocument, variables)).cloudCoefficients);
        },
        {
          summary: "Per-hour impacts of a provider's instance types at each place (the coefficient table)",
          query: PARAMETERS,
          answer: "CloudCoefficients",
          busy: "The table is admitted into the fleet budget (MAX_CONCURRENT_FLEET_ITEMS) by its size; no room now. A table over MAX_ANSWER_BYTES is refused with 422 pointing to /v1/cloud/coefficients/stream.",
        },
      ),
    },
  },
];
