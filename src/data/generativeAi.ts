import { readFileSync } from "node:fs";
import { parse as parseCsv } from "csv-parse/sync";
import type { TableColumns } from "./types.js";
import { checkTable, DataError, displayPath, oneLine } from "./validate.js";

/*
 * The reference tables of the generative-AI edition (data/ecologits-0.11.3/, written by
 * scripts/ecologits-data.ts from the released EcoLogits package): its models, electricity mixes,
 * figures and providers' data centres, read and checked once at start-up. A problem stops the
 * start with one line naming the file, the row and the column.
 */

/** A figure with its bounds (a single value is both). */
export interface Bounds {
  readonly min: number;
  readonly max: number;
}

/** The warnings' codes the data may give a model or a mix (EcoLogits' own codes). */
export const MODEL_WARNING_CODES = ["model-arch-not-released", "model-arch-multimodal"] as const;
export const MIX_WARNING_CODES = [
  "electricity-mix-adpe-world",
  "electricity-mix-pe-world",
  "electricity-mix-wue-world",
] as const;
export type AiWarningCode = (typeof MODEL_WARNING_CODES)[number] | (typeof MIX_WARNING_CODES)[number];

export interface AiModel {
  readonly provider: string;
  readonly name: string;
  /** The model whose row this alias copies (`claude-sonnet-4-5` → `claude-sonnet-4-5-20250929`). */
  readonly aliasOf: string | null;
  readonly architecture: "dense" | "moe";
  /** Billions of parameters loaded on the GPUs. */
  readonly totalParameters: Bounds;
  /** Billions of parameters at work per token (the total for a dense model). */
  readonly activeParameters: Bounds;
  /** Tokens generated per second as measured by the provider's API, when known. */
  readonly tps: number | null;
  /** Seconds to the first token, when known. */
  readonly ttft: number | null;
  readonly warnings: readonly AiWarningCode[];
  readonly sources: readonly string[];
}

export interface ElectricityMix {
  /** ISO 3166-1 alpha-3, or WOR for the world. */
  readonly zone: string;
  /** kgSbeq/kWh */
  readonly adpe: number;
  /** MJ/kWh */
  readonly pe: number;
  /** kgCO2eq/kWh */
  readonly gwp: number;
  /** L/kWh */
  readonly wue: number;
  readonly warnings: readonly AiWarningCode[];
}

export interface AiProvider {
  readonly provider: string;
  /** The zone of its data centres' electricity when a request names none. */
  readonly datacenterLocation: string;
  readonly pue: Bounds;
  /** L/kWh of the data centre itself. */
  readonly wue: Bounds;
}

/** The figures of the computation (figures.csv), by their names there. */
export const AI_FIGURE_NAMES = [
  "quantization_bits",
  "gpu_energy_alpha",
  "gpu_energy_beta",
  "gpu_energy_gamma",
  "latency_alpha",
  "latency_beta",
  "latency_gamma",
  "gpu_memory",
  "gpu_embodied_gwp",
  "gpu_embodied_adpe",
  "gpu_embodied_pe",
  "server_gpus",
  "server_power",
  "server_embodied_gwp",
  "server_embodied_adpe",
  "server_embodied_pe",
  "hardware_lifespan",
  "batch_size",
  "memory_overhead",
] as const;
export type AiFigureName = (typeof AI_FIGURE_NAMES)[number];

export interface AiFigure {
  readonly value: number;
  readonly unit: string;
  readonly source: string;
}

export interface GenerativeAiData {
  /** Every model, in file order. */
  readonly models: readonly AiModel[];
  /** Provider → model name → its row. */
  readonly byProvider: ReadonlyMap<string, ReadonlyMap<string, AiModel>>;
  readonly mixes: ReadonlyMap<string, ElectricityMix>;
  readonly providers: ReadonlyMap<string, AiProvider>;
  readonly figures: Readonly<Record<AiFigureName, AiFigure>>;
}

