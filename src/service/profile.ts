import type { Limits } from "../config/serviceConfig.js";
import { type ConsumptionProfileResult, cpuConsumptionProfile, profileUseModel } from "../engine/index.js";
import { PROFILE_CPU, PROFILE_REQUEST, PROFILE_USAGE } from "../inputs/inputFields.js";
import type { EngineInputOf, GraphQLValueOf } from "../inputs/types.js";
import { loadArchetype } from "./archetypes.js";
import type { PreparedAsset } from "./asset.js";
import { componentTable } from "./components.js";
import { checkedField, checkedValue, engineInput, usageHours } from "./inputs.js";
import type { EditionContext } from "./open.js";

/** A profile as the transports show it, and its power at a load. */
export { type ConsumptionProfileResult, powerAtLoad } from "../engine/index.js";

/** A checked consumption-profile request: the CPU and the measured points, if any. */
interface ProfileRequest {
  readonly cpu: EngineInputOf<typeof PROFILE_CPU>;
  readonly points: GraphQLValueOf<typeof PROFILE_REQUEST>["workload"];
}

/**
 * A profile as served: its parameters, and the use phase of a CPU of that profile (evaluated
 * as any asset, lazily) for its own usage — a fleet item's, else the CPU archetype's — or for
 * another one (`withUsage`).
 */
export interface ServedProfile extends ConsumptionProfileResult, PreparedAsset {
  readonly withUsage: (usage: unknown, path: readonly (string | number)[]) => PreparedAsset;
}

/**
 * Checks a consumption-profile request with the service's limits (whatever the edition): the
 * measured points first, then the CPU's texts.
 */
export function checkedProfileRequest(
  limits: Limits,
  cpu: unknown,
  workload: unknown,
  path: readonly (string | number)[] = [],
): ProfileRequest {
  const points = checkedField(limits, PROFILE_REQUEST.fields.workload, workload, [...path, "workload"]);
  const checkedCpu = checkedValue(limits, PROFILE_CPU, cpu, [...path, "cpu"]);
  return { cpu: engineInput(PROFILE_CPU, checkedCpu), points: points as ProfileRequest["points"] };
}

/**
 * The CPU's power profile (docs/methodology.md §10.4): fitted to the points, or taken from the
 * CPU; served with the use of a CPU of that profile for `usage` (checked at `usagePath`).
 */
export async function consumptionProfile(
  context: EditionContext,
  request: ProfileRequest,
  usage: unknown = null,
  usagePath: readonly (string | number)[] = ["usage"],
): Promise<ServedProfile> {
  const profile = cpuConsumptionProfile(context.engine, request.cpu, request.points ?? null);
  // The CPU archetype gives what the usage leaves out (workload, use-time ratio, lifetime), as
  // for a CPU component evaluated on its own.
  const table = componentTable(context, "cpu");
  const id = context.service.data.config.defaultArchetypes.cpu ?? "DEFAULT";
  const cells = table ? (await loadArchetype(context, table, id)).cells : {};
  const withUsage = (raw: unknown, path: readonly (string | number)[]): PreparedAsset => {
    const checked = checkedValue(context.limits, PROFILE_USAGE, raw ?? {}, path);
    const input = engineInput(PROFILE_USAGE, checked);
    const engine = context.engine;
    return { usageHours: usageHours(checked), build: () => profileUseModel(engine, cells, input, profile) };
  };
  return { ...profile, ...withUsage(usage, usagePath), withUsage };
}
