import type { ArchetypeTable } from "../data/types.js";
import { availability, editionsWhere, type FeatureName } from "../editions/features.js";
import {
  COMPONENT_KINDS,
  type ComponentKind,
  componentArchetypeTable,
  componentKinds,
  componentModel,
  componentOffered,
} from "../engine/index.js";
import type { EditionContext } from "../service/context.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { notFound } from "./errors.js";
import { type AssetParent, AssetRef } from "./impact.js";
import { COMPONENT_INPUT_TYPES, validateComponentInput } from "./inputs.js";

/** The kinds (GraphQL enum order) and the v1 listing's order, from the component registry. */
export { componentKinds, listingOrder } from "../engine/index.js";
export { COMPONENT_INPUT_TYPES };

interface ComponentParent extends AssetParent {
  readonly kind: ComponentKind;
  readonly archetype: string | null;
}

/** Kinds only some editions have: their description says which (from the editions' features). */
const KIND_FEATURE: Partial<Record<ComponentKind, FeatureName>> = { gpu: "gpus" };

function kindDescription(kind: ComponentKind): string {
  const feature = KIND_FEATURE[kind];
  const description = COMPONENT_KINDS[kind].description;
  return feature ? `${description} ${availability(feature)}` : description;
}

export const ComponentKindEnum = builder.enumType("ComponentKind", {
  description: "Kinds of components evaluated on their own or in fleets.",
  values: Object.fromEntries(
    componentKinds.map((kind) => [kind, { description: kindDescription(kind) }]),
  ) as Record<ComponentKind, { description: string }>,
});

export const ComponentRef = builder.objectRef<ComponentParent>("Component").implement({
  interfaces: [AssetRef],
  description: "A single component (CPU, GPU, RAM, SSD, HDD, power supply, case, motherboard, assembly).",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "Component kind (a ComponentKind value)." }),
    archetype: t.exposeString("archetype", {
      nullable: true,
      description:
        "Archetype the component starts from (the kind's default unless given); null for kinds without any.",
    }),
  }),
});

/** The archetype table of a component kind (the registry's); null for kinds without any (motherboard, assembly). */
export function componentTable(context: EditionContext, kind: ComponentKind): ArchetypeTable | null {
  return componentArchetypeTable(context.service.data, kind);
}

/** Whether a kind is described by archetypes (not motherboard, assembly): the registry's. */
export function hasArchetypes(kind: ComponentKind): boolean {
  return COMPONENT_KINDS[kind].archetypes !== null;
}

/** The query field (and fleet item input field) of each component kind: the kind in camelCase. */
export const COMPONENT_FIELD_NAMES = Object.fromEntries(
  componentKinds.map((kind) => [
    kind,
    kind.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase()),
  ]),
) as Record<ComponentKind, string>;

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

/** Whether a component kind exists in an edition (the registry's rule: its rules serve it, its data has its table). */
function componentExists(context: EditionContext, kind: ComponentKind): boolean {
  return componentOffered(context.engine, kind);
}

builder.queryField("componentKinds", (t) =>
  t.field({
    type: [ComponentKindEnum],
    description: `The component kinds an edition evaluates (GPU: ${editionsWhere((e) => e.features.gpus)}; assembly: ${editionsWhere((e) => e.features.assemblyComponent)}).`,
    args: { edition: editionArg(t.arg) },
    resolve: (_root, args, context) => {
      const served = context.edition(args.edition);
      return componentKinds.filter((kind) => componentExists(served, kind));
    },
  }),
);

for (const kind of componentKinds) {
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
