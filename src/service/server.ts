import { type Asset, RequiredInputError, serverModel } from "../engine/index.js";
import { SERVER } from "../inputs/inputFields.js";
import { loadArchetype } from "./archetypes.js";
import type { PreparedAsset } from "./asset.js";
import { DomainError } from "./errors.js";
import { checkedAsset } from "./inputs.js";
import type { EditionContext } from "./open.js";

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
  const gpuPath = [...path, "configuration", "gpu"];
  return {
    archetype: id,
    usageHours,
    build: () => refusalsAt(serverModel(engine, archetype.cells, input), gpuPath, id),
  };
}

/**
 * The server whose embedded sum reaches a GPU without VRAM size refuses the request at the GPU's
 * field (docs/methodology.md §19.5.3: the reference fails there; the criteria whose sum stops
 * before the GPU and the use phase are answered).
 */
function refusalsAt(asset: Asset, gpuPath: readonly string[], archetype: string): Asset {
  const embedded: Asset["embedded"] = (criterion, duration, allocation) => {
    try {
      return asset.embedded(criterion, duration, allocation);
    } catch (error) {
      if (!(error instanceof RequiredInputError)) throw error;
      const field = [...gpuPath, error.field];
      const reason = `required with vramDies, the server archetype ${archetype} gives no GPU VRAM size`;
      throw new DomainError("BAD_USER_INPUT", `${field.join(".")}: ${reason}`, field);
    }
  };
  return { ...asset, embedded };
}
