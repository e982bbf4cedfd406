import { inputObject, v1NamesOf } from "./field.js";

/*
 * The catalogue of input fields: every field a request may give, described once (field.ts says
 * what a description holds and who derives what from it). GraphQL names are the keys (camelCase);
 * v1 names are their snake_case unless a field says otherwise. Field order is the GraphQL types'
 * and the v1 bodies' order (and so the order errors are found in).
 */

/**
 * A field the reference's v1 body declares and never reads (`graphql: false`, field.ts): accepted
 * and type-checked as the reference does, recorded nowhere. `what` says what it is.
 */
const recordedOnly = <F extends object>(what: string, field: F) =>
  ({
    ...field,
    engine: false,
    graphql: false,
    description: `${what} (the reference's field: accepted, not used).`,
  }) as const;

export const WORKLOAD_SHARE = inputObject(
  "WorkloadShareInput",
  "A share of time spent at a load: `timePercentage` % of the time at `loadPercentage` % load.",
  {
    timePercentage: {
      type: "float",
      bound: "percent",
      required: true,
      description: "Share of the use time, % (0–100).",
    },
    loadPercentage: {
      type: "float",
      bound: "percent",
      required: true,
      description: "CPU load during that share, % (0–100).",
    },
  },
);

export const USAGE_INPUT = inputObject(
  "UsageInput",
  "How the asset is used: where (electricity mix), how long and how hard. Every field is optional; " +
    "what is not given comes from the archetype, then from the methodology's defaults.",
  {
    avgPower: {
      type: "float",
      bound: "quantity",
      description: "Average power in W (skips power modelling); default: modelled from the workload.",
    },
    timeWorkload: {
      type: "float",
      bound: "percent",
      description: "Constant load, 0–100 %; default from the archetype (50 % for a CPU or RAM).",
      // v1's `time_workload` takes either a number or a list of shares (docs/methodology.md §5.1).
      alternative: {
        name: "timeWorkloadShares",
        of: WORKLOAD_SHARE,
        description: "Time shares at loads (instead of timeWorkload).",
      },
    },
    usageLocation: {
      type: "text",
      description: "Country code (NATO CodSP3), e.g. FRA; default EEE.",
    },
    region: {
      type: "text",
      description: {
        text: "Cloud instances: the provider's region (see cloudRegions), which sets the location; usageLocation is the fallback of an unknown region. {note}",
        note: "cloudRegions",
      },
    },
    instancePerServer: {
      type: "int",
      bound: "count",
      description: "Cloud instances: instances sharing the host; shown in the verbose, unused by the model.",
    },
    useTimeRatio: {
      type: "float",
      bound: "quantity",
      description: "Fraction of the time in use, 0–1; default from the archetype (1 for a component).",
    },
    hoursLifeTime: {
      type: "float",
      bound: "quantity",
      description: "Lifetime in hours; default from the archetype (26,280 h, 3 years, for a component).",
    },
    otherConsumptionRatio: {
      type: "float",
      bound: "number",
      description:
        "Servers and cloud: extra power of the other parts, as a fraction of CPU + RAM power; default from the archetype (0.33).",
    },
    elecFactors: {
      type: "factors",
      description: "Electricity factors per kWh replacing the usage location's, criterion by criterion.",
    },
    // The use time (docs/methodology.md §6.1): the evaluation's duration, not a fact of the asset.
    hoursUseTime: {
      type: "float",
      bound: "quantity",
      hoursPer: 1,
      engine: false,
      description:
        "Use time in hours (cumulative with days/years); default: none, the duration is then the lifetime.",
    },
    daysUseTime: {
      type: "float",
      bound: "quantity",
      hoursPer: 24,
      engine: false,
      description: "Use time in days of 24 h.",
    },
    yearsUseTime: {
      type: "float",
      bound: "quantity",
      hoursPer: 8760,
      engine: false,
      description: "Use time in years of 8760 h.",
    },
  },
);

