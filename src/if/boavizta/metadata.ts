import { parseCriterion } from "../../service/criteria.js";
import type { AggregationMethod, ParameterMetadata } from "./observations.js";

export const WARNINGS = "boavizta/warnings";

export const method = (time: AggregationMethod, component: AggregationMethod = time) => ({ time, component });

export const copied = (description: string): ParameterMetadata => ({
  description,
  unit: "none",
  "aggregation-method": method("copy"),
});

export const COMMON_INPUTS: Readonly<Record<string, ParameterMetadata>> = {
  duration: { description: "observation length", unit: "seconds", "aggregation-method": method("sum") },
  "cpu/utilization": { description: "CPU load", unit: "percentage", "aggregation-method": method("avg") },
  location: copied("usage location (a country or region code of the edition, e.g. FRA)"),
  "grid/carbon-intensity": {
    description: "carbon intensity of the electricity used, replacing the location's gwp factor",
    unit: "gCO2e/kWh",
    "aggregation-method": method("avg"),
  },
};

/**
 * The outputs with their unit and how IF aggregates them: impacts and energy add up over time and
 * over components (TimeSync sums them into its windows, Sum and the aggregation total them);
 * warnings are copied over time and not aggregated across components.
 */
export function outputsOf(criteria: readonly string[]): Record<string, ParameterMetadata> {
  const summed = (description: string, unit: string): ParameterMetadata => ({
    description,
    unit,
    "aggregation-method": method("sum"),
  });
  const outputs: Record<string, ParameterMetadata> = {
    "carbon-embodied": summed("embedded emissions over the duration", "gCO2eq"),
    energy: summed("electricity used over the duration", "kWh"),
  };
  for (const criterion of criteria) {
    const info = parseCriterion(criterion)?.info;
    const unit = info?.unit ?? "none";
    outputs[`boavizta/${criterion}-embedded`] = summed(`${info?.description ?? criterion}, embedded`, unit);
    outputs[`boavizta/${criterion}-use`] = summed(`${info?.description ?? criterion}, use`, unit);
  }
  outputs[WARNINGS] = {
    description: "caveats of the evaluation (approximate instance match, unknown location replaced)",
    unit: "none",
    "aggregation-method": method("copy", "none"),
  };
  return outputs;
}
