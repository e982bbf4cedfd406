import { defaultGpuCells, serverGpuLacksVram, serverModel } from "../engine/index.js";
import { SERVER } from "../inputs/catalogue.js";
import { loadArchetype } from "./archetypes.js";
import type { PreparedAsset } from "./asset.js";
import type { EditionContext } from "./context.js";
import { DomainError } from "./errors.js";
import { checkedAsset } from "./inputs.js";

export interface PreparedServer extends PreparedAsset {
  readonly archetype: string;
}

/** Checks a server description (the `server` query's input) and prepares its (lazy) evaluation. */
export async function prepareServer(
  context: EditionContext,
  archetypeId: string | null | undefined,
  rawInput: unknown,
  path: readonly string[],
): Promise<PreparedServer> {
  const id = archetypeId ?? context.service.data.config.defaultArchetypes.server;
  const { input, usageHours } = checkedAsset(context.limits, SERVER, rawInput, path);
  // The archetype and the CPU name are asked for together: one wait for both loaders' batches.
  // The engine's synchronous match of the CPU name then reads the edition's memo (loaders.ts).
  const [archetype] = await Promise.all([
    loadArchetype(context, context.service.data.archetypes.server, id),
    context.loaders.cpuName(input.configuration?.cpu?.name),
  ]);
  const engine = context.engine;
  const gpu = input.configuration?.gpu;
  // docs/methodology.md §19.5.3: a GPU's VRAM dies need its VRAM size, from the input or the archetype.
  if (gpu && defaultGpuCells(engine) && serverGpuLacksVram(archetype.cells, gpu)) {
    const field = [...path, "configuration", "gpu", "vram"];
    throw new DomainError(
      "BAD_USER_INPUT",
      `${field.join(".")}: required with vramDies, the server archetype ${id} gives no GPU VRAM size`,
      field,
    );
  }
  return { archetype: id, usageHours, build: () => serverModel(engine, archetype.cells, input) };
}
