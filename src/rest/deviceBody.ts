import { z } from "zod";
import { builtOncePer } from "../support/builtOnce.js";
import { type BodyParser, deferredUsage, describedBody, parseV1Body, usageVariables } from "./body.js";
import type { IotDeviceInput, PeripheralInput, TerminalInput } from "./generated/graphql.js";
import { fieldTypes, type RequestValidation } from "./validation.js";

/*
 * v1 bodies of the terminal, peripheral and IoT routes (snake_case) → GraphQL variables, with the
 * typing rules of the request's edition (`validation.ts`): unknown keys are ignored.
 */

function schemasOf(rules: RequestValidation) {
  const { text, optional, defaulted } = fieldTypes(rules);
  return {
    terminal: z.object({ type: optional(text), usage: deferredUsage }),
    // A block's `type` and `hsl_level` are declared without Optional (null refused under pydantic 2).
    iot: z.object({
      functional_blocks: optional(z.array(z.object({ type: text, hsl_level: defaulted(text) }))),
      usage: deferredUsage,
    }),
  };
}

const schemas = builtOncePer(schemasOf);

/**
 * Terminal bodies: `usage`, plus `type` for the kinds whose factors depend on it (laptop,
 * desktop, television, VR headset); other kinds ignore a `type` key like any unknown key (its
 * value is still validated as text).
 */
export function terminalVariables(typed: boolean): BodyParser<TerminalInput> {
  return describedBody(
    "UserDevice",
    (rules) => schemas(rules).terminal,
    (body, rules) => {
      const value = parseV1Body(schemas(rules).terminal, body, rules);
      return {
        usage: usageVariables(value.usage, rules),
        ...(typed && value.type != null ? { type: value.type } : {}),
      };
    },
  );
}

export const peripheralVariables: BodyParser<PeripheralInput> = describedBody(
  "UserDevice",
  (rules) => schemas(rules).terminal,
  (body, rules) => ({
    usage: usageVariables(parseV1Body(schemas(rules).terminal, body, rules).usage, rules),
  }),
);

export const iotDeviceVariables: BodyParser<IotDeviceInput> = describedBody(
  "IotDevice",
  (rules) => schemas(rules).iot,
  (body, rules) => {
    const value = parseV1Body(schemas(rules).iot, body, rules);
    return {
      functionalBlocks:
        value.functional_blocks?.map((b) => ({ type: b.type, hslLevel: b.hsl_level })) ?? null,
      usage: usageVariables(value.usage, rules),
    };
  },
);
