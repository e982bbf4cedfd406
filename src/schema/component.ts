import type { ArchetypeTable } from "../data/types.js";
import { availability, editionsWhere } from "../editions/features.js";
import { type ComponentKind, componentModel } from "../engine/index.js";
import { builder } from "./builder.js";
import type { EditionContext } from "./context.js";
import { editionArg } from "./edition.js";
import { notFound } from "./errors.js";
import { type AssetParent, assetImpactFields } from "./impact.js";
import {
  CaseInputRef,
  CpuInputRef,
  DiskInputRef,
  GpuInputRef,
  PowerSupplyInputRef,
  RamInputRef,
  SimpleComponentInputRef,
  validateComponentInput,
} from "./inputs.js";

interface ComponentParent extends AssetParent {
  readonly kind: ComponentKind;
  readonly archetype: string | null;
}

export const ComponentKindEnum = builder.enumType("ComponentKind", {
  description: "Kinds of components evaluated on their own or in fleets.",
  values: {
    cpu: { description: "Processor." },
    gpu: { description: `Graphics card. ${availability("gpus")}` },
    ram: { description: "Memory modules." },
    ssd: { description: "Solid-state drive." },
    hdd: { description: "Hard disk drive." },
    power_supply: { description: "Power supply unit." },
    case: { description: "Rack or blade case." },
    motherboard: { description: "Motherboard." },
    assembly: { description: "Assembly of a server." },
  } as const,
});

export const ComponentRef = builder.objectRef<ComponentParent>("Component").implement({
  description: "A single component (CPU, GPU, RAM, SSD, HDD, power supply, case, motherboard, assembly).",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "Component kind (a ComponentKind value)." }),
    archetype: t.exposeString("archetype", {
      nullable: true,
      description:
        "Archetype the component starts from (the kind's default unless given); null for kinds without any.",
    }),
    ...assetImpactFields(t),
  }),
});

/** The archetype table of a component kind; motherboard and assembly have none. */
export function componentTable(context: EditionContext, kind: ComponentKind): ArchetypeTable | null {
  const { archetypes } = context.service.data;
  switch (kind) {
    case "cpu":
      return archetypes.cpu;
    case "gpu":
      return archetypes.gpu;
    case "ram":
      return archetypes.ram;
    case "ssd":
      return archetypes.ssd;
    case "hdd":
      return archetypes.hdd;
    case "power_supply":
      return archetypes.powerSupply;
    case "case":
      return archetypes.case;
    default:
      return null;
  }
}

/** Kinds evaluated from an archetype table (motherboard and assembly have none). */
const KINDS_WITH_ARCHETYPES: ReadonlySet<ComponentKind> = new Set([
  "cpu",
  "gpu",
  "ram",
  "ssd",
  "hdd",
  "power_supply",
  "case",
]);

/** The GraphQL input type of each component kind. */
export const COMPONENT_INPUT_TYPES = {
  cpu: CpuInputRef,
  gpu: GpuInputRef,
  ram: RamInputRef,
  ssd: DiskInputRef,
  hdd: SimpleComponentInputRef,
  power_supply: PowerSupplyInputRef,
  case: CaseInputRef,
  motherboard: SimpleComponentInputRef,
  assembly: SimpleComponentInputRef,
} as const;

/** The query field (and fleet item input field) of each component kind. */
export const COMPONENT_FIELD_NAMES: Record<ComponentKind, string> = {
  cpu: "cpu",
  gpu: "gpu",
  ram: "ram",
  ssd: "ssd",
  hdd: "hdd",
  power_supply: "powerSupply",
  case: "case",
  motherboard: "motherboard",
  assembly: "assembly",
};

/** Validates a component description and prepares its (lazy) evaluation. */
export async function resolveComponent(
  context: EditionContext,
  kind: ComponentKind,
  archetypeId: string | null | undefined,
  rawInput: unknown,
  path: readonly string[] = ["input"],
): Promise<ComponentParent> {
  const table = componentTable(context, kind);
  const { input, usageHours } = validateComponentInput(context.limits, kind, rawInput, path);
  let cells = {};
  let archetype: string | null = null;
  // A kind described by archetypes whose table the edition's data set lacks (GPU in 1.2.4) is
  // not part of that edition.
  if (!componentExists(context, kind)) {
    throw notFound(`${kind} is not a component of edition ${context.service.edition.id}`);
  }
  if (table) {
    archetype = archetypeId ?? context.service.data.config.defaultArchetypes[kind] ?? "DEFAULT";
    const row = await context.archetypes.load({ table, id: archetype });
    if (!row) throw notFound(`${archetype} not found`);
    cells = row.cells;
  } else if (archetypeId != null) {
    throw notFound(`${archetypeId} not found`);
  }
  const engine = context.engine;
  return { kind, archetype, usageHours, build: () => componentModel(engine, kind, cells, input) };
}

/** Whether a component kind exists in an edition (a kind with archetypes needs its table). */
function componentExists(context: EditionContext, kind: ComponentKind): boolean {
  if (kind === "assembly") return context.engine.rules.assemblyComponent === "served";
  return !KINDS_WITH_ARCHETYPES.has(kind) || componentTable(context, kind) !== null;
}

builder.queryField("componentKinds", (t) =>
  t.field({
    type: [ComponentKindEnum],
    description: `The component kinds an edition evaluates (GPU: ${editionsWhere((e) => e.features.gpus)}; assembly: ${editionsWhere((e) => e.features.assemblyComponent)}).`,
    args: { edition: editionArg(t.arg) },
    resolve: (_root, args, context) => {
      const served = context.edition(args.edition);
      return (Object.keys(COMPONENT_INPUT_TYPES) as ComponentKind[]).filter((kind) =>
        componentExists(served, kind),
      );
    },
  }),
);

for (const kind of Object.keys(COMPONENT_INPUT_TYPES) as ComponentKind[]) {
  builder.queryField(COMPONENT_FIELD_NAMES[kind], (t) =>
    t.field({
      type: ComponentRef,
      description: `Evaluate a ${kind.replace("_", " ")} component.`,
      args: {
        archetype: t.arg.string({
          required: false,
          description: "Component archetype id; default the edition's default for this kind.",
        }),
        input: t.arg({
          type: COMPONENT_INPUT_TYPES[kind],
          required: false,
          description: "Characteristics and usage; missing ones are completed.",
        }),
        edition: editionArg(t.arg),
      },
      resolve: (_root, args, context) =>
        resolveComponent(context.edition(args.edition), kind, args.archetype, args.input),
    }),
  );
}
