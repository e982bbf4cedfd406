import type { DocumentNode } from "graphql";
import type { z } from "zod";
import { withoutFloatNoise } from "../../output/columns.js";
import { criterionEnumName } from "../../service/criteria.js";
import { type PowerPer, useEnergyKwh, type V1Verbose } from "../../service/energy.js";
import type { EditionService } from "../../service/open.js";
import { readNumber } from "../../support/numbers.js";
import { WARNINGS } from "./metadata.js";
import {
  type CheckedConfig,
  type COMMON_FIELDS,
  DEFAULT_CRITERIA,
  type Observation,
  PluginInputError,
} from "./observations.js";
import { errorLine, run } from "./run.js";

export interface PhaseAnswer {
  readonly value?: number;
  readonly warnings?: readonly string[];
  readonly unrounded?: { readonly value: number } | null;
}
export interface AssetAnswer {
  readonly warnings?: readonly string[];
  readonly impacts: readonly {
    readonly criterion: string;
    readonly embedded: PhaseAnswer;
    readonly use: PhaseAnswer;
  }[];
  readonly verbose: { readonly v1: V1Verbose };
}

/** The `usage` input of an observation: location, load and (cloud) region, when given. */
export function observationUsage(observation: z.output<z.ZodObject<typeof COMMON_FIELDS>>, region?: string) {
  return {
    ...(observation.location !== undefined ? { usageLocation: observation.location } : {}),
    ...(observation["cpu/utilization"] !== undefined ? { timeWorkload: observation["cpu/utilization"] } : {}),
    ...(region !== undefined ? { region } : {}),
  };
}

export const phaseValue = (phase: PhaseAnswer, rounded: boolean) =>
  (rounded ? phase.value : phase.unrounded?.value) ?? null;

/** What one observation's run reads: the asset's variables, the observation, the plugin's config and edition. */
interface ObservationRun {
  readonly powerPer: PowerPer;
  readonly variables: Record<string, unknown>;
  readonly observation: Observation;
  readonly config: CheckedConfig;
  /** The config's edition, resolved once per plugin instance (pluginEdition, run.ts). */
  readonly edition: EditionService;
  readonly notices: readonly string[];
}

/** Runs `document` for one observation and writes its outputs beside the observation's fields. */
export async function evaluateObservation(
  document: DocumentNode,
  { powerPer, variables, observation, config, edition, notices }: ObservationRun,
): Promise<Record<string, unknown>> {
  const criteria = config?.criteria ?? DEFAULT_CRITERIA;
  const rounded = config?.rounded ?? false;
  const result = await run(
    document,
    {
      ...variables,
      criteria: [...new Set(["gwp", ...criteria])].map(criterionEnumName),
      duration: Number(observation.duration) / 3600,
    },
    edition,
  );
  const asset = (result.data as { asset?: AssetAnswer | null } | null | undefined)?.asset;
  if (result.errors?.length || !asset) throw new PluginInputError(errorLine(result.errors ?? []));
  const outputs: Record<string, unknown> = { ...observation };
  const byCriterion = new Map(asset.impacts.map((impact) => [impact.criterion, impact]));
  const gwp = byCriterion.get("gwp");
  const embeddedGwp = gwp ? phaseValue(gwp.embedded, rounded) : null;
  // Rounded values times 1000 show float noise (1.1450000000000002); unrounded ones keep every digit.
  if (typeof embeddedGwp === "number") {
    outputs["carbon-embodied"] = rounded ? withoutFloatNoise(embeddedGwp * 1000) : embeddedGwp * 1000;
  }
  const energy = useEnergyKwh(asset.verbose.v1, powerPer);
  if (energy !== undefined) outputs.energy = withoutFloatNoise(energy);
  for (const criterion of criteria) {
    const impact = byCriterion.get(criterion);
    outputs[`boavizta/${criterion}-embedded`] = impact ? phaseValue(impact.embedded, rounded) : null;
    outputs[`boavizta/${criterion}-use`] = impact ? phaseValue(impact.use, rounded) : null;
  }
  const grid = gridUse(observation, energy, criteria);
  if (grid) outputs["boavizta/gwp-use"] = rounded ? withoutFloatNoise(grid.use) : grid.use;
  const warnings = new Set([
    ...notices,
    ...(grid ? [grid.notice] : []),
    ...(asset.warnings ?? []),
    ...asset.impacts.flatMap((impact) => [
      ...(impact.embedded.warnings ?? []),
      ...(impact.use.warnings ?? []),
    ]),
  ]);
  if (warnings.size > 0) outputs[WARNINGS] = [...warnings].join("; ");
  return outputs;
}

/**
 * The gwp use of an observation carrying `grid/carbon-intensity` (gCO2e/kWh): its energy × the
 * intensity ÷ 1000, in kgCO2eq as the criterion's v1 unit; none when gwp is not output or the
 * observation has no energy (a use impact not implemented).
 */
export function gridUse(
  observation: Observation,
  energy: number | undefined,
  criteria: readonly string[],
): { readonly use: number; readonly notice: string } | undefined {
  const given = observation["grid/carbon-intensity"];
  if (given === undefined || energy === undefined || !criteria.includes("gwp")) return undefined;
  // Checked by the observation's schema: read again as it read it (a numeric text, a bigint; -0 as 0).
  const reading = readNumber(given);
  if (!("value" in reading)) return undefined;
  const intensity = reading.value;
  return {
    use: (energy * intensity) / 1000,
    notice: `gwp use from grid/carbon-intensity (${intensity} gCO2e/kWh × energy); other criteria use the location's factors`,
  };
}
