/**
 * End-user terminals (docs/methodology.md §9.1, docs/methodology.md §19.9.2), each with its `/v1/terminal/<kind>`
 * route; an edition lists the kinds it has (`UserDeviceRules`).
 */
export const TERMINAL_KINDS = [
  "laptop",
  "desktop",
  "smartphone",
  "tablet",
  "television",
  "box",
  "vr_headset",
] as const;
/** Peripherals (§9.1), each with its `/v1/peripheral/<kind>` route. */
export const PERIPHERAL_KINDS = [
  "monitor",
  "usb_stick",
  "external_ssd",
  "external_hdd",
  "vr_controller",
] as const;

type TerminalKind = (typeof TERMINAL_KINDS)[number];
type PeripheralKind = (typeof PERIPHERAL_KINDS)[number];
export type UserDeviceKind = TerminalKind | PeripheralKind;

/**
 * The terminal and peripheral kinds of an edition (part of its description); whether their
 * manufacturing impact is allocated is `EditionRules.userDeviceEmbedded`.
 */
export interface UserDeviceRules {
  /** Terminal kinds, in the order of `/v1/terminal/all`. */
  readonly terminalKinds: readonly TerminalKind[];
  /** Peripheral kinds, in the order of `/v1/peripheral/all`. */
  readonly peripheralKinds: readonly PeripheralKind[];
}
