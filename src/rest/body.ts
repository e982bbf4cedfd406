import { z } from "zod";
import type { CaseInputRef, SimpleComponentInputRef } from "../schema/inputs.js";
import { ELECTRICITY_CRITERIA } from "../service/catalogue.js";
import { builtOncePer } from "../support/builtOnce.js";
import { sentValue } from "./errorDialect.js";
import type {
  ComponentKind,
  CpuInput,
  DiskInput,
  GpuInput,
  PowerSupplyInput,
  RamInput,
  ServerInput,
  UsageInput,
} from "./generated/graphql.js";
import {
  type FieldIssue,
  fieldTypes,
  issueParams,
  type RequestValidation,
  type ValidationDetail,
  validationDetail,
} from "./validation.js";

/*
 * Input types only the component impact operations (built per kind in components.ts, not written
 * in operations/*.graphql) use, so codegen does not emit them: read from the schema's definitions.
 */
type CaseInput = (typeof CaseInputRef)["$inferInput"];
type SimpleComponentInput = (typeof SimpleComponentInputRef)["$inferInput"];

/*
 * v1 request bodies (snake_case), validated with the reference's typing rules of the request's
 * edition (`validation.ts`: pydantic 1 or 2), unknown keys ignored. The result is the GraphQL
 * operation's variables. The schemas are built once per set of rules.
 */

function schemasOf(rules: RequestValidation) {
  const { integer, float, text, optional: opt, defaulted } = fieldTypes(rules);

  const workloadShare = z.object({ time_percentage: float, load_percentage: float });

  const usage = z.object({
    avg_power: opt(float),
    time_workload: opt(z.union([float, z.array(workloadShare)])),
    usage_location: opt(text),
    region: opt(text),
    instance_per_server: opt(integer),
    use_time_ratio: opt(float),
    hours_life_time: opt(float),
    other_consumption_ratio: opt(float),
    elec_factors: opt(z.object(Object.fromEntries(ELECTRICITY_CRITERIA.map((c) => [c, opt(float)])))),
    hours_use_time: opt(float),
    days_use_time: opt(float),
    years_use_time: opt(float),
  });

  const cpu = z.object({
    units: opt(integer),
    core_units: opt(integer),
    die_size: opt(float),
    die_size_per_core: opt(float),
    manufacturer: opt(text),
    model_range: opt(text),
    family: opt(text),
    name: opt(text),
    tdp: opt(integer),
    usage: opt(usage),
  });

  const ram = z.object({
    units: opt(integer),
    capacity: opt(integer),
    density: opt(float),
    manufacturer: opt(text),
    process: opt(float),
    usage: opt(usage),
  });

  const disk = z.object({
    type: opt(text),
    units: opt(integer),
    capacity: opt(integer),
    density: opt(float),
    manufacturer: opt(text),
    layers: opt(integer),
    usage: opt(usage),
  });

  const gpu = z.object({
    units: opt(integer),
    name: opt(text),
    manufacturer: opt(text),
    weight: opt(float),
    heatsink_weight: opt(float),
    pwb_surface: opt(float),
    pwb_weight: opt(float),
    casing_weight: opt(float),
    gpu_surface: opt(float),
    vram: opt(integer),
    vram_dies: opt(integer),
    vram_surface: opt(float),
    transport_boat: opt(float),
    transport_truck: opt(float),
    transport_plane: opt(float),
    usage: opt(usage),
  });

  const powerSupply = z.object({ units: opt(integer), unit_weight: opt(float), usage: opt(usage) });
  // `case_type` is declared without Optional in the reference (null refused under pydantic 2).
  const caseBody = z.object({ units: opt(integer), case_type: defaulted(text), usage: opt(usage) });
  const simple = z.object({ units: opt(integer), capacity: opt(integer), usage: opt(usage) });

  const server = z.object({
    // The model is descriptive only (docs/methodology.md §7.1: ignored by the computation); its `year` is
    // accepted as a number too, as 2.4.1 answers `"year": 2020` normally.
    model: opt(
      z.object({
        type: opt(text),
        name: opt(text),
        manufacturer: opt(text),
        year: opt(z.union([text, integer]).transform(String)),
      }),
    ),
    configuration: opt(
      z.object({
        cpu: opt(cpu),
        gpu: opt(gpu),
        ram: opt(z.array(ram)),
        disk: opt(z.array(disk)),
        power_supply: opt(powerSupply),
      }),
    ),
    usage: opt(usage),
  });

  return { usage, cpu, gpu, ram, disk, powerSupply, caseBody, simple, server };
}

