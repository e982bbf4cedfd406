import { componentVariables } from "./body.js";
import {
  ARCHETYPE_PARAMETER,
  documented,
  type EditionFeature,
  GPUS,
  type Handler,
  inputRoute,
  ok,
  RestError,
  type Route,
  required,
} from "./common.js";
import {
  AssemblyImpactsDocument,
  CaseImpactsDocument,
  ComponentArchetypeConfigDocument,
  ComponentArchetypesDocument,
  type ComponentKind,
  ComponentKindsDocument,
  CpuImpactsDocument,
  GpuImpactsDocument,
  HddImpactsDocument,
  MotherboardImpactsDocument,
  PowerSupplyImpactsDocument,
  RamImpactsDocument,
  SsdImpactsDocument,
} from "./generated/graphql.js";

/**
/**
 * The v1 component routes: kind, impact handler and, for a component only some editions have,
 * what their data must hold. `assembly` is served although v1.2.4 answers 404 for it: our specification
 * lists it among the component routes (docs/methodology.md §4.8, §4.9).
 */
const COMPONENTS: readonly {
  readonly kind: ComponentKind;
  readonly impacts: Handler;
  readonly requires?: EditionFeature;
}[] = [
  { kind: "cpu", impacts: inputRoute(CpuImpactsDocument, componentVariables.cpu, (d) => d.component) },
  {
    kind: "gpu",
    impacts: inputRoute(GpuImpactsDocument, componentVariables.gpu, (d) => d.component),
    requires: GPUS,
  },
  { kind: "ram", impacts: inputRoute(RamImpactsDocument, componentVariables.ram, (d) => d.component) },
  { kind: "ssd", impacts: inputRoute(SsdImpactsDocument, componentVariables.ssd, (d) => d.component) },
  { kind: "hdd", impacts: inputRoute(HddImpactsDocument, componentVariables.hdd, (d) => d.component) },
  {
    kind: "power_supply",
    impacts: inputRoute(PowerSupplyImpactsDocument, componentVariables.powerSupply, (d) => d.component),
  },
  { kind: "case", impacts: inputRoute(CaseImpactsDocument, componentVariables.case, (d) => d.component) },
  {
    kind: "motherboard",
    impacts: inputRoute(MotherboardImpactsDocument, componentVariables.motherboard, (d) => d.component),
  },
  {
    kind: "assembly",
    impacts: inputRoute(AssemblyImpactsDocument, componentVariables.assembly, (d) => d.component),
  },
];

/** Kinds without an archetype file: the reference fails listing motherboard's (HTTP 500). */
const WITHOUT_ARCHETYPES: ReadonlySet<ComponentKind> = new Set(["motherboard", "assembly"]);

/** `/v1/component/all` lists the edition's components in the reference's order (gpu from 2.4.1). */
const COMPONENT_ALL_ORDER: readonly ComponentKind[] = [
  "cpu",
  "gpu",
  "ram",
  "ssd",
  "hdd",
  "motherboard",
  "power_supply",
  "case",
];

const componentAll: Handler = documented(
  async (_request, run) => {
    const { componentKinds } = await run(ComponentKindsDocument, {});
    const existing = new Set(componentKinds);
    return ok(
      Object.fromEntries(
        COMPONENT_ALL_ORDER.filter((kind) => existing.has(kind)).map((kind) => [
          kind,
          `v1/component/${kind}`,
        ]),
      ),
    );
  },
  { summary: "The components of the edition and their routes", answer: "Links" },
);

export function componentRoutes(): Route[] {
  const routes: Route[] = [{ path: "/v1/component/all", methods: { GET: componentAll } }];
  for (const spec of COMPONENTS) {
    const { impacts, requires } = spec;
    const archetypes: Handler = documented(
      async (_request, run) => {
        if (WITHOUT_ARCHETYPES.has(spec.kind)) {
          // No archetype file: an empty list where the edition has the kind, else not found.
          const { componentKinds } = await run(ComponentKindsDocument, {});
          if (!componentKinds.includes(spec.kind)) throw new RestError(404, { detail: "Not Found" });
          return ok([]);
        }
        return ok((await run(ComponentArchetypesDocument, { kind: spec.kind })).componentArchetypes);
      },
      { summary: `Archetype ids of the ${spec.kind} component`, answer: "Names" },
    );
    const config: Handler = documented(
      async (request, run) => {
        const archetype = required(request.params, "archetype");
        const data = await run(ComponentArchetypeConfigDocument, { kind: spec.kind, archetype });
        return ok(data.componentArchetypeConfig);
      },
      {
        summary: `The configuration of a ${spec.kind} archetype`,
        query: [ARCHETYPE_PARAMETER],
        answer: "ArchetypeConfig",
      },
    );
    const spellings = spec.kind === "power_supply" ? ["power_supply", "power-supply"] : [spec.kind];
    for (const spelling of spellings) {
      const base = `/v1/component/${spelling}`;
      routes.push({ path: base, requires, methods: { GET: impacts, POST: impacts } });
      routes.push({ path: `${base}/archetype`, requires, methods: { GET: archetypes } });
      routes.push({ path: `${base}/archetypes`, requires, methods: { GET: archetypes } });
      routes.push({ path: `${base}/archetype_config`, requires, methods: { GET: config } });
    }
  }
  return routes;
}
