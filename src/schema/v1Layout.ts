import type { CriterionInfo } from "../service/criteria.js";
import type { PhaseOutcome, VerboseAttribute, VerboseReport } from "../service/evaluations/evaluations.js";

/*
 * boaviztapi v1.2.4's JSON layouts of impacts and verbose reports, offered as `v1` fields so that
 * clients migrating from the v1 API (and the REST shim) get them in one selection.
 */

type Json = unknown;

/** A phase as v1 prints it: "not implemented", or value/min/max with warnings if any. */
function v1Phase(outcome: PhaseOutcome): Json {
  if (outcome === "not implemented") return outcome;
  const { value, min, max, warnings } = outcome;
  return warnings.length > 0 ? { value, min, max, warnings } : { value, min, max };
}

export function v1CriterionImpact(info: CriterionInfo, embedded: PhaseOutcome, use: PhaseOutcome): Json {
  return { unit: info.unit, description: info.description, embedded: v1Phase(embedded), use: v1Phase(use) };
}

/** A criterion's use phase alone (a consumption profile's, which has no embedded phase). */
export function v1UseImpact(info: CriterionInfo, use: PhaseOutcome): Json {
  return { unit: info.unit, description: info.description, use: v1Phase(use) };
}

/**
 * An attribute as v1's verbose shows it: `{value, status, unit?, source?, min?, max?, warnings?}`,
 * the entry the engine built in that layout (shared, not copied: ~100 per verbose answer).
 */
export function v1Attribute(attribute: VerboseAttribute): Json {
  return attribute.entry;
}

function impactsObject(impacts: VerboseReport["components"][number]["impacts"]): Record<string, Json> {
  const out: Record<string, Json> = {};
  for (const { criterion, embedded, use } of impacts) {
    out[criterion.requested] = v1CriterionImpact(criterion.info, embedded, use);
  }
  return out;
}

function attributesInto(out: Record<string, Json>, attributes: readonly VerboseAttribute[]): void {
  for (const attribute of attributes) out[attribute.name] = attribute.entry;
}

const durationObject = (hours: number | null): Json => ({ value: hours, unit: "hours" });

/**
 * docs/methodology.md §7.3 layout: `duration`, component blocks (`CPU-1`…, each with its impacts, attributes
 * and duration), then the asset's own attributes; a component route lists its impacts first.
 */
export function v1Verbose(report: VerboseReport): Record<string, Json> {
  const out: Record<string, Json> = {};
  if (report.impacts) {
    // A component route: its impacts, its attributes, then the duration.
    out.impacts = impactsObject(report.impacts);
    attributesInto(out, report.attributes);
    out.duration = durationObject(report.duration);
    return out;
  }
  out.duration = durationObject(report.duration);
  for (const component of report.components) {
    const block: Record<string, Json> = { impacts: impactsObject(component.impacts) };
    attributesInto(block, component.attributes);
    block.duration = durationObject(component.duration);
    out[component.key] = block;
  }
  attributesInto(out, report.attributes);
  return out;
}
