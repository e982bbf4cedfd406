import { z } from "zod";
import { type FunctionalBlockInput, functionalBlockNames, iotDeviceModel } from "../engine/index.js";
import type { EditionContext } from "../service/context.js";
import { archetypeConfigField } from "./archetypeConfig.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { badUserInput, fromZodError, notFound } from "./errors.js";
import { type AssetParent, AssetRef } from "./impact.js";
import { boundedList, UsageInputRef, validateText, validateUsage } from "./inputs.js";

/*
 * IoT devices (docs/methodology.md §9.2–9.3): functional blocks at a hardware sophistication level (HSL),
 * from an iot_device.csv row or posted.
 */

interface IotDeviceParent extends AssetParent {
  readonly archetype: string;
}

export const IotDeviceRef = builder.objectRef<IotDeviceParent>("IotDevice").implement({
  interfaces: [AssetRef],
  description:
    "An IoT device: the manufacturing and end-of-life impacts of its functional blocks, allocated " +
    "over the device lifetime; a use phase only when an average power is given.",
  fields: (t) => ({
    archetype: t.exposeString("archetype", { description: "The iot_device.csv row used." }),
  }),
});

const FunctionalBlockInputRef = builder.inputType("FunctionalBlockInput", {
  description: "A functional block of an IoT device at a hardware sophistication level (HSL).",
  fields: (t) => ({
    type: t.string({
      required: true,
      description: "Block name, any case: actuators, casing, connectivity, memory, others, pcb, …",
    }),
    hslLevel: t.string({
      required: false,
      description: "HSL-0 … HSL-3 (default: the archetype's level for this block).",
    }),
  }),
});

const IotDeviceInputRef = builder.inputType("IotDeviceInput", {
  description: "What is known of an IoT device; the rest comes from its archetype.",
  fields: (t) => ({
    functionalBlocks: t.field({
      type: [FunctionalBlockInputRef],
      required: false,
      description: "Replaces the archetype's blocks (an empty list means no block).",
    }),
    usage: t.field({ type: UsageInputRef, required: false, description: "The device's usage." }),
  }),
});

interface IotInputValue {
  readonly functionalBlocks?: readonly FunctionalBlockInput[] | null;
  readonly usage?: unknown;
}

/** Unknown block types are rejected (the reference fails with HTTP 500). */
function validateBlocks(
  context: EditionContext,
  blocks: readonly FunctionalBlockInput[] | null | undefined,
): FunctionalBlockInput[] | null {
  if (!blocks) return null;
  const { limits } = context;
  const listCheck = boundedList(limits, z.unknown()).safeParse(blocks);
  if (!listCheck.success) throw fromZodError(listCheck.error, ["input", "functionalBlocks"]);
  const known = functionalBlockNames(context.service.data.factors);
  blocks.forEach((block, index) => {
    validateText(limits, block.type, ["input", "functionalBlocks", index, "type"]);
    validateText(limits, block.hslLevel, ["input", "functionalBlocks", index, "hslLevel"]);
    if (!known.includes(block.type.toUpperCase())) {
      throw badUserInput(
        `unknown functional block type ${block.type} (known: ${known.map((n) => n.toLowerCase()).join(", ")})`,
        ["input", "functionalBlocks", index, "type"],
      );
    }
  });
  return blocks.map((block) => ({ type: block.type, hslLevel: block.hslLevel }));
}

async function loadRow(context: EditionContext, id: string) {
  const row = await context.archetypes.load({ table: context.service.data.archetypes.iotDevice, id });
  if (!row) throw notFound(`${id} not found`);
  return row;
}

async function resolveIotDevice(
  context: EditionContext,
  archetypeId: string | null | undefined,
  rawInput: IotInputValue | null | undefined,
): Promise<IotDeviceParent> {
  const functionalBlocks = validateBlocks(context, rawInput?.functionalBlocks);
  // No usage posted keeps the archetype's usage object (§9.3, Appendix D.23).
  const usage =
    rawInput?.usage == null ? null : validateUsage(context.limits, rawInput.usage, ["input", "usage"]);
  const archetype = archetypeId ?? context.service.data.config.defaultArchetypes.iot_device;
  const row = await loadRow(context, archetype);
  const engine = context.engine;
  return {
    archetype,
    usageHours: usage?.usageHours ?? null,
    build: () => iotDeviceModel(engine, row.cells, { functionalBlocks, usage: usage?.input ?? null }),
  };
}

builder.queryFields((t) => ({
  iotDevice: t.field({
    type: IotDeviceRef,
    description: "Evaluate an IoT device described by an archetype and optional functional blocks and usage.",
    args: {
      archetype: t.arg.string({
        required: false,
        description: "iot_device.csv row id; default iot-device-default.",
      }),
      input: t.arg({ type: IotDeviceInputRef, required: false, description: "Functional blocks and usage." }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) =>
      resolveIotDevice(context.edition(args.edition), args.archetype, args.input),
  }),
  iotDeviceArchetypes: t.stringList({
    description: "Ids of iot_device.csv, in file order.",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) => [...context.edition(args.edition).service.data.archetypes.iotDevice.ids],
  }),
  iotDeviceArchetypeConfig: archetypeConfigField(
    t,
    { field: "A parsed iot_device.csv row.", archetype: "Row id of iot_device.csv." },
    (context) => context.service.data.archetypes.iotDevice,
  ),
}));