export const CPU = inputObject(
  "CpuInput",
  "A CPU (or several identical ones); what is not given is completed from the name or the archetype.",
  {
    units: {
      type: "int",
      bound: "count",
      description: "Number of CPUs (count); default from the archetype (1).",
    },
    coreUnits: {
      type: "int",
      bound: "count",
      description: "Cores per CPU (count); default from the name or archetype.",
    },
    dieSize: {
      type: "float",
      bound: "number",
      description: { text: "Total die size, mm²; {note}.", note: "dieSize" },
    },
    dieSizePerCore: { type: "float", bound: "number", description: "mm² per core." },
    manufacturer: { type: "text", description: "e.g. Intel, AMD; completed from the name." },
    modelRange: { type: "text", description: "e.g. Xeon Gold, EPYC; completed from the name." },
    family: { type: "text", description: "Code name, e.g. Skylake; matched approximately." },
    name: { type: "text", description: "Free text, matched approximately against the CPU table." },
    tdp: { type: "int", bound: "count", description: "Thermal design power, W; completed from the name." },
    // The v1 CPU body has no `threads`: ignored there like any unknown key.
    threads: {
      type: "int",
      bound: "count",
      v1: false,
      description: "Threads per CPU (count); completed from the name.",
    },
    usage: { type: "object", of: USAGE_INPUT, description: "The CPU's own usage." },
  },
);

export const RAM = inputObject(
  "RamInput",
  "RAM modules (several identical ones); the density comes from the manufacturer and process.",
  {
    units: {
      type: "int",
      bound: "count",
      description: "Number of modules (count); default from the archetype.",
    },
    capacity: {
      type: "int",
      bound: "count",
      description: "Capacity of one module, GB; default from the archetype.",
    },
    density: {
      type: "float",
      bound: "nonZero",
      description: "GB/cm²; default from the manufacturer and process.",
    },
    manufacturer: { type: "text", description: "e.g. Samsung; matched approximately." },
    process: { type: "float", bound: "number", description: "Engraving process, nm." },
    model: recordedOnly("The module's model", { type: "text" }),
    usage: { type: "object", of: USAGE_INPUT, description: "The modules' own usage." },
  },
);

export const DISK = inputObject("DiskInput", "A disk (SSD by default, or HDD), or several identical ones.", {
  type: { type: "text", description: "ssd (default) or hdd; other types are ignored." },
  units: { type: "int", bound: "count", description: "Number of disks (count); default from the archetype." },
  capacity: {
    type: "int",
    bound: "count",
    description: "Capacity of one disk, GB; default from the archetype.",
  },
  density: { type: "float", bound: "nonZero", description: "GB/cm² (SSD); default from the manufacturer." },
  manufacturer: { type: "text", description: "SSD manufacturer; matched approximately." },
  layers: { type: "int", bound: "integer", description: "SSD NAND layers (count)." },
  model: recordedOnly("The disk's model", { type: "text" }),
  usage: { type: "object", of: USAGE_INPUT, description: "The disks' own usage." },
});

export const POWER_SUPPLY = inputObject(
  "PowerSupplyInput",
  "Power supplies (several identical ones), weighed.",
  {
    units: {
      type: "int",
      bound: "count",
      description: "Number of power supplies (count); default from the archetype.",
    },
    unitWeight: {
      type: "float",
      bound: "number",
      description: "Weight of one, kg; default from the archetype.",
    },
    usage: { type: "object", of: USAGE_INPUT, description: "The power supplies' own usage." },
  },
);

export const CASE = inputObject("CaseInput", "A server case, rack or blade.", {
  units: { type: "int", bound: "count", description: "Number of cases (count); default 1." },
  // Declared without Optional in the reference: null is refused under pydantic 2.
  caseType: {
    type: "text",
    v1: { defaulted: true },
    description: "rack or blade; default from the archetype (rack).",
  },
  usage: { type: "object", of: USAGE_INPUT, description: "The case's own usage." },
});

export const SIMPLE_COMPONENT = inputObject(
  "SimpleComponentInput",
  "Components described by their count only (HDD adds capacity; motherboard, assembly).",
  {
    units: { type: "int", bound: "count", description: "Number of components (count); default 1." },
    capacity: { type: "int", bound: "count", description: "HDD capacity, GB; default from the archetype." },
    usage: { type: "object", of: USAGE_INPUT, description: "The component's own usage." },
  },
);

/**
 * An HDD as the v1 `component/hdd` body describes it (the reference's disk body): the count and
 * capacity the engine reads (its GraphQL input is SIMPLE_COMPONENT's), the disk's other fields
 * accepted and not used.
 */
