import type { ArgBuilder, ObjectFieldBuilder } from "@pothos/core";
import { availability } from "../editions/features.js";
import type { PreparedAsset } from "../service/asset.js";
import {
  CRITERION_SPELLINGS,
  criterionEnumName,
  parseCriterion,
  type RequestedCriterion,
} from "../service/criteria.js";
import {
  type CriterionImpact,
  evaluationFor,
  type PhaseOutcome,
  type VerboseAttribute,
  type VerboseComponent,
  type VerboseReport,
} from "../service/evaluations/evaluations.js";
import { builder, type SchemaTypes } from "./builder.js";
import { spelled } from "./errors.js";
import { v1Attribute, v1CriterionImpact, v1Verbose } from "./v1Layout.js";

/** An enum value's description: the criterion's meaning and unit, from the one criteria table. */
function criterionValueDescription(spelling: string): string {
  const resolved = parseCriterion(spelling);
  if (!resolved) return spelling;
  const { info, computed } = resolved;
  const method = info.method ? ` (${info.method} method)` : "";
  const listedOnly = computed
    ? ""
    : ` The v1 key ${spelling}, answered as the reference answers it: listed, never computed (ask for ${info.name}).`;
  return `${info.description}, in ${info.unit}${method}.${listedOnly}`;
}

export const CriterionEnum = builder.enumType("Criterion", {
  description:
    "Impact criterion, spelled as the v1 API spells it. gwp, adp and pe are the headline criteria; the others are PEF criteria. " +
    "`CTUh_c_listed`/`CTUh_nc_listed` are the v1 keys `CTUh_c`/`CTUh_nc`, listed as the reference lists them (not computed); `ctuh_c`/`ctuh_nc` are computed. " +
    `\`fe\` (final energy): ${availability("finalEnergy")}`,
  values: Object.fromEntries(
    CRITERION_SPELLINGS.map((spelling) => [
      criterionEnumName(spelling),
      { value: spelling, description: criterionValueDescription(spelling) },
    ]),
  ),
});

const AllocationEnum = builder.enumType("Allocation", {
  description:
    "LINEAR: embedded impacts allocated over the duration (duration / lifetime, at most 1). " +
    "TOTAL: the whole embedded impact whatever the duration. Use impacts are the same in both.",
  values: {
    LINEAR: { description: "Embedded impacts × min(1, duration / lifetime) (the default)." },
    TOTAL: { description: "The whole embedded impact, whatever the duration." },
  } as const,
});

interface ImpactShape {
  readonly value: number;
  readonly min: number;
  readonly max: number;
  readonly warnings: readonly string[];
  /** The impact before §12's rounding, where the evaluation keeps it. */
  readonly unrounded?: UnroundedShape | null;
}

interface UnroundedShape {
  readonly value: number;
  readonly min: number;
  readonly max: number;
}

const UnroundedImpactRef = builder.objectRef<UnroundedShape>("UnroundedImpact").implement({
  description:
    "An impact before rounding (docs/methodology.md §12): what sums of many evaluations (hours of an Impact Framework pipeline, a fleet's lines) should add, so that they add up to the evaluation of the whole.",
  fields: (t) => ({
    value: t.exposeFloat("value", { description: "The impact in the criterion's unit, unrounded." }),
    min: t.exposeFloat("min", { description: "Lower bound, unrounded." }),
    max: t.exposeFloat("max", { description: "Upper bound, unrounded." }),
  }),
});

const ImpactRef = builder.objectRef<ImpactShape>("Impact").implement({
  description: "A rounded impact with its error margin (min, max) and warnings.",
  fields: (t) => ({
    value: t.exposeFloat("value", {
      description: "The impact in the criterion's unit, rounded to the significant figures of its margin.",
    }),
    min: t.exposeFloat("min", { description: "Lower bound, in the criterion's unit." }),
    max: t.exposeFloat("max", { description: "Upper bound, in the criterion's unit." }),
    warnings: t.exposeStringList("warnings", {
      description: "Caveats of the computation (e.g. an end-of-life phase not included).",
    }),
    unrounded: t.field({
      type: UnroundedImpactRef,
      nullable: true,
      description:
        "The same impact before rounding; null in a verbose report's component impacts and a fleet's totals, which keep only the rounded value.",
      resolve: (impact) => impact.unrounded ?? null,
    }),
  }),
});

const NotImplementedRef = builder.objectRef<{ readonly reason: string }>("NotImplemented").implement({
  description: "The methodology has no data to compute this criterion and phase for this asset.",
  fields: (t) => ({
    reason: t.exposeString("reason", { description: "Why there is no value (`not implemented`)." }),
  }),
});

