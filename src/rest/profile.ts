import { z } from "zod";
import { builtOncePer } from "../support/builtOnce.js";
import { type BodyParser, parseV1Body } from "./body.js";
import { documented, ok, type Route } from "./common.js";
import {
  CpuBaseProfilesDocument,
  CpuConsumptionProfileDocument,
  type CpuConsumptionProfileQueryVariables,
} from "./generated/graphql.js";
import { fieldTypes, type RequestValidation } from "./validation.js";

function profileBodyOf(rules: RequestValidation) {
  const { integer, float, text, optional, defaulted } = fieldTypes(rules);
  // `cpu` and `workload` (and a point's fields) are declared without Optional in the reference:
  // null is refused under pydantic 2.
  return z.object({
    cpu: defaulted(
      z.object({
        name: optional(text),
        manufacturer: optional(text),
        model_range: optional(text),
        family: optional(text),
        tdp: optional(integer),
      }),
    ),
    workload: defaulted(z.array(z.object({ load_percentage: float, power_watt: float }))),
  });
}

const profileBody = builtOncePer(profileBodyOf);

const profileVariables: BodyParser<CpuConsumptionProfileQueryVariables> = (body, rules) => {
  const value = parseV1Body(profileBody(rules), body, rules);
  const cpu = value.cpu;
  return {
    cpu: {
      name: cpu?.name,
      manufacturer: cpu?.manufacturer,
      modelRange: cpu?.model_range,
      family: cpu?.family,
      tdp: cpu?.tdp,
    },
    workload:
      value.workload?.map((w) => ({ loadPercentage: w.load_percentage, powerWatt: w.power_watt })) ?? null,
  };
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
          body: { name: "CpuConsumptionProfile", schema: profileBody },
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
