import { z } from "zod";
import { editionsWhere } from "../editions/features.js";
import { type ConsumptionProfileResult, cpuConsumptionProfile, powerAtLoad } from "../engine/index.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { badUserInput, fromZodError } from "./errors.js";
import { boundedList, reasonable, validateText } from "./inputs.js";

const ProfileCpuInput = builder.inputType("ProfileCpuInput", {
  description: "The CPU whose power profile is wanted: any of name, manufacturer, model range, family, TDP.",
  fields: (t) => ({
    name: t.string({
      required: false,
      description: "Free text, matched approximately against the CPU table.",
    }),
    manufacturer: t.string({ required: false, description: "CPU manufacturer (Intel, AMD…)." }),
    modelRange: t.string({ required: false, description: "CPU model range (Xeon Gold, EPYC…)." }),
    family: t.string({
      required: false,
      description:
        `CPU family. Edition ${editionsWhere((e) => !e.rules.profileRoute.familyOverwritesModelRange)} ignores it; ` +
        `edition ${editionsWhere((e) => e.rules.profileRoute.familyOverwritesModelRange)} writes it into the model range ` +
        "(overwriting a given one, a kept quirk).",
    }),
    tdp: t.int({
      required: false,
      description:
        `Thermal design power (W). Edition ${editionsWhere((e) => !e.rules.profileRoute.usesTdp)} ignores it; ` +
        `edition ${editionsWhere((e) => e.rules.profileRoute.usesTdp)} fits the profile to it ` +
        "when no workload is given (the name's TDP otherwise).",
    }),
  }),
});

const WorkloadPointInput = builder.inputType("WorkloadPointInput", {
  description: "A measured power (W) at a CPU load (%).",
  fields: (t) => ({
    loadPercentage: t.float({ required: true, description: "CPU load, 0–100 %." }),
    powerWatt: t.float({ required: true, description: "Measured power at that load (W)." }),
  }),
});

const workloadPoint = z.object({
  loadPercentage: z.number().min(0, "must be within 0–100").max(100, "must be within 0–100"),
  powerWatt: reasonable.refine((v) => v >= 0, "must not be negative"),
});

const ConsumptionProfileRef = builder.objectRef<ConsumptionProfileResult>("ConsumptionProfile").implement({
  description: "CPU power model power(w) = a·ln(b·(w + c)) + d, in W at load w (%).",
  fields: (t) => ({
    a: t.float({ description: "Scale of the logarithm (W).", resolve: (p) => p.params.a }),
    b: t.float({ description: "Factor inside the logarithm.", resolve: (p) => p.params.b }),
    c: t.float({ description: "Load offset inside the logarithm (%).", resolve: (p) => p.params.c }),
    d: t.float({ description: "Constant term (W).", resolve: (p) => p.params.d }),
    source: t.string({
      description: "From workload, From TDP, From CPU model range or Archetype default.",
      resolve: (p) => p.source,
    }),
    matchedName: t.string({
      nullable: true,
      description: "The CPU table row the name matched, if any.",
      resolve: (p) => p.matchedName,
    }),
    power: t.float({
      description: "Watts at a load (%), at least 1 W.",
      args: { workload: t.arg.float({ required: true, description: "CPU load, 0–100 %." }) },
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
      manufacturer: t.exposeString("manufacturer", { description: "CPU manufacturer of the row." }),
      modelRange: t.exposeString("modelRange", { description: "CPU model range of the row." }),
      a: t.exposeFloat("a", { description: "Scale of the logarithm (W)." }),
      b: t.exposeFloat("b", { description: "Factor inside the logarithm." }),
      c: t.exposeFloat("c", { description: "Load offset inside the logarithm (%)." }),
      d: t.exposeFloat("d", { description: "Constant term (W)." }),
    }),
  });

builder.queryFields((t) => ({
  consumptionProfile: t.field({
    type: ConsumptionProfileRef,
    description: "The CPU power profile of a CPU, fitted to measured workload points when given.",
    args: {
      cpu: t.arg({ type: ProfileCpuInput, required: false, description: "The CPU (default: none given)." }),
      workload: t.arg({
        type: [WorkloadPointInput],
        required: false,
        description: "Measured points to fit the profile to.",
      }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) => {
      const { limits } = context.service;
      const parsed = boundedList(limits, workloadPoint).nullish().safeParse(args.workload);
      if (!parsed.success) throw fromZodError(parsed.error, ["workload"]);
      const cpu = args.cpu ?? {};
      for (const field of ["name", "manufacturer", "modelRange", "family"] as const)
        validateText(limits, cpu[field], ["cpu", field]);
      const { engine } = context.edition(args.edition);
      return cpuConsumptionProfile(engine, cpu, parsed.data ?? null);
    },
  }),
  cpuBaseProfiles: t.field({
    type: [BaseProfileRef],
    description: "The base CPU power profiles of the edition's table.",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) => [...context.edition(args.edition).service.data.cpuProfiles],
  }),
}));
