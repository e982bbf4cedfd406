import type {
  AiModel,
  AiProvider,
  AiWarningCode,
  Bounds,
  ElectricityMix,
  GenerativeAiData,
} from "../../data/generativeAi.js";
import { NotImplementedError } from "../model/attribute.js";
import {
  type Asset,
  type AssetRules,
  type AttributeEntry,
  givenEntry,
  type VerboseAttribute,
  type VerboseReport,
} from "../model/evaluation.js";
import { flatText } from "../model/flatText.js";
import type { RawImpact } from "../model/impact.js";
import type { GenerativeAiInput } from "../model/inputs.js";

export type { GenerativeAiInput };

/*
 * Generative-AI usage: the impacts of one request to a model, as EcoLogits computes them
 * (docs/methodology.md, "Generative AI"). From the model's active parameters and the output
 * tokens, the GPUs' energy (EcoLogits' fit per token); from the total parameters, the GPUs the
 * model's weights need (a power of two of 80 GB GPUs); from the generation's latency (the
 * request's when given and shorter, else the model's measured speed, else EcoLogits' fit), the
 * server's energy and the embodied impacts of the server and its GPUs, each request's share of a
 * batch over the hardware's lifespan; the energy × the provider's PUE × the zone's electricity
 * mix, and water from the data centre's WUE and the mix's.
 *
 * Every figure is computed twice, once at the low side of each range (parameters, PUE, WUE) and
 * once at the high side, as EcoLogits does: min and max. The value is their mean, the central
 * figure EcoLogits prints. Input tokens are not read: EcoLogits' computation has none.
 */

/** What the engine reads to evaluate a request: the edition's tables and rules. */
export interface GenerativeAiContext {
  readonly data: GenerativeAiData;
  readonly rules: AssetRules;
}

/** What the generative-AI type reads of its model besides its impacts. */
export interface GenerativeAiShape {
  readonly provider: string;
  readonly model: string;
  /** The zone whose electricity mix was read: the request's, or the provider's data centres'. */
  readonly zone: string;
  /** GPUs the model's weights take, low and high. */
  readonly gpus: Bounds;
  /** Seconds of generation the hardware is counted for, low and high. */
  readonly generationLatency: Bounds;
  /** The data's caveats about this request (the model's and the zone's). */
  readonly warnings: readonly string[];
}

/** The figures of one side of the ranges (min or max). */
interface SideResult {
  readonly gpus: number;
  readonly latency: number;
  /** kWh at the plug (PUE included). */
  readonly energy: number;
  readonly use: { readonly gwp: number; readonly adpe: number; readonly pe: number; readonly wcf: number };
  readonly embodied: { readonly gwp: number; readonly adpe: number; readonly pe: number };
}

/** Each warning code of the data, in our words (the code in brackets, as EcoLogits names it). */
export const AI_WARNINGS: Readonly<Record<AiWarningCode, string>> = {
  "model-arch-not-released":
    "The model's architecture is not published: its parameter counts are EcoLogits' estimates (model-arch-not-released)",
  "model-arch-multimodal":
    "The model's architecture is multimodal, which the computation does not model: lower precision (model-arch-multimodal)",
  "electricity-mix-adpe-world":
    "The zone has no ADPe factor of its own: the world's is used (electricity-mix-adpe-world)",
  "electricity-mix-pe-world":
    "The zone has no primary-energy factor of its own: the world's is used (electricity-mix-pe-world)",
  "electricity-mix-wue-world":
    "The zone has no water factor of its own: the world's is used (electricity-mix-wue-world)",
};

/** The mix warning that concerns a criterion's use impact. */
const MIX_WARNING_OF: Readonly<Record<string, AiWarningCode>> = {
  adp: "electricity-mix-adpe-world",
  pe: "electricity-mix-pe-world",
  wcf: "electricity-mix-wue-world",
};

