/**
 * What the transports need to know of the engine's catalogue (criteria, device kinds) to read and
 * write their requests, from the use-case layer: src/rest imports nothing of src/engine.
 */

export {
  COMPONENT_INPUTS,
  type ComponentKind,
  isTypedKind,
  PERIPHERAL_KINDS,
  TERMINAL_KINDS,
} from "../engine/index.js";
export { ELECTRICITY_CRITERIA } from "../engine/model/criteria.js";
