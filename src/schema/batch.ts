import type { ArgBuilder, ObjectRef } from "@pothos/core";
import { type GraphQLError, type GraphQLResolveInfo, Kind, type SelectionSetNode } from "graphql";
import { CLOUD_INSTANCE_ITEM, PROFILE_USE_REQUEST, TERMINAL } from "../inputs/inputFields.js";
import type { PreparedAsset } from "../service/asset.js";
import type { EditionRules, RequestedCriterion } from "../service/criteria.js";
import {
  componentKinds,
  PERIPHERAL_KINDS,
  TERMINAL_KINDS,
  type UserDeviceKind,
} from "../service/engineVocabulary.js";
import { evaluationHandover } from "../service/evaluations/evaluations.js";
import { fleetTotals, type PhaseTotal } from "../service/evaluations/totals.js";
import type { EditionContext } from "../service/open.js";
import type { RequestContext } from "../service/requestState.js";
import { builder, type SchemaTypes } from "./builder.js";
import { CloudInstanceRef, resolveCloudInstance } from "./cloud.js";
import {
  COMPONENT_FIELD_NAMES,
  COMPONENT_INPUT_TYPES,
  ComponentKindEnum,
  ComponentRef,
  resolveComponent,
} from "./component.js";
import { editionArg } from "./edition.js";
import { rethrowSpelled, spelled } from "./errors.js";
import { fleetAnswerBytes } from "./execution/answerSize.js";
import { admitFleet, releaseInChunks } from "./execution/scheduling.js";
import { impactArgs } from "./impact.js";
import { inputFieldsOf, inputRef, serverInputFields } from "./inputs.js";
import { deferredPerItem, isStreamed, streamInSlices } from "./plugins/streamArguments.js";
import { ConsumptionProfileRef, resolveProfileItem } from "./profile.js";
import { resolveServer, ServerRef } from "./server.js";
import { kindValues, resolveDevice, TerminalRef } from "./terminal.js";

/** A fleet: one entry per item, in order; an item that failed carries its error. */
interface Batch<P extends PreparedAsset> {
  readonly entries: readonly (P | GraphQLError)[];
  /** The rules of the fleet's edition (its totals are rounded like an item's). */
  readonly rules: EditionRules;
  /**
   * Whether the fleet's items select their impacts or verbose report: the totals then keep the
   * evaluations they make for the items to answer from (one computation per item and phase).
   */
  readonly itemsEvaluated: boolean;
  /**
   * Told of an item once its totals pass or its own completion has read its evaluations, when the
   * fleet has exactly one reader of each (selectedOnceEach): the second forgets them.
   */
  readonly handover: ((item: object) => void) | null;
}

const EVALUATED_FIELDS: ReadonlySet<string> = new Set(["impacts", "verbose"]);

/** Whether a selection holds one of these fields at any depth (its fragments followed). */
function selectsAny(
  selections: SelectionSetNode | undefined,
  names: ReadonlySet<string>,
  info: GraphQLResolveInfo,
  seen: ReadonlySet<string> = new Set(),
): boolean {
  return (selections?.selections ?? []).some((selection) => {
    if (selection.kind === Kind.FIELD) {
      return names.has(selection.name.value) || selectsAny(selection.selectionSet, names, info, seen);
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) return selectsAny(selection.selectionSet, names, info, seen);
    const fragment = info.fragments[selection.name.value];
    if (!fragment || seen.has(fragment.name.value)) return false;
    return selectsAny(fragment.selectionSet, names, info, new Set([...seen, fragment.name.value]));
  });
}

/** The `items` fields of a fleet's selection (through its fragments). */
function itemsSelections(
  selections: SelectionSetNode | undefined,
  info: GraphQLResolveInfo,
  seen: ReadonlySet<string> = new Set(),
): SelectionSetNode[] {
  return (selections?.selections ?? []).flatMap((selection) => {
    if (selection.kind === Kind.FIELD) {
      return selection.name.value === "items" && selection.selectionSet ? [selection.selectionSet] : [];
    }
    if (selection.kind === Kind.INLINE_FRAGMENT) return itemsSelections(selection.selectionSet, info, seen);
    const fragment = info.fragments[selection.name.value];
    if (!fragment || seen.has(fragment.name.value)) return [];
    return itemsSelections(fragment.selectionSet, info, new Set([...seen, fragment.name.value]));
  });
}

/** Whether any selection under these holds a directive (`@defer`, `@stream`, `@include`…). */
function holdsDirectives(selections: SelectionSetNode | undefined): boolean {
  return (selections?.selections ?? []).some(
    (selection) =>
      (selection.directives?.length ?? 0) > 0 ||
      (selection.kind !== Kind.FRAGMENT_SPREAD && holdsDirectives(selection.selectionSet)),
  );
}

