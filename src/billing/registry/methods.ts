/*
 * The methods a billing line is estimated by (docs/methodology.md, "Billing lines that are not
 * instance hours"): each method's dimension (what unit it reads), what it is told apart by (a
 * storage's medium, a GPU's model), the suffix of its unit as the output writes it, and its
 * constant multiplier; then each key of the coefficient table a method and variant read, with its
 * unit. sql/classify/billing_methods.sql reads both as tables (src/billing/registry/tables.ts).
 */

import { GPU_MODELS, gpuKey } from "./gpus.js";

export interface MethodKind {
  readonly method: string;
  /** The unit dimension it reads (src/billing/registry/units.ts); `any` for by-cost (it reads the cost). */
  readonly dimension: "hour" | "gb" | "gb-hour" | "any";
  /** What tells its keys apart: `medium` (ssd, hdd), `gpu` (a model), or nothing. */
  readonly variantOf: "medium" | "gpu" | "";
  /** What the output appends to the key's unit: the copies kept, the transfer's scope, or nothing. */
  readonly labelSuffix: "replication" | "scope" | "";
  /** Units of the key per unit of the line (after the unit's own factor and resource). */
  readonly multiplier: number;
}

/**
 * Lambda's memory is set in MB, 1,024 a GB (its GB-seconds are GiB-seconds), and gives one vCPU per
 * 1,769 MB (AWS Lambda, "Configuring function memory"): vCPU-hours per GB-hour of Lambda memory.
 */
const LAMBDA_VCPUS_PER_GB = 1024 / 1769;

export const METHOD_KINDS: readonly MethodKind[] = [
  {
    method: "block-storage",
    dimension: "gb-hour",
    variantOf: "medium",
    labelSuffix: "replication",
    multiplier: 1,
  },
  {
    method: "object-storage",
    dimension: "gb-hour",
    variantOf: "medium",
    labelSuffix: "replication",
    multiplier: 1,
  },
  {
    method: "file-storage",
    dimension: "gb-hour",
    variantOf: "medium",
    labelSuffix: "replication",
    multiplier: 1,
  },
  { method: "data-transfer", dimension: "gb", variantOf: "", labelSuffix: "scope", multiplier: 1 },
  {
    method: "serverless",
    dimension: "gb-hour",
    variantOf: "",
    labelSuffix: "",
    multiplier: LAMBDA_VCPUS_PER_GB,
  },
  { method: "per-vcpu", dimension: "hour", variantOf: "", labelSuffix: "", multiplier: 1 },
  { method: "memory", dimension: "gb-hour", variantOf: "", labelSuffix: "", multiplier: 1 },
  { method: "accelerator", dimension: "hour", variantOf: "gpu", labelSuffix: "", multiplier: 1 },
  { method: "dpu", dimension: "hour", variantOf: "", labelSuffix: "", multiplier: 1 },
  { method: "by-cost", dimension: "any", variantOf: "", labelSuffix: "", multiplier: 1 },
];

export interface MethodKeyRow {
  readonly method: string;
  /** The medium or GPU model; '' for none (a GPU of no model the registry knows: CCF's average). */
  readonly variant: string;
  readonly key: string;
  /** Its unit as the output's method_unit writes it (before the suffix). */
  readonly unit: string;
}

const storage = (method: string): MethodKeyRow[] => [
  { method, variant: "ssd", key: "method:ssd-gb-hour", unit: "GB-hours SSD" },
  { method, variant: "hdd", key: "method:hdd-gb-hour", unit: "GB-hours HDD" },
];

export const METHOD_KEY_ROWS: readonly MethodKeyRow[] = [
  ...storage("block-storage"),
  ...storage("object-storage"),
  ...storage("file-storage"),
  { method: "data-transfer", variant: "", key: "method:network-gb", unit: "GB" },
  { method: "serverless", variant: "", key: "method:vcpu-hour", unit: "vCPU-hours" },
  { method: "per-vcpu", variant: "", key: "method:vcpu-hour", unit: "vCPU-hours" },
  { method: "memory", variant: "", key: "method:memory-gb-hour", unit: "GB-hours of memory" },
  { method: "accelerator", variant: "", key: "method:gpu-hour", unit: "GPU-hours" },
  ...GPU_MODELS.map((gpu) => ({
    method: "accelerator",
    variant: gpu.model,
    key: gpuKey(gpu.model),
    unit: `GPU-hours ${gpu.model.toUpperCase()}`,
  })),
  { method: "dpu", variant: "", key: "method:dpu-hour", unit: "DPU-hours" },
  { method: "by-cost", variant: "", key: "method:cost", unit: "cost" },
];
