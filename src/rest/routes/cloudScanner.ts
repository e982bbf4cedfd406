import { inputObject } from "../../inputs/field.js";
import { estimatedInventory, type RouteAnswer } from "../../scan/estimate.js";
import { INVENTORY_SCHEMA, readScannerFile } from "../../scan/inventoryJson.js";
import { SERVICE_VERSION } from "../../support/version.js";
import { VersionDocument } from "../generated/graphql.js";
import { RestError } from "../graphqlErrors.js";
import { documented, type Handler, ok, type RestRequest, type Route } from "../route.js";
import type { Runner } from "../runner.js";
import { parseV1Body } from "../validation/bodyValidation.js";
import { isNumericText } from "../validation/fieldTypes.js";
import { QueryValidationError } from "../validation/query.js";
import { cloudRoutes } from "./cloud.js";
import { componentRoutes } from "./components.js";

/*
 * `POST /v1/cloud-scanner/impacts-from-arbitrary-inventory`: Boavizta cloud-scanner's server route
 * of that name (its standalone_server.rs), under this shim's /v1: its inventory JSON in, its
 * estimated inventory out, each resource evaluated by this service's own single route — the
 * handlers of `POST /v1/cloud/instance` and `/v1/component/{ssd,hdd}`, in the request's edition —
 * as its request (src/scan/requests.ts) asks. A body at odds with cloud-scanner's schema is a 422
 * naming the field (`body.resources.2.location.aws_region`); a resource a route refuses (an
 * unknown instance type) or that nothing evaluates (a stopped instance) has no impacts and says why
 * in its `warnings`. The resources are the body's list: MAX_LIST_LENGTH bounds them, as every list.
 */

export const CLOUD_SCANNER_PATH = "/v1/cloud-scanner/impacts-from-arbitrary-inventory";

/** The handlers the resources' requests go to, by path. */
const HANDLERS: ReadonlyMap<string, Handler> = new Map(
  [...cloudRoutes, ...componentRoutes()]
    .filter((route) => ["/v1/cloud/instance", "/v1/component/ssd", "/v1/component/hdd"].includes(route.path))
    .map((route) => [route.path, route.methods.POST]),
);

/** cloud-scanner's `use_duration_hours` (default 1), a positive number of hours. */
function durationOf(params: URLSearchParams): number {
  const raw = params.get("use_duration_hours");
  if (raw === null) return 1;
  const hours = isNumericText(raw) ? Number(raw) : Number.NaN;
  if (!Number.isFinite(hours))
    throw new QueryValidationError("use_duration_hours", { kind: "floatParsing" }, raw);
  if (!(hours > 0)) {
    throw new QueryValidationError("use_duration_hours", { kind: "greaterThan", params: { limit: 0 } }, raw);
  }
  return hours;
}

/** cloud-scanner's `verbose_output` (default false): each resource's whole answer as its raw_data. */
function verboseOf(params: URLSearchParams): boolean {
  const raw = params.get("verbose_output");
  if (raw === null) return false;
  if (["1", "true", "on", "yes"].includes(raw.toLowerCase())) return true;
  if (["0", "false", "off", "no"].includes(raw.toLowerCase())) return false;
  throw new QueryValidationError("verbose_output", { kind: "booleanParsing" }, raw);
}

/** A resource's request answered by its route's handler, in the request's edition; a refusal as its answer. */
function handlerAnswer(request: RestRequest, run: Runner): RouteAnswer {
  return async ({ path, body }, query) => {
    const handler = HANDLERS.get(path);
    if (handler === undefined) return { status: 404, body: { detail: "Not Found" } };
    try {
      return await handler({ method: "POST", params: query, body, validation: request.validation }, run);
    } catch (error) {
      if (error instanceof RestError) return { status: error.status, body: error.body };
      throw error;
    }
  };
}

const impactsFromInventory: Handler = documented(
  async (request, run) => {
    const hours = durationOf(request.params);
    const verbose = verboseOf(request.params);
    // The body's first value at odds with the schema, in FastAPI's 422 shape.
    parseV1Body(INVENTORY_SCHEMA, request.body, request.validation);
    const { resources, notRead } = readScannerFile(request.body, hours);
    const edition = (await run(VersionDocument, {})).version.methodology;
    return ok(
      await estimatedInventory(resources, handlerAnswer(request, run), {
        edition,
        version: `impact-service ${SERVICE_VERSION}`,
        verbose,
        date: new Date().toISOString(),
        notRead,
      }),
    );
  },
  {
    summary:
      "cloud-scanner's inventory JSON evaluated, answered as its estimated inventory (each resource by its single route)",
    query: [
      {
        name: "use_duration_hours",
        description: "Hours each resource is evaluated for (cloud-scanner's parameter; default 1).",
        schema: { type: "number", default: 1, exclusiveMinimum: 0 },
      },
      {
        name: "verbose_output",
        description: "Each resource's whole answer as its raw_data (cloud-scanner's parameter).",
        schema: { type: "boolean", default: false },
      },
    ],
    answer: "EstimatedInventory",
    // Its schema is cloud-scanner's (src/scan/inventoryJson.ts), not the input catalogue's: no field of it is described there.
    body: {
      name: "CloudScannerInventory",
      object: inputObject("CloudScannerInventory", "Boavizta cloud-scanner's inventory JSON.", {}),
      schema: () => INVENTORY_SCHEMA,
    },
  },
);

export const cloudScannerRoutes: readonly Route[] = [
  { path: CLOUD_SCANNER_PATH, methods: { POST: impactsFromInventory } },
];