/** One side of EcoLogits' computation, every operation in its order (the same doubles). */
function side(
  data: GenerativeAiData,
  model: AiModel,
  provider: AiProvider,
  mix: ElectricityMix,
  input: GenerativeAiInput,
  bound: keyof Bounds,
): SideResult {
  const f = (name: keyof GenerativeAiData["figures"]) => data.figures[name].value;
  const active = model.activeParameters[bound];
  const total = model.totalParameters[bound];
  const batch = f("batch_size");
  const tokens = input.outputTokens;
  // kWh per token of one GPU: EcoLogits' fit, in Wh, over the active parameters in billions.
  const gpuEnergyPerToken =
    (f("gpu_energy_alpha") * Math.exp(f("gpu_energy_beta") * batch) * active + f("gpu_energy_gamma")) / 1000;
  const gpuEnergy = tokens * gpuEnergyPerToken;
  // Seconds per token: the model's measured speed, else the fit; then the time to the first token.
  const perToken =
    model.tps === null
      ? f("latency_alpha") * active + f("latency_beta") * batch + f("latency_gamma")
      : 1 / model.tps;
  const generation = tokens * perToken + (model.ttft || 0);
  const requestLatency = input.requestLatency ?? Number.POSITIVE_INFINITY;
  const latency = requestLatency < generation ? requestLatency : generation;
  // GPUs: the weights' memory (with its overhead) over one GPU's, rounded up to a power of two.
  const memory = (f("memory_overhead") * total * f("quantization_bits")) / 8;
  const gpus = 2 ** Math.ceil(Math.log2(Math.ceil(memory / f("gpu_memory"))));
  const serverShare = gpus / f("server_gpus");
  const serverEnergy = (latency / 3600) * f("server_power") * serverShare * (1 / batch);
  const itEnergy = serverEnergy + gpus * gpuEnergy;
  const pue = provider.pue[bound];
  const energy = pue * itEnergy;
  const embodied = (server: number, gpu: number) =>
    (latency * (serverShare * server + gpus * gpu)) / (f("hardware_lifespan") * batch);
  return {
    gpus,
    latency,
    energy,
    use: {
      gwp: energy * mix.gwp,
      adpe: energy * mix.adpe,
      pe: energy * mix.pe,
      wcf: itEnergy * (provider.wue[bound] + pue * mix.wue),
    },
    embodied: {
      gwp: embodied(f("server_embodied_gwp"), f("gpu_embodied_gwp")),
      adpe: embodied(f("server_embodied_adpe"), f("gpu_embodied_adpe")),
      pe: embodied(f("server_embodied_pe"), f("gpu_embodied_pe")),
    },
  };
}

/** A figure of both sides as an impact: the mean, min and max, with its warnings. */
function ranged(min: number, max: number, warnings: readonly string[]): RawImpact {
  return { value: (min + max) / 2, min, max, warnings };
}

const bounds = (min: number, max: number): Bounds => ({ min, max });

/** The model's row, the provider's data centre and the zone's mix, found by the service. */
export interface GenerativeAiReferences {
  readonly model: AiModel;
  readonly provider: AiProvider;
  readonly mix: ElectricityMix;
}

/** A request's impacts (both sides computed once, on first use) as an evaluation reads an asset. */
export function generativeAiModel(
  context: GenerativeAiContext,
  references: GenerativeAiReferences,
  input: GenerativeAiInput,
): Asset & { readonly shape: GenerativeAiShape } {
  const { model, provider, mix } = references;
  const low = side(context.data, model, provider, mix, input, "min");
  const high = side(context.data, model, provider, mix, input, "max");
  const modelWarnings = model.warnings.map((code) => AI_WARNINGS[code]);
  const warningsOf = (criterion: string, phase: "embedded" | "use"): string[] => {
    const code = phase === "use" ? MIX_WARNING_OF[criterion] : undefined;
    return code !== undefined && mix.warnings.includes(code)
      ? [...modelWarnings, AI_WARNINGS[code]]
      : modelWarnings;
  };
  const use = (criterion: string): RawImpact => {
    const pick = (s: SideResult) =>
      criterion === "fe"
        ? s.energy
        : criterion === "adp"
          ? s.use.adpe
          : (s.use as Record<string, number>)[criterion];
    const [min, max] = [pick(low), pick(high)];
    if (min === undefined || max === undefined)
      throw new NotImplementedError(`no use impact of ${criterion}`);
    return ranged(min, max, warningsOf(criterion, "use"));
  };
  const embedded = (criterion: string): RawImpact => {
    const key = criterion === "adp" ? "adpe" : criterion;
    const pick = (s: SideResult) => (s.embodied as Record<string, number>)[key];
    const [min, max] = [pick(low), pick(high)];
    // Energy and water have no embodied figure in EcoLogits.
    if (min === undefined || max === undefined)
      throw new NotImplementedError(`no embodied impact of ${criterion}`);
    return ranged(min, max, warningsOf(criterion, "embedded"));
  };
  const shape: GenerativeAiShape = {
    provider: provider.provider,
    model: model.name,
    zone: mix.zone,
    gpus: bounds(low.gpus, high.gpus),
    generationLatency: bounds(low.latency, high.latency),
    warnings: [...new Set([...modelWarnings, ...mix.warnings.map((code) => AI_WARNINGS[code])])],
  };
  return {
    rules: context.rules,
    // A request's impacts are its own: no lifetime to allocate over, a use phase without duration.
    lifetime: () => null,
    useRunsWithoutDuration: true,
    embedded: (criterion) => embedded(criterion),
    use: (criterion) => use(criterion),
    verbose: () => verboseOf(context, references, input, shape, bounds(low.energy, high.energy)),
    shape,
  };
}

