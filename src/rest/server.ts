import { serverVariables } from "./body.js";
import { inputRoute, listing, ok, type Route, required } from "./common.js";
import {
  ServerArchetypeConfigDocument,
  ServerArchetypesDocument,
  ServerImpactsDocument,
} from "./generated/graphql.js";

const serverImpacts = inputRoute(ServerImpactsDocument, serverVariables, (data) => data.server);

export const serverRoutes: readonly Route[] = [
  { path: "/v1/server", methods: { GET: serverImpacts, POST: serverImpacts } },
  { path: "/v1/server/archetypes", methods: { GET: listing(ServerArchetypesDocument, "serverArchetypes") } },
  {
    path: "/v1/server/archetype_config",
    methods: {
      GET: async (request, run) =>
        ok(
          (await run(ServerArchetypeConfigDocument, { archetype: required(request.params, "archetype") }))
            .serverArchetypeConfig,
        ),
    },
  },
];
