import { z } from "zod";
import { BodyValidationError } from "./body.js";
import { ok, type Route } from "./common.js";
import { CpuBaseProfilesDocument, CpuConsumptionProfileDocument } from "./generated/graphql.js";

const NUMERIC_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;
const float = z.preprocess(
  (v) => (typeof v === "string" && NUMERIC_TEXT.test(v) ? Number(v) : v),
  z.number({ message: "value is not a valid float" }).finite(),
);

const profileBody = z.object({
  cpu: z
    .object({
      name: z.string().nullish(),
      manufacturer: z.string().nullish(),
      model_range: z.string().nullish(),
      tdp: z.unknown().optional(),
    })
    .nullish(),
  workload: z.array(z.object({ load_percentage: float, power_watt: float })).nullish(),
});

function parseProfileBody(body: unknown) {
  const result = profileBody.safeParse(body ?? {});
  if (result.success) return result.data;
  throw new BodyValidationError(
    result.error.issues.map((issue) => ({
      loc: ["body", ...issue.path.map((p) => (typeof p === "number" ? p : String(p)))],
      msg: issue.message,
      type: `value_error.${issue.code}`,
    })),
  );
}

export const profileRoutes: readonly Route[] = [
  {
    path: "/v1/consumption_profile/cpu",
    methods: {
      POST: async (request, run) => {
        const body = parseProfileBody(request.body);
        const cpu = body.cpu ?? {};
        const { consumptionProfile } = await run(CpuConsumptionProfileDocument, {
          cpu: { name: cpu.name, manufacturer: cpu.manufacturer, modelRange: cpu.model_range },
          workload:
            body.workload?.map((w) => ({ loadPercentage: w.load_percentage, powerWatt: w.power_watt })) ??
            null,
        });
        return ok(consumptionProfile);
      },
      GET: async (_request, run) => {
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
    },
  },
];
