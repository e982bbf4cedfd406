import { z } from "zod";
import { type BodyParser, deferredUsage, text, usageVariables, v1Body } from "./body.js";
import type { IotDeviceInput, PeripheralInput, TerminalInput } from "./generated/graphql.js";

/*
 * v1 bodies of the terminal, peripheral and IoT routes (snake_case) → GraphQL variables, with the
 * lenient typing of `body.ts`: unknown keys are ignored, numbers are accepted as strings.
 */

const terminalBody = z.object({ type: text.nullish(), usage: deferredUsage });

const iotBody = z.object({
  functional_blocks: z.array(z.object({ type: text, hsl_level: text.nullish() })).nullish(),
  usage: deferredUsage,
});

/**
 * Terminal bodies: `usage`, plus `type` for the kinds whose factors depend on it (laptop,
 * desktop, television); other kinds ignore a `type` key like any unknown key.
 */
export function terminalVariables(typed: boolean): BodyParser<TerminalInput> {
  return v1Body("UserDevice", terminalBody, (value) => ({
    usage: usageVariables(value.usage),
    ...(typed && value.type != null ? { type: value.type } : {}),
  }));
}

export const peripheralVariables = v1Body(
  "UserDevice",
  terminalBody,
  (value): PeripheralInput => ({ usage: usageVariables(value.usage) }),
);

export const iotDeviceVariables = v1Body(
  "IotDevice",
  iotBody,
  (value): IotDeviceInput => ({
    functionalBlocks: value.functional_blocks?.map((b) => ({ type: b.type, hslLevel: b.hsl_level })) ?? null,
    usage: usageVariables(value.usage),
  }),
);