export const HDD_BODY = inputObject("HddInput", "An HDD, or several identical ones.", {
  type: recordedOnly("hdd (or another disk type)", { type: "text" }),
  units: SIMPLE_COMPONENT.fields.units,
  capacity: SIMPLE_COMPONENT.fields.capacity,
  density: recordedOnly("GB/cm²", { type: "float" }),
  manufacturer: recordedOnly("Manufacturer", { type: "text" }),
  model: recordedOnly("Model", { type: "text" }),
  layers: recordedOnly("Layers (count)", { type: "int" }),
  usage: SIMPLE_COMPONENT.fields.usage,
});

export const GPU = inputObject(
  "GpuInput",
  {
    text: "A GPU card. {note} Missing characteristics come from the default GPU; `name` is recorded only (use `gpuByName` to fill the fields from a model).",
    note: "gpus",
  },
  {
    units: { type: "int", bound: "count", description: "Number of identical cards." },
    name: { type: "text", description: "Model name, recorded as given (not matched)." },
    manufacturer: { type: "text", description: "Manufacturer, recorded as given." },
    weight: { type: "float", bound: "number", description: "Mass of the card, kg." },
    heatsinkWeight: { type: "float", bound: "number", description: "Mass of the heatsink, kg." },
    pwbSurface: { type: "float", bound: "number", description: "Printed wiring board surface, cm²." },
    pwbWeight: { type: "float", bound: "number", description: "Printed wiring board mass, kg." },
    casingWeight: { type: "float", bound: "number", description: "Mass of the casing, kg." },
    gpuSurface: {
      type: "float",
      bound: "number",
      description: "Effective GPU die area, mm² (wafer share including yield; used as given).",
    },
    vram: { type: "int", bound: "count", description: "Video memory, GB." },
    vramDies: { type: "int", bound: "count", description: "Number of video memory dies." },
    vramSurface: {
      type: "float",
      bound: "number",
      description: "Effective video memory die area, mm² (default: from vram and vramDies).",
    },
    transportBoat: { type: "float", bound: "number", description: "Distance travelled by boat, km." },
    transportTruck: { type: "float", bound: "number", description: "Distance travelled by truck, km." },
    transportPlane: { type: "float", bound: "number", description: "Distance travelled by plane, km." },
    usage: {
      type: "object",
      of: USAGE_INPUT,
      description: "Usage; the use phase needs `avgPower` (a GPU has no power model).",
    },
  },
);

const SERVER_MODEL = inputObject(
  "ServerModelInput",
  "A server's identification; only `type` affects the computation.",
  {
    type: { type: "text", description: "rack or blade: sets the case type." },
    archetype: recordedOnly("An archetype's id; the `archetype` query parameter is the one read", {
      type: "text",
    }),
    // Descriptive only (docs/methodology.md §7.1): the engine never reads them.
    name: { type: "text", engine: false, description: "Model name (informative, not used)." },
    manufacturer: { type: "text", engine: false, description: "Manufacturer (informative, not used)." },
    year: {
      type: "text",
      engine: false,
      v1: { textOrInteger: true },
      description: "Year (informative, not used).",
    },
  },
);

const SERVER_CONFIGURATION = inputObject(
  "ServerConfigurationInput",
  "The server's components; a component not given comes from the archetype.",
  {
    cpu: { type: "object", of: CPU, description: "The CPUs; default from the archetype." },
    gpu: {
      type: "object",
      of: GPU,
      description: {
        text: "The server's GPU cards ({note}). Without it, the archetype's GPUs if any.",
        note: "serverGpu",
      },
    },
    ram: { type: "list", of: RAM, description: "An empty list means no RAM." },
    disk: { type: "list", of: DISK, description: "Disks; default from the archetype." },
    powerSupply: {
      type: "object",
      of: POWER_SUPPLY,
      description: "Power supplies; default from the archetype.",
    },
  },
);

export const SERVER = inputObject(
  "ServerInput",
  "A server's description; what is not given comes from its archetype.",
  {
    model: { type: "object", of: SERVER_MODEL, description: "Identification (type sets the case)." },
    configuration: {
      type: "object",
      of: SERVER_CONFIGURATION,
      description: "Components; each one given replaces the archetype's.",
    },
    usage: { type: "object", of: USAGE_INPUT, description: "The server's usage." },
  },
);

