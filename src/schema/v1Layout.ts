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
  return Object.fromEntries(
    impacts.map(({ criterion, embedded, use }) => [
      criterion.requested,
      v1CriterionImpact(criterion.info, embedded, use),
    ]),
  );
}

type Entries = [string, Json][];

function attributeEntries(out: Entries, attributes: readonly VerboseAttribute[]): Entries {
  for (const attribute of attributes) out.push([attribute.name, attribute.entry]);
  return out;
}

const durationObject = (hours: number | null): Json => ({ value: hours, unit: "hours" });

/**
 * docs/methodology.md §7.3 layout: `duration`, component blocks (`CPU-1`…, each with its impacts, attributes
 * and duration), then the asset's own attributes; a component route lists its impacts first.
 * Each object is made whole from its entries (`Object.fromEntries`), not key by key: V8 turns an
 * object given more than about a dozen keys one at a time into a dictionary, which JSON.stringify
 * walks at half the speed (a CPU block of 18 keys: 7.3 µs against 3.6; bench/README.md).
 */
export function v1Verbose(report: VerboseReport): Record<string, Json> {
  if (report.impacts) {
    // A component route: its impacts, its attributes, then the duration.
    const entries = attributeEntries([["impacts", impactsObject(report.impacts)]], report.attributes);
    entries.push(["duration", durationObject(report.duration)]);
    return Object.fromEntries(entries);
  }
  const entries: Entries = [["duration", durationObject(report.duration)]];
  for (const component of report.components) {
    const block = attributeEntries([["impacts", impactsObject(component.impacts)]], component.attributes);
    block.push(["duration", durationObject(component.duration)]);
    entries.push([component.key, Object.fromEntries(block)]);
  }
  return Object.fromEntries(attributeEntries(entries, report.attributes));
}
