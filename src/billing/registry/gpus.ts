/*
 * GPU models the providers bill, each with its board power (the maker's published TDP or maximum
 * board power, per GPU as the clouds bill it) and the instance families that carry it. A line
 * billing GPU-hours of a named model (Google Cloud's `Nvidia Tesla T4 GPU running in Americas`)
 * reads that model's row; a line naming none reads CCF's average GPU (method:gpu-hour).
 */

export interface GpuModel {
  /** The model as a line's text names it, lower case (`nvidia tesla t4` → `t4`). */
  readonly model: string;
  /** Board power at full load, W per GPU as billed. */
  readonly watts: number;
  /** Instance families carrying it: AWS (`p3`), Azure (`ncv3`, sizes' family), Google Cloud (`a2`). */
  readonly families: readonly string[];
}

export const GPU_MODELS: readonly GpuModel[] = [
  // NVIDIA Tesla K80 datasheet: 300 W for its two GK210 GPUs; clouds bill each GPU (AWS p2, Azure NC)
  { model: "k80", watts: 150, families: ["p2", "nc"] },
  // NVIDIA Tesla M60 datasheet: 300 W maximum for its two GPUs (AWS g3 and Azure NV bill each)
  { model: "m60", watts: 150, families: ["g3", "g3s", "nv", "nvv3"] },
  // NVIDIA Tesla P4 datasheet: 75 W
  { model: "p4", watts: 75, families: [] },
  // NVIDIA Tesla P40 datasheet: 250 W (Azure ND)
  { model: "p40", watts: 250, families: ["nd"] },
  // NVIDIA Tesla P100 PCIe datasheet: 250 W (Google Cloud, Azure NCv2)
  { model: "p100", watts: 250, families: ["ncv2"] },
  // NVIDIA Tesla V100 SXM2 datasheet: 300 W (AWS p3, p3dn; Azure NCv3, NDv2)
  { model: "v100", watts: 300, families: ["p3", "p3dn", "ncv3", "ndv2"] },
  // NVIDIA T4 datasheet: 70 W (AWS g4dn; AWS g5g's T4G alike; Azure NCasT4_v3)
  { model: "t4", watts: 70, families: ["g4dn", "ncast4v3"] },
  { model: "t4g", watts: 70, families: ["g5g"] },
  // NVIDIA A10 datasheet: 150 W (Azure NVadsA10 v5); AWS's A10G (g5) is given the same 150 W
  { model: "a10", watts: 150, families: ["nvadsa10v5"] },
  { model: "a10g", watts: 150, families: ["g5"] },
  // NVIDIA A100 SXM4 datasheet: 400 W (AWS p4d, p4de; Azure NDasrA100 v4; Google Cloud a2)
  { model: "a100", watts: 400, families: ["p4d", "p4de", "ndasra100v4", "ndma100v4", "nca100v4", "a2"] },
  // NVIDIA H100 SXM5 datasheet: 700 W (AWS p5; Azure NDisrH100 v5; Google Cloud a3)
  { model: "h100", watts: 700, families: ["p5", "ndisrh100v5", "ncadsh100v5", "a3"] },
  // NVIDIA H200 SXM datasheet: up to 700 W (AWS p5e, p5en)
  { model: "h200", watts: 700, families: ["p5e", "p5en"] },
  // NVIDIA L4 datasheet: 72 W (AWS g6, gr6; Google Cloud g2)
  { model: "l4", watts: 72, families: ["g6", "gr6", "g2"] },
  // NVIDIA L40S datasheet: 350 W (AWS g6e)
  { model: "l40s", watts: 350, families: ["g6e"] },
  // AMD Radeon Pro V520: 225 W (AWS g4ad); AMD Radeon Instinct MI25: 300 W (Azure NVv4)
  { model: "v520", watts: 225, families: ["g4ad"] },
  { model: "mi25", watts: 300, families: ["nvv4"] },
];

/**
 * CCF's GPU figures (Appendix III): 35 W idle and 306 W at full load on average. A model's idle
 * power is taken in the same ratio to its full power (35 ÷ 306 of it); its power at the average
 * load of 50 % halfway between.
 */
export const GPU_IDLE_RATIO = 35 / 306;

/** The method key of a model's GPU-hour. */
export const gpuKey = (model: string) => `method:gpu-hour:${model}`;
