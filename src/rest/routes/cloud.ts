import { CLOUD_INSTANCE } from "../../inputs/inputFields.js";
import { CLOUD_REGIONS } from "../editionFeatures.js";
import {
  CloudInstanceConfigDocument,
  CloudInstanceImpactsDocument,
  type CloudInstanceImpactsQueryVariables,
  CloudInstanceTypesDocument,
  CloudProvidersDocument,
  CloudRegionsDocument,
} from "../generated/graphql.js";
import { RestError } from "../graphqlErrors.js";
import { documented, type Handler, ok, type Route } from "../restRoute.js";
import { impactRoute, postedBody } from "../routeBuilders.js";
import type { QueryParameterDoc } from "../validation/query.js";
import { IMPACT_QUERY_PARAMETERS } from "../validation/query.js";
import { catalogueDoc, v1Variables } from "../validation/v1Body.js";

/** A cloud instance body as GraphQL variables. */
interface CloudInstanceBody {
  readonly provider?: string | null;
  readonly instanceType?: string | null;
  readonly usage?: CloudInstanceImpactsQueryVariables["usage"];
}

const DEFAULT_PROVIDER = "aws";
const DEFAULT_INSTANCE = "a1.4xlarge";

const PROVIDER: QueryParameterDoc = {
  name: "provider",
  description: `Cloud provider (default ${DEFAULT_PROVIDER}).`,
  schema: { type: "string", default: DEFAULT_PROVIDER },
};
const INSTANCE_TYPE: QueryParameterDoc = {
  name: "instance_type",
  description: `Instance type of the provider (default ${DEFAULT_INSTANCE}).`,
  schema: { type: "string", default: DEFAULT_INSTANCE },
};

const REGION_PROVIDER: QueryParameterDoc = {
  name: "provider",
  description: "Cloud provider (default: every provider).",
  schema: { type: "string" },
};

/**
 * GET reads provider / instance type from the query (or the path), POST from the body. The
 * reference's GET answers "None at None not found" for an unknown instance and POST fails
 * without a provider; both default here to aws / a1.4xlarge (the GraphQL field's defaults) and
 * name what was not found. Another provider without an instance type is a 422.
 */
function cloudImpacts(pathProvider: string | null, documentQueryInstance = true): Handler {
  return impactRoute(
    CloudInstanceImpactsDocument,
    ({ archetype: _noArchetype, ...query }, request) => {
      const body = postedBody(request, (value, rules) =>
        v1Variables<CloudInstanceBody>(CLOUD_INSTANCE, value, rules),
      );
      return {
        ...query,
        // A defaulted provider is left to the GraphQL field, which then resolves no region (§7.5).
        provider: pathProvider ?? body?.provider ?? request.params.get("provider"),
        instanceType: body?.instanceType ?? request.params.get("instance_type"),
        usage: body?.usage ?? null,
      };
    },
    (data) => data.cloudInstance,
    // docs/methodology.md §19.7.3: a third top-level key, only when there is something to say.
    (data) => (data.cloudInstance?.warnings.length ? { warnings: data.cloudInstance.warnings } : {}),
    {
      summary: "Impacts of a cloud instance (GET: provider and type in the query; POST: in the body)",
      // The impact parameters (no archetype: the instance type is the archetype), then the instance
      // for GET; a POST names it in its body (Swagger's "Try it out" would send the query's
      // defaults beside the body's example, which wins).
      query: [
        ...IMPACT_QUERY_PARAMETERS.filter((parameter) => parameter.name !== "archetype"),
        ...(!documentQueryInstance
          ? []
          : pathProvider === null
            ? [PROVIDER, INSTANCE_TYPE]
            : [INSTANCE_TYPE]),
      ],
      body: catalogueDoc(CLOUD_INSTANCE, "CloudInstance"),
    },
  );
}

const instanceRoute = cloudImpacts(null);
const postedInstanceRoute = cloudImpacts(null, false);

export const cloudRoutes: readonly Route[] = [
  { path: "/v1/cloud/instance", methods: { GET: instanceRoute, POST: postedInstanceRoute } },
  { path: "/v1/cloud", methods: { GET: instanceRoute, POST: postedInstanceRoute } },
  {
    path: "/v1/cloud/instance/all_providers",
    methods: {
      GET: documented(
        async (_request, run) =>
          ok((await run(CloudProvidersDocument, {})).cloudProviders.map((p) => p.name)),
        { summary: "The cloud providers of the edition", answer: "Names" },
      ),
    },
  },
  {
    path: "/v1/cloud/instance/all_instances",
    methods: {
      GET: documented(
        async (request, run) => {
          const provider = request.params.get("provider") ?? DEFAULT_PROVIDER;
          return ok((await run(CloudInstanceTypesDocument, { provider })).cloudInstanceTypes);
        },
        { summary: "Instance types of a provider", query: [PROVIDER], answer: "Names" },
      ),
    },
  },
  {
    path: "/v1/cloud/instance/instance_config",
    methods: {
      GET: documented(
        async (request, run) => {
          const provider = request.params.get("provider") ?? DEFAULT_PROVIDER;
          const instanceType = request.params.get("instance_type") ?? DEFAULT_INSTANCE;
          return ok((await run(CloudInstanceConfigDocument, { provider, instanceType })).cloudInstanceConfig);
        },
        {
          summary: "The configuration of an instance type",
          query: [PROVIDER, INSTANCE_TYPE],
          answer: "ArchetypeConfig",
        },
      ),
    },
  },
  {
    path: "/v1/utils/cloud_regions",
    requires: CLOUD_REGIONS,
    methods: {
      // `{provider, region}` rows of edition 2.4.1 (docs/methodology.md §19.11.1).
      GET: documented(
        async (request, run) =>
          ok((await run(CloudRegionsDocument, { provider: request.params.get("provider") })).cloudRegions),
        {
          summary: "Cloud regions, of every provider or of one",
          query: [REGION_PROVIDER],
          answer: "CloudRegions",
        },
      ),
    },
  },
];

/** The path template of `cloudProviderRoute` (metrics, logs, OpenAPI). */
export const CLOUD_PROVIDER_PATH = "/v1/cloud/{provider}";

const CLOUD_PROVIDER_PATTERN = /^\/v1\/cloud\/([^/]+)$/;

/** Whether `cloudProviderRoute` serves a path (without decoding it: for labels). */
export function isCloudProviderPath(path: string): boolean {
  const match = CLOUD_PROVIDER_PATTERN.exec(path);
  return match !== null && match[1] !== "instance";
}

/** `GET /v1/cloud/{provider}?instance_type=`: the provider from the path. */
export function cloudProviderRoute(path: string): Route | null {
  const match = CLOUD_PROVIDER_PATTERN.exec(path);
  if (!match || match[1] === "instance") return null;
  return { path, methods: { GET: cloudImpacts(decodedSegment(match[1])) } };
}

function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw new RestError(400, { detail: "malformed percent-encoding in the path" });
  }
}

/** `cloudProviderRoute` as the OpenAPI description states it (the provider a path parameter). */
export const cloudProviderTemplate: Route = {
  path: CLOUD_PROVIDER_PATH,
  methods: { GET: cloudImpacts(DEFAULT_PROVIDER) },
};
