/**
 * The impact engine: pure computation over the reference tables (docs/methodology.md). Inputs are plain
 * typed objects; results are plain objects. No GraphQL, no HTTP.
 */
import { componentAsset, serverAsset } from "./assets/assets.js";
import { CloudInstance, type CloudShape, cloudAsset } from "./assets/cloud.js";
import { Server, type ServerInput } from "./assets/server.js";
import type { ComponentCells } from "./components/component.js";
import type { GpuInput } from "./components/gpu.js";
import { type ComponentInputs, type ComponentKind, componentEntry } from "./components/registry.js";
import type { EngineContext } from "./model/context.js";
import { type Asset, type AssetWith, Evaluation, type EvaluationOptions } from "./model/evaluation.js";
import { LIST_WORKLOAD_UNIT, type UsageInput } from "./model/usage.js";

export type { CloudShape, HostShare } from "./assets/cloud.js";
export {
  AI_WARNINGS,
  type GenerativeAiContext,
  type GenerativeAiInput,
  type GenerativeAiReferences,
  type GenerativeAiShape,
  generativeAiModel,
} from "./assets/generativeAi.js";
export { defaultGpuCells } from "./components/gpu.js";
export {
  COMPONENT_INPUTS,
  COMPONENT_KINDS,
  type ComponentInputs,
  type ComponentKind,
  componentArchetypeTable,
  componentEntry,
  componentFactorProblems,
  componentKinds,
  componentOffered,
  listingOrder,
} from "./components/registry.js";
export { aiModel, closeAiModels } from "./lookups/aiModels.js";
export { RequiredInputError } from "./model/attribute.js";
export type { Allocation, EngineContext } from "./model/context.js";
export * from "./model/criteria.js";
export type { EditionRules } from "./model/edition.js";
export type * from "./model/evaluation.js";
export { Evaluation } from "./model/evaluation.js";
export type { GpuInput, ServerInput };

/** Builds a standalone component (component routes read list workloads with their own unit label). */
export function componentModel<K extends ComponentKind>(
  context: EngineContext,
  kind: K,
  cells: ComponentCells,
  input: ComponentInputs[K],
): Asset {
  return componentAsset(componentEntry(kind).model(context, cells, input, LIST_WORKLOAD_UNIT));
}

export function serverModel(context: EngineContext, cells: ComponentCells, input: ServerInput): Asset {
  return serverAsset(new Server(context, cells, input));
}

export function evaluate(asset: Asset, options: EvaluationOptions = {}): Evaluation {
  return new Evaluation(asset, options);
}

/** A cloud instance hosted on `platformCells` (a server archetype), described by its instance row. */
export function cloudModel(
  context: EngineContext,
  instanceCells: ComponentCells,
  platformCells: ComponentCells,
  usage: UsageInput | null,
  provider: string | null = null,
): AssetWith<CloudShape> {
  return cloudAsset(new CloudInstance(context, instanceCells, platformCells, usage, provider));
}

export {
  functionalBlockNames,
  type IotDeviceInput,
  iotDeviceModel,
} from "./assets/iot.js";
export {
  deviceTypes,
  isTypedKind,
  type UserDeviceInput,
  userDeviceModel,
} from "./assets/terminal.js";
export {
  type ConsumptionProfileResult,
  cpuConsumptionProfile,
  powerAtLoad,
  profileUseModel,
} from "./components/profile.js";
export { fuzzyInstanceWarning, matchInstanceName } from "./lookups/instanceName.js";
export {
  directLookups,
  type LookupTables,
  lookupTables,
  matchGpuName,
  memoizedLookups,
  type ReferenceLookups,
} from "./lookups/lookups.js";
export { regionsOf } from "./lookups/region.js";
export { rounded } from "./model/evaluation.js";
export { PHASES, type Phase, type RawImpact } from "./model/impact.js";
export {
  type ImpactRounding,
  type RoundingPrecision,
  roundImpact,
  roundImpactCapped,
} from "./model/rounding.js";
export {
  PERIPHERAL_KINDS,
  TERMINAL_KINDS,
  type UserDeviceKind,
  type UserDeviceRules,
} from "./model/userDevices.js";
