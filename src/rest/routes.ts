import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import { type ExecutionResult, execute, type GraphQLSchema } from "graphql";
import { createRequestContext, type Service } from "../schema/context.js";
import { componentVariables, serverVariables } from "./body.js";
import {
  CaseImpactsDocument,
  CaseTypesDocument,
  ComponentArchetypeConfigDocument,
  ComponentArchetypesDocument,
  type ComponentKind,
  CountryCodesDocument,
  CpuByNameDocument,
  CpuFamiliesDocument,
  CpuImpactsDocument,
  CpuModelRangesDocument,
  CpuNamesDocument,
  HddImpactsDocument,
  ImpactCriteriaDocument,
  MotherboardImpactsDocument,
  PowerSupplyImpactsDocument,
  RamImpactsDocument,
  RamManufacturersDocument,
  ServerArchetypeConfigDocument,
  ServerArchetypesDocument,
  ServerImpactsDocument,
  SsdImpactsDocument,
  SsdManufacturersDocument,
} from "./generated/graphql.js";
import { type ImpactQuery, impactQuery, QueryValidationError } from "./query.js";
import { impactResponse } from "./shape.js";

/** A REST answer: status and JSON body. */
export interface RestResponse {
  readonly status: number;
  readonly body: unknown;
}

export interface RestRequest {
  readonly method: string;
  readonly params: URLSearchParams;
  /** Parsed JSON body; `{}` when the request had none. */
  readonly body: unknown;
}

type Handler = (request: RestRequest, run: Runner) => Promise<RestResponse>;

/** Executes one GraphQL operation of the shim against the schema, in a fresh request context. */
export type Runner = <R, V extends Record<string, unknown>>(
  document: TypedDocumentNode<R, V>,
  variables: V,
) => Promise<R>;

/** A GraphQL error reported to a REST client: status from its code, FastAPI-like body. */
export class RestError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(`REST ${status}`);
  }
}

export function createRunner(schema: GraphQLSchema, service: Service): Runner {
  return async (document, variables) => {
    const result = (await execute({
      schema,
      document,
      variableValues: variables,
      contextValue: createRequestContext(service),
    })) as ExecutionResult;
    if (result.errors && result.errors.length > 0) throw restErrorOf(result.errors);
    return result.data as never;
  };
}

function restErrorOf(errors: NonNullable<ExecutionResult["errors"]>): RestError {
  const [first] = errors;
  const code = first.extensions?.code;
  if (code === "NOT_FOUND") return new RestError(404, { detail: first.extensions?.detail ?? first.message });
  if (code === "BAD_USER_INPUT" || first.path === undefined) {
    const field = (first.extensions?.field as (string | number)[] | undefined) ?? [];
    return new RestError(422, { detail: [{ loc: ["body", ...field.slice(1)], msg: first.message, type: "value_error" }] });
  }
  return new RestError(500, "Internal Server Error");
}

const ok = (body: unknown): RestResponse => ({ status: 200, body });

/** Query parameters that are required by the v1 routes (FastAPI answers 422 without them). */
function required(params: URLSearchParams, name: string): string {
  const value = params.get(name);
  if (value === null) throw new QueryValidationError(name, "field required");
  return value;
}

function impactVariables(query: ImpactQuery, params: URLSearchParams) {
  return {
    archetype: params.get("archetype"),
    criteria: query.criteria,
    duration: query.duration,
    allocation: query.allocation,
    verbose: query.verbose,
  };
}

type ImpactData = {
  readonly [key: string]: {
    impacts: Parameters<typeof impactResponse>[0]["impacts"];
    verbose?: Parameters<typeof impactResponse>[0]["verbose"];
  };
};

/** GET and POST of an impact route: body (POST) → variables → operation → v1 JSON. */
function impactRoute<V extends Record<string, unknown>>(
  document: TypedDocumentNode<ImpactData, V>,
  field: string,
  input: (body: unknown) => unknown,
): Handler {
  return async (request, run) => {
    const query = impactQuery(request.params);
    const variables = {
      ...impactVariables(query, request.params),
      input: request.method === "POST" ? input(request.body) : null,
    } as unknown as V;
    const data = await run(document, variables);
    return ok(impactResponse(data[field]));
  };
}

