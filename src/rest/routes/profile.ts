import { PROFILE_REQUEST, PROFILE_USE_REQUEST } from "../../inputs/inputFields.js";
import {
  CpuBaseProfilesDocument,
  CpuConsumptionProfileDocument,
  CpuConsumptionProfileImpactsDocument,
  type CpuConsumptionProfileImpactsQueryVariables,
  type CpuConsumptionProfileQueryVariables,
} from "../generated/graphql.js";
import { documented, ok, type Route } from "../restRoute.js";
import { impactResponse } from "../shape.js";
import {
  checkUnreadVerbose,
  IMPACT_QUERY_PARAMETERS,
  impactQuery,
  UNREAD_VERBOSE,
} from "../validation/query.js";
import { type BodyParser, catalogueDoc, describedBody, v1Variables } from "../validation/v1Body.js";

/** The CPU is always an object for the GraphQL field (absent or null: no CPU field given). */
const profileVariables: BodyParser<CpuConsumptionProfileQueryVariables> = (body, rules) => {
  const { cpu, workload } = v1Variables<CpuConsumptionProfileQueryVariables>(PROFILE_REQUEST, body, rules);
  return { cpu: cpu ?? {}, workload: workload ?? null };
};

type ProfileUseVariables = Pick<CpuConsumptionProfileImpactsQueryVariables, "cpu" | "workload" | "usage">;

/** The body of the impacts route: the profile's request and the usage of its impacts. */
const profileUseVariables: BodyParser<ProfileUseVariables> = describedBody(
  catalogueDoc(PROFILE_USE_REQUEST, "CpuConsumptionProfileUse"),
  (body, rules) => {
    const { cpu, workload, usage } = v1Variables<ProfileUseVariables>(PROFILE_USE_REQUEST, body, rules);
    return { cpu: cpu ?? {}, workload: workload ?? null, usage: usage ?? null };
  },
);

/** The query parameters the profile's impacts read (no archetype, no allocation: no embedded phase). */
const PROFILE_USE_PARAMETERS = IMPACT_QUERY_PARAMETERS.filter((p) =>
  ["verbose", "criteria", "duration"].includes(p.name),
);

export const profileRoutes: readonly Route[] = [
  {
    path: "/v1/consumption_profile/cpu/impacts",
    methods: {
      POST: documented(
        async (request, run) => {
          const { criteria, duration, verbose } = impactQuery(request.params);
          const body = profileUseVariables(request.body, request.validation);
          const { consumptionProfile } = await run(CpuConsumptionProfileImpactsDocument, {
            ...body,
            criteria,
            duration,
            verbose,
          });
          const { criteria: impacts, energy, verbose: report } = consumptionProfile.impacts;
          return ok({ ...impactResponse({ impacts, verbose: report }), energy });
        },
        {
          summary:
            "Use-phase impacts of a CPU of a consumption profile (fitted to measured points or from the CPU) for a usage: per criterion, no embedded phase, and the energy in kWh",
          query: PROFILE_USE_PARAMETERS,
          body: profileUseVariables.doc,
          answer: "ImpactAnswer",
        },
      ),
    },
  },
  {
    path: "/v1/consumption_profile/cpu",
    methods: {
      POST: documented(
        async (request, run) => {
          checkUnreadVerbose(request.params);
          const variables = profileVariables(request.body, request.validation);
          const { consumptionProfile } = await run(CpuConsumptionProfileDocument, variables);
          return ok(consumptionProfile);
        },
        {
          summary: "Fits the CPU consumption profile (a, b, c, d) to measured points",
          query: [UNREAD_VERBOSE],
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
