import type { ArgBuilder } from "@pothos/core";
import type { Asset } from "../engine/evaluation.js";
import {
  ALL_CRITERIA,
  type Allocation,
  type CriterionImpact,
  DEFAULT_CRITERIA,
  type EditionRules,
  Evaluation,
  type PhaseOutcome,
  type RequestedCriterion,
  resolveCriterion,
  type VerboseAttribute,
  type VerboseComponent,
  type VerboseReport,
} from "../engine/index.js";
import { builder, type SchemaTypes } from "./builder.js";
import type { RequestContext } from "./context.js";
import { badUserInput } from "./errors.js";
import { REASONABLE, reasonable } from "./inputs.js";
import { v1Attribute, v1CriterionImpact, v1Verbose } from "./v1Layout.js";

/** Every spelling the v1 API accepts, keys (`CTUh_c`) and computation names (`ctuh_c`). */
const CRITERION_VALUES = [...new Set(ALL_CRITERIA.flatMap((c) => [c.key, c.name]))];

export const CriterionEnum = builder.enumType("Criterion", {
  description:
    "Impact criterion. gwp, adp and pe are the headline criteria; the others are PEF criteria. " +
    "`CTUh_c`/`CTUh_nc` are listed as the reference lists them (not computed); `ctuh_c`/`ctuh_nc` are computed. " +
    "`fe` (final energy) exists in edition 2.4.1 only.",
  values: CRITERION_VALUES,
});

export const AllocationEnum = builder.enumType("Allocation", {
  description:
    "LINEAR: embedded impacts allocated over the duration (duration / lifetime, at most 1). " +
    "TOTAL: the whole embedded impact whatever the duration. Use impacts are the same in both.",
  values: ["LINEAR", "TOTAL"] as const,
});

interface ImpactShape {
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly warnings: readonly string[];
}

const ImpactRef = builder.objectRef<ImpactShape>("Impact").implement({
  description: "A rounded impact with its error margin (min, max) and warnings.",
  fields: (t) => ({
    value: t.exposeFloat("value"),
    min: t.exposeFloat("min"),
    max: t.exposeFloat("max"),
    warnings: t.exposeStringList("warnings"),
  }),
});

const NotImplementedRef = builder.objectRef<{ readonly reason: string }>("NotImplemented").implement({
  description: "The methodology has no data to compute this criterion and phase for this asset.",
  fields: (t) => ({ reason: t.exposeString("reason") }),
});

const PhaseImpactRef = builder.unionType("PhaseImpact", {
  types: [ImpactRef, NotImplementedRef],
  resolveType: (value) => ("reason" in value ? NotImplementedRef : ImpactRef),
});

/**
 * A phase as GraphQL shows it: the REST answer's warnings, plus the notices the reference keeps
 * silent about (an unknown usage location replaced by the default one).
 */
function phaseShape(
  outcome: PhaseOutcome,
  notices: readonly string[] = [],
): ImpactShape | { reason: string } {
  if (outcome === "not implemented") return { reason: "not implemented" };
  if (notices.length === 0) return outcome;
  return { ...outcome, warnings: [...new Set([...outcome.warnings, ...notices])] };
}

/** A criterion's impacts; each phase is computed only when its field is selected. */
interface CriterionImpactShape {
  readonly criterion: RequestedCriterion;
  readonly phase: (phase: "embedded" | "use") => PhaseOutcome;
  /** What GraphQL adds to the phase's warnings (the v1 layout keeps the reference's). */
  readonly notices: (phase: "embedded" | "use") => readonly string[];
}