function listing<R, K extends keyof R>(document: TypedDocumentNode<R, Record<string, never>>, field: K): Handler {
  return async (_request, run) => ok((await run(document, {}))[field]);
}

/** The v1 component kinds and the GraphQL operation of each (assembly has no v1 route). */
const COMPONENTS: Record<string, { kind: ComponentKind; document: TypedDocumentNode<ImpactData, never>; input: (b: unknown) => unknown }> = {
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

export interface Route {
  readonly path: string;
  readonly methods: Readonly<Record<string, Handler>>;
}

function componentRoutes(): Route[] {
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

const CPU_NOT_FOUND = (name: string) => `CPU name ${name} is not found in our database`;

/** `name_to_cpu` answers the full v1 CPU request object (§16). */
const nameToCpu: Handler = async (request, run) => {
  const name = required(request.params, "cpu_name");
  const { cpuByName } = await run(CpuByNameDocument, { name });
  if (!cpuByName) return ok(CPU_NOT_FOUND(name));
  const elecFactors = Object.fromEntries(
    [
      "gwp",
      "adp",
      "pe",
      "gwppb",
      "gwppf",
      "gwpplu",
      "ir",
      "lu",
      "odp",
      "pm",
      "pocp",
      "wu",
      "mips",
      "adpe",
      "adpf",
      "ap",
      "ctue",
      "ctuh_c",
      "ctuh_nc",
      "epf",
      "epm",
      "ept",
    ].map((k) => [k, null]),
  );
  return ok({
    units: null,
    usage: {
      use_time_ratio: null,
      hours_life_time: null,
      avg_power: null,
      time_workload: null,
      usage_location: null,
      elec_factors: elecFactors,
    },
    core_units: cpuByName.coreUnits,
    die_size: cpuByName.dieSize,
    die_size_per_core: null,
    manufacturer: cpuByName.manufacturer,
    model_range: cpuByName.modelRange,
    family: cpuByName.family,
    name: cpuByName.name,
    tdp: cpuByName.tdp,
  });
};

const serverImpacts = impactRoute(ServerImpactsDocument as never, "server", serverVariables);

export const ROUTES: readonly Route[] = [
  { path: "/v1/server", methods: { GET: serverImpacts, POST: serverImpacts } },
  { path: "/v1/server/archetypes", methods: { GET: listing(ServerArchetypesDocument, "serverArchetypes") } },
  {
    path: "/v1/server/archetype_config",
    methods: {
      GET: async (request, run) =>
        ok(
          (await run(ServerArchetypeConfigDocument, { archetype: required(request.params, "archetype") }))
            .serverArchetypeConfig,
        ),
    },
  },
  ...componentRoutes(),
  { path: "/v1/utils/country_code", methods: { GET: listing(CountryCodesDocument, "countryCodes") } },
  { path: "/v1/utils/cpu_family", methods: { GET: listing(CpuFamiliesDocument, "cpuFamilies") } },
  { path: "/v1/utils/cpu_model_range", methods: { GET: listing(CpuModelRangesDocument, "cpuModelRanges") } },
  { path: "/v1/utils/cpu_name", methods: { GET: listing(CpuNamesDocument, "cpuNames") } },
  { path: "/v1/utils/ssd_manufacturer", methods: { GET: listing(SsdManufacturersDocument, "ssdManufacturers") } },
  { path: "/v1/utils/ram_manufacturer", methods: { GET: listing(RamManufacturersDocument, "ramManufacturers") } },
  { path: "/v1/utils/case_type", methods: { GET: listing(CaseTypesDocument, "caseTypes") } },
  { path: "/v1/utils/name_to_cpu", methods: { GET: nameToCpu } },
  {
    path: "/v1/utils/impact_criteria",
    methods: {
      GET: async (_request, run) => {
        const { impactCriteria } = await run(ImpactCriteriaDocument, {});
        return ok(
          Object.fromEntries(
            impactCriteria.map((c) => [
              c.key,
              { name: c.name, unit: c.unit, description: c.description, method: c.method },
            ]),
          ),
        );
      },
    },
  },
];
