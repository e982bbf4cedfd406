import { z } from "zod";
import { ELECTRICITY_CRITERIA } from "../engine/criteria.js";
import type {
  CaseInput,
  CpuInput,
  DiskInput,
  PowerSupplyInput,
  RamInput,
  ServerInput,
  SimpleComponentInput,
  UsageInput,
} from "./generated/graphql.js";

/*
 * v1 request bodies (snake_case), validated with the reference's lenient typing: integer fields
 * accept numeric strings and truncate fractions toward zero (METHOD.md §0.3), number fields accept
 * numeric strings, unknown keys are ignored. The result is the GraphQL operation's variables.
 */

const NUMERIC_TEXT = /^\s*[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

export const integer = z.preprocess((v) => {
  if (typeof v === "string" && /^\s*[+-]?\d+\s*$/.test(v)) return Number(v);
  if (typeof v === "number" && Number.isFinite(v)) return Math.trunc(v);
  return v;
}, z.number({ message: "value is not a valid integer" }).int());

/** A number, also given as numeric text. */
export const float = z.preprocess(
  (v) => (typeof v === "string" && NUMERIC_TEXT.test(v) ? Number(v) : v),
  z.number({ message: "value is not a valid float" }).finite(),
);

/** Text, also given as a number (pydantic's str coercion). */
export const text = z.preprocess(
  (v) => (typeof v === "number" ? String(v) : v),
  z.string({ message: "str type expected" }),
);

const opt = <T extends z.ZodType>(schema: T) => schema.nullish();

const workloadShare = z.object({
  time_percentage: float,
  load_percentage: float,
});

const usage = z.object({
  avg_power: opt(float),
  time_workload: opt(z.union([float, z.array(workloadShare)])),
  usage_location: opt(text),
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

const powerSupply = z.object({ units: opt(integer), unit_weight: opt(float), usage: opt(usage) });
const caseBody = z.object({ units: opt(integer), case_type: opt(text), usage: opt(usage) });
const simple = z.object({ units: opt(integer), capacity: opt(integer), usage: opt(usage) });

const server = z.object({
  model: opt(z.object({ type: opt(text), name: opt(text), manufacturer: opt(text), year: opt(text) })),
  configuration: opt(
    z.object({
      cpu: opt(cpu),
      ram: opt(z.array(ram)),
      disk: opt(z.array(disk)),
      power_supply: opt(powerSupply),
    }),
  ),
  usage: opt(usage),
});

type V1Usage = z.infer<typeof usage>;

/**
 * A body's `usage` validated in a second step (its errors are located under `usage` by
 * `usageVariables`); the OpenAPI description documents it as the `Usage` schema.
 */
export const deferredUsage = z.unknown().optional();

/** The v1 usage object, for the OpenAPI description. */
export const USAGE_SCHEMA = usage;

/** A named v1 body schema (the name becomes its OpenAPI component). */
export interface BodyDoc {
  readonly name: string;
  readonly schema: z.ZodType;
}

/** Turns a v1 body into an operation's variables; carries the schema it validates with. */
export type BodyParser<T> = ((body: unknown) => T) & { readonly doc?: BodyDoc };

/** A body parser validating with `schema` (named `name` in the OpenAPI description). */
export function v1Body<S extends z.ZodType, T>(
  name: string,
  schema: S,
  convert: (value: z.infer<S>) => T,
): BodyParser<T> {
  return Object.assign((body: unknown) => convert(parseV1Body(schema, body)), { doc: { name, schema } });
}

/** A v1 body that failed validation, in FastAPI's 422 shape. */
export class BodyValidationError extends Error {
  constructor(readonly detail: { loc: (string | number)[]; msg: string; type: string }[]) {
    super("invalid request body");
  }
}

/** Validates a v1 body (absent = `{}`), or throws the 422 of FastAPI's shape. */
export function parseV1Body<S extends z.ZodType>(
  schema: S,
  body: unknown,
  at: readonly (string | number)[] = [],
): z.infer<S> {
  const result = schema.safeParse(body ?? {});
  if (result.success) return result.data;
  throw new BodyValidationError(
    result.error.issues.map((issue) => ({
      loc: ["body", ...at, ...issue.path.map((p) => (typeof p === "symbol" ? String(p) : p))],
      msg: issue.message,
      type: `value_error.${issue.code}`,
    })),
  );
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
    useTimeRatio: value.use_time_ratio,
    hoursLifeTime: value.hours_life_time,
    otherConsumptionRatio: value.other_consumption_ratio,
    elecFactors: value.elec_factors,
    hoursUseTime: value.hours_use_time,
    daysUseTime: value.days_use_time,
    yearsUseTime: value.years_use_time,
  };
}

function toCpu(value: z.infer<typeof cpu>): CpuInput {
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

function toRam(value: z.infer<typeof ram>): RamInput {
  return { ...value, usage: toUsage(value.usage) };
}

function toDisk(value: z.infer<typeof disk>): DiskInput {
  return { ...value, usage: toUsage(value.usage) };
}

function toPowerSupply(value: z.infer<typeof powerSupply>): PowerSupplyInput {
  return { units: value.units, unitWeight: value.unit_weight, usage: toUsage(value.usage) };
}

function toSimple(value: z.infer<typeof simple>): SimpleComponentInput {
  return { ...value, usage: toUsage(value.usage) };
}

export const serverVariables = v1Body("Server", server, (value): ServerInput => {
  const configuration = value.configuration;
  return {
    model: value.model ?? null,
    usage: toUsage(value.usage),
    configuration: configuration
      ? {
          cpu: configuration.cpu ? toCpu(configuration.cpu) : null,
          ram: configuration.ram?.map(toRam) ?? null,
          disk: configuration.disk?.map(toDisk) ?? null,
          powerSupply: configuration.power_supply ? toPowerSupply(configuration.power_supply) : null,
        }
      : null,
  };
});

export const componentVariables = {
  cpu: v1Body("Cpu", cpu, toCpu),
  ram: v1Body("Ram", ram, toRam),
  ssd: v1Body("Disk", disk, toDisk),
  hdd: v1Body("SimpleComponent", simple, toSimple),
  powerSupply: v1Body("PowerSupply", powerSupply, toPowerSupply),
  case: v1Body(
    "Case",
    caseBody,
    (value): CaseInput => ({ units: value.units, caseType: value.case_type, usage: toUsage(value.usage) }),
  ),
  motherboard: v1Body("SimpleComponent", simple, toSimple),
  assembly: v1Body("SimpleComponent", simple, toSimple),
};

/** A body's `usage` object (errors located under `usage`). */
export function usageVariables(value: unknown): UsageInput | null {
  return value == null ? null : toUsage(parseV1Body(usage, value, ["usage"]));
}