/**
 * Whether a fleet field selects `items` once and `total` once, directly, with no directive below
 * it: its items' evaluations then have exactly two readers, the totals' one pass and each item's
 * completion in its chunk (evaluationHandover).
 */
function selectedOnceEach(info: GraphQLResolveInfo): boolean {
  if (info.fieldNodes.length !== 1) return false;
  const { selectionSet } = info.fieldNodes[0];
  const selections = selectionSet?.selections ?? [];
  if (selections.some((selection) => selection.kind !== Kind.FIELD) || holdsDirectives(selectionSet))
    return false;
  const named = (name: string) =>
    selections.filter((selection) => selection.kind === Kind.FIELD && selection.name.value === name).length;
  return named("items") === 1 && named("total") === 1;
}

/** Whether a fleet field's items select their impacts or verbose report. */
function selectsItemEvaluations(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((node) =>
    itemsSelections(node.selectionSet, info).some((items) => selectsAny(items, EVALUATED_FIELDS, info)),
  );
}

function isItem<P extends PreparedAsset>(entry: P | GraphQLError): entry is P {
  return !(entry instanceof Error);
}

const TotalImpactRef = builder.objectRef<PhaseTotal>("TotalImpact").implement({
  description: "Impacts summed over a fleet's items (value, min and max summed, then rounded like an item).",
  fields: (t) => ({
    value: t.exposeFloat("value", { description: "Sum of the items' values, in the criterion's unit." }),
    min: t.exposeFloat("min", { description: "Sum of the items' lower bounds." }),
    max: t.exposeFloat("max", { description: "Sum of the items' upper bounds." }),
    warnings: t.exposeStringList("warnings", { description: "The items' warnings, each once." }),
    items: t.exposeInt("items", { description: "Items contributing to the sum." }),
    notImplemented: t.exposeInt("notImplemented", { description: "Items for which it is not implemented." }),
  }),
});

const PHASE_TOTALS = {
  embedded: "Manufacturing impacts summed.",
  use: "Use impacts summed.",
} as const;

/** A phase of a total, as the fields above name them (the engine's phases). */
type Phase = keyof typeof PHASE_TOTALS;

interface CriterionTotalShape {
  readonly criterion: RequestedCriterion;
  readonly phase: (phase: Phase) => Promise<PhaseTotal>;
}

/** A criterion's total over a fleet, with a field per phase its items have. */
function criterionTotalRef(name: string, description: string, phases: readonly Phase[]) {
  return builder.objectRef<CriterionTotalShape>(name).implement({
    description,
    fields: (t) => ({
      criterion: t.string({
        description: "The criterion as requested.",
        resolve: (p) => p.criterion.requested,
      }),
      unit: t.string({ description: "Unit of the sums.", resolve: (p) => p.criterion.info.unit }),
      description: t.string({
        description: "What the criterion measures.",
        resolve: (p) => p.criterion.info.description,
      }),
      ...Object.fromEntries(
        phases.map((phase) => [
          phase,
          t.field({ type: TotalImpactRef, description: PHASE_TOTALS[phase], resolve: (p) => p.phase(phase) }),
        ]),
      ),
    }),
  });
}

const CriterionTotalRef = criterionTotalRef(
  "CriterionTotal",
  "A criterion's impacts summed over a fleet, per phase.",
  ["embedded", "use"],
);

const UseTotalRef = criterionTotalRef(
  "UseTotal",
  "A criterion's use impacts summed over a fleet of consumption profiles (a profile has no manufacturing impact).",
  ["use"],
);

/** What a fleet's `total` shows per criterion, and the arguments it takes. */
interface TotalShape {
  readonly ref: typeof CriterionTotalRef;
  readonly args: (arg: ArgBuilder<SchemaTypes>) => Partial<ReturnType<typeof impactArgs>>;
}

const ASSET_TOTAL: TotalShape = { ref: CriterionTotalRef, args: impactArgs };
/** Profiles have no embedded phase: no allocation either. */
const USE_TOTAL: TotalShape = {
  ref: UseTotalRef,
  args: (arg) => {
    const { criteria, duration } = impactArgs(arg);
    return { criteria, duration };
  },
};

