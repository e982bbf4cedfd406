import type { Limits } from "../config/serviceConfig.js";
import { type ConsumptionProfileResult, cpuConsumptionProfile } from "../engine/index.js";
import { PROFILE_CPU, PROFILE_REQUEST } from "../inputs/catalogue.js";
import type { EngineInputOf, GraphQLValueOf } from "../inputs/types.js";
import type { EditionContext } from "./context.js";
import { checkedField, checkedValue, engineInput } from "./inputs.js";

/** A profile as the transports show it, and its power at a load. */
export { type ConsumptionProfileResult, powerAtLoad } from "../engine/index.js";

/** A checked consumption-profile request: the CPU and the measured points, if any. */
interface ProfileRequest {
  readonly cpu: EngineInputOf<typeof PROFILE_CPU>;
  readonly points: GraphQLValueOf<typeof PROFILE_REQUEST>["workload"];
}

/**
 * Checks a consumption-profile request with the service's limits (whatever the edition): the
 * measured points first, then the CPU's texts.
 */
export function checkedProfileRequest(limits: Limits, cpu: unknown, workload: unknown): ProfileRequest {
  const points = checkedField(limits, PROFILE_REQUEST.fields.workload, workload, ["workload"]);
  const checkedCpu = checkedValue(limits, PROFILE_CPU, cpu, ["cpu"]);
  return { cpu: engineInput(PROFILE_CPU, checkedCpu), points: points as ProfileRequest["points"] };
}

/** The CPU's power profile (docs/methodology.md §10.4): fitted to the points, or taken from the CPU. */
export function consumptionProfile(
  context: EditionContext,
  request: ProfileRequest,
): ConsumptionProfileResult {
  return cpuConsumptionProfile(context.engine, request.cpu, request.points ?? null);
}
