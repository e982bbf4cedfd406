import type { InputFieldBuilder } from "@pothos/core";
import { z } from "zod";
import type { Limits } from "../config.js";
import { availability, editionsWhere } from "../editions/features.js";
import type { DiskInput } from "../engine/assets/server.js";
import type {
  CaseInput,
  ComponentKind,
  CpuInput,
  GpuInput,
  HddInput,
  PowerSupplyInput,
  RamInput,
  ServerInput,
  SsdInput,
  UsageInput,
} from "../engine/index.js";
import { ELECTRICITY_CRITERIA, FACTOR_UNITS } from "../engine/model/criteria.js";
import { builtOncePer } from "../support/builtOnce.js";
import { builder, type SchemaTypes } from "./builder.js";
import { fromZodError } from "./errors.js";

/* ----------------------------------------------------------------------------------------------
 * GraphQL input types (camelCase). Semantic limits (non-negative counts, workloads within 0–100)
 * are checked by the zod schemas below, so GraphQL and REST clients get the same errors.
 * -------------------------------------------------------------------------------------------- */

export const WorkloadShareInput = builder.inputType("WorkloadShareInput", {
  description: "A share of time spent at a load: `timePercentage` % of the time at `loadPercentage` % load.",
  fields: (t) => ({
    timePercentage: t.float({ required: true, description: "Share of the use time, % (0–100)." }),
    loadPercentage: t.float({ required: true, description: "CPU load during that share, % (0–100)." }),
  }),
});

export const ElecFactorsInput = builder.inputType("ElecFactorsInput", {
  description: "Electricity impact factors per kWh overriding the location's, per criterion.",
  fields: (t) =>
    Object.fromEntries(
      ELECTRICITY_CRITERIA.map((c) => [
        c,
        t.float({
          required: false,
          description: `${c} impact of 1 kWh (${FACTOR_UNITS[c]}); default: the usage location's factor.`,
        }),
      ]),
    ),
});

export const UsageInputRef = builder.inputType("UsageInput", {
  description:
    "How the asset is used: where (electricity mix), how long and how hard. Every field is optional; " +
    "what is not given comes from the archetype, then from the methodology's defaults.",
  fields: (t) => ({
    avgPower: t.float({
      required: false,
      description: "Average power in W (skips power modelling); default: modelled from the workload.",
    }),
    timeWorkload: t.float({
      required: false,
      description: "Constant load, 0–100 %; default from the archetype (50 % for a CPU or RAM).",
    }),
    timeWorkloadShares: t.field({
      type: [WorkloadShareInput],
      required: false,
      description: "Time shares at loads (instead of timeWorkload).",
    }),
    usageLocation: t.string({
      required: false,
      description: "Country code (NATO CodSP3), e.g. FRA; default EEE.",
    }),
    region: t.string({
      required: false,
      description: `Cloud instances: the provider's region (see cloudRegions), which sets the location; usageLocation is the fallback of an unknown region. ${availability("cloudRegions")}`,
    }),
    instancePerServer: t.int({
      required: false,
      description: "Cloud instances: instances sharing the host; shown in the verbose, unused by the model.",
    }),
    useTimeRatio: t.float({
      required: false,
      description: "Fraction of the time in use, 0–1; default from the archetype (1 for a component).",
    }),
    hoursLifeTime: t.float({
      required: false,
      description: "Lifetime in hours; default from the archetype (26,280 h, 3 years, for a component).",
    }),
    otherConsumptionRatio: t.float({
      required: false,
      description:
        "Servers and cloud: extra power of the other parts, as a fraction of CPU + RAM power; default from the archetype (0.33).",
    }),
    elecFactors: t.field({
      type: ElecFactorsInput,
      required: false,
      description: "Electricity factors per kWh replacing the usage location's, criterion by criterion.",
    }),
    hoursUseTime: t.float({
      required: false,
      description:
        "Use time in hours (cumulative with days/years); default: none, the duration is then the lifetime.",
    }),
    daysUseTime: t.float({ required: false, description: "Use time in days of 24 h." }),
    yearsUseTime: t.float({ required: false, description: "Use time in years of 8760 h." }),
  }),
});

