import { type EditionDescription, editionById } from "../../editions/index.js";
import type { EditionFeature } from "../features.js";
import type { Handler, HandlerDoc } from "../route.js";
import { BATCH_PATH } from "../routes/batch.js";
import { CLOUD_PROVIDER_PATH, cloudProviderTemplate } from "../routes/cloud.js";
import { COEFFICIENTS_STREAM_PATH } from "../routes/coefficientStream.js";
import { ROUTES } from "../routes/index.js";
import type { RequestValidation } from "../validation/fieldTypes.js";
import { ANSWER_SCHEMAS } from "./answers.js";
import { batchOperation } from "./batch.js";
import { bodySchemas } from "./bodies.js";
import { coefficientStreamOperation } from "./coefficientStream.js";
import { BODY_EXAMPLES } from "./examples.js";
import { EVALUATE_PATH, FILE_EVENT_SCHEMA, fileEvaluationOperation } from "./fileEvaluation.js";
import { type JsonObject, ref } from "./jsonSchema.js";
import { busyAnswer, editionParameter } from "./parameters.js";

/*
 * The OpenAPI 3.1 description of the v1 shim, generated from the shim's own route table
 * (`ROUTES`), the query parameters each handler declares and the zod schemas its bodies are
 * validated with (`z.toJSONSchema`): what is served is what is described.
 */

/** `get_v1_component_power-supply_archetypes`: unique per method and path (spellings kept apart). */
function operationId(method: string, path: string): string {
  return `${method.toLowerCase()}${path.replace(/[/{}]+/g, "_").replace(/_$/, "")}`;
}

/** The answers an operation documents: 200 and 422 always, 503 when it waits for room, 404 when it looks names up. */
function responsesOf(doc: HandlerDoc): JsonObject {
  const responses: JsonObject = {
    "200": { description: "Success", content: { "application/json": { schema: ref(doc.answer) } } },
    "422": {
      description: "Invalid request",
      content: { "application/json": { schema: ref("HTTPValidationError") } },
    },
  };
  if (doc.busy !== undefined) responses["503"] = busyAnswer(doc.busy);
  const impacts = doc.answer === "ImpactAnswer" || doc.answer === "GenerativeAiAnswer";
  if (impacts || doc.query.some((p) => p.name === "archetype")) {
    responses["404"] = {
      description: "Not found",
      content: { "application/json": { schema: ref("NotFound") } },
    };
  }
  return responses;
}

/** The query parameters a handler declares, then `edition` (every route reads it, at the shim's entry point). */
function parametersOf(path: string, doc: HandlerDoc, info: OpenApiInfo): JsonObject[] {
  const parameters: JsonObject[] = doc.query.map((parameter) => ({
    name: parameter.name,
    in: "query",
    description: parameter.description,
    required: parameter.required ?? false,
    schema: parameter.schema,
    ...(parameter.example === undefined ? {} : { example: parameter.example }),
    ...(parameter.schema.type === "array" ? { style: "form", explode: true } : {}),
  }));
  parameters.push(
    editionParameter(
      info,
      `Edition of the methodology (boaviztapi release) to answer with; default ${info.methodology}.`,
    ),
  );
  if (path === CLOUD_PROVIDER_PATH) {
    parameters.unshift({
      name: "provider",
      in: "path",
      required: true,
      description: "Cloud provider.",
      schema: { type: "string" },
    });
  }
  return parameters;
}

/** A POST's JSON body, with what "Try it out" sends (a body answered 200, `examples.ts`); none for a GET. */
function requestBodyOf(method: string, doc: HandlerDoc): JsonObject {
  if (method !== "POST" || !doc.body) return {};
  const example = BODY_EXAMPLES[doc.body.name];
  return {
    requestBody: {
      required: false,
      description: "JSON body (absent: `{}`). Unknown keys are ignored; numbers may be given as text.",
      content: {
        "application/json": {
          schema: ref(doc.body.name),
          ...(example === undefined ? {} : { example }),
        },
      },
    },
  };
}

function operation(
  method: string,
  path: string,
  handler: Handler,
  info: OpenApiInfo,
  requires: EditionFeature | undefined,
): JsonObject {
  const doc: HandlerDoc | undefined = handler.doc;
  if (!doc) throw new Error(`${method} ${path}: the handler has no description (documented())`);
  return {
    operationId: operationId(method, path),
    summary: doc.summary,
    ...(requires
      ? {
          description: `Only in editions whose data has ${requires.name} (others answer 404, as their reference).`,
        }
      : {}),
    tags: [path.split("/")[2]],
    parameters: parametersOf(path, doc, info),
    ...requestBodyOf(method, doc),
    responses: responsesOf(doc),
  };
}

export interface OpenApiInfo {
  readonly serviceVersion: string;
  /** The service's default edition. */
  readonly methodology: string;
  /** Every edition served (the `edition` query parameter of every route). */
  readonly editions: readonly string[];
  /**
   * The edition the document describes: its routes (those its data offers) and its bodies as it
   * validates them. Default: the built-in edition `methodology`, every route.
   */
  readonly described?: EditionDescription;
  /** How the described edition validates bodies (default: `described`'s, else the built-in edition `methodology`'s). */
  readonly requestValidation?: RequestValidation;
}

/** The OpenAPI 3.1 document of every `/v1` route (of the described edition's: those its data offers). */
export function openApiDocument(given: OpenApiInfo): JsonObject {
  const { described } = given;
  const info = { ...given, edition: described?.id ?? given.methodology };
  const routes = [...ROUTES, cloudProviderTemplate].filter(
    (route) => described === undefined || route.requires === undefined || route.requires.offeredBy(described),
  );
  const paths: Record<string, JsonObject> = {};
  for (const route of routes) {
    const entry: JsonObject = {};
    for (const [method, handler] of Object.entries(route.methods) as [string, Handler][]) {
      entry[method.toLowerCase()] = operation(method, route.path, handler, info, route.requires);
    }
    paths[route.path] = entry;
  }
  // The batch route streams outside the route table (src/rest/routes/batch.ts).
  paths[BATCH_PATH] = { post: batchOperation(info) };
  paths[COEFFICIENTS_STREAM_PATH] = { get: coefficientStreamOperation(info) };
  // The /evaluate page's route, served by the HTTP front (src/http/fileEvaluation/evaluateRoute.ts).
  paths[EVALUATE_PATH] = { post: fileEvaluationOperation(info) };
  return {
    openapi: "3.1.0",
    info: {
      title: `IT equipment impacts — boaviztapi v1 compatible REST API, edition ${info.edition}`,
      version: info.serviceVersion,
      description:
        `Environmental impacts of IT equipment with the Boavizta methodology, edition ${info.edition} (boaviztapi ` +
        `${described?.rules.version ?? info.edition}), in boaviztapi's v1 JSON layout: its routes and bodies. Every ` +
        `route takes \`edition\` (${info.editions.join(", ")}); without it, a request is answered in this service's ` +
        `default, ${info.methodology}; each edition's document is \`/openapi.json?edition=\` and its id. The same evaluations (and ` +
        "fleets) are offered by the GraphQL API at /graphql.",
      license: { name: "AGPL-3.0-or-later", identifier: "AGPL-3.0-or-later" },
    },
    paths,
    components: {
      schemas: {
        ...bodySchemas(
          routes,
          info.requestValidation ?? (described ?? editionById(info.methodology)).requestValidation,
        ),
        ...ANSWER_SCHEMAS,
        FileEvent: FILE_EVENT_SCHEMA,
      },
    },
  };
}
