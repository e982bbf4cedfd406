import type { ArchetypeTable, ComponentTableName, ReferenceData } from "../../data/types.js";
import { CASE, CPU, DISK, GPU, POWER_SUPPLY, RAM, SIMPLE_COMPONENT } from "../../inputs/inputFields.js";
import type { EngineInputOf } from "../../inputs/types.js";
import type { EngineContext } from "../model/context.js";
import type { EditionRules } from "../model/edition.js";
import type { Component, ComponentCells } from "./component.js";
import { Cpu } from "./cpu.js";
import { ASSEMBLY_PART, Case, FixedImpactComponent, MOTHERBOARD_PART, PowerSupply } from "./enclosure.js";
import { defaultGpuCells, Gpu } from "./gpu.js";
import { Hdd, Ram, Ssd } from "./storage.js";

/**
 * The component kinds (evaluated on their own routes and in fleets), each with the request it takes:
 * an input object of the catalogue (src/inputs), from which its GraphQL input type, its v1 body and
 * the input its model reads are derived. A kind named here must have its entry in COMPONENT_KINDS
 * below: the compiler says so.
 */
export const COMPONENT_INPUTS = {
  cpu: CPU,
  gpu: GPU,
  ram: RAM,
  ssd: DISK,
  hdd: SIMPLE_COMPONENT,
  power_supply: POWER_SUPPLY,
  case: CASE,
  motherboard: SIMPLE_COMPONENT,
  assembly: SIMPLE_COMPONENT,
} as const;

/** What each kind's model reads from its request. */
export type ComponentInputs = {
  readonly [K in keyof typeof COMPONENT_INPUTS]: EngineInputOf<(typeof COMPONENT_INPUTS)[K]>;
};

export type ComponentKind = keyof ComponentInputs;

/** Everything the service knows of one component kind; the transports derive their names from it. */
interface ComponentKindEntry<K extends ComponentKind> {
  /** What it is, in a few words (the GraphQL enum value's description). */
  readonly description: string;
  /** Its name in verbose answers (`CPU-1`): the `kind` of the model built below (checked by the compiler). */
  readonly verbose: Uppercase<K>;
  /** Its archetype table in the edition's data (src/data/types.ts), or null for a kind without archetypes. */
  readonly archetypes: ComponentTableName | null;
  /**
   * Its position in the v1 listing of the edition's components (`/v1/component/all`, the reference's
   * order), or null when that listing leaves it out.
   */
  readonly listing: number | null;
  /**
   * Which editions have it, besides needing its archetype table: an edition lacking that table (GPU
   * in 1.2.4) does not have the kind. Absent: every edition whose data has its table.
   */
  readonly servedWhen?: (rules: EditionRules) => boolean;
  /** Builds one standalone component (`unit`: the label of list workloads on the component routes). */
  readonly model: (
    context: EngineContext,
    cells: ComponentCells,
    input: ComponentInputs[K],
    unit: string,
  ) => Component & { readonly kind: Uppercase<K> };
}

/**
 * The registry of component kinds: one entry per kind, required by the compiler for each kind of
 * `ComponentInputs`. Key order is the GraphQL enum's order.
 * Adding a kind: docs/architecture.md, "Add a component kind".
 */
