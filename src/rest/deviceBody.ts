import { z } from "zod";
import { parseV1Body, text, usageVariables } from "./body.js";
import type { IotDeviceInput, PeripheralInput, TerminalInput } from "./generated/graphql.js";

/*
 * v1 bodies of the terminal, peripheral and IoT routes (snake_case) → GraphQL variables, with the
 * lenient typing of `body.ts`: unknown keys are ignored, numbers are accepted as strings.
 */

const terminalBody = z.object({ type: text.nullish(), usage: z.unknown().optional() });

const iotBody = z.object({
  functional_blocks: z.array(z.object({ type: text, hsl_level: text.nullish() })).nullish(),
  usage: z.unknown().optional(),
});

/**
 * Terminal bodies: `usage`, plus `type` for the kinds whose factors depend on it (laptop,
 * desktop, television); other kinds ignore a `type` key like any unknown key.
 */
export function terminalVariables(typed: boolean): (body: unknown) => TerminalInput {
  return (body) => {
    const value = parseV1Body(terminalBody, body);
    return {
      usage: usageVariables(value.usage),
      ...(typed && value.type != null ? { type: value.type } : {}),
    };
  };
}

export function peripheralVariables(body: unknown): PeripheralInput {
  return { usage: usageVariables(parseV1Body(terminalBody, body).usage) };
}

export function iotDeviceVariables(body: unknown): IotDeviceInput {
  const value = parseV1Body(iotBody, body);
  return {
    functionalBlocks: value.functional_blocks?.map((b) => ({ type: b.type, hslLevel: b.hsl_level })) ?? null,
    usage: usageVariables(value.usage),
  };
}
