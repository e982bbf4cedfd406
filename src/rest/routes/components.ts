import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { Kind, parse } from "graphql";
import { COMPONENT_FIELD_NAMES, COMPONENT_INPUT_TYPES } from "../../schema/component.js";
import { componentKinds, hasArchetypes, listingOrder } from "../../service/engineVocabulary.js";
import { type EditionFeature, GPUS } from "../editionFeatures.js";
import {
  type Allocation,
  type AssetImpactFieldsFragment,
  AssetImpactFieldsFragmentDoc,
  ComponentArchetypeConfigDocument,
  ComponentArchetypesDocument,
  type ComponentKind,
  ComponentKindsDocument,
  type Criterion,
} from "../generated/graphql.js";
import { RestError } from "../graphqlErrors.js";
import { documented, type Handler, ok, type Route, required } from "../restRoute.js";
import { ARCHETYPE_PARAMETER, inputRoute } from "../routeBuilders.js";
import { componentVariables } from "../validation/v1Body.js";

/*
 * The v1 component routes, for every kind of the component registry (src/engine/components/
 * registry.ts, through the schema): `/v1/component/<kind>` (impacts), `…/archetype(s)` and
 * `…/archetype_config`. `assembly` is served although v1.2.4 answers 404 for it: our specification
 * lists it among the component routes (docs/methodology.md §4.8, §4.9).
 */

/** Other v1 spellings of a kind's path: the reference also routes `power-supply`. */
const PATH_ALIASES: Partial<Record<ComponentKind, readonly string[]>> = { power_supply: ["power-supply"] };

/** A kind whose routes only editions with a feature have (their data's optional table). */
const REQUIRES: Partial<Record<ComponentKind, EditionFeature>> = { gpu: GPUS };

/** The variables of a component impacts operation whose `input` is `Input`. */
interface ComponentImpactsVariables<Input> {
  archetype?: string | null;
  input?: Input | null;
  criteria?: Criterion[] | Criterion | null;
  duration?: number | null;
  allocation?: Allocation | null;
  verbose: boolean;
  edition?: string | null;
}

type ComponentImpacts = { component: AssetImpactFieldsFragment };

/**
 * The one operation of the component impact routes, for a kind: its query field (aliased
 * `component`), its input type, and the `AssetImpactFields` fragment of
 * src/rest/operations/fragments.graphql. Built once per kind when the routes are made; named
 * `<Field>Impacts` (`CpuImpacts`, `PowerSupplyImpacts`) like the hand-written ones it replaces.
 */
export function componentImpactsDocument(
  kind: ComponentKind,
): TypedDocumentNode<ComponentImpacts, ComponentImpactsVariables<unknown>> {
  const field = COMPONENT_FIELD_NAMES[kind];
  const operation = parse(`query ${field[0].toUpperCase()}${field.slice(1)}Impacts(
  $archetype: String
  $input: ${COMPONENT_INPUT_TYPES[kind].name}
  $criteria: [Criterion!]
  $duration: Float
  $allocation: Allocation
  $verbose: Boolean!
) {
  component: ${field}(archetype: $archetype, input: $input) {
    ...AssetImpactFields
  }
}`);
  return {
    kind: Kind.DOCUMENT,
    definitions: [...operation.definitions, ...AssetImpactFieldsFragmentDoc.definitions],
  };
}

const componentAll: Handler = documented(
  async (_request, run) => {
    const { componentKinds: existing } = await run(ComponentKindsDocument, {});
    const served = new Set(existing);
    // `/v1/component/all` lists the edition's components in the reference's order (gpu where the edition has GPUs).
    return ok(
      Object.fromEntries(
        listingOrder.filter((kind) => served.has(kind)).map((kind) => [kind, `v1/component/${kind}`]),
      ),
    );
  },
  { summary: "The components of the edition and their routes", answer: "Links" },
);

export function componentRoutes(): Route[] {
  const routes: Route[] = [{ path: "/v1/component/all", methods: { GET: componentAll } }];
  for (const kind of componentKinds) {
    const requires = REQUIRES[kind];
    const impacts = inputRoute(componentImpactsDocument(kind), componentVariables[kind], (d) => d.component);
    const archetypes: Handler = documented(
      async (_request, run) => {
        if (!hasArchetypes(kind)) {
          // No archetype file (the reference fails listing motherboard's, HTTP 500): an empty list
          // where the edition has the kind, else not found.
          const { componentKinds: existing } = await run(ComponentKindsDocument, {});
          if (!existing.includes(kind)) throw new RestError(404, { detail: "Not Found" });
          return ok([]);
        }
        return ok((await run(ComponentArchetypesDocument, { kind })).componentArchetypes);
      },
      { summary: `Archetype ids of the ${kind} component`, answer: "Names" },
    );
    const config: Handler = documented(
      async (request, run) => {
        const archetype = required(request.params, "archetype");
        const data = await run(ComponentArchetypeConfigDocument, { kind, archetype });
        return ok(data.componentArchetypeConfig);
      },
      {
        summary: `The configuration of a ${kind} archetype`,
        query: [ARCHETYPE_PARAMETER],
        answer: "ArchetypeConfig",
      },
    );
    for (const spelling of [kind, ...(PATH_ALIASES[kind] ?? [])]) {
      const base = `/v1/component/${spelling}`;
      routes.push({ path: base, requires, methods: { GET: impacts, POST: impacts } });
      routes.push({ path: `${base}/archetype`, requires, methods: { GET: archetypes } });
      routes.push({ path: `${base}/archetypes`, requires, methods: { GET: archetypes } });
      routes.push({ path: `${base}/archetype_config`, requires, methods: { GET: config } });
    }
  }
  return routes;
}
