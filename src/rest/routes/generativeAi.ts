import { GENERATIVE_AI_EDITION } from "../../editions/index.js";
import { GENERATIVE_AI } from "../../inputs/inputFields.js";
import {
  GenerativeAiImpactsDocument,
  type GenerativeAiImpactsQueryVariables,
  GenerativeAiModelsDocument,
} from "../generated/graphql.js";
import { documented, ok, type Route } from "../restRoute.js";
import { impactRoute, postedBody } from "../routeBuilders.js";
import type { QueryParameterDoc } from "../validation/query.js";
import { IMPACT_QUERY_PARAMETERS } from "../validation/query.js";
import { catalogueBody } from "../validation/v1Body.js";

/*
 * The generative-AI routes (docs/methodology.md, "Generative AI"), beside the specification's:
 * `POST /v1/generative_ai` evaluates one request to a model (its body: provider, model,
 * output_tokens, request_latency, zone), answered in the generative-AI edition whatever `edition`
 * names; `GET /v1/generative_ai/models` lists the models of its data.
 */

const body = catalogueBody<GenerativeAiImpactsQueryVariables["input"]>(GENERATIVE_AI);

const PROVIDER: QueryParameterDoc = {
  name: "provider",
  description:
    "One provider's models only (anthropic, cohere, google_genai, huggingface_hub, mistralai, openai).",
  schema: { type: "string" },
};

const generativeAiImpacts = impactRoute(
  GenerativeAiImpactsDocument,
  ({ archetype: _noArchetype, ...query }, request) => ({
    ...query,
    input: postedBody(request, body) as GenerativeAiImpactsQueryVariables["input"],
  }),
  (data) => data.generativeAi,
  (data) => {
    const usage = data.generativeAi;
    if (usage == null) return {};
    const { edition, provider, model, zone, warnings } = usage;
    return { edition, provider, model, zone, ...(warnings.length > 0 ? { warnings } : {}) };
  },
  {
    summary: `Impacts of one request to a generative-AI model, as ${GENERATIVE_AI_EDITION.rules.version} computes them (energy as fe in kWh, gwp, adp, pe, water as wcf in L)`,
    // `duration` and `allocation` change nothing (a request's impacts are its own); no archetype.
    query: IMPACT_QUERY_PARAMETERS.filter((parameter) => ["verbose", "criteria"].includes(parameter.name)),
    body: body.doc,
    answer: "GenerativeAiAnswer",
  },
);

export const generativeAiRoutes: readonly Route[] = [
  { path: "/v1/generative_ai", methods: { POST: generativeAiImpacts } },
  {
    path: "/v1/generative_ai/models",
    methods: {
      GET: documented(
        async (request, run) =>
          ok(
            (await run(GenerativeAiModelsDocument, { provider: request.params.get("provider") }))
              .generativeAiModels,
          ),
        {
          summary: "The models of the generative-AI edition's data",
          query: [PROVIDER],
          answer: "GenerativeAiModels",
        },
      ),
    },
  },
];