export const CriterionImpactRef = builder.objectRef<CriterionImpactShape>("CriterionImpact").implement({
  fields: (t) => ({
    criterion: t.string({
      description: "The criterion as requested.",
      resolve: (p) => p.criterion.requested,
    }),
    unit: t.string({ resolve: (p) => p.criterion.info.unit }),
    description: t.string({ resolve: (p) => p.criterion.info.description }),
    embedded: t.field({
      type: PhaseImpactRef,
      description: "Manufacturing impact, allocated over the duration.",
      resolve: (p) => phaseShape(p.phase("embedded"), p.notices("embedded")),
    }),
    use: t.field({
      type: PhaseImpactRef,
      description:
        "Use impact over the duration. Its warnings also say when an unknown usage location was replaced by the default one (the v1 layout, like the reference, does not).",
      resolve: (p) => phaseShape(p.phase("use"), p.notices("use")),
    }),
    v1: t.field({
      type: "JSON",
      description:
        "The same impacts in boaviztapi v1's JSON layout ({unit, description, embedded, use}); computes both phases.",
      resolve: (p) => v1CriterionImpact(p.criterion.info, p.phase("embedded"), p.phase("use")),
    }),
  }),
});

function computedImpactShape(impact: CriterionImpact): CriterionImpactShape {
  return { criterion: impact.criterion, phase: (phase) => impact[phase], notices: () => [] };
}

const AttributeStatusEnum = builder.enumType("AttributeStatus", {
  values: ["INPUT", "COMPLETED", "DEFAULT", "CHANGED", "ARCHETYPE"] as const,
});

export const AttributeReportRef = builder.objectRef<VerboseAttribute>("AttributeReport").implement({
  description: "An attribute used by the computation, with its provenance.",
  fields: (t) => ({
    name: t.exposeString("name"),
    value: t.field({ type: "JSON", nullable: true, resolve: (a) => a.value }),
    status: t.field({
      type: AttributeStatusEnum,
      resolve: (a) => a.status as "INPUT" | "COMPLETED" | "DEFAULT" | "CHANGED" | "ARCHETYPE",
    }),
    unit: t.string({ nullable: true, resolve: (a) => a.unit ?? null }),
    source: t.string({ nullable: true, resolve: (a) => a.source ?? null }),
    min: t.field({ type: "JSON", nullable: true, resolve: (a) => a.min }),
    max: t.field({ type: "JSON", nullable: true, resolve: (a) => a.max }),
    hasMin: t.boolean({ description: "Whether a lower bound is reported.", resolve: (a) => "min" in a }),
    hasMax: t.boolean({ description: "Whether an upper bound is reported.", resolve: (a) => "max" in a }),
    warnings: t.stringList({ resolve: (a) => [...(a.warnings ?? [])] }),
    v1: t.field({
      type: "JSON",
      description:
        "The attribute in boaviztapi v1's verbose layout ({value, status, unit?, source?, min?, max?, warnings?}).",
      resolve: v1Attribute,
    }),
  }),
});

const VerboseComponentRef = builder.objectRef<VerboseComponent>("VerboseComponent").implement({
  description: "A component of a device, with its own impacts and attributes.",
  fields: (t) => ({
    key: t.exposeString("key", { description: "`CPU-1`, `RAM-2`… in device order." }),
    impacts: t.field({ type: [CriterionImpactRef], resolve: (c) => c.impacts.map(computedImpactShape) }),
    attributes: t.field({ type: [AttributeReportRef], resolve: (c) => [...c.attributes] }),
    duration: t.float({ nullable: true, resolve: (c) => c.duration }),
  }),
});

export const VerboseRef = builder.objectRef<VerboseReport>("Verbose").implement({
  description: "Every attribute used, its status, and each component's own impacts.",
  fields: (t) => ({
    duration: t.float({ nullable: true, description: "Hours.", resolve: (v) => v.duration }),
    impacts: t.field({
      type: [CriterionImpactRef],
      nullable: true,
      description: "Component routes repeat their impacts here (always gwp, adp and pe).",
      resolve: (v) => v.impacts?.map(computedImpactShape) ?? null,
    }),
    components: t.field({ type: [VerboseComponentRef], resolve: (v) => [...v.components] }),
    attributes: t.field({ type: [AttributeReportRef], resolve: (v) => [...v.attributes] }),
    v1: t.field({
      type: "JSON",
      description: "The whole report in boaviztapi v1's verbose JSON layout.",
      resolve: v1Verbose,
    }),
  }),
});

