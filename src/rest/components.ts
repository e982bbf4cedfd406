import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { componentVariables } from "./body.js";
import { type Handler, type ImpactData, impactRoute, ok, type Route, required } from "./common.js";
import {
  CaseImpactsDocument,
  ComponentArchetypeConfigDocument,
  ComponentArchetypesDocument,
  type ComponentKind,
  CpuImpactsDocument,
  HddImpactsDocument,
  MotherboardImpactsDocument,
  PowerSupplyImpactsDocument,
  RamImpactsDocument,
  SsdImpactsDocument,
} from "./generated/graphql.js";

/** The v1 component kinds and the GraphQL operation of each (assembly has no v1 route). */
const COMPONENTS: Record<
  string,
  { kind: ComponentKind; document: TypedDocumentNode<ImpactData, never>; input: (b: unknown) => unknown }
> = {
  cpu: { kind: "cpu", document: CpuImpactsDocument as never, input: componentVariables.cpu },
  ram: { kind: "ram", document: RamImpactsDocument as never, input: componentVariables.ram },
  ssd: { kind: "ssd", document: SsdImpactsDocument as never, input: componentVariables.ssd },
  hdd: { kind: "hdd", document: HddImpactsDocument as never, input: componentVariables.hdd },
  power_supply: {
    kind: "power_supply",
    document: PowerSupplyImpactsDocument as never,
    input: componentVariables.powerSupply,
  },
  case: { kind: "case", document: CaseImpactsDocument as never, input: componentVariables.case },
  motherboard: {
    kind: "motherboard",
    document: MotherboardImpactsDocument as never,
    input: componentVariables.motherboard,
  },
};

const COMPONENT_ALL = Object.fromEntries(
  ["cpu", "ram", "ssd", "hdd", "motherboard", "power_supply", "case"].map((k) => [k, `v1/component/${k}`]),
);

export function componentRoutes(): Route[] {
  const routes: Route[] = [{ path: "/v1/component/all", methods: { GET: async () => ok(COMPONENT_ALL) } }];
  for (const [name, spec] of Object.entries(COMPONENTS)) {
    const impacts = impactRoute(spec.document, "component", spec.input);
    const archetypes: Handler = async (_request, run) => {
      // The reference points motherboard at a missing file (HTTP 500); it has no archetypes.
      if (spec.kind === "motherboard") return ok([]);
      return ok((await run(ComponentArchetypesDocument, { kind: spec.kind })).componentArchetypes);
    };
    const config: Handler = async (request, run) => {
      const archetype = required(request.params, "archetype");
      const data = await run(ComponentArchetypeConfigDocument, { kind: spec.kind, archetype });
      return ok(data.componentArchetypeConfig);
    };
    const spellings = name === "power_supply" ? ["power_supply", "power-supply"] : [name];
    for (const spelling of spellings) {
      const base = `/v1/component/${spelling}`;
      routes.push({ path: base, methods: { GET: impacts, POST: impacts } });
      routes.push({ path: `${base}/archetype`, methods: { GET: archetypes } });
      routes.push({ path: `${base}/archetypes`, methods: { GET: archetypes } });
      routes.push({ path: `${base}/archetype_config`, methods: { GET: config } });
    }
  }
  return routes;
}
