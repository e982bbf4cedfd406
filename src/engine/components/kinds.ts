/**
 * The component kinds evaluated on their own routes and in fleets, in the order the GraphQL enum
 * lists them. Everything else about a kind is in its entry of the registry
 * (src/engine/components/registry.ts), which the compiler requires for each kind named here.
 * A leaf module: the component models import the names below, the registry imports the models.
 */
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

/** A component's name in verbose answers (`CPU-1`, `POWER_SUPPLY-1`) and messages: its kind in upper case. */
export type ComponentName = Uppercase<ComponentKind>;