/** The object behind Server, Component, CloudInstance, Terminal…: how to build a fresh model. */
export interface AssetParent {
  readonly build: () => Asset;
  /** Hours of the cumulative `*_use_time` usage fields, when given. */
  readonly usageHours: number | null;
}

interface ImpactArgs {
  readonly criteria?: readonly string[] | null;
  readonly duration?: number | null;
  readonly allocation?: Allocation | null;
}

/** The requested criteria (default gwp, adp, pe), each one the edition computes. */
export function requestedCriteria(
  criteria: readonly string[] | null | undefined,
  rules: EditionRules,
): RequestedCriterion[] {
  return (criteria ?? DEFAULT_CRITERIA).map((name) => {
    const resolved = resolveCriterion(name);
    if (!resolved || !rules.criteria.includes(resolved.info)) {
      throw badUserInput(`unknown criterion ${name} in edition ${rules.version}`, ["criteria"]);
    }
    return resolved;
  });
}

/**
 * One evaluation per asset, (duration, allocation) and requested criteria within a request:
 * each answers exactly what the REST route answers for the same query (an evaluation's numbers
 * depend on its criteria set, since completion happens during the first computation).
 */
export function evaluationFor(context: RequestContext, parent: AssetParent, args: ImpactArgs): Evaluation {
  if (args.duration != null && !(args.duration >= 0 && reasonable.safeParse(args.duration).success)) {
    throw badUserInput(
      `duration must be a non-negative number of hours, 0 or within ${REASONABLE.smallest}–${REASONABLE.largest}`,
      ["duration"],
    );
  }
  const duration = args.duration ?? parent.usageHours;
  const allocation = args.allocation ?? "LINEAR";
  let byOptions = context.evaluations.get(parent);
  if (!byOptions) {
    byOptions = new Map();
    context.evaluations.set(parent, byOptions);
  }
  // The criteria as spelled select the evaluation; they are resolved against the edition of the
  // asset once it is built.
  const key = `${duration}|${allocation}|${(args.criteria ?? DEFAULT_CRITERIA).join(",")}`;
  let evaluation = byOptions.get(key);
  if (!evaluation) {
    const asset = parent.build();
    const criteria = requestedCriteria(args.criteria, asset.rules);
    evaluation = new Evaluation(asset, { duration, allocation, criteria });
    byOptions.set(key, evaluation);
  }
  return evaluation;
}

export const impactArgs = (arg: ArgBuilder<SchemaTypes>) => ({
  criteria: arg({ type: [CriterionEnum], required: false, description: "Defaults to gwp, adp, pe." }),
  duration: arg.float({ required: false, description: "Hours; defaults to the use time or the lifetime." }),
  allocation: arg({ type: AllocationEnum, required: false, description: "Defaults to LINEAR." }),
});

/** `impacts` and `verbose` fields shared by every asset type. */
export function assetImpactFields<P extends AssetParent>(
  t: PothosSchemaTypes.ObjectFieldBuilder<SchemaTypes, P>,
) {
  return {
    impacts: t.field({
      type: [CriterionImpactRef],
      description: "Impacts per criterion, in the requested order. Each phase is computed only if selected.",
      args: impactArgs(t.arg),
      resolve: (parent, args, context): CriterionImpactShape[] => {
        const evaluation = evaluationFor(context, parent, args);
        return evaluation.criteria.map((criterion) => ({
          criterion,
          phase: (phase) => evaluation.impact(criterion, phase),
          notices: (phase) => evaluation.notices(criterion, phase),
        }));
      },
    }),
    verbose: t.field({
      type: VerboseRef,
      description: "Attributes used and per-component impacts; computed only when selected.",
      args: impactArgs(t.arg),
      resolve: (parent, args, context) => evaluationFor(context, parent, args).verbose(),
    }),
  };
}