export const AI_MODEL_COLUMNS: TableColumns = {
  required: [
    "provider",
    "name",
    "alias_of",
    "architecture",
    "total_parameters_min",
    "total_parameters_max",
    "active_parameters_min",
    "active_parameters_max",
    "tps",
    "ttft",
    "warnings",
    "sources",
  ],
  numbers: [
    "total_parameters_min",
    "total_parameters_max",
    "active_parameters_min",
    "active_parameters_max",
    "tps",
    "ttft",
  ],
  filled: [
    "provider",
    "name",
    "architecture",
    "total_parameters_min",
    "total_parameters_max",
    "active_parameters_min",
    "active_parameters_max",
  ],
};

export const AI_MIX_COLUMNS: TableColumns = {
  required: ["zone", "adpe", "pe", "gwp", "wue", "warnings"],
  numbers: ["adpe", "pe", "gwp", "wue"],
  filled: ["zone", "adpe", "pe", "gwp", "wue"],
};

export const AI_FIGURE_COLUMNS: TableColumns = {
  required: ["figure", "value", "unit", "source"],
  numbers: ["value"],
  filled: ["figure", "value", "source"],
};

export const AI_PROVIDER_COLUMNS: TableColumns = {
  required: ["provider", "datacenter_location", "pue_min", "pue_max", "wue_min", "wue_max", "source"],
  numbers: ["pue_min", "pue_max", "wue_min", "wue_max"],
  filled: ["provider", "datacenter_location", "pue_min", "pue_max", "wue_min", "wue_max"],
};

type Row = { readonly record: Readonly<Record<string, string>>; readonly info: { lines: number } };

const DATA_ROOT = new URL("../../data/", import.meta.url);

function readTable(dir: URL, file: string, columns: TableColumns): { where: string; rows: Row[] } {
  const where = displayPath(dir, file);
  let text: string;
  try {
    text = readFileSync(new URL(file, dir), "utf8");
  } catch {
    throw new DataError(`${where}: missing file`);
  }
  let header: string[] = [];
  let rows: Row[];
  try {
    rows = parseCsv(text, {
      columns: (names: string[]) => {
        header = names;
        return names;
      },
      info: true,
      skip_empty_lines: true,
      bom: true,
    }) as Row[];
  } catch (error) {
    throw new DataError(`${where}: ${oneLine(error instanceof Error ? error.message : String(error))}`);
  }
  checkTable(where, header, rows, columns);
  return { where, rows };
}

/** A number of a checked column (empty: null). */
function numberOrNull(text: string | undefined): number | null {
  return text === undefined || text.trim() === "" ? null : Number(text);
}

/** A bounds pair of two checked columns, in order and not negative. */
function boundsOf(row: Row, where: string, min: string, max: string): Bounds {
  const bounds = { min: Number(row.record[min]), max: Number(row.record[max]) };
  if (!(bounds.min >= 0 && bounds.min <= bounds.max))
    throw new DataError(`${where}:${row.info.lines}:${min}: expected 0 ≤ ${min} ≤ ${max}`);
  return bounds;
}

function codesOf(row: Row, where: string, known: readonly string[]): AiWarningCode[] {
  const codes = (row.record.warnings ?? "").split(" ").filter((code) => code !== "");
  for (const code of codes) {
    if (!known.includes(code))
      throw new DataError(`${where}:${row.info.lines}:warnings: unknown warning ${JSON.stringify(code)}`);
  }
  return codes as AiWarningCode[];
}

function unique<T>(where: string, rows: readonly Row[], key: (row: Row) => string, make: (row: Row) => T) {
  const found = new Map<string, T>();
  for (const row of rows) {
    const name = key(row);
    if (found.has(name)) throw new DataError(`${where}:${row.info.lines}: a second row for ${name}`);
    found.set(name, make(row));
  }
  return found;
}

