import type { Component } from "../components/component.js";
import type { Attribute, AttributeValue } from "../model/attribute.js";
import type { Allocation } from "../model/context.js";
import { DEFAULT_CRITERIA, type RequestedCriterion, resolveCriterion } from "../model/criteria.js";
import {
  type Asset,
  type CriterionImpact,
  type Evaluation,
  guarded,
  type PhaseOutcome,
  roundedOutcome,
  type VerboseAttribute,
  type VerboseComponent,
  type VerboseReport,
  verboseAttributesInto,
} from "../model/evaluation.js";
import type { RawImpact } from "../model/impact.js";
import type { Usage } from "../model/usage.js";
import type { Server } from "./server.js";

/** The usage block is shown once a power is known for the component (§7.3); appended to `out`. */
export function usageAttributesInto(out: VerboseAttribute[], usage: Usage): VerboseAttribute[] {
  return usage.avgPower.isSet() ? verboseAttributesInto(out, usage.namedAttributes()) : out;
}

/** A component's verbose attributes: its own, then its usage's (§7.3). */
function componentAttributes(component: Component): VerboseAttribute[] {
  return usageAttributesInto(verboseAttributesInto([], component.namedAttributes()), component.usage);
}

/** What an evaluated asset reads of a device model: its edition's rules, usage and two phases. */
interface AssetModel {
  readonly context: { readonly rules: Asset["rules"] };
  readonly usage: Usage;
  embeddedImpact(criterion: string, duration: number, allocation: Allocation): RawImpact;
  useImpact(criterion: string, duration: number): RawImpact;
}

/**
 * A model as an evaluated asset (§6.1: the duration defaults to its usage's lifetime); only the
 * verbose report differs from one kind of asset to another.
 */
export function assetOf(model: AssetModel, verbose: Asset["verbose"]): Asset {
  return {
    rules: model.context.rules,
    lifetime: () => model.usage.hoursLifeTime.value,
    embedded: (criterion, duration, allocation) => model.embeddedImpact(criterion, duration, allocation),
    use: (criterion, duration) => model.useImpact(criterion, duration),
    useNotices: (criterion) => model.usage.useNotices(criterion),
    verbose,
  };
}

/** A single component evaluated on its own route (`/v1/component/<kind>`). */
export function componentAsset(component: Component): Asset {
  const asset = assetOf(component, (evaluation: Evaluation): VerboseReport => {
    // Quirk kept (Appendix D.21): component verbose always lists gwp, adp and pe; criteria that
    // were not requested show "not implemented" (nothing more is computed for them).
    const impacts = DEFAULT_CRITERIA.map((name) => {
      const criterion = resolveCriterion(name) as RequestedCriterion;
      return evaluation.computed(criterion);
    });
    return {
      duration: evaluation.duration,
      impacts,
      components: [],
      attributes: componentAttributes(component),
    };
  });
  return { ...asset, useRunsWithoutDuration: true };
}

/** Components whose own use impact a device's verbose block shows. */
const USE_IN_DEVICE: ReadonlySet<string> = new Set(["CPU", "RAM", "GPU"]);

/**
 * The embedded impact a device's own computation obtained from one of its components (share
 * included), or undefined when it never computed it.
 */
type EmbeddedPart = (component: Component, criterion: string) => RawImpact | undefined;

/**
 * The verbose blocks of a device's components (§7.3): each component's lifetime is first
 * overwritten with the device's ("from device"), then its impacts are listed for the requested
 * criteria — use only for CPU, RAM (§7.3) and GPU (docs/methodology.md §19.6.3).
 *
 * Kept quirk (docs/methodology.md Appendix D.31): a block's embedded impact is the one the
 * device's sum obtained from the component while it computed that criterion, not a new
 * computation. A sum that fell back to the generic server factor at the assembly (every criterion
 * but gwp, adp and pe) reached no component: each block reads "not implemented" then, a GPU
 * too although it has factors for most criteria, and none of its attributes were read. An
 * attribute that changed after the criterion was computed (a given die size replaced by the
 * name's, 2.4.1) does not change the block.
 */
export function componentBlocks(
  components: readonly Component[],
  deviceLifetime: Attribute<number>,
  requested: readonly RequestedCriterion[],
  duration: number | null,
  embeddedPart: EmbeddedPart,
): VerboseComponent[] {
  const counters = new Map<string, number>();
  return components.map((component) => {
    const n = (counters.get(component.kind) ?? 0) + 1;
    counters.set(component.kind, n);
    component.usage.hoursLifeTime.setCompleted(deviceLifetime.value, {
      min: deviceLifetime.min,
      max: deviceLifetime.max,
      source: "from device",
    });
    const impacts: CriterionImpact[] = requested.map((criterion) => {
      if (!criterion.computed || duration === null) {
        return { criterion, embedded: "not implemented", use: "not implemented" };
      }
      const rounding = component.context.rules.roundImpact;
      const part = embeddedPart(component, criterion.info.name);
      const embedded: PhaseOutcome = part === undefined ? "not implemented" : roundedOutcome(part, rounding);
      const use = USE_IN_DEVICE.has(component.kind)
        ? guarded(() => component.useImpact(criterion.info.name, duration, 1), rounding)
        : "not implemented";
      return { criterion, embedded, use };
    });
    return {
      key: `${component.kind}-${n}`,
      impacts,
      attributes: componentAttributes(component),
      duration,
    };
  });
}

export function deviceAttributes(
  usage: Usage,
  own: readonly [string, Attribute<AttributeValue>][],
): VerboseAttribute[] {
  return verboseAttributesInto(verboseAttributesInto([], usage.namedAttributes()), own);
}

export function serverAsset(server: Server): Asset {
  return assetOf(server, (evaluation, requested): VerboseReport => {
    return {
      duration: evaluation.duration,
      impacts: null,
      components: componentBlocks(
        server.components(),
        server.usage.hoursLifeTime,
        requested,
        evaluation.duration,
        (component, criterion) => server.embeddedPartOf(component, criterion),
      ),
      attributes: deviceAttributes(server.usage, server.namedAttributes()),
    };
  });
}
