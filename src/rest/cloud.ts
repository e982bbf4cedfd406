import { z } from "zod";
import { parseV1Body, text, usageVariables } from "./body.js";
import { type Handler, ok, type Route } from "./common.js";
import {
  CloudInstanceConfigDocument,
  CloudInstanceImpactsDocument,
  CloudInstanceTypesDocument,
  CloudProvidersDocument,
} from "./generated/graphql.js";
import { impactQuery } from "./query.js";
import { impactResponse } from "./shape.js";

const DEFAULT_PROVIDER = "aws";
const DEFAULT_INSTANCE = "a1.4xlarge";

const cloudBody = z.object({
  provider: text.nullish(),
  instance_type: text.nullish(),
  usage: z.unknown().optional(),
});

/**
 * GET reads provider / instance type from the query (or the path), POST from the body. The
 * reference's GET answers "None at None not found" for an unknown instance and POST fails
 * without a provider; both default here to aws / a1.4xlarge and name what was not found.
 */
function cloudImpacts(pathProvider: string | null): Handler {
  return async (request, run) => {
    const query = impactQuery(request.params);
    const fromBody = request.method === "POST" ? parseV1Body(cloudBody, request.body) : null;
    const provider = pathProvider ?? fromBody?.provider ?? request.params.get("provider") ?? DEFAULT_PROVIDER;
    const instanceType = fromBody?.instance_type ?? request.params.get("instance_type") ?? DEFAULT_INSTANCE;
    const data = await run(CloudInstanceImpactsDocument, {
      provider,
      instanceType,
      usage: fromBody?.usage == null ? null : usageVariables(fromBody.usage),
      criteria: query.criteria,
      duration: query.duration,
      allocation: query.allocation,
      verbose: query.verbose,
    });
    return ok(impactResponse(data.cloudInstance));
  };
}

const instanceRoute = cloudImpacts(null);

export const cloudRoutes: readonly Route[] = [
  { path: "/v1/cloud/instance", methods: { GET: instanceRoute, POST: instanceRoute } },
  { path: "/v1/cloud", methods: { GET: instanceRoute, POST: instanceRoute } },
  {
    path: "/v1/cloud/instance/all_providers",
    methods: {
      GET: async (_request, run) =>
        ok((await run(CloudProvidersDocument, {})).cloudProviders.map((p) => p.name)),
    },
  },
  {
    path: "/v1/cloud/instance/all_instances",
    methods: {
      GET: async (request, run) => {
        const provider = request.params.get("provider") ?? DEFAULT_PROVIDER;
        return ok((await run(CloudInstanceTypesDocument, { provider })).cloudInstanceTypes);
      },
    },
  },
  {
    path: "/v1/cloud/instance/instance_config",
    methods: {
      GET: async (request, run) => {
        const provider = request.params.get("provider") ?? DEFAULT_PROVIDER;
        const instanceType = request.params.get("instance_type") ?? DEFAULT_INSTANCE;
        return ok((await run(CloudInstanceConfigDocument, { provider, instanceType })).cloudInstanceConfig);
      },
    },
  },
];

/** `GET /v1/cloud/{provider}?instance_type=`: the provider from the path. */
export function cloudProviderRoute(path: string): Route | null {
  const match = /^\/v1\/cloud\/([^/]+)$/.exec(path);
  if (!match || match[1] === "instance") return null;
  return { path, methods: { GET: cloudImpacts(decodeURIComponent(match[1])) } };
}