export const TERMINAL = inputObject(
  "TerminalInput",
  "What a terminal's request may set: its type and its usage.",
  {
    type: {
      type: "text",
      description:
        "Use type, pro or perso: laptop, desktop and television factors depend on it; screen type, lcd or " +
        "oled, for a VR headset (default: the archetype's). Not accepted for other kinds.",
    },
    usage: { type: "object", of: USAGE_INPUT, v1: { deferred: true }, description: "The device usage." },
  },
);

export const PERIPHERAL = inputObject("PeripheralInput", "What a peripheral's request may set: its usage.", {
  usage: TERMINAL.fields.usage,
});

export const FUNCTIONAL_BLOCK = inputObject(
  "FunctionalBlockInput",
  "A functional block of an IoT device at a hardware sophistication level (HSL).",
  {
    type: {
      type: "text",
      required: true,
      description: "Block name, any case: actuators, casing, connectivity, memory, others, pcb, …",
    },
    // Declared without Optional in the reference: null is refused under pydantic 2.
    hslLevel: {
      type: "text",
      v1: { defaulted: true },
      description: "HSL-0 … HSL-3 (default: the archetype's level for this block).",
    },
    units: recordedOnly("Number of blocks", { type: "int" }),
    usage: recordedOnly("The block's usage", { type: "object", of: USAGE_INPUT }),
  },
);

export const IOT_DEVICE = inputObject(
  "IotDeviceInput",
  "What is known of an IoT device; the rest comes from its archetype.",
  {
    functionalBlocks: {
      type: "list",
      of: FUNCTIONAL_BLOCK,
      description: "Replaces the archetype's blocks (an empty list means no block).",
    },
    usage: { type: "object", of: USAGE_INPUT, v1: { deferred: true }, description: "The device's usage." },
  },
);

/** A cloud instance request: the `cloudInstance` query's arguments and the v1 body. */
export const CLOUD_INSTANCE = inputObject("CloudInstanceRequest", "A cloud instance and its usage.", {
  provider: { type: "text", description: "Default aws." },
  instanceType: { type: "text", description: "Default a1.4xlarge." },
  usage: {
    type: "object",
    of: USAGE_INPUT,
    v1: { deferred: true },
    description: "The instance's usage (region, location, workload, use time…).",
  },
  // The reference's cloud body is its server body: the instance type's platform is the server.
  model: recordedOnly("A server's identification", { type: "object", of: SERVER_MODEL }),
  configuration: recordedOnly("A server's components; the instance type's are used", {
    type: "object",
    of: SERVER_CONFIGURATION,
  }),
});

/** A cloud instance of a fleet: its instance type is required (no default provider's default instance). */
export const CLOUD_INSTANCE_ITEM = inputObject(
  "CloudInstanceItemInput",
  "A cloud instance of a fleet: any provider of the fleet's edition.",
  {
    ...CLOUD_INSTANCE.fields,
    instanceType: {
      type: "text",
      required: true,
      description: "Instance type, matched like cloudInstance's.",
    },
  },
);

export const PROFILE_CPU = inputObject(
  "ProfileCpuInput",
  "The CPU whose power profile is wanted: any of name, manufacturer, model range, family, TDP.",
  {
    // The reference's body is its whole CPU component: what a profile does not read is accepted.
    units: recordedOnly("Number of CPUs", { type: "int" }),
    coreUnits: recordedOnly("Cores per CPU", { type: "int" }),
    dieSize: recordedOnly("Die size, mm²", { type: "float" }),
    dieSizePerCore: recordedOnly("mm² per core", { type: "float" }),
    usage: recordedOnly("The CPU's usage", { type: "object", of: USAGE_INPUT }),
    name: { type: "text", description: "Free text, matched approximately against the CPU table." },
    manufacturer: { type: "text", description: "CPU manufacturer (Intel, AMD…)." },
    modelRange: { type: "text", description: "CPU model range (Xeon Gold, EPYC…)." },
    family: { type: "text", description: { text: "CPU family. {note}", note: "profileFamily" } },
    tdp: {
      type: "int",
      bound: "integer",
      description: { text: "Thermal design power (W). {note}", note: "profileTdp" },
    },
  },
);

const WORKLOAD_POINT = inputObject("WorkloadPointInput", "A measured power (W) at a CPU load (%).", {
  loadPercentage: { type: "float", bound: "percent", required: true, description: "CPU load, 0–100 %." },
  powerWatt: {
    type: "float",
    bound: "nonNegative",
    required: true,
    description: "Measured power at that load (W).",
  },
});

