import type { ArchetypeTable } from "../data/types.js";
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
  description:
    "The kinds of server component, each with its own query field and `/v1/component/<kind>` route.",
  values: {
    cpu: { description: "Processor: embedded from its die size, use from its consumption profile." },
    ram: { description: "Memory modules: embedded from capacity / density, use from a power per GB." },
    ssd: { description: "Solid-state drive: embedded from capacity / density." },
    hdd: { description: "Hard disk drive: a fixed impact per unit." },
    power_supply: { description: "Power supply: embedded from its weight." },
    case: { description: "Server case, rack or blade." },
    motherboard: { description: "Motherboard: a fixed impact per unit." },
    assembly: { description: "Assembly of the server: a fixed impact per server." },
  } as const,
});

export const ComponentRef = builder.objectRef<ComponentParent>("Component").implement({
  description: "A single component (CPU, RAM, SSD, HDD, power supply, case, motherboard, assembly).",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "Component kind (a ComponentKind value)." }),
    archetype: t.exposeString("archetype", {
      nullable: true,
      description:
        "Archetype the component starts from (`DEFAULT` unless given); null for kinds without any.",
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

/** The GraphQL input type of each component kind. */
export const COMPONENT_INPUT_TYPES = {
  cpu: CpuInputRef,
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
  const { input, usageHours } = validateComponentInput(kind, rawInput, path);
  let cells = {};
  let archetype: string | null = null;
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

for (const kind of Object.keys(COMPONENT_INPUT_TYPES) as ComponentKind[]) {
  builder.queryField(COMPONENT_FIELD_NAMES[kind], (t) =>
    t.field({
      type: ComponentRef,
      description: `Evaluate a ${kind.replace("_", " ")} component.`,
      args: {
        archetype: t.arg.string({
          required: false,
          description:
            "Archetype id of the kind's table; default `DEFAULT` (motherboard and assembly have none).",
        }),
        input: t.arg({
          type: COMPONENT_INPUT_TYPES[kind],
          required: false,
          description: "What is known of the component; the rest comes from the archetype.",
        }),
        edition: editionArg(t.arg),
      },
      resolve: (_root, args, context) =>
        resolveComponent(context.edition(args.edition), kind, args.archetype, args.input),
    }),
  );
}