export const PhaseImpactRef = builder.unionType("PhaseImpact", {
  description: "A phase's impact: a value with its margin, or the reason why there is none.",
  types: [ImpactRef, NotImplementedRef],
  resolveType: (value) => ("reason" in value ? NotImplementedRef : ImpactRef),
});

/**
 * A phase as GraphQL shows it: the REST answer's warnings, plus the notices the reference keeps
 * silent about (an unknown usage location replaced by the default one).
 */
export function phaseShape(
  outcome: PhaseOutcome,
  notices: readonly string[] = [],
  unrounded: UnroundedShape | null = null,
): ImpactShape | { reason: string } {
  if (outcome === "not implemented") return { reason: "not implemented" };
  if (notices.length === 0 && unrounded === null) return outcome;
  return { ...outcome, warnings: [...new Set([...outcome.warnings, ...notices])], unrounded };
}

/** A criterion's impacts; each phase is computed only when its field is selected. */
interface CriterionImpactShape {
  readonly criterion: RequestedCriterion;
  readonly phase: (phase: "embedded" | "use") => PhaseOutcome;
  /** What GraphQL adds to the phase's warnings (the v1 layout keeps the reference's). */
  readonly notices: (phase: "embedded" | "use") => readonly string[];
  /** The phase before rounding, when the evaluation keeps it. */
  readonly unrounded?: (phase: "embedded" | "use") => UnroundedShape | null;
}

/** The fields naming a criterion (as requested, the unit of its values, what it measures). */
export function criterionFields<P extends { readonly criterion: RequestedCriterion }>(
  t: ObjectFieldBuilder<SchemaTypes, P>,
) {
  return {
    criterion: t.string({
      description: "The criterion as requested.",
      resolve: (p) => p.criterion.requested,
    }),
    unit: t.string({
      description: "Unit of the values (e.g. kgCO2eq for gwp).",
      resolve: (p) => p.criterion.info.unit,
    }),
    description: t.string({
      description: "What the criterion measures.",
      resolve: (p) => p.criterion.info.description,
    }),
  };
}

const CriterionImpactRef = builder.objectRef<CriterionImpactShape>("CriterionImpact").implement({
  description: "The impacts of one criterion, split into embedded (manufacturing) and use (electricity).",
  fields: (t) => ({
    ...criterionFields(t),
    embedded: t.field({
      type: PhaseImpactRef,
      description: "Manufacturing impact, allocated over the duration (see `allocation`).",
      resolve: (p) => phaseShape(p.phase("embedded"), p.notices("embedded"), p.unrounded?.("embedded")),
    }),
    use: t.field({
      type: PhaseImpactRef,
      description:
        "Use impact over the duration. Its warnings also say when an unknown usage location was replaced by the default one (the v1 layout, like the reference, does not).",
      resolve: (p) => phaseShape(p.phase("use"), p.notices("use"), p.unrounded?.("use")),
    }),
    v1: t.field({
      type: "JSON",
      description:
        "The same impacts in boaviztapi v1's JSON layout ({unit, description, embedded, use}); computes both phases.",
      resolve: (p) => v1CriterionImpact(p.criterion.info, p.phase("embedded"), p.phase("use")),
      // About 230 bytes in the answer (see answerSize.ts).
      extensions: { answerBytes: 240 },
    }),
  }),
});

function computedImpactShape(impact: CriterionImpact): CriterionImpactShape {
  return { criterion: impact.criterion, phase: (phase) => impact[phase], notices: () => [] };
}

const AttributeStatusEnum = builder.enumType("AttributeStatus", {
  description: "Where an attribute's value comes from.",
  values: {
    INPUT: { description: "Given by the client." },
    COMPLETED: { description: "Derived from other attributes or a reference table (e.g. a CPU name match)." },
    DEFAULT: { description: "The methodology's default value." },
    CHANGED: {
      description:
        "Given by the client but replaced: unknown location, manufacturer or CPU family corrected.",
    },
    ARCHETYPE: { description: "Taken from the archetype the asset starts from." },
  } as const,
});