function batchRef<P extends PreparedAsset>(
  name: string,
  itemRef: ObjectRef<SchemaTypes, P>,
  description: string,
  totals: TotalShape = ASSET_TOTAL,
) {
  return builder.objectRef<Batch<P>>(name).implement({
    description,
    fields: (t) => ({
      count: t.int({ description: "Items in the request.", resolve: (b) => b.entries.length }),
      failed: t.int({
        description: "Items that could not be evaluated.",
        resolve: (b) => b.entries.filter((e) => !isItem(e)).length,
      }),
      items: t.field({
        type: [itemRef],
        nullable: { list: false, items: true },
        description: "One result per input, in order; a failed item is null with an error at its path.",
        // The executor reports an Error found in a list at that item's path, not for the whole
        // batch. Items are handed out chunk by chunk, as an async iterable, so the fleet does not
        // hold the event loop (scheduling.ts); streamed, paced by the reader (streamArguments.ts).
        resolve: (b, _args, context, info) =>
          isStreamed(info)
            ? streamInSlices(b.entries as P[], context.signal, context, info)
            : // A cancelled item's error is its entry, as a failed item's is (reported at its path).
              (releaseInChunks(
                b.entries as P[],
                context.signal,
                context.service.turns,
                b.handover ?? undefined,
              ) as AsyncGenerator<P>),
      }),
      total: t.field({
        type: [totals.ref],
        description: "Impacts summed per criterion and phase over the evaluated items.",
        args: totals.args(t.arg),
        resolve: (b, args, context): CriterionTotalShape[] => {
          const fleet = {
            items: b.entries.filter(isItem),
            rules: b.rules,
            itemsEvaluated: b.itemsEvaluated,
            summed: b.handover ?? undefined,
          };
          const { criteria, total } = spelled(() => fleetTotals(context, fleet, args));
          return criteria.map((criterion) => ({
            criterion,
            phase: (phase) => total(criterion, phase).catch(rethrowSpelled),
          }));
        },
      }),
    }),
  });
}

/**
 * A fleet's items resolved in the requested edition, each with its path in the `inputs` argument;
 * an item's error becomes its entry (the others still answer).
 */
async function resolveBatch<I, P extends PreparedAsset>(
  context: RequestContext,
  info: GraphQLResolveInfo,
  inputs: readonly I[],
  editionId: string | null | undefined,
  resolveItem: (input: I, edition: EditionContext, path: readonly string[]) => Promise<P>,
): Promise<Batch<P>> {
  const edition = context.edition(editionId);
  // Each `@defer` inside the items is one more payload per item: counted as one more item.
  const weighed = inputs.length * (1 + deferredPerItem(info));
  await admitFleet(context, weighed, ["inputs"], fleetAnswerBytes(info, inputs.length));
  const pending = await context.chunks.map(
    inputs.map((input, index) => ({ input, index })),
    (item) =>
      resolveItem(item.input, edition, ["inputs", String(item.index)]).catch((error: GraphQLError) => error),
  );
  const itemsEvaluated = selectsItemEvaluations(info);
  return {
    entries: await Promise.all(pending),
    rules: edition.engine.rules,
    itemsEvaluated,
    handover: itemsEvaluated && selectedOnceEach(info) ? evaluationHandover(context) : null,
  };
}

const ServerItemInput = builder.inputType("ServerItemInput", {
  description: "A server of a fleet: the `server` query's archetype and input in one object.",
  fields: (t) => ({
    archetype: t.string({
      required: false,
      description: "Server archetype id; default platform_compute_medium.",
    }),
    ...serverInputFields(t),
  }),
});

const ComponentItemInput = builder.inputType("ComponentItemInput", {
  description: "A component of a fleet: its kind, an optional archetype and the input of that kind.",
  fields: (t) => ({
    kind: t.field({ type: ComponentKindEnum, required: true, description: "The component kind." }),
    archetype: t.string({ required: false, description: "Archetype id of that kind; default `DEFAULT`." }),
    ...Object.fromEntries(
      componentKinds.map((kind) => [
        COMPONENT_FIELD_NAMES[kind],
        t.field({
          type: COMPONENT_INPUT_TYPES[kind],
          required: false,
          description: `The input when kind is ${kind} (ignored otherwise).`,
        }),
      ]),
    ),
  }),
});

const CloudInstanceItemInput = inputRef(CLOUD_INSTANCE_ITEM);

const UserDeviceKindEnum = builder.enumType("UserDeviceKind", {
  description: "Terminal and peripheral kinds.",
  values: kindValues<UserDeviceKind>([...TERMINAL_KINDS, ...PERIPHERAL_KINDS]),
});

const TerminalItemInput = builder.inputType("TerminalItemInput", {
  description: "A terminal or peripheral of a fleet.",
  fields: (t) => ({
    kind: t.field({ type: UserDeviceKindEnum, required: true, description: "The device kind." }),
    archetype: t.string({
      required: false,
      description: "user_terminal.csv row id; default the kind's own row.",
    }),
    ...inputFieldsOf(t, TERMINAL),
  }),
});

const ConsumptionProfileItemInput = inputRef(PROFILE_USE_REQUEST);