export const COMPONENT_KINDS = {
  cpu: {
    description: "Processor.",
    verbose: "CPU",
    archetypes: "cpu",
    listing: 0,
    model: (context, cells, input, unit) => new Cpu(context, cells, input, unit),
  },
  gpu: {
    description: "Graphics card.",
    verbose: "GPU",
    archetypes: "gpu",
    listing: 1,
    model: (context, cells, input, unit) => {
      const defaultGpu = defaultGpuCells(context);
      if (!defaultGpu) throw new Error("this edition has no GPU component");
      return new Gpu(context, cells, defaultGpu, input, unit);
    },
  },
  ram: {
    description: "Memory modules.",
    verbose: "RAM",
    archetypes: "ram",
    listing: 2,
    model: (context, cells, input, unit) => new Ram(context, cells, input, unit),
  },
  ssd: {
    description: "Solid-state drive.",
    verbose: "SSD",
    archetypes: "ssd",
    listing: 3,
    model: (context, cells, input, unit) => new Ssd(context, cells, input, unit),
  },
  hdd: {
    description: "Hard disk drive.",
    verbose: "HDD",
    archetypes: "hdd",
    listing: 4,
    model: (context, cells, input, unit) => new Hdd(context, cells, input, unit),
  },
  power_supply: {
    description: "Power supply unit.",
    verbose: "POWER_SUPPLY",
    archetypes: "power_supply",
    listing: 6,
    model: (context, cells, input, unit) => new PowerSupply(context, cells, input, unit),
  },
  case: {
    description: "Rack or blade case.",
    verbose: "CASE",
    archetypes: "case",
    listing: 7,
    model: (context, cells, input, unit) => new Case(context, cells, input, unit),
  },
  motherboard: {
    description: "Motherboard.",
    verbose: "MOTHERBOARD",
    archetypes: null,
    listing: 5,
    model: (context, cells, input, unit) =>
      new FixedImpactComponent(context, cells, MOTHERBOARD_PART, input, unit),
  },
  assembly: {
    description: "Assembly of a server.",
    verbose: "ASSEMBLY",
    archetypes: null,
    // The reference's listing has no assembly (its route answers 404 in 1.2.4; docs/methodology.md §4.9).
    listing: null,
    servedWhen: (rules) => rules.assemblyComponent === "served",
    model: (context, cells, input, unit) =>
      new FixedImpactComponent(context, cells, ASSEMBLY_PART, input, unit),
  },
} as const satisfies ComponentRegistry;

type ComponentRegistry = { readonly [K in ComponentKind]: ComponentKindEntry<K> };
const registry: ComponentRegistry = COMPONENT_KINDS;

/** The registry entry of a kind, typed by its kind (its model takes that kind's input). */
export function componentEntry<K extends ComponentKind>(kind: K): ComponentKindEntry<K> {
  return registry[kind];
}

/** The component kinds, in the registry's (GraphQL enum's) order. */
export const componentKinds = Object.keys(COMPONENT_KINDS) as ComponentKind[];

/** The archetype table of a component kind in a data set; null for a kind without archetypes or a table it lacks. */
export function componentArchetypeTable(data: ReferenceData, kind: ComponentKind): ArchetypeTable | null {
  const table = COMPONENT_KINDS[kind].archetypes;
  return table === null ? null : data.archetypes[table];
}

function offeredBy(data: ReferenceData, rules: EditionRules, kind: ComponentKind): boolean {
  const entry = componentEntry(kind);
  if (entry.servedWhen && !entry.servedWhen(rules)) return false;
  return entry.archetypes === null || data.archetypes[entry.archetypes] !== null;
}

/** Whether an edition has a component kind: its rules serve it and its data has its archetype table. */
export function componentOffered(context: EngineContext, kind: ComponentKind): boolean {
  return offeredBy(context.data, context.rules, kind);
}

/**
 * The kinds an edition serves whose factors section (`factors.yml`, keyed by the kind: `cpu`,
 * `motherboard`…) its data lacks, each as the start-up's one line: every criterion of such a kind
 * would answer "not implemented".
 */
export function componentFactorProblems(data: ReferenceData, rules: EditionRules): string[] {
  return componentKinds
    .filter((kind) => offeredBy(data, rules, kind))
    .filter((kind) => {
      const section = data.factors[kind];
      return typeof section !== "object" || section === null;
    })
    .map((kind) => `factors.yml has no "${kind}" section, which component kind ${kind} reads`);
}

/** The kinds of the v1 listing of components (`/v1/component/all`), in its (the reference's) order. */
export const listingOrder: readonly ComponentKind[] = componentKinds
  .filter((kind) => COMPONENT_KINDS[kind].listing !== null)
  .sort((a, b) => (COMPONENT_KINDS[a].listing ?? 0) - (COMPONENT_KINDS[b].listing ?? 0));
