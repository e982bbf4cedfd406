/**
 * The impact engine: pure computation over the reference tables (docs/methodology.md). Inputs are plain
 * typed objects; results are plain objects. No GraphQL, no HTTP.
 */
import { componentAsset, serverAsset } from "./assets/assets.js";
import { CloudInstance, cloudAsset } from "./assets/cloud.js";
import { Server, type ServerInput } from "./assets/server.js";
import type { ComponentCells } from "./components/component.js";
import { Cpu, type CpuInput } from "./components/cpu.js";
import {
  Case,
  type CaseInput,
  FixedImpactComponent,
  PowerSupply,
  type PowerSupplyInput,
} from "./components/enclosure.js";
import { defaultGpuCells, Gpu, type GpuInput } from "./components/gpu.js";
import { Hdd, type HddInput, Ram, type RamInput, Ssd, type SsdInput } from "./components/storage.js";
import type { EngineContext } from "./model/context.js";
import { type Asset, Evaluation, type EvaluationOptions } from "./model/evaluation.js";
import { LIST_WORKLOAD_UNIT } from "./model/usage.js";

export type { Allocation, EngineContext } from "./model/context.js";
export * from "./model/criteria.js";
export type { EditionRules } from "./model/edition.js";
export type * from "./model/evaluation.js";
export { Evaluation } from "./model/evaluation.js";
export type { UsageInput } from "./model/usage.js";

import type { UsageInput } from "./model/usage.js";

export { defaultGpuCells, effectiveDieArea, serverGpuLacksVram } from "./components/gpu.js";
export type { CaseInput, CpuInput, GpuInput, HddInput, PowerSupplyInput, RamInput, ServerInput, SsdInput };

export type ComponentKind =
  | "cpu"
  | "gpu"
  | "ram"
  | "ssd"
  | "hdd"
  | "power_supply"
  | "case"
  | "motherboard"
  | "assembly";

export interface ComponentInputs {
  cpu: CpuInput;
  gpu: GpuInput;
  ram: RamInput;
  ssd: SsdInput;
  hdd: HddInput;
  power_supply: PowerSupplyInput;
  case: CaseInput;
  motherboard: CpuInput;
  assembly: CpuInput;
}

/** Builds a standalone component (component routes read list workloads with their own unit label). */
export function componentModel<K extends ComponentKind>(
  context: EngineContext,
  kind: K,
  cells: ComponentCells,
  input: ComponentInputs[K],
): Asset {
  const unit = LIST_WORKLOAD_UNIT;
  switch (kind) {
    case "cpu":
      return componentAsset(new Cpu(context, cells, input as CpuInput, unit));
    case "gpu": {
      const defaultGpu = defaultGpuCells(context);
      if (!defaultGpu) throw new Error("this edition has no GPU component");
      return componentAsset(new Gpu(context, cells, defaultGpu, input as GpuInput, unit));
    }
    case "ram":
      return componentAsset(new Ram(context, cells, input as RamInput, unit));
    case "ssd":
      return componentAsset(new Ssd(context, cells, input as SsdInput, unit));
    case "hdd":
      return componentAsset(new Hdd(context, cells, input as HddInput, unit));
    case "power_supply":
      return componentAsset(new PowerSupply(context, cells, input as PowerSupplyInput, unit));
    case "case":
      return componentAsset(new Case(context, cells, input as CaseInput, unit));
    case "motherboard":
      return componentAsset(new FixedImpactComponent(context, cells, "MOTHERBOARD", input, unit));
    default:
      return componentAsset(new FixedImpactComponent(context, cells, "ASSEMBLY", input, unit));
  }
}

export function serverModel(context: EngineContext, cells: ComponentCells, input: ServerInput): Asset {
  return serverAsset(new Server(context, cells, input));
}

export function evaluate(asset: Asset, options: EvaluationOptions = {}): Evaluation {
  return new Evaluation(asset, options);
}

export { CloudInstance, type HostShare } from "./assets/cloud.js";

/** A cloud instance hosted on `platformCells` (a server archetype), described by its instance row. */
export function cloudModel(
  context: EngineContext,
  instanceCells: ComponentCells,
  platformCells: ComponentCells,
  usage: UsageInput | null,
  provider: string | null = null,
): Asset {
  return cloudAsset(new CloudInstance(context, instanceCells, platformCells, usage, provider));
}

export {
  type FunctionalBlockInput,
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
export type { ProfileParams, WorkloadPoint } from "./components/consumptionProfile.js";
export {
  type ConsumptionProfileResult,
  cpuConsumptionProfile,
  type ProfileCpu,
  powerAtLoad,
} from "./components/profile.js";
export type { RawImpact } from "./model/impact.js";
export type { ProfileRouteRules } from "./model/profileRoute.js";
export {
  PERIPHERAL_KINDS,
  type PeripheralKind,
  TERMINAL_KINDS,
  type TerminalKind,
  type UserDeviceKind,
  type UserDeviceRules,
} from "./model/userDevices.js";