type BodySchemas = ReturnType<typeof schemasOf>;

/** The v1 body schemas under `rules`, built on first use. */
const bodySchemas = builtOncePer(schemasOf);

type V1Usage = z.infer<BodySchemas["usage"]>;

/** A v1 body that failed validation, in FastAPI's 422 shape (layout of the request's rules). */
export class BodyValidationError extends Error {
  constructor(readonly detail: ValidationDetail[]) {
    super("invalid request body");
  }
}

/** Most refused values listed in one 422 (a body's lists are bounded by MAX_LIST_LENGTH first). */
export const MAX_REPORTED_ISSUES = 50;

/** Validates a v1 body (absent = `{}`) under `rules`, or throws the 422 of FastAPI's shape. */
export function parseV1Body<S extends z.ZodType>(
  schema: S,
  body: unknown,
  rules: RequestValidation,
  at: readonly (string | number)[] = [],
): z.infer<S> {
  const root = body ?? {};
  // `reportInput`: a required key absent is told apart from one given as null.
  const result = schema.safeParse(root, { reportInput: true });
  if (result.success) return result.data;
  throw new BodyValidationError(
    // The first ones only: the answer stays small whatever the body holds.
    firstStage(result.error.issues.flatMap((issue) => refusals(issue, [])))
      .slice(0, MAX_REPORTED_ISSUES)
      .map(({ path, issue, input }) => {
        const loc = ["body", ...at, ...path];
        // A required field absent: pydantic 2 echoes the object that lacks it.
        const echoed = issue.kind === "missing" ? sentValue(root, path.slice(0, -1)) : input;
        return validationDetail(rules, loc, issue, echoed);
      }),
  );
}

/**
 * The framework's refusals (types) come before the service's own completeness check (a key
 * absent, where the reference has no check and fails later): a body with both is answered the
 * former only, as the reference answers it.
 */
function firstStage(all: Refusal[]): Refusal[] {
  const framework = all.filter((refusal) => refusal.issue.kind !== "missing");
  return framework.length > 0 ? framework : all;
}

interface Refusal {
  readonly path: (string | number)[];
  readonly issue: FieldIssue;
  readonly input: unknown;
}

/**
 * The refusals of a zod issue: a field type's own (carried in its params), or one zod raises itself
 * (an object or a list expected); a value fitting no member of a union is refused by each member,
 * as pydantic lists them.
 */
function refusals(issue: z.core.$ZodIssue, prefix: readonly (string | number)[]): Refusal[] {
  const path = [...prefix, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))];
  const params = issueParams(issue);
  if (params) return [{ path, issue: params.pydantic, input: params.input }];
  if (issue.code === "invalid_union" && issue.errors.length > 0) {
    const members = issue.errors.map((member) => member.flatMap((inner) => refusals(inner, path)));
    // A member refused only for absent keys is the one the framework accepts (it has no such
    // check): the service's completeness check answers for it alone.
    const completed = members.find((member) => member.every((refusal) => refusal.issue.kind === "missing"));
    return completed ?? members.flat();
  }
  return [{ path, issue: structuralIssue(issue), input: issue.input }];
}