/**
 * The input types of a fleet's items: a variable holding a list of them is a fleet, counted
 * against MAX_FLEET_ITEMS before GraphQL coerces it (see inputLimits.ts).
 */
export const FLEET_ITEM_INPUTS: ReadonlySet<string> = new Set(
  [
    ServerItemInput,
    ComponentItemInput,
    CloudInstanceItemInput,
    TerminalItemInput,
    ConsumptionProfileItemInput,
  ].map((ref) => ref.name),
);

const ServerBatchRef = batchRef("ServerBatch", ServerRef, "A fleet of servers.");
const ComponentBatchRef = batchRef("ComponentBatch", ComponentRef, "A fleet of components.");
const CloudInstanceBatchRef = batchRef("CloudInstanceBatch", CloudInstanceRef, "A fleet of cloud instances.");
const TerminalBatchRef = batchRef("TerminalBatch", TerminalRef, "A fleet of terminals and peripherals.");
const ConsumptionProfileBatchRef = batchRef(
  "ConsumptionProfileBatch",
  ConsumptionProfileRef,
  "A fleet of CPU consumption profiles, each with the usage of its impacts.",
  USE_TOTAL,
);
const PERIPHERALS: ReadonlySet<string> = new Set(PERIPHERAL_KINDS);

/*
 * The fleet fields, one root field each: a list of items of one kind evaluated in one edition,
 * each item's error at its path (resolveBatch).
 */

builder.queryFields((t) => ({
  servers: t.field({
    type: ServerBatchRef,
    description:
      "Evaluate a fleet of servers (at most MAX_FLEET_ITEMS items per request, all fleets together).",
    args: {
      inputs: t.arg({ type: [ServerItemInput], required: true, description: "The servers." }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, { inputs, edition }, context: RequestContext, info) =>
      resolveBatch(context, info, inputs, edition, ({ archetype, ...input }, served, path) =>
        resolveServer(served, archetype, input, path),
      ),
  }),
}));

builder.queryFields((t) => ({
  components: t.field({
    type: ComponentBatchRef,
    description:
      "Evaluate a fleet of components (at most MAX_FLEET_ITEMS items per request, all fleets together).",
    args: {
      inputs: t.arg({ type: [ComponentItemInput], required: true, description: "The components." }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, { inputs, edition }, context: RequestContext, info) =>
      resolveBatch(context, info, inputs, edition, (item, served, path) => {
        const field = COMPONENT_FIELD_NAMES[item.kind];
        const input = (item as Record<string, unknown>)[field];
        return resolveComponent(served, item.kind, item.archetype, input, [...path, field]);
      }),
  }),
}));

builder.queryFields((t) => ({
  cloudInstances: t.field({
    type: CloudInstanceBatchRef,
    description:
      "Evaluate a fleet of cloud instances (at most MAX_FLEET_ITEMS items per request, all fleets together).",
    args: {
      inputs: t.arg({ type: [CloudInstanceItemInput], required: true, description: "The cloud instances." }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, { inputs, edition }, context: RequestContext, info) =>
      resolveBatch(context, info, inputs, edition, (item, served, path) =>
        resolveCloudInstance(served, item.provider, item.instanceType, item.usage, [...path, "usage"]),
      ),
  }),
}));

builder.queryFields((t) => ({
  terminals: t.field({
    type: TerminalBatchRef,
    description:
      "Evaluate a fleet of terminals and peripherals (at most MAX_FLEET_ITEMS items per request, all fleets together).",
    args: {
      inputs: t.arg({
        type: [TerminalItemInput],
        required: true,
        description: "The terminals and peripherals.",
      }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, { inputs, edition }, context: RequestContext, info) =>
      resolveBatch(context, info, inputs, edition, ({ kind, archetype, ...device }, served, path) => {
        const family = PERIPHERALS.has(kind) ? "peripheral" : "terminal";
        return resolveDevice(served, kind, family, archetype, device, path);
      }),
  }),
}));

builder.queryFields((t) => ({
  consumptionProfiles: t.field({
    type: ConsumptionProfileBatchRef,
    description:
      "Evaluate a fleet of CPU consumption profiles, each with its usage (at most MAX_FLEET_ITEMS items per request, all fleets together): each item's `impacts` are for its usage unless given another; `total` sums the use impacts.",
    args: {
      inputs: t.arg({
        type: [ConsumptionProfileItemInput],
        required: true,
        description: "The profiles: a CPU, measured points and a usage each.",
      }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, { inputs, edition }, context: RequestContext, info) =>
      resolveBatch(context, info, inputs, edition, (item, served, path) =>
        resolveProfileItem(served, item, path),
      ),
  }),
}));