export const CpuInputRef = builder.inputType("CpuInput", {
  description:
    "A CPU (or several identical ones); what is not given is completed from the name or the archetype.",
  fields: (t) => ({
    units: t.int({ required: false, description: "Number of CPUs (count); default from the archetype (1)." }),
    coreUnits: t.int({
      required: false,
      description: "Cores per CPU (count); default from the name or archetype.",
    }),
    dieSize: t.float({
      required: false,
      description: `Total die size, mm²; edition ${editionsWhere((e) => e.rules.dieSizeInput === "withCoreUnits")} uses it only with coreUnits (as die size per core), ${editionsWhere((e) => e.rules.dieSizeInput === "honoured")} as is.`,
    }),
    dieSizePerCore: t.float({ required: false, description: "mm² per core." }),
    manufacturer: t.string({ required: false, description: "e.g. Intel, AMD; completed from the name." }),
    modelRange: t.string({ required: false, description: "e.g. Xeon Gold, EPYC; completed from the name." }),
    family: t.string({ required: false, description: "Code name, e.g. Skylake; matched approximately." }),
    name: t.string({
      required: false,
      description: "Free text, matched approximately against the CPU table.",
    }),
    tdp: t.int({ required: false, description: "Thermal design power, W; completed from the name." }),
    threads: t.int({ required: false, description: "Threads per CPU (count); completed from the name." }),
    usage: t.field({ type: UsageInputRef, required: false, description: "The CPU's own usage." }),
  }),
});

export const RamInputRef = builder.inputType("RamInput", {
  description: "RAM modules (several identical ones); the density comes from the manufacturer and process.",
  fields: (t) => ({
    units: t.int({ required: false, description: "Number of modules (count); default from the archetype." }),
    capacity: t.int({
      required: false,
      description: "Capacity of one module, GB; default from the archetype.",
    }),
    density: t.float({ required: false, description: "GB/cm²; default from the manufacturer and process." }),
    manufacturer: t.string({ required: false, description: "e.g. Samsung; matched approximately." }),
    process: t.float({ required: false, description: "Engraving process, nm." }),
    usage: t.field({ type: UsageInputRef, required: false, description: "The modules' own usage." }),
  }),
});

export const DiskInputRef = builder.inputType("DiskInput", {
  description: "A disk (SSD by default, or HDD), or several identical ones.",
  fields: (t) => ({
    type: t.string({ required: false, description: "ssd (default) or hdd; other types are ignored." }),
    units: t.int({ required: false, description: "Number of disks (count); default from the archetype." }),
    capacity: t.int({
      required: false,
      description: "Capacity of one disk, GB; default from the archetype.",
    }),
    density: t.float({ required: false, description: "GB/cm² (SSD); default from the manufacturer." }),
    manufacturer: t.string({ required: false, description: "SSD manufacturer; matched approximately." }),
    layers: t.int({ required: false, description: "SSD NAND layers (count)." }),
    usage: t.field({ type: UsageInputRef, required: false, description: "The disks' own usage." }),
  }),
});

export const PowerSupplyInputRef = builder.inputType("PowerSupplyInput", {
  description: "Power supplies (several identical ones), weighed.",
  fields: (t) => ({
    units: t.int({
      required: false,
      description: "Number of power supplies (count); default from the archetype.",
    }),
    unitWeight: t.float({ required: false, description: "Weight of one, kg; default from the archetype." }),
    usage: t.field({ type: UsageInputRef, required: false, description: "The power supplies' own usage." }),
  }),
});

export const CaseInputRef = builder.inputType("CaseInput", {
  description: "A server case, rack or blade.",
  fields: (t) => ({
    units: t.int({ required: false, description: "Number of cases (count); default 1." }),
    caseType: t.string({ required: false, description: "rack or blade; default from the archetype (rack)." }),
    usage: t.field({ type: UsageInputRef, required: false, description: "The case's own usage." }),
  }),
});

export const SimpleComponentInputRef = builder.inputType("SimpleComponentInput", {
  description: "Components described by their count only (HDD adds capacity; motherboard, assembly).",
  fields: (t) => ({
    units: t.int({ required: false, description: "Number of components (count); default 1." }),
    capacity: t.int({ required: false, description: "HDD capacity, GB; default from the archetype." }),
    usage: t.field({ type: UsageInputRef, required: false, description: "The component's own usage." }),
  }),
});