/** Issues zod raises itself: the kind pydantic gives them. */
function structuralIssue(issue: z.core.$ZodIssue): FieldIssue {
  if (issue.code === "invalid_type" && issue.input === undefined) return { kind: "missing" };
  if (issue.code === "invalid_type" && issue.expected === "array") return { kind: "listType" };
  if (issue.code === "invalid_type" && issue.expected === "object") return { kind: "objectType" };
  return { kind: "invalid", params: { message: issue.message } };
}

function toUsage(value: V1Usage | null | undefined): UsageInput | null {
  if (!value) return null;
  const workload = value.time_workload;
  return {
    avgPower: value.avg_power,
    ...(Array.isArray(workload)
      ? {
          timeWorkloadShares: workload.map((s) => ({
            timePercentage: s.time_percentage,
            loadPercentage: s.load_percentage,
          })),
        }
      : { timeWorkload: workload }),
    usageLocation: value.usage_location,
    region: value.region,
    instancePerServer: value.instance_per_server,
    useTimeRatio: value.use_time_ratio,
    hoursLifeTime: value.hours_life_time,
    otherConsumptionRatio: value.other_consumption_ratio,
    elecFactors: value.elec_factors,
    hoursUseTime: value.hours_use_time,
    daysUseTime: value.days_use_time,
    yearsUseTime: value.years_use_time,
  };
}

function toCpu(value: z.infer<BodySchemas["cpu"]>): CpuInput {
  return {
    units: value.units,
    coreUnits: value.core_units,
    dieSize: value.die_size,
    dieSizePerCore: value.die_size_per_core,
    manufacturer: value.manufacturer,
    modelRange: value.model_range,
    family: value.family,
    name: value.name,
    tdp: value.tdp,
    // The v1 CPU body has no `threads` (nor a used `manufacturer`, see the engine): ignored like any unknown key.
    usage: toUsage(value.usage),
  };
}

function toGpu(value: z.infer<BodySchemas["gpu"]>): GpuInput {
  return {
    units: value.units,
    name: value.name,
    manufacturer: value.manufacturer,
    weight: value.weight,
    heatsinkWeight: value.heatsink_weight,
    pwbSurface: value.pwb_surface,
    pwbWeight: value.pwb_weight,
    casingWeight: value.casing_weight,
    gpuSurface: value.gpu_surface,
    vram: value.vram,
    vramDies: value.vram_dies,
    vramSurface: value.vram_surface,
    transportBoat: value.transport_boat,
    transportTruck: value.transport_truck,
    transportPlane: value.transport_plane,
    usage: toUsage(value.usage),
  };
}

function toRam(value: z.infer<BodySchemas["ram"]>): RamInput {
  return { ...value, usage: toUsage(value.usage) };
}

function toDisk(value: z.infer<BodySchemas["disk"]>): DiskInput {
  return { ...value, usage: toUsage(value.usage) };
}

function toPowerSupply(value: z.infer<BodySchemas["powerSupply"]>): PowerSupplyInput {
  return { units: value.units, unitWeight: value.unit_weight, usage: toUsage(value.usage) };
}

function toSimple(value: z.infer<BodySchemas["simple"]>): SimpleComponentInput {
  return { ...value, usage: toUsage(value.usage) };
}

/** A named v1 body schema (the name becomes its OpenAPI component), under given validation rules. */
export interface BodyDoc {
  readonly name: string;
  readonly schema: (rules: RequestValidation) => z.ZodType;
}

/**
 * A parser of one route's body into its GraphQL input, under the request's validation rules;
 * described ones carry the schema they validate with (for the OpenAPI description).
 */
export type BodyParser<T> = ((body: unknown, rules: RequestValidation) => T) & { readonly doc?: BodyDoc };

/** A body parser with its schema, named `name` in the OpenAPI description. */
export function describedBody<T>(
  name: string,
  schema: (rules: RequestValidation) => z.ZodType,
  parse: (body: unknown, rules: RequestValidation) => T,
): BodyParser<T> {
  return Object.assign(parse, { doc: { name, schema } });
}

