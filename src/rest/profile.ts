import { z } from "zod";
import { float, integer, parseV1Body, text } from "./body.js";
import { documented, ok, type Route } from "./common.js";
import { CpuBaseProfilesDocument, CpuConsumptionProfileDocument } from "./generated/graphql.js";

const profileBody = z.object({
  cpu: z
    .object({
      name: text.nullish(),
      manufacturer: text.nullish(),
      model_range: text.nullish(),
      // Validated as the reference's CPU body types it, then ignored (Appendix D.18).
      tdp: integer.nullish(),
    })
    .nullish(),
  workload: z.array(z.object({ load_percentage: float, power_watt: float })).nullish(),
});

export const profileRoutes: readonly Route[] = [
  {
    path: "/v1/consumption_profile/cpu",
    methods: {
      POST: documented(
        async (request, run) => {
          const body = parseV1Body(profileBody, request.body);
          const cpu = body.cpu ?? {};
          const { consumptionProfile } = await run(CpuConsumptionProfileDocument, {
            cpu: { name: cpu.name, manufacturer: cpu.manufacturer, modelRange: cpu.model_range },
            workload:
              body.workload?.map((w) => ({ loadPercentage: w.load_percentage, powerWatt: w.power_watt })) ??
              null,
          });
          return ok(consumptionProfile);
        },
        {
          summary: "Fits the CPU consumption profile (a, b, c, d) to measured points",
          body: { name: "CpuConsumptionProfile", schema: profileBody },
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
        { summary: "The base consumption profiles by manufacturer and model range" },
      ),
    },
  },
];
