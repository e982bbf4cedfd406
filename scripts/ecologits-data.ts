/**
 * Writes the typed tables of the generative-AI edition (`data/ecologits-0.11.3/`, read by
 * src/data/generativeAi.ts) from the released package itself: EcoLogits 0.11.3, installed at its
 * pinned hashes by scripts/ensure-ecologits.sh into a cache outside the repository, whose data and
 * figures scripts/reference/ecologits_reference.py prints (`facts`). Facts only: the models'
 * parameters and architectures, their measured speed, the electricity mixes, the figures of the
 * computation and the providers' data centres, each cited; no code of the package.
 *
 * Usage: npm run data:ecologits
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  AI_FIGURE_COLUMNS,
  AI_MIX_COLUMNS,
  AI_MODEL_COLUMNS,
  AI_PROVIDER_COLUMNS,
} from "../src/data/generativeAi.js";
import { GENERATIVE_AI_EDITION } from "../src/editions/index.js";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const target = join(root, "data", GENERATIVE_AI_EDITION.id);

type Pair = [number, number];

interface Facts {
  readonly version: string;
  readonly models: readonly {
    provider: string;
    name: string;
    alias_of: string | null;
    architecture: string;
    total: Pair;
    active: Pair;
    tps: number | null;
    ttft: number | null;
    warnings: string[];
    sources: string[];
  }[];
  readonly electricity_mixes: readonly {
    zone: string;
    adpe: number;
    pe: number;
    gwp: number;
    wue: number;
    warnings: string[];
  }[];
  readonly figures: Readonly<Record<string, number>>;
  readonly providers: Readonly<Record<string, { datacenter_location: string; pue: Pair; wue: Pair }>>;
}

/** Each figure of the computation: its name here, its name in ecologits/impacts/llm.py, its unit. */
const FIGURES: readonly (readonly [string, string, string])[] = [
  ["quantization_bits", "MODEL_QUANTIZATION_BITS", "bits per weight"],
  [
    "gpu_energy_alpha",
    "GPU_ENERGY_ALPHA",
    "Wh per token per billion active parameters (× exp(beta × batch))",
  ],
  ["gpu_energy_beta", "GPU_ENERGY_BETA", "per request of the batch"],
  ["gpu_energy_gamma", "GPU_ENERGY_GAMMA", "Wh per token"],
  ["latency_alpha", "LATENCY_ALPHA", "s per token per billion active parameters"],
  ["latency_beta", "LATENCY_BETA", "s per token per request of the batch"],
  ["latency_gamma", "LATENCY_GAMMA", "s per token"],
  ["gpu_memory", "GPU_MEMORY", "GB"],
  ["gpu_embodied_gwp", "GPU_EMBODIED_IMPACT_GWP", "kgCO2eq"],
  ["gpu_embodied_adpe", "GPU_EMBODIED_IMPACT_ADPE", "kgSbeq"],
  ["gpu_embodied_pe", "GPU_EMBODIED_IMPACT_PE", "MJ"],
  ["server_gpus", "SERVER_GPUS", "GPUs"],
  ["server_power", "SERVER_POWER", "kW (the server without its GPUs)"],
  ["server_embodied_gwp", "SERVER_EMBODIED_IMPACT_GWP", "kgCO2eq (without its GPUs)"],
  ["server_embodied_adpe", "SERVER_EMBODIED_IMPACT_ADPE", "kgSbeq (without its GPUs)"],
  ["server_embodied_pe", "SERVER_EMBODIED_IMPACT_PE", "MJ (without its GPUs)"],
  ["hardware_lifespan", "HARDWARE_LIFESPAN", "s"],
  ["batch_size", "BATCH_SIZE", "requests served at once"],
];

/** A literal of the computation, not a named figure: the memory a model needs over its weights. */
const MEMORY_OVERHEAD = 1.2;

