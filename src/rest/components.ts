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
  AssemblyImpactsDocument,
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

/**
 * The v1 component routes: kind and impact handler. `assembly` is served although v1.2.4 answers
 * 404 for it: our specification lists it among the component routes (METHOD.md §4.8, §4.9).
 */
const COMPONENTS: readonly { readonly kind: ComponentKind; readonly impacts: Handler }[] = [
  {
    kind: "cpu",
    impacts: inputRoute(CpuImpactsDocument, componentVariables.cpu, (d) => d.component, {}, summary),
  },
  {
    kind: "ram",
    impacts: inputRoute(RamImpactsDocument, componentVariables.ram, (d) => d.component, {}, summary),
  },
  {
    kind: "ssd",
    impacts: inputRoute(SsdImpactsDocument, componentVariables.ssd, (d) => d.component, {}, summary),
  },
  {
    kind: "hdd",
    impacts: inputRoute(HddImpactsDocument, componentVariables.hdd, (d) => d.component, {}, summary),
  },
  {
    kind: "power_supply",
    impacts: inputRoute(
      PowerSupplyImpactsDocument,
      componentVariables.powerSupply,
      (d) => d.component,
      {},
      summary,
    ),
  },
  {
    kind: "case",
    impacts: inputRoute(CaseImpactsDocument, componentVariables.case, (d) => d.component, {}, summary),
  },
  {
    kind: "motherboard",
    impacts: inputRoute(
      MotherboardImpactsDocument,
      componentVariables.motherboard,
      (d) => d.component,
      {},
      summary,
    ),
  },
  {
    kind: "assembly",
    impacts: inputRoute(
      AssemblyImpactsDocument,
      componentVariables.assembly,
      (d) => d.component,
      {},
      summary,
    ),
  },
];

/** Kinds without an archetype file: the reference fails listing motherboard's (HTTP 500). */
const WITHOUT_ARCHETYPES: ReadonlySet<ComponentKind> = new Set(["motherboard", "assembly"]);

/** `/all` lists the kinds v1.2.4 lists (assembly, served since, is not among them). */
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
        if (WITHOUT_ARCHETYPES.has(spec.kind)) return ok([]);
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
