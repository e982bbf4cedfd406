import { PROFILE_REQUEST } from "../inputs/catalogue.js";
import {
  type ConsumptionProfileResult,
  checkedProfileRequest,
  consumptionProfile,
  powerAtLoad,
} from "../service/profile.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { badUserInput, spelled } from "./errors.js";
import { inputArgsOf } from "./inputs.js";

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
    args: { ...inputArgsOf(t.arg, PROFILE_REQUEST), edition: editionArg(t.arg) },
    resolve: (_root, args, context) => {
      const request = spelled(() => checkedProfileRequest(context.service.limits, args.cpu, args.workload));
      return consumptionProfile(context.edition(args.edition), request);
    },
  }),
  cpuBaseProfiles: t.field({
    type: [BaseProfileRef],
    description: "The base CPU power profiles of the edition's table.",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) => [...context.edition(args.edition).service.data.cpuProfiles],
  }),
}));
