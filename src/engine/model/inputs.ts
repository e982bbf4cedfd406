import type {
  CASE,
  CPU,
  DISK,
  FUNCTIONAL_BLOCK,
  GENERATIVE_AI,
  GPU,
  IOT_DEVICE,
  POWER_SUPPLY,
  PROFILE_CPU,
  RAM,
  SERVER,
  SIMPLE_COMPONENT,
  TERMINAL,
  USAGE_INPUT,
} from "../../inputs/inputFields.js";
import type { EngineInputOf } from "../../inputs/types.js";

/*
 * What the engine's models read from a request: the input catalogue's objects (src/inputs), less
 * the fields the engine never reads (use time, descriptive ones), an alternative merged into its
 * field. Nothing here is written by hand: a field added to the catalogue appears here.
 */

/** Usage fields a client may give (docs/methodology.md §5.1). */
export type UsageInput = EngineInputOf<typeof USAGE_INPUT>;
export type CpuInput = EngineInputOf<typeof CPU>;
/** A GPU request (docs/methodology.md §19.5.2); every given field is INPUT. */
export type GpuInput = EngineInputOf<typeof GPU>;
export type RamInput = EngineInputOf<typeof RAM>;
/** A disk of a server or the SSD route: `type` `ssd` (default) or `hdd`; any other type is dropped (§7.1). */
export type DiskInput = EngineInputOf<typeof DISK>;
export type SsdInput = DiskInput;
export type HddInput = EngineInputOf<typeof SIMPLE_COMPONENT>;
export type PowerSupplyInput = EngineInputOf<typeof POWER_SUPPLY>;
export type CaseInput = EngineInputOf<typeof CASE>;
export type ServerInput = EngineInputOf<typeof SERVER>;
export type UserDeviceInput = EngineInputOf<typeof TERMINAL>;
export type FunctionalBlockInput = EngineInputOf<typeof FUNCTIONAL_BLOCK>;
export type IotDeviceInput = EngineInputOf<typeof IOT_DEVICE>;
export type ProfileCpu = EngineInputOf<typeof PROFILE_CPU>;
/** A request to a generative-AI model (docs/methodology.md, "Generative AI"). */
export type GenerativeAiInput = EngineInputOf<typeof GENERATIVE_AI>;
