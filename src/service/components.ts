import type { ArchetypeTable, GpuSpec } from "../data/types.js";
import {
  COMPONENT_INPUTS,
  type ComponentInputs,
  type ComponentKind,
  componentArchetypeTable,
  componentModel,
  componentOffered,
  matchGpuName,
} from "../engine/index.js";
import { loadArchetype } from "./archetypes.js";
import type { PreparedAsset } from "./asset.js";
import { DomainError } from "./errors.js";
import { checkedAsset } from "./inputs.js";
import type { EditionContext } from "./open.js";

export interface PreparedComponent extends PreparedAsset {
  readonly kind: ComponentKind;
  readonly archetype: string | null;
}

/** The archetype table of a component kind (the registry's); null for kinds without any (motherboard, assembly). */
export function componentTable(context: EditionContext, kind: ComponentKind): ArchetypeTable | null {
  return componentArchetypeTable(context.service.data, kind);
}

/** Whether a component kind exists in an edition (the registry's rule: its rules serve it, its data has its table). */
export function componentExists(context: EditionContext, kind: ComponentKind): boolean {
  return componentOffered(context.engine, kind);
}

/** Checks a component description (its kind's input object) and prepares its (lazy) evaluation. */
export async function prepareComponent(
  context: EditionContext,
  kind: ComponentKind,
  archetypeId: string | null | undefined,
  rawInput: unknown,
  path: readonly string[] = ["input"],
): Promise<PreparedComponent> {
  const table = componentTable(context, kind);
  const { input, usageHours } = checkedAsset(context.limits, COMPONENT_INPUTS[kind], rawInput, path);
  let cells = {};
  let archetype: string | null = null;
  // A kind described by archetypes whose table the edition's data set lacks (GPU in 1.2.4) is
  // not part of that edition.
  if (!componentExists(context, kind)) {
    throw new DomainError("NOT_FOUND", `${kind} is not a component of edition ${context.service.edition.id}`);
  }
  if (table) {
    archetype = archetypeId ?? context.service.data.config.defaultArchetypes[kind] ?? "DEFAULT";
    cells = (await loadArchetype(context, table, archetype)).cells;
  } else if (archetypeId != null) {
    throw new DomainError("NOT_FOUND", `${archetypeId} not found`);
  }
  // The engine's synchronous match of the CPU name then reads the edition's memo (loaders.ts).
  if (kind === "cpu") await context.loaders.cpuName((input as ComponentInputs["cpu"]).name);
  const engine = context.engine;
  return {
    kind,
    archetype,
    usageHours,
    build: () => componentModel(engine, kind, cells, input as ComponentInputs[typeof kind]),
  };
}

/** The edition's GPU model a name matches; none in an edition without GPUs (its features say which). */
export function gpuByName(context: EditionContext, name: string): GpuSpec | null {
  const { edition, data, tables } = context.service;
  // An edition with GPUs has a GPU name threshold (checked at start-up, src/editions/features.ts).
  const threshold = data.config.gpuNameFuzzyThreshold;
  if (!edition.features.gpus || threshold === null) return null;
  return matchGpuName(tables, name, threshold);
}