/** A consumption-profile request: the `consumptionProfile` query's arguments and the v1 body. */
export const PROFILE_REQUEST = inputObject("ConsumptionProfileRequest", "A CPU and measured points.", {
  // Declared without Optional in the reference: null is refused under pydantic 2.
  cpu: {
    type: "object",
    of: PROFILE_CPU,
    v1: { defaulted: true },
    description: "The CPU (default: none given).",
  },
  workload: {
    type: "list",
    of: WORKLOAD_POINT,
    v1: { defaulted: true },
    description: "Measured points to fit the profile to.",
  },
});

/** The fields of a CPU's usage its use phase reads, when the power comes from a profile (no power, place of the cloud). */
const {
  timeWorkload,
  usageLocation,
  useTimeRatio,
  hoursLifeTime,
  elecFactors,
  hoursUseTime,
  daysUseTime,
  yearsUseTime,
} = USAGE_INPUT.fields;

export const PROFILE_USAGE = inputObject(
  "ProfileUsageInput",
  "How a CPU of a consumption profile is used: its load, place and time (the profile is its power). " +
    "What is not given comes from the edition's default CPU archetype.",
  {
    timeWorkload,
    usageLocation,
    useTimeRatio,
    hoursLifeTime,
    elecFactors,
    hoursUseTime,
    daysUseTime,
    yearsUseTime,
  },
);

/** A consumption profile with the usage of its impacts: a fleet item, and the v1 impacts route's body. */
export const PROFILE_USE_REQUEST = inputObject(
  "ConsumptionProfileItemInput",
  "A CPU, measured points to fit its profile to, and the usage its impacts are evaluated for.",
  {
    ...PROFILE_REQUEST.fields,
    usage: {
      type: "object",
      of: PROFILE_USAGE,
      description: "The usage of the profile's impacts (default: the CPU archetype's).",
    },
  },
);

/** A request to a generative-AI model (docs/methodology.md, "Generative AI"): the `generativeAi` query's input and the v1 body. */
export const GENERATIVE_AI = inputObject(
  "GenerativeAiInput",
  "One request to a generative-AI model: which model, what it generated, and where.",
  {
    provider: {
      type: "text",
      required: true,
      description:
        "The model's provider, as EcoLogits names it: anthropic, cohere, google_genai, huggingface_hub, mistralai, openai.",
    },
    model: {
      type: "text",
      required: true,
      description:
        "The model as its provider's API names it (gpt-4o-mini, claude-sonnet-4-5, mistral-large-latest…); see generativeAiModels. A name the data lacks is refused with the closest ones.",
    },
    outputTokens: {
      type: "float",
      bound: "quantity",
      required: true,
      description: "Tokens the model generated. Input tokens are not part of EcoLogits' computation.",
    },
    requestLatency: {
      type: "float",
      bound: "quantity",
      description:
        "Seconds the request took, when measured: the generation is counted no longer than this; default: the generation's own duration.",
    },
    zone: {
      type: "text",
      description:
        "The electricity's zone: ISO 3166-1 alpha-3 (FRA, USA…) or WOR (the world); default: the provider's data centres' (USA; SWE for mistralai).",
    },
  },
);

/** Every input object of the catalogue (for what is derived from all of them: error locations). */
export const INPUT_OBJECTS = [
  WORKLOAD_SHARE,
  USAGE_INPUT,
  CPU,
  RAM,
  DISK,
  POWER_SUPPLY,
  CASE,
  SIMPLE_COMPONENT,
  HDD_BODY,
  GPU,
  SERVER_MODEL,
  SERVER_CONFIGURATION,
  SERVER,
  TERMINAL,
  PERIPHERAL,
  FUNCTIONAL_BLOCK,
  IOT_DEVICE,
  CLOUD_INSTANCE,
  CLOUD_INSTANCE_ITEM,
  PROFILE_CPU,
  WORKLOAD_POINT,
  PROFILE_REQUEST,
  PROFILE_USAGE,
  PROFILE_USE_REQUEST,
  GENERATIVE_AI,
] as const;

/** The v1 name of every GraphQL input field of the catalogue (error locations of the REST shim). */
export const V1_NAMES = v1NamesOf(INPUT_OBJECTS);
