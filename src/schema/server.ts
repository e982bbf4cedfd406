import { defaultGpuCells, serverGpuLacksVram, serverModel } from "../engine/index.js";
import type { EditionContext } from "../service/context.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { badUserInput, notFound } from "./errors.js";
import { type AssetParent, AssetRef } from "./impact.js";
import { ServerInputRef, validateServerInput } from "./inputs.js";

interface ServerParent extends AssetParent {
  readonly archetype: string;
}

export const ServerRef = builder.objectRef<ServerParent>("Server").implement({
  interfaces: [AssetRef],
  description: "A server: its components are completed from the archetype, reference tables and defaults.",
  fields: (t) => ({
    archetype: t.exposeString("archetype", { description: "Server archetype the evaluation starts from." }),
  }),
});

export async function loadServerArchetype(context: EditionContext, id: string) {
  const archetype = await context.archetypes.load({ table: context.service.data.archetypes.server, id });
  if (!archetype) throw notFound(`${id} not found`);
  return archetype;
}

/** Validates a server description and prepares its (lazy) evaluation. */
export async function resolveServer(
  context: EditionContext,
  archetypeId: string | null | undefined,
  rawInput: unknown,
  path: readonly string[],
): Promise<ServerParent> {
  const id = archetypeId ?? context.service.data.config.defaultArchetypes.server;
  const { input, usageHours } = validateServerInput(context.limits, rawInput, path);
  const archetype = await loadServerArchetype(context, id);
  const engine = context.engine;
  const gpu = input.configuration?.gpu;
  if (gpu && defaultGpuCells(engine) && serverGpuLacksVram(archetype.cells, gpu)) {
    const field = [...path, "configuration", "gpu", "vram"];
    throw badUserInput(
      `${field.join(".")}: required with vramDies, the server archetype ${id} gives no GPU VRAM size`,
      field,
    );
  }
  return { archetype: id, usageHours, build: () => serverModel(engine, archetype.cells, input) };
}

builder.queryField("server", (t) =>
  t.field({
    type: ServerRef,
    description: "Evaluate a server described by an archetype and an optional configuration and usage.",
    args: {
      archetype: t.arg.string({
        required: false,
        description: "Server archetype id; default platform_compute_medium.",
      }),
      input: t.arg({
        type: ServerInputRef,
        required: false,
        description: "What is known of the server; the rest comes from the archetype.",
      }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) =>
      resolveServer(context.edition(args.edition), args.archetype, args.input, ["input"]),
  }),
);