/**
 * A body's `usage` validated in a second step by `usageVariables` (so that its errors are located
 * under `usage`); the OpenAPI description shows it as the `Usage` schema.
 */
export const deferredUsage = z.unknown().optional();

/** The v1 usage object under `rules`, for the OpenAPI description. */
export const usageSchema = (rules: RequestValidation): z.ZodType => bodySchemas(rules).usage;

const schemaOf =
  (kind: keyof BodySchemas) =>
  (rules: RequestValidation): z.ZodType =>
    bodySchemas(rules)[kind];

export const serverVariables: BodyParser<ServerInput> = describedBody(
  "Server",
  schemaOf("server"),
  (body, rules) => {
    const value = parseV1Body(bodySchemas(rules).server, body, rules);
    const configuration = value.configuration;
    return {
      model: value.model ?? null,
      usage: toUsage(value.usage),
      configuration: configuration
        ? {
            cpu: configuration.cpu ? toCpu(configuration.cpu) : null,
            gpu: configuration.gpu ? toGpu(configuration.gpu) : null,
            ram: configuration.ram?.map(toRam) ?? null,
            disk: configuration.disk?.map(toDisk) ?? null,
            powerSupply: configuration.power_supply ? toPowerSupply(configuration.power_supply) : null,
          }
        : null,
    };
  },
);

/** The v1 body of each component kind, as its GraphQL input (the compiler requires one per kind). */
export const componentVariables = {
  cpu: describedBody(
    "Cpu",
    schemaOf("cpu"),
    (body, rules): CpuInput => toCpu(parseV1Body(bodySchemas(rules).cpu, body, rules)),
  ),
  gpu: describedBody(
    "Gpu",
    schemaOf("gpu"),
    (body, rules): GpuInput => toGpu(parseV1Body(bodySchemas(rules).gpu, body, rules)),
  ),
  ram: describedBody(
    "Ram",
    schemaOf("ram"),
    (body, rules): RamInput => toRam(parseV1Body(bodySchemas(rules).ram, body, rules)),
  ),
  ssd: describedBody(
    "Disk",
    schemaOf("disk"),
    (body, rules): DiskInput => toDisk(parseV1Body(bodySchemas(rules).disk, body, rules)),
  ),
  hdd: describedBody(
    "SimpleComponent",
    schemaOf("simple"),
    (body, rules): SimpleComponentInput => toSimple(parseV1Body(bodySchemas(rules).simple, body, rules)),
  ),
  power_supply: describedBody(
    "PowerSupply",
    schemaOf("powerSupply"),
    (body, rules): PowerSupplyInput =>
      toPowerSupply(parseV1Body(bodySchemas(rules).powerSupply, body, rules)),
  ),
  case: describedBody("Case", schemaOf("caseBody"), (body, rules): CaseInput => {
    const value = parseV1Body(bodySchemas(rules).caseBody, body, rules);
    return { units: value.units, caseType: value.case_type, usage: toUsage(value.usage) };
  }),
  motherboard: describedBody(
    "SimpleComponent",
    schemaOf("simple"),
    (body, rules): SimpleComponentInput => toSimple(parseV1Body(bodySchemas(rules).simple, body, rules)),
  ),
  assembly: describedBody(
    "SimpleComponent",
    schemaOf("simple"),
    (body, rules): SimpleComponentInput => toSimple(parseV1Body(bodySchemas(rules).simple, body, rules)),
  ),
} satisfies Record<ComponentKind, BodyParser<unknown>>;

/** A body's `usage` object (errors located under `usage`). */
export function usageVariables(value: unknown, rules: RequestValidation): UsageInput | null {
  return value == null ? null : toUsage(parseV1Body(bodySchemas(rules).usage, value, rules, ["usage"]));
}
