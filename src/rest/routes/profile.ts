import { PROFILE_REQUEST } from "../../inputs/catalogue.js";
import {
  CpuBaseProfilesDocument,
  CpuConsumptionProfileDocument,
  type CpuConsumptionProfileQueryVariables,
} from "../generated/graphql.js";
import { documented, ok, type Route } from "../route.js";
import { type BodyParser, catalogueDoc, v1Variables } from "../validation/v1Body.js";

/** The CPU is always an object for the GraphQL field (absent or null: no CPU field given). */
const profileVariables: BodyParser<CpuConsumptionProfileQueryVariables> = (body, rules) => {
  const { cpu, workload } = v1Variables<CpuConsumptionProfileQueryVariables>(PROFILE_REQUEST, body, rules);
  return { cpu: cpu ?? {}, workload: workload ?? null };
};

export const profileRoutes: readonly Route[] = [
  {
    path: "/v1/consumption_profile/cpu",
    methods: {
      POST: documented(
        async (request, run) => {
          const variables = profileVariables(request.body, request.validation);
          const { consumptionProfile } = await run(CpuConsumptionProfileDocument, variables);
          return ok(consumptionProfile);
        },
        {
          summary: "Fits the CPU consumption profile (a, b, c, d) to measured points",
          body: catalogueDoc(PROFILE_REQUEST, "CpuConsumptionProfile"),
          answer: "ConsumptionProfile",
        },
      ),
      GET: documented(
        async (_request, run) => {
          const { cpuBaseProfiles } = await run(CpuBaseProfilesDocument, {});
          return ok(
            cpuBaseProfiles.map((p) => ({
              manufacturer: p.manufacturer,
              model_range: p.modelRange,
              a: p.a,
              b: p.b,
              c: p.c,
              d: p.d,
            })),
          );
        },
        { summary: "The base consumption profiles by manufacturer and model range", answer: "BaseProfiles" },
      ),
    },
  },
];