/** A CSV cell: plain, or quoted when it holds a comma, a quote or a line break. */
function cell(value: string | number | null): string {
  if (value === null) return "";
  const text = String(value);
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csv(header: readonly string[], rows: readonly (readonly (string | number | null)[])[]): string {
  return `${[header, ...rows].map((row) => row.map(cell).join(",")).join("\n")}\n`;
}

function facts(): Facts {
  const python = execFileSync("bash", [join(root, "scripts/ensure-ecologits.sh")], {
    encoding: "utf8",
  }).trim();
  if (!python)
    throw new Error(
      "ecologits-data: ecologits 0.11.3 is not installed (scripts/ensure-ecologits.sh said why)",
    );
  const text = execFileSync(python, [join(root, "scripts/reference/ecologits_reference.py"), "facts"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(text) as Facts;
}

function tables(data: Facts): Record<string, string> {
  const llm = "ecologits/impacts/llm.py";
  return {
    "models.csv": csv(
      AI_MODEL_COLUMNS.required,
      data.models.map((m) => [
        m.provider,
        m.name,
        m.alias_of,
        m.architecture,
        ...m.total,
        ...m.active,
        m.tps,
        m.ttft,
        m.warnings.join(" "),
        m.sources.join(" "),
      ]),
    ),
    "electricity_mixes.csv": csv(
      AI_MIX_COLUMNS.required,
      data.electricity_mixes.map((mix) => [
        mix.zone,
        mix.adpe,
        mix.pe,
        mix.gwp,
        mix.wue,
        mix.warnings.join(" "),
      ]),
    ),
    "figures.csv": csv(AI_FIGURE_COLUMNS.required, [
      ...FIGURES.map(([name, constant, unit]) => {
        const value = data.figures[constant];
        if (typeof value !== "number") throw new Error(`ecologits-data: no figure ${constant} in ${llm}`);
        return [name, value, unit, `${llm}, ${constant}`];
      }),
      ["memory_overhead", MEMORY_OVERHEAD, "× the weights' memory", `${llm}, model_required_memory`],
    ]),
    "providers.csv": csv(
      AI_PROVIDER_COLUMNS.required,
      Object.entries(data.providers).map(([provider, config]) => [
        provider,
        config.datacenter_location,
        ...config.pue,
        ...config.wue,
        "ecologits/tracers/utils.py, PROVIDER_CONFIG_MAP",
      ]),
    ),
  };
}

function readme(data: Facts, written: Record<string, string>): string {
  const rows = Object.entries(written).map(([file, text]) => {
    const digest = createHash("sha256").update(text).digest("hex").slice(0, 16);
    const purpose = GENERATIVE_AI_EDITION.dataSet.tables.find((table) => table.file === file)?.purpose ?? "";
    return `| \`${file}\` | ${text.trimEnd().split("\n").length - 1} | \`${digest}\` | ${purpose} |`;
  });
  const pins = readFileSync(join(root, "scripts/reference/ecologits-0.11.3.txt"), "utf8");
  const wheel = /^ecologits==\S+ --hash=sha256:(\w+)/m.exec(pins)?.[1] ?? "?";
  return [
    `# Reference data of edition ${GENERATIVE_AI_EDITION.id}`,
    "",
    "Generated by `npm run data:ecologits` (`scripts/ecologits-data.ts`); do not edit by hand.",
    "",
    `Facts of EcoLogits ${data.version} (GenAI Impact, https://github.com/mlco2/ecologits), as released on the`,
    `Python package index: the wheel \`ecologits-${data.version}-py3-none-any.whl\`, sha256 \`${wheel}\`,`,
    "installed by `scripts/ensure-ecologits.sh` and read in its own process by",
    "`scripts/reference/ecologits_reference.py facts`:",
    "",
    "- `models.csv`: its `data/models.json` (each model's provider, name, architecture, parameters in",
    "  billions, measured tokens per second and time to first token, warnings and sources), its aliases",
    "  as rows of their own (`alias_of` naming the model they copy);",
    "- `electricity_mixes.csv`: its `data/electricity_mixes.json` (per ISO 3166-1 alpha-3 zone, and `WOR`",
    "  for the world: ADPe kgSbeq/kWh, PE MJ/kWh, GWP kgCO2eq/kWh, WUE L/kWh, warnings);",
    "- `figures.csv`: the figures its computation reads (`ecologits/impacts/llm.py`): the fits of GPU",
    "  energy and latency per token, the GPU's and the server's figures, the lifespan, the batch;",
    "- `providers.csv`: each provider's data centre (`ecologits/tracers/utils.py`): its location, PUE",
    "  and WUE.",
    "",
    "Licence: EcoLogits and its data are published under the Mozilla Public License 2.0 (MPL-2.0);",
    "these tables are its facts converted, each row or figure citing where it comes from in the package",
    "(a model's `sources` are its own). `src/data/generativeAi.ts` loads and checks them once at",
    "start-up.",
    "",
    "| file | rows | sha256 (first 16) | used for |",
    "|---|---|---|---|",
    ...rows,
    "",
  ].join("\n");
}

const data = facts();
if (`ecologits-${data.version}` !== GENERATIVE_AI_EDITION.id)
  throw new Error(`ecologits-data: the package is ${data.version}, the edition ${GENERATIVE_AI_EDITION.id}`);
const written = tables(data);
mkdirSync(target, { recursive: true });
for (const [file, text] of Object.entries(written)) writeFileSync(join(target, file), text);
writeFileSync(join(target, "README.md"), readme(data, written));
console.log(`edition ${GENERATIVE_AI_EDITION.id}: wrote ${Object.keys(written).length} tables in ${target}`);
