import { componentVariables } from "./body.js";
import {
  ARCHETYPE_PARAMETER,
  documented,
  type Handler,
  inputRoute,
  ok,
  type Route,
  required,
} from "./common.js";
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

const summary = "Impacts of a component (GET: an archetype; POST: characteristics completing it)";

/** The v1 component routes: kind and impact handler (assembly has no v1 route). */
const COMPONENTS: readonly { readonly kind: ComponentKind; readonly impacts: Handler }[] = [
  {
    kind: "cpu",
    impacts: inputRoute(CpuImpactsDocument, componentVariables.cpu, (d) => d.component, summary),
  },
  {
    kind: "ram",
    impacts: inputRoute(RamImpactsDocument, componentVariables.ram, (d) => d.component, summary),
  },
  {
    kind: "ssd",
    impacts: inputRoute(SsdImpactsDocument, componentVariables.ssd, (d) => d.component, summary),
  },
  {
    kind: "hdd",
    impacts: inputRoute(HddImpactsDocument, componentVariables.hdd, (d) => d.component, summary),
  },
  {
    kind: "power_supply",
    impacts: inputRoute(
      PowerSupplyImpactsDocument,
      componentVariables.powerSupply,
      (d) => d.component,
      summary,
    ),
  },
  {
    kind: "case",
    impacts: inputRoute(CaseImpactsDocument, componentVariables.case, (d) => d.component, summary),
  },
  {
    kind: "motherboard",
    impacts: inputRoute(
      MotherboardImpactsDocument,
      componentVariables.motherboard,
      (d) => d.component,
      summary,
    ),
  },
];

const COMPONENT_ALL = Object.fromEntries(
  ["cpu", "ram", "ssd", "hdd", "motherboard", "power_supply", "case"].map((k) => [k, `v1/component/${k}`]),
);

export function componentRoutes(): Route[] {
  const routes: Route[] = [
    {
      path: "/v1/component/all",
      methods: { GET: documented(async () => ok(COMPONENT_ALL), { summary: "The component routes" }) },
    },
  ];
  for (const spec of COMPONENTS) {
    const { impacts } = spec;
    const archetypes: Handler = documented(
      async (_request, run) => {
        // The reference points motherboard at a missing file (HTTP 500); it has no archetypes.
        if (spec.kind === "motherboard") return ok([]);
        return ok((await run(ComponentArchetypesDocument, { kind: spec.kind })).componentArchetypes);
      },
      { summary: `Archetype ids of the ${spec.kind} component` },
    );
    const config: Handler = documented(
      async (request, run) => {
        const archetype = required(request.params, "archetype");
        const data = await run(ComponentArchetypeConfigDocument, { kind: spec.kind, archetype });
        return ok(data.componentArchetypeConfig);
      },
      { summary: `The configuration of a ${spec.kind} archetype`, query: [ARCHETYPE_PARAMETER] },
    );
    const spellings = spec.kind === "power_supply" ? ["power_supply", "power-supply"] : [spec.kind];
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