function models(dir: URL): AiModel[] {
  const { where, rows } = readTable(dir, "models.csv", AI_MODEL_COLUMNS);
  const list = rows.map((row): AiModel => {
    const architecture = row.record.architecture;
    if (architecture !== "dense" && architecture !== "moe")
      throw new DataError(`${where}:${row.info.lines}:architecture: expected dense or moe`);
    return {
      provider: row.record.provider,
      name: row.record.name,
      aliasOf: row.record.alias_of || null,
      architecture,
      totalParameters: boundsOf(row, where, "total_parameters_min", "total_parameters_max"),
      activeParameters: boundsOf(row, where, "active_parameters_min", "active_parameters_max"),
      tps: numberOrNull(row.record.tps),
      ttft: numberOrNull(row.record.ttft),
      warnings: codesOf(row, where, MODEL_WARNING_CODES),
      sources: (row.record.sources ?? "").split(" ").filter((source) => source !== ""),
    };
  });
  unique(
    where,
    rows,
    (row) => `${row.record.provider}/${row.record.name}`,
    () => null,
  );
  return list;
}

function figures(dir: URL): Record<AiFigureName, AiFigure> {
  const { where, rows } = readTable(dir, "figures.csv", AI_FIGURE_COLUMNS);
  const found = unique(
    where,
    rows,
    (row) => row.record.figure,
    (row) => ({ value: Number(row.record.value), unit: row.record.unit ?? "", source: row.record.source }),
  );
  for (const name of AI_FIGURE_NAMES) {
    if (!found.has(name)) throw new DataError(`${where}: no row for the figure ${name}`);
  }
  return Object.fromEntries(AI_FIGURE_NAMES.map((name) => [name, found.get(name)])) as Record<
    AiFigureName,
    AiFigure
  >;
}

/**
 * The tables of the edition `id` (its folder under data/) as loaded and checked: every model's
 * provider has a data centre, every provider's location a mix.
 * @throws DataError naming the file, row and column of the first problem.
 */
export function loadGenerativeAiData(id: string, root: URL = DATA_ROOT): GenerativeAiData {
  const dir = new URL(`${id}/`, root);
  const list = models(dir);
  const mixTable = readTable(dir, "electricity_mixes.csv", AI_MIX_COLUMNS);
  const mixes = unique(
    mixTable.where,
    mixTable.rows,
    (row) => row.record.zone,
    (row): ElectricityMix => ({
      zone: row.record.zone,
      adpe: Number(row.record.adpe),
      pe: Number(row.record.pe),
      gwp: Number(row.record.gwp),
      wue: Number(row.record.wue),
      warnings: codesOf(row, mixTable.where, MIX_WARNING_CODES),
    }),
  );
  const providerTable = readTable(dir, "providers.csv", AI_PROVIDER_COLUMNS);
  const providers = unique(
    providerTable.where,
    providerTable.rows,
    (row) => row.record.provider,
    (row): AiProvider => {
      const location = row.record.datacenter_location;
      if (!mixes.has(location))
        throw new DataError(
          `${providerTable.where}:${row.info.lines}:datacenter_location: no electricity mix for ${location}`,
        );
      return {
        provider: row.record.provider,
        datacenterLocation: location,
        pue: boundsOf(row, providerTable.where, "pue_min", "pue_max"),
        wue: boundsOf(row, providerTable.where, "wue_min", "wue_max"),
      };
    },
  );
  const byProvider = new Map<string, Map<string, AiModel>>();
  for (const model of list) {
    if (!providers.has(model.provider))
      throw new DataError(
        `${displayPath(dir, "models.csv")}: provider ${model.provider} has no row in providers.csv`,
      );
    const named = byProvider.get(model.provider) ?? new Map<string, AiModel>();
    named.set(model.name, model);
    byProvider.set(model.provider, named);
  }
  return { models: list, byProvider, mixes, providers, figures: figures(dir) };
}
