import { PROFILE_REQUEST, PROFILE_USAGE, type PROFILE_USE_REQUEST } from "../inputs/inputFields.js";
import type { GraphQLValueOf } from "../inputs/types.js";
import type { RequestedCriterion } from "../service/criteria.js";
import { type Evaluation, evaluationFor } from "../service/evaluations/evaluations.js";
import type { EditionContext } from "../service/open.js";
import {
  checkedProfileRequest,
  consumptionProfile,
  powerAtLoad,
  type ServedProfile,
} from "../service/profile.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { badUserInput, rethrowSpelled, spelled, spelledUseCase } from "./errors.js";
import { criterionFields, impactArgs, PhaseImpactRef, phaseShape, VerboseRef } from "./impact.js";
import { inputArgsOf, inputRef } from "./inputs.js";
import { v1UseImpact } from "./v1Layout.js";

const EnergyRef = builder
  .objectRef<{ readonly value: number; readonly min: number; readonly max: number }>("Energy")
  .implement({
    description: "Electricity drawn over a duration, with its margin, in kWh (rounded as an impact).",
    fields: (t) => ({
      value: t.exposeFloat("value", { description: "kWh." }),
      min: t.exposeFloat("min", { description: "Lower bound, kWh." }),
      max: t.exposeFloat("max", { description: "Upper bound, kWh." }),
      unit: t.string({ description: "Always kWh.", resolve: () => "kWh" }),
    }),
  });

const ProfileCriterionImpactRef = builder
  .objectRef<{ evaluation: Evaluation; criterion: RequestedCriterion }>("ProfileCriterionImpact")
  .implement({
    description: "One criterion's use impact of a profiled CPU (a profile has no manufacturing impact).",
    fields: (t) => ({
      ...criterionFields(t),
      use: t.field({
        type: PhaseImpactRef,
        description:
          "Use impact over the duration: value, min and max in `unit`, or why there is none (a criterion without electricity factor).",
        resolve: ({ evaluation, criterion }) =>
          spelled(() =>
            phaseShape(
              evaluation.impact(criterion, "use"),
              evaluation.notices(criterion, "use"),
              evaluation.raw(criterion, "use"),
            ),
          ),
      }),
      v1: t.field({
        type: "JSON",
        description:
          "The same in boaviztapi v1's layout of a criterion ({unit, description, use}), no embedded key.",
        resolve: ({ evaluation, criterion }) =>
          spelled(() => v1UseImpact(criterion.info, evaluation.impact(criterion, "use"))),
      }),
    }),
  });

const ProfileImpactsRef = builder.objectRef<Evaluation>("ProfileImpacts").implement({
  description:
    "The use phase of a CPU of this profile: per criterion, and the electricity behind it. Embedded (manufacturing) impacts are not part of a profile: evaluate the CPU (`cpu`) for them.",
  fields: (t) => ({
    duration: t.float({ nullable: true, description: "Hours evaluated.", resolve: (e) => e.duration }),
    energy: t.field({
      type: EnergyRef,
      nullable: true,
      description:
        "Electricity drawn over the duration (kWh): power at the workload × use-time ratio × hours.",
      resolve: (e) => {
        const energy = spelled(() => e.energy());
        return energy === "not implemented" ? null : energy;
      },
    }),
    criteria: t.field({
      type: [ProfileCriterionImpactRef],
      description: "Use impacts per criterion, in the requested order; each computed only if selected.",
      resolve: (evaluation) => evaluation.criteria.map((criterion) => ({ evaluation, criterion })),
    }),
    verbose: t.field({
      type: VerboseRef,
      description:
        "The attributes used (workload, place, factors, the profile's parameters) with their status; computed only when selected.",
      resolve: (evaluation) => spelled(() => evaluation.verbose()),
    }),
  }),
});

export const ConsumptionProfileRef = builder.objectRef<ServedProfile>("ConsumptionProfile").implement({
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
    impacts: t.field({
      type: ProfileImpactsRef,
      description:
        "The use-phase impacts of a CPU of this profile at a workload (one load, or time shares of loads), in a place, for a duration: per criterion and the energy in kWh, the same numbers as the CPU component's use impacts for a CPU of these parameters. Embedded (manufacturing) impacts are not part of a profile.",
      args: {
        criteria: impactArgs(t.arg).criteria,
        duration: impactArgs(t.arg).duration,
        usage: t.arg({
          type: inputRef(PROFILE_USAGE),
          required: false,
          description:
            "Load, place and time of the CPU; default: a fleet item's own usage, else the edition's default CPU archetype's.",
        }),
      },
      resolve: (profile, args, context) =>
        spelled(() => {
          const prepared = args.usage == null ? profile : profile.withUsage(args.usage, ["usage"]);
          return evaluationFor(context, prepared, { criteria: args.criteria, duration: args.duration });
        }),
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

/** A fleet item: its CPU, points and usage checked at its path (the use case's errors spelled). */
export const resolveProfileItem = spelledUseCase(
  async (
    edition: EditionContext,
    item: GraphQLValueOf<typeof PROFILE_USE_REQUEST>,
    path: readonly string[],
  ): Promise<ServedProfile> => {
    const request = checkedProfileRequest(edition.limits, item.cpu, item.workload, path);
    return consumptionProfile(edition, request, item.usage, [...path, "usage"]);
  },
);

builder.queryFields((t) => ({
  consumptionProfile: t.field({
    type: ConsumptionProfileRef,
    description: "The CPU power profile of a CPU, fitted to measured workload points when given.",
    args: { ...inputArgsOf(t.arg, PROFILE_REQUEST), edition: editionArg(t.arg) },
    resolve: (_root, args, context) => {
      const request = spelled(() => checkedProfileRequest(context.service.limits, args.cpu, args.workload));
      return consumptionProfile(context.edition(args.edition), request).catch(rethrowSpelled);
    },
  }),
  cpuBaseProfiles: t.field({
    type: [BaseProfileRef],
    description: "The base CPU power profiles of the edition's table.",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) => [...context.edition(args.edition).service.data.cpuProfiles],
  }),
}));
