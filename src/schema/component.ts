import { availability, editionsWhere, type FeatureName } from "../editions/features.js";
import { componentExists, type PreparedComponent, prepareComponent } from "../service/components.js";
import { COMPONENT_KINDS, type ComponentKind, componentKinds } from "../service/engineVocabulary.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { spelledUseCase } from "./errors.js";
import { ASSET_FIELD_NULLABLE, AssetRef } from "./impact.js";
import { COMPONENT_INPUT_TYPES } from "./inputs.js";

export { componentTable } from "../service/components.js";
export { COMPONENT_INPUT_TYPES };

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

export const ComponentRef = builder.objectRef<PreparedComponent>("Component").implement({
  interfaces: [AssetRef],
  description: "A single component, of one of the kinds of the enum ComponentKind.",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "Component kind (a ComponentKind value)." }),
    archetype: t.exposeString("archetype", {
      nullable: true,
      description:
        "Archetype the component starts from (the kind's default unless given); null for kinds without any.",
    }),
  }),
});

/** The query field (and fleet item input field) of each component kind: the kind in camelCase. */
export const COMPONENT_FIELD_NAMES = Object.fromEntries(
  componentKinds.map((kind) => [
    kind,
    kind.replace(/_([a-z])/g, (_match, letter: string) => letter.toUpperCase()),
  ]),
) as Record<ComponentKind, string>;

/** The use case of src/service, its domain errors spelled as GraphQL errors. */
export const resolveComponent = spelledUseCase(prepareComponent);

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
      nullable: ASSET_FIELD_NULLABLE,
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
