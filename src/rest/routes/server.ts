import {
  ServerArchetypeConfigDocument,
  ServerArchetypesDocument,
  ServerImpactsDocument,
} from "../generated/graphql.js";
import { documented, ok, type Route, required } from "../restRoute.js";
import { ARCHETYPE_PARAMETER, inputRoute, listing } from "../routeBuilders.js";
import { serverVariables } from "../validation/v1Body.js";

const serverImpacts = inputRoute(
  ServerImpactsDocument,
  serverVariables,
  (data) => data.server,
  {},
  "Impacts of a server (GET: an archetype; POST: a configuration and usage completing it)",
);

export const serverRoutes: readonly Route[] = [
  { path: "/v1/server", methods: { GET: serverImpacts, POST: serverImpacts } },
  {
    path: "/v1/server/archetypes",
    methods: { GET: listing(ServerArchetypesDocument, "serverArchetypes", "Server archetype ids") },
  },
  {
    path: "/v1/server/archetype_config",
    methods: {
      GET: documented(
        async (request, run) =>
          ok(
            (await run(ServerArchetypeConfigDocument, { archetype: required(request.params, "archetype") }))
              .serverArchetypeConfig,
          ),
        {
          summary: "The configuration of a server archetype",
          query: [ARCHETYPE_PARAMETER],
          answer: "ArchetypeConfig",
        },
      ),
    },
  },
];