export const GpuInputRef = builder.inputType("GpuInput", {
  description: `A GPU card. ${availability("gpus")} Missing characteristics come from the default GPU; \`name\` is recorded only (use \`gpuByName\` to fill the fields from a model).`,
  fields: (t) => ({
    units: t.int({ required: false, description: "Number of identical cards." }),
    name: t.string({ required: false, description: "Model name, recorded as given (not matched)." }),
    manufacturer: t.string({ required: false, description: "Manufacturer, recorded as given." }),
    weight: t.float({ required: false, description: "Mass of the card, kg." }),
    heatsinkWeight: t.float({ required: false, description: "Mass of the heatsink, kg." }),
    pwbSurface: t.float({ required: false, description: "Printed wiring board surface, cm²." }),
    pwbWeight: t.float({ required: false, description: "Printed wiring board mass, kg." }),
    casingWeight: t.float({ required: false, description: "Mass of the casing, kg." }),
    gpuSurface: t.float({
      required: false,
      description: "Effective GPU die area, mm² (wafer share including yield; used as given).",
    }),
    vram: t.int({ required: false, description: "Video memory, GB." }),
    vramDies: t.int({ required: false, description: "Number of video memory dies." }),
    vramSurface: t.float({
      required: false,
      description: "Effective video memory die area, mm² (default: from vram and vramDies).",
    }),
    transportBoat: t.float({ required: false, description: "Distance travelled by boat, km." }),
    transportTruck: t.float({ required: false, description: "Distance travelled by truck, km." }),
    transportPlane: t.float({ required: false, description: "Distance travelled by plane, km." }),
    usage: t.field({
      type: UsageInputRef,
      required: false,
      description: "Usage; the use phase needs `avgPower` (a GPU has no power model).",
    }),
  }),
});

/** The GraphQL input type of each component kind (its query field's `input`, its fleet item field). */
export const COMPONENT_INPUT_TYPES = {
  cpu: CpuInputRef,
  gpu: GpuInputRef,
  ram: RamInputRef,
  ssd: DiskInputRef,
  hdd: SimpleComponentInputRef,
  power_supply: PowerSupplyInputRef,
  case: CaseInputRef,
  motherboard: SimpleComponentInputRef,
  assembly: SimpleComponentInputRef,
} as const satisfies Record<ComponentKind, unknown>;

/** The fields of a server's description: `ServerInput`'s, and a fleet's `ServerItemInput` besides its archetype. */
export function serverInputFields(t: InputFieldBuilder<SchemaTypes, "InputObject">) {
  return {
    model: t.field({
      type: ServerModelInput,
      required: false,
      description: "Identification (type sets the case).",
    }),
    configuration: t.field({
      type: ServerConfigurationInput,
      required: false,
      description: "Components; each one given replaces the archetype's.",
    }),
    usage: t.field({ type: UsageInputRef, required: false, description: "The server's usage." }),
  };
}

export const ServerInputRef = builder.inputType("ServerInput", {
  description: "A server's description; what is not given comes from its archetype.",
  fields: serverInputFields,
});

export const ServerModelInput = builder.inputType("ServerModelInput", {
  description: "A server's identification; only `type` affects the computation.",
  fields: (t) => ({
    type: t.string({ required: false, description: "rack or blade: sets the case type." }),
    name: t.string({ required: false, description: "Model name (informative, not used)." }),
    manufacturer: t.string({ required: false, description: "Manufacturer (informative, not used)." }),
    year: t.string({ required: false, description: "Year (informative, not used)." }),
  }),
});

export const ServerConfigurationInput = builder.inputType("ServerConfigurationInput", {
  description: "The server's components; a component not given comes from the archetype.",
  fields: (t) => ({
    cpu: t.field({
      type: CpuInputRef,
      required: false,
      description: "The CPUs; default from the archetype.",
    }),
    gpu: t.field({
      type: GpuInputRef,
      required: false,
      description: `The server's GPU cards (edition ${editionsWhere((e) => e.features.gpus)}; ignored by ${editionsWhere((e) => !e.features.gpus)}). Without it, the archetype's GPUs if any.`,
    }),
    ram: t.field({ type: [RamInputRef], required: false, description: "An empty list means no RAM." }),
    disk: t.field({
      type: [DiskInputRef],
      required: false,
      description: "Disks; default from the archetype.",
    }),
    powerSupply: t.field({
      type: PowerSupplyInputRef,
      required: false,
      description: "Power supplies; default from the archetype.",
    }),
  }),
});

/* ----------------------------------------------------------------------------------------------
 * Validation: the limits a physical description must respect.
 * -------------------------------------------------------------------------------------------- */

/*
 * Refused: negative counts, capacities, powers, durations and lifetimes, negative use-time ratios
 * (the reference fails on them), workloads outside 0–100 and a zero density (a division by zero).
 * Other unusual values (negative weights, die sizes or other-consumption ratios, ratios above 1)
 * are answered like the reference answers them.
 *
 * Every number must also be `REASONABLE`: a product or quotient of a few of them stays finite, so
 * every impact is a number (denormals such as 5e-324 used to overflow into Infinity, then null).
 * Texts and lists are bounded by the service's `Limits` (approximate name matching costs grow
 * with the text's length; a list's cost with its length).
 */

