import { COMPONENT_KINDS, type ComponentKind } from "../engine/index.js";

/**
 * What the transports need to know of the engine's catalogue (component and device kinds, the
 * electricity factors' criteria) to read and write their requests, from the use-case layer:
 * src/rest and src/schema import nothing of src/engine.
 */

export {
  COMPONENT_INPUTS,
  COMPONENT_KINDS,
  type ComponentKind,
  componentKinds,
  ELECTRICITY_CRITERIA,
  FACTOR_UNITS,
  isTypedKind,
  listingOrder,
  PERIPHERAL_KINDS,
  TERMINAL_KINDS,
  type UserDeviceKind,
} from "../engine/index.js";

/** Whether a component kind is described by archetypes (not motherboard, assembly): the registry's. */
export function hasArchetypes(kind: ComponentKind): boolean {
  return COMPONENT_KINDS[kind].archetypes !== null;
}
