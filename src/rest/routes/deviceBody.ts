import { IOT_DEVICE, TERMINAL } from "../../inputs/inputFields.js";
import type { IotDeviceInput, PeripheralInput, TerminalInput } from "../generated/graphql.js";
import {
  type BodyParser,
  catalogueBody,
  catalogueDoc,
  describedBody,
  v1Variables,
} from "../validation/v1Body.js";

/*
 * v1 bodies of the terminal, peripheral and IoT routes (snake_case) → GraphQL variables, derived
 * from the input catalogue with the typing rules of the request's edition: unknown keys are ignored.
 */

/** The body of the terminal and peripheral routes. */
const USER_DEVICE = catalogueDoc(TERMINAL, "UserDevice");

/**
 * Terminal bodies: `usage`, plus `type` for the kinds whose factors depend on it (laptop,
 * desktop, television, VR headset); other kinds ignore a `type` key like any unknown key (its
 * value is still validated as text).
 */
export function terminalVariables(typed: boolean): BodyParser<TerminalInput> {
  return describedBody(USER_DEVICE, (body, rules) => {
    const { type, usage } = v1Variables<TerminalInput>(TERMINAL, body, rules);
    return { usage, ...(typed && type != null ? { type } : {}) };
  });
}

/** A peripheral's body is a terminal's (its `type` validated, then ignored). */
export const peripheralVariables: BodyParser<PeripheralInput> = describedBody(USER_DEVICE, (body, rules) => ({
  usage: v1Variables<TerminalInput>(TERMINAL, body, rules).usage,
}));

export const iotDeviceVariables: BodyParser<IotDeviceInput> = catalogueBody(IOT_DEVICE, "IotDevice");