/** Magnitude bounds of every number input: zero, or within [1e-30, 1e30]. */
export const REASONABLE = { smallest: 1e-30, largest: 1e30 } as const;

export const reasonable = z
  .number()
  .refine(
    (v) => v === 0 || (Math.abs(v) >= REASONABLE.smallest && Math.abs(v) <= REASONABLE.largest),
    "must be 0 or of magnitude between 1e-30 and 1e30",
  );
const count = z.number().int().nonnegative("must not be negative").nullish();
const quantity = reasonable.min(0, "must not be negative").nullish();
const anyNumber = reasonable.nullish();
const nonZero = reasonable.refine((v) => v !== 0, "must not be zero").nullish();
const percent = z.number().min(0, "must be within 0–100").max(100, "must be within 0–100");

/** Bounded text and lists, per the service's limits (named in the message). */
function boundedText(limits: Limits) {
  return z
    .string()
    .max(
      limits.maxStringLength,
      `must be at most ${limits.maxStringLength} characters long (MAX_STRING_LENGTH)`,
    );
}

/**
 * A list of at most MAX_LIST_LENGTH items, its length checked before any item: a pipe stops at its
 * first failing step (zod runs an array's `.max` only after validating every item).
 */
export function boundedList<T extends z.ZodType>(limits: Limits, item: T) {
  const message = `must have at most ${limits.maxListLength} entries (MAX_LIST_LENGTH)`;
  return z
    .custom<unknown>((value) => !Array.isArray(value) || value.length <= limits.maxListLength, { message })
    .pipe(z.array(item));
}

function buildInputSchemas(limits: Limits) {
  const text = boundedText(limits).nullish();
  const usage = z
    .object({
      avgPower: quantity,
      timeWorkload: percent.nullish(),
      timeWorkloadShares: boundedList(
        limits,
        z.object({ timePercentage: percent, loadPercentage: percent }),
      ).nullish(),
      usageLocation: text,
      region: text,
      instancePerServer: count,
      useTimeRatio: quantity,
      hoursLifeTime: quantity,
      otherConsumptionRatio: anyNumber,
      elecFactors: z.record(z.string(), anyNumber).nullish(),
      hoursUseTime: quantity,
      daysUseTime: quantity,
      yearsUseTime: quantity,
    })
    .nullish();

  const cpu = z.object({
    units: count,
    coreUnits: count,
    dieSize: anyNumber,
    dieSizePerCore: anyNumber,
    manufacturer: text,
    modelRange: text,
    family: text,
    name: text,
    tdp: count,
    threads: count,
    usage,
  });

  const ram = z.object({
    units: count,
    capacity: count,
    density: nonZero,
    manufacturer: text,
    process: anyNumber,
    usage,
  });

  const disk = z.object({
    type: text,
    units: count,
    capacity: count,
    density: nonZero,
    manufacturer: text,
    layers: z.number().int().nullish(),
    usage,
  });

  const gpu = z.object({
    units: count,
    name: text,
    manufacturer: text,
    weight: anyNumber,
    heatsinkWeight: anyNumber,
    pwbSurface: anyNumber,
    pwbWeight: anyNumber,
    casingWeight: anyNumber,
    gpuSurface: anyNumber,
    vram: count,
    vramDies: count,
    vramSurface: anyNumber,
    transportBoat: anyNumber,
    transportTruck: anyNumber,
    transportPlane: anyNumber,
    usage,
  });

  const powerSupply = z.object({ units: count, unitWeight: anyNumber, usage });
  const simple = z.object({ units: count, capacity: count, usage });

  const server = z.object({
    model: z.object({ type: text, name: text, manufacturer: text, year: text }).passthrough().nullish(),
    configuration: z
      .object({
        cpu: cpu.nullish(),
        gpu: gpu.nullish(),
        ram: boundedList(limits, ram).nullish(),
        disk: boundedList(limits, disk).nullish(),
        powerSupply: powerSupply.nullish(),
      })
      .nullish(),
    usage,
  });

  const components = {
    cpu,
    gpu,
    ram,
    ssd: disk,
    hdd: simple,
    power_supply: powerSupply,
    case: z.object({ units: count, caseType: text, usage }),
    motherboard: simple,
    assembly: simple,
  } as const satisfies Record<ComponentKind, z.ZodType>;

  return { usage, server, components };
}