/** A figure as verbose shows it: its bounds when they differ. */
function figure(
  name: string,
  value: Bounds | number | string,
  status: AttributeEntry["status"],
  unit?: string,
  source?: string,
  warnings?: readonly string[],
): VerboseAttribute {
  const base = {
    status,
    ...(unit ? { unit } : {}),
    ...(source ? { source } : {}),
    ...(warnings ? { warnings } : {}),
  };
  if (typeof value !== "object") return { name, entry: givenEntry({ ...base, value }) };
  return {
    name,
    entry: givenEntry(
      value.min === value.max
        ? { ...base, value: value.min }
        : { ...base, value: (value.min + value.max) / 2, min: value.min, max: value.max },
    ),
  };
}

/** Every input and figure the computation read, with where it comes from. */
function verboseOf(
  context: GenerativeAiContext,
  { model, provider, mix }: GenerativeAiReferences,
  input: GenerativeAiInput,
  shape: GenerativeAiShape,
  energy: Bounds,
): VerboseReport {
  const { figures } = context.data;
  const edition = context.rules.version;
  const modelSource = [`${edition} models.csv`, ...model.sources].join(" ");
  const mixSource = flatText(`${edition} electricity_mixes.csv`);
  const mixWarnings = (code: AiWarningCode) =>
    mix.warnings.includes(code) ? [AI_WARNINGS[code]] : undefined;
  const fixed = (name: keyof typeof figures, as: string) =>
    figure(
      as,
      figures[name].value,
      "DEFAULT",
      figures[name].unit,
      flatText(`${edition} ${figures[name].source}`),
    );
  const attributes: VerboseAttribute[] = [
    figure("provider", provider.provider, "INPUT"),
    figure(
      "model",
      model.name,
      "INPUT",
      undefined,
      model.aliasOf ? flatText(`alias of ${model.aliasOf}`) : undefined,
    ),
    figure("output_tokens", input.outputTokens, "INPUT", "tokens"),
    input.requestLatency == null
      ? figure("request_latency", "none: the generation's own", "DEFAULT")
      : figure("request_latency", input.requestLatency, "INPUT", "s"),
    figure(
      "zone",
      mix.zone,
      input.zone == null ? "DEFAULT" : "INPUT",
      undefined,
      input.zone == null ? `${provider.provider}'s data centres` : undefined,
    ),
    figure(
      "architecture",
      model.architecture,
      "COMPLETED",
      undefined,
      modelSource,
      model.warnings.length ? model.warnings.map((code) => AI_WARNINGS[code]) : undefined,
    ),
    figure("total_parameters", model.totalParameters, "COMPLETED", "billion", modelSource),
    figure("active_parameters", model.activeParameters, "COMPLETED", "billion", modelSource),
    ...(model.tps === null
      ? []
      : [figure("tokens_per_second", model.tps, "COMPLETED", "tokens/s", modelSource)]),
    ...(model.ttft === null
      ? []
      : [figure("time_to_first_token", model.ttft, "COMPLETED", "s", modelSource)]),
    figure("gpu_required_count", shape.gpus, "COMPLETED", "GPUs"),
    figure("generation_latency", shape.generationLatency, "COMPLETED", "s"),
    // The energy behind the use impacts (an inventory row's energy_kwh, src/service/energy.ts).
    figure("energy", energy, "COMPLETED", "kWh"),
    figure("datacenter_pue", provider.pue, "COMPLETED", undefined, `${edition} providers.csv`),
    figure("datacenter_wue", provider.wue, "COMPLETED", "L/kWh", `${edition} providers.csv`),
    figure("gwp_factor", mix.gwp, "COMPLETED", "kgCO2eq/kWh", mixSource),
    figure(
      "adpe_factor",
      mix.adpe,
      "COMPLETED",
      "kgSbeq/kWh",
      mixSource,
      mixWarnings("electricity-mix-adpe-world"),
    ),
    figure("pe_factor", mix.pe, "COMPLETED", "MJ/kWh", mixSource, mixWarnings("electricity-mix-pe-world")),
    figure("wue_factor", mix.wue, "COMPLETED", "L/kWh", mixSource, mixWarnings("electricity-mix-wue-world")),
    fixed("batch_size", "batch_size"),
    fixed("gpu_memory", "gpu_memory"),
    fixed("server_gpus", "server_gpu_count"),
    fixed("server_power", "server_power"),
    fixed("hardware_lifespan", "hardware_lifespan"),
  ];
  return { duration: null, impacts: null, components: [], attributes };
}
