import { z } from "zod";
import { type ConsumptionProfileResult, cpuConsumptionProfile, powerAtLoad } from "../engine/index.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { badUserInput, fromZodError } from "./errors.js";

const ProfileCpuInput = builder.inputType("ProfileCpuInput", {
  fields: (t) => ({
    name: t.string({
      required: false,
      description: "Free text, matched approximately against the CPU table.",
    }),
    manufacturer: t.string({ required: false }),
    modelRange: t.string({ required: false }),
    tdp: t.int({
      required: false,
      description: "Accepted for compatibility; the profile route does not use it.",
    }),
  }),
});

const WorkloadPointInput = builder.inputType("WorkloadPointInput", {
  description: "A measured power (W) at a CPU load (%).",
  fields: (t) => ({
    loadPercentage: t.float({ required: true }),
    powerWatt: t.float({ required: true }),
  }),
});

const workloadSchema = z
  .array(
    z.object({
      loadPercentage: z.number().min(0, "must be within 0–100").max(100, "must be within 0–100"),
      powerWatt: z.number().nonnegative("must not be negative"),
    }),
  )
  .nullish();

const ConsumptionProfileRef = builder.objectRef<ConsumptionProfileResult>("ConsumptionProfile").implement({
  description: "CPU power model power(w) = a·ln(b·(w + c)) + d, in W at load w (%).",
  fields: (t) => ({
    a: t.float({ resolve: (p) => p.params.a }),
    b: t.float({ resolve: (p) => p.params.b }),
    c: t.float({ resolve: (p) => p.params.c }),
    d: t.float({ resolve: (p) => p.params.d }),
    source: t.string({
      description: "From workload, From CPU model range or Archetype default.",
      resolve: (p) => p.source,
    }),
    matchedName: t.string({ nullable: true, resolve: (p) => p.matchedName }),
    power: t.float({
      description: "Watts at a load (%), at least 1 W.",
      args: { workload: t.arg.float({ required: true }) },
      resolve: (p, { workload }) => {
        if (!(workload >= 0 && workload <= 100))
          throw badUserInput("workload must be within 0–100", ["workload"]);
        return powerAtLoad(p.params, workload);
      },
    }),
  }),
});

const BaseProfileRef = builder
  .objectRef<{ manufacturer: string; modelRange: string; a: number; b: number; c: number; d: number }>(
    "BaseProfile",
  )
  .implement({
    description: "A base CPU power profile of the reference table.",
    fields: (t) => ({
      manufacturer: t.exposeString("manufacturer"),
      modelRange: t.exposeString("modelRange"),
      a: t.exposeFloat("a"),
      b: t.exposeFloat("b"),
      c: t.exposeFloat("c"),
      d: t.exposeFloat("d"),
    }),
  });

builder.queryFields((t) => ({
  consumptionProfile: t.field({
    type: ConsumptionProfileRef,
    description: "The CPU power profile of a CPU, fitted to measured workload points when given.",
    args: {
      cpu: t.arg({ type: ProfileCpuInput, required: false }),
      workload: t.arg({ type: [WorkloadPointInput], required: false }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) => {
      const parsed = workloadSchema.safeParse(args.workload);
      if (!parsed.success) throw fromZodError(parsed.error, ["workload"]);
      const { engine } = context.edition(args.edition);
      return cpuConsumptionProfile(engine, args.cpu ?? {}, parsed.data ?? null);
    },
  }),
  cpuBaseProfiles: t.field({
    type: [BaseProfileRef],
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) => [...context.edition(args.edition).service.data.cpuProfiles],
  }),
}));