type InputSchemas = ReturnType<typeof buildInputSchemas>;

/** The schemas of each `Limits` value, built once. */
const inputSchemas = builtOncePer(buildInputSchemas);
/** A free-text argument's schema per `Limits` value, built once (not per fleet item). */
const textSchema = builtOncePer(boundedText);

type UsageGraphQL = z.infer<InputSchemas["usage"]>;

function validated<S extends z.ZodType>(
  schema: S,
  value: unknown,
  path: readonly (string | number)[],
): z.infer<S> {
  const result = schema.safeParse(value ?? {});
  if (!result.success) throw fromZodError(result.error, path);
  return result.data;
}

/** Hours of use from the cumulative `*_use_time` fields (years of 8760 h, days of 24 h), if any. */
export function usageHours(usage: UsageGraphQL): number | null {
  if (!usage) return null;
  const { hoursUseTime, daysUseTime, yearsUseTime } = usage;
  if (hoursUseTime == null && daysUseTime == null && yearsUseTime == null) return null;
  return (hoursUseTime ?? 0) + (daysUseTime ?? 0) * 24 + (yearsUseTime ?? 0) * 8760;
}

function toUsage(usage: UsageGraphQL): UsageInput | null {
  if (!usage) return null;
  const shares = usage.timeWorkloadShares?.map((s) => ({
    timePercentage: s.timePercentage,
    loadPercentage: s.loadPercentage,
  }));
  return {
    avgPower: usage.avgPower,
    timeWorkload: shares ?? usage.timeWorkload,
    usageLocation: usage.usageLocation,
    region: usage.region,
    instancePerServer: usage.instancePerServer,
    useTimeRatio: usage.useTimeRatio,
    hoursLifeTime: usage.hoursLifeTime,
    otherConsumptionRatio: usage.otherConsumptionRatio,
    elecFactors: usage.elecFactors,
  };
}

function withUsage<T extends { usage?: UsageGraphQL }>(
  value: T,
): Omit<T, "usage"> & { usage: UsageInput | null } {
  return { ...value, usage: toUsage(value.usage) };
}

export interface ValidatedAsset<I> {
  readonly input: I;
  readonly usageHours: number | null;
}

export function validateServerInput(
  limits: Limits,
  value: unknown,
  path: readonly string[],
): ValidatedAsset<ServerInput> {
  const server = validated(inputSchemas(limits).server, value, path);
  const configuration = server.configuration;
  return {
    usageHours: usageHours(server.usage),
    input: {
      model: server.model ? { type: server.model.type } : null,
      usage: toUsage(server.usage),
      configuration: configuration
        ? {
            cpu: configuration.cpu ? withUsage(configuration.cpu) : null,
            gpu: configuration.gpu ? withUsage(configuration.gpu) : null,
            ram: configuration.ram?.map(withUsage) ?? null,
            disk: configuration.disk?.map((d) => withUsage(d) as DiskInput) ?? null,
            powerSupply: configuration.powerSupply ? withUsage(configuration.powerSupply) : null,
          }
        : null,
    },
  };
}

export type ComponentInputValue =
  | CpuInput
  | GpuInput
  | RamInput
  | SsdInput
  | HddInput
  | PowerSupplyInput
  | CaseInput;

export function validateComponentInput(
  limits: Limits,
  kind: keyof InputSchemas["components"],
  value: unknown,
  path: readonly string[],
): ValidatedAsset<ComponentInputValue> {
  const schema = inputSchemas(limits).components[kind] as z.ZodType<{ usage?: UsageGraphQL }>;
  const parsed = validated(schema, value, path);
  return { input: withUsage(parsed) as ComponentInputValue, usageHours: usageHours(parsed.usage) };
}

export function validateUsage(
  limits: Limits,
  value: unknown,
  path: readonly string[],
): ValidatedAsset<UsageInput | null> {
  const usage = validated(inputSchemas(limits).usage, value, path);
  return { input: toUsage(usage), usageHours: usageHours(usage) };
}

/** A free-text argument checked against MAX_STRING_LENGTH (e.g. a CPU name to match). */
export function validateText<T extends string | null | undefined>(
  limits: Limits,
  value: T,
  path: readonly (string | number)[],
): T {
  if (value == null) return value;
  const result = textSchema(limits).safeParse(value);
  if (!result.success) throw fromZodError(result.error, path);
  return value;
}