const AttributeReportRef = builder.objectRef<VerboseAttribute>("AttributeReport").implement({
  description: "An attribute used by the computation, with its provenance.",
  fields: (t) => ({
    name: t.exposeString("name", {
      description: "Attribute name as in v1 (e.g. `core_units`, `gwp_factor`).",
    }),
    value: t.field({
      type: "JSON",
      nullable: true,
      description: "The value used (number, text or list), in `unit`.",
      resolve: (a) => a.entry.value,
    }),
    status: t.field({
      type: AttributeStatusEnum,
      description: "Where the value comes from.",
      resolve: (a) => a.entry.status as "INPUT" | "COMPLETED" | "DEFAULT" | "CHANGED" | "ARCHETYPE",
    }),
    unit: t.string({
      nullable: true,
      description: "Unit of value, min and max, when the attribute has one.",
      resolve: (a) => a.entry.unit ?? null,
    }),
    source: t.string({
      nullable: true,
      description: "Reference the value comes from (e.g. a factor's source), when known.",
      resolve: (a) => a.entry.source ?? null,
    }),
    min: t.field({
      type: "JSON",
      nullable: true,
      description: "Lower bound (see hasMin).",
      resolve: (a) => a.entry.min,
    }),
    max: t.field({
      type: "JSON",
      nullable: true,
      description: "Upper bound (see hasMax).",
      resolve: (a) => a.entry.max,
    }),
    hasMin: t.boolean({
      description: "Whether a lower bound is reported.",
      resolve: (a) => "min" in a.entry,
    }),
    hasMax: t.boolean({
      description: "Whether an upper bound is reported.",
      resolve: (a) => "max" in a.entry,
    }),
    warnings: t.stringList({
      description: "Caveats about this value.",
      resolve: (a) => [...(a.entry.warnings ?? [])],
    }),
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
    impacts: t.field({
      type: [CriterionImpactRef],
      description: "The component's own impacts (all its units).",
      resolve: (c) => c.impacts.map(computedImpactShape),
    }),
    attributes: t.field({
      type: [AttributeReportRef],
      description: "The component's attributes.",
      resolve: (c) => [...c.attributes],
    }),
    duration: t.float({
      nullable: true,
      description: "Hours the impacts cover; null when none is known.",
      resolve: (c) => c.duration,
    }),
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
    components: t.field({
      type: [VerboseComponentRef],
      description: "Each component of the device, in device order.",
      resolve: (v) => [...v.components],
    }),
    attributes: t.field({
      type: [AttributeReportRef],
      description: "The device's own attributes (usage, factors…).",
      resolve: (v) => [...v.attributes],
    }),
    v1: t.field({
      type: "JSON",
      description: "The whole report in boaviztapi v1's verbose JSON layout.",
      resolve: v1Verbose,
      // About 10 kB for a server with 3 criteria, 34 kB with 24 (see answerSize.ts).
      extensions: { answerBytesPerCriterion: 3000 },
    }),
  }),
});

export const impactArgs = (arg: ArgBuilder<SchemaTypes>) => ({
  criteria: arg({
    type: [CriterionEnum],
    required: false,
    description: "Defaults to the edition's default_criteria setting (gwp, adp, pe).",
  }),
  duration: arg.float({ required: false, description: "Hours; defaults to the use time or the lifetime." }),
  allocation: arg({ type: AllocationEnum, required: false, description: "Defaults to LINEAR." }),
});

/**
 * What every evaluated type shares (Server, Component, CloudInstance, Terminal, IotDevice): the
 * `impacts` and `verbose` fields, described once. A GraphQL interface, so that a client's (and
 * the shim's) selection of them is one fragment `on Asset` whatever the type.
 */
export const AssetRef = builder.interfaceRef<PreparedAsset>("Asset").implement({
  description:
    "Something the service evaluates (a server, a component, a cloud instance, a terminal or peripheral, " +
    "an IoT device): its impacts per criterion and the attributes used.",
  fields: (t) => ({
    impacts: t.field({
      type: [CriterionImpactRef],
      description: "Impacts per criterion, in the requested order. Each phase is computed only if selected.",
      args: impactArgs(t.arg),
      resolve: (parent, args, context): CriterionImpactShape[] => {
        const evaluation = spelled(() => evaluationFor(context, parent, args));
        // A phase may refuse the request (a figure nothing gives, where the reference fails).
        return evaluation.criteria.map((criterion) => ({
          criterion,
          phase: (phase) => spelled(() => evaluation.impact(criterion, phase)),
          notices: (phase) => spelled(() => evaluation.notices(criterion, phase)),
          unrounded: (phase) => spelled(() => evaluation.raw(criterion, phase)),
        }));
      },
    }),
    verbose: t.field({
      type: VerboseRef,
      description: "Attributes used and per-component impacts; computed only when selected.",
      args: impactArgs(t.arg),
      resolve: (parent, args, context) => spelled(() => evaluationFor(context, parent, args).verbose()),
    }),
  }),
});

/**
 * The root fields that evaluate one asset (`server`, `cpu`, `cloudInstance`…) are nullable: a
 * document asking several assets (aliases) keeps the others' answers when one fails (an unknown
 * instance type), as a fleet's items do; a non-null root field would null the whole `data`.
 */
export const ASSET_FIELD_NULLABLE = true;
