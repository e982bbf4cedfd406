import {
  Attribute,
  type AttributeValue,
  NotImplementedError,
  RequiredInputError,
} from "../model/attribute.js";
import { type Allocation, type EngineContext, factorAt } from "../model/context.js";
import { flatText } from "../model/flatText.js";
import type { RawImpact } from "../model/impact.js";
import type { GpuInput } from "../model/inputs.js";
import { Component, type ComponentCells } from "./component.js";

export type { GpuInput } from "../model/inputs.js";

/**
 * The GPU table's default row, where a GPU's missing characteristics come from; null in an
 * edition without GPUs (the GPU component does not exist there).
 */
export function defaultGpuCells(context: EngineContext): ComponentCells | null {
  const { archetypes, config } = context.data;
  return archetypes.gpu?.byId.get(config.defaultArchetypes.gpu ?? "DEFAULT")?.cells ?? null;
}

/** Wafer of 300 mm and kerf of 0.2 mm of the die-area model (§5.2). */
const WAFER_AREA = Math.PI * 150 ** 2;
const WAFER_CIRCUMFERENCE = Math.PI * 300;
const KERF_MM = 0.2;
/** Defect density of the yield model, per cm² (the area is given in mm², hence the /100). */
const DEFECT_DENSITY = 0.1;
/** Silicon per GB of VRAM (mm²). */
export const VRAM_MM2_PER_GB = 15.5;

/**
 * §5.2: the wafer area one good die costs. The die plus its kerf is a square of side `w`; the
 * wafer holds `n` whole dies (the edge loss subtracted), and the share of each die is divided by
 * the yield `exp(−√(area·D₀))`. The operations run in the reference's order: the last bits of
 * the result appear in verbose (`gpu_surface`, `vram_surface`).
 */
export function effectiveDieArea(dieArea: number): number {
  const side = Math.sqrt(dieArea) + KERF_MM;
  const withKerf = side * side;
  const diesPerWafer = WAFER_AREA / withKerf - WAFER_CIRCUMFERENCE / Math.sqrt(2 * withKerf);
  const yieldRate = Math.exp(-Math.sqrt((withKerf / 100) * DEFECT_DENSITY));
  return ((1 / yieldRate) * WAFER_AREA) / diesPerWafer;
}

/** §5.2: the VRAM silicon of `dies` dies sharing `vram` GB. */
export function vramSurface(vram: number, dies: number): number {
  return effectiveDieArea((vram * VRAM_MM2_PER_GB) / dies) * dies;
}

/**
 * The parts of a GPU's manufacturing impact (§5.3, Appendix B factors `gpu.<part>.<phase>`), each
 * with the attribute product it multiplies: masses in kg, surfaces in cm² / mm², distances in km.
 */
type GpuPart = readonly [part: string, phase: string, amount: (bound: Bound) => number];
type Bound = (attribute: Attribute<number>) => number;

/**
 * Attributes taken from the GPU archetype table's default row when read while empty — also for a
 * GPU built from a server archetype, whose `GPU.*` cells only give `units` and `vram` (Appendix D.2).
 */
const FROM_DEFAULT_GPU = [
  "weight",
  "heatsink_weight",
  "pwb_surface",
  "pwb_weight",
  "casing_weight",
  "vram_dies",
  "transport_boat",
  "transport_truck",
  "transport_plane",
] as const;

export class Gpu extends Component {
  readonly kind = "GPU";
  /**
   * Until 2.5.0 a name is an input only, never the archetype's (docs/methodology.md §19.15.2); in
   * 2.5.0 the archetype's name counts too, and completes the GPU (§20.4.1).
   */
  private readonly namesComplete = this.context.rules.gpuName === "completes";
  readonly name = Attribute.fromCell<string>(null, this.namesComplete ? this.cells.name : undefined);
  readonly manufacturer = Attribute.fromCell<string>(
    null,
    this.namesComplete ? this.cells.manufacturer : undefined,
  );
  /** Whether the name completion (docs/methodology.md §20.4.1) has run: it runs once. */
  private nameCompleted = false;
  readonly weight = Attribute.fromCell<number>("kg", this.cells.weight);
  readonly heatsinkWeight = Attribute.fromCell<number>("kg", this.cells.heatsink_weight);
  readonly pwbSurface = Attribute.fromCell<number>("cm2", this.cells.pwb_surface);
  readonly pwbWeight = Attribute.fromCell<number>("kg", this.cells.pwb_weight);
  readonly casingWeight = Attribute.fromCell<number>("kg", this.cells.casing_weight);
  /** Never the own archetype's raw die area: only the effective area of the default row (D.7). */
  readonly gpuSurface = new Attribute<number>("mm2");
  readonly vram = Attribute.fromCell<number>("gb", this.cells.vram);
  readonly vramDies = Attribute.fromCell<number>(null, this.cells.vram_dies);
  readonly vramSurface = new Attribute<number>("mm2");
  readonly transportBoat = Attribute.fromCell<number>("km", this.cells.transport_boat);
  readonly transportTruck = Attribute.fromCell<number>("km", this.cells.transport_truck);
  readonly transportPlane = Attribute.fromCell<number>("km", this.cells.transport_plane);

  /**
   * @param cells the GPU's own archetype: a GPU table row on the component route, a server
   *   archetype's `GPU` sub-object inside a server.
   * @param defaultGpu the GPU table's default row, where missing characteristics come from.
   */
  constructor(
    context: EngineContext,
    cells: ComponentCells,
    defaultGpu: ComponentCells,
    input: GpuInput = {},
    listWorkloadUnit = "%",
  ) {
    super(context, cells);
    const named = this.byColumn();
    for (const column of FROM_DEFAULT_GPU) {
      const cell = defaultGpu[column]?.default;
      this.completeFromDefault(
        named[column],
        typeof cell === "number" ? cell : null,
        column !== "pwb_weight",
      );
    }
    const defaultDie = defaultGpu.gpu_surface?.default;
    this.completeFromDefault(
      this.gpuSurface,
      typeof defaultDie === "number" ? effectiveDieArea(defaultDie) : null,
      true,
    );
    if (this.namesComplete) {
      this.vram.completeWith(() => this.completeFromName());
      this.manufacturer.completeWith(() => this.completeFromName());
    }
    this.vramSurface.completeWith(() => this.completeVramSurface());

    this.applyCommonInput(input, listWorkloadUnit);
    if (input.name != null) this.name.setInput(input.name);
    if (input.manufacturer != null) this.manufacturer.setInput(input.manufacturer);
    // Quirk kept until 2.5.0 (Appendix D.2): an input name is stored only; nothing completes from it.
    const numeric: [number | null | undefined, Attribute<number>][] = [
      [input.weight, this.weight],
      [input.heatsinkWeight, this.heatsinkWeight],
      [input.pwbSurface, this.pwbSurface],
      [input.pwbWeight, this.pwbWeight],
      [input.casingWeight, this.casingWeight],
      // Quirk kept (Appendix D.7): an input die surface is taken as already effective.
      [input.gpuSurface, this.gpuSurface],
      [input.vram, this.vram],
      [input.vramDies, this.vramDies],
      [input.vramSurface, this.vramSurface],
      [input.transportBoat, this.transportBoat],
      [input.transportTruck, this.transportTruck],
      [input.transportPlane, this.transportPlane],
    ];
    for (const [value, attribute] of numeric) if (value != null) attribute.setInput(value);
  }

  /**
   * An attribute read while empty takes the default GPU's figure (`value`, when there is one); in
   * 2.5.0 the name completion runs first (`fromName`) and the figure is taken only if it left the
   * attribute unset.
   */
  private completeFromDefault(attribute: Attribute<number>, value: number | null, fromName: boolean): void {
    if (this.namesComplete && fromName) {
      attribute.completeWith(() => {
        this.completeFromName();
        if (value !== null && !attribute.isSet()) attribute.setArchetype(value);
      });
    } else if (value !== null) {
      attribute.completeWith(() => attribute.setArchetype(value));
    }
  }

  /**
   * docs/methodology.md §20.4.1: the first read of a characteristic matches the GPU's name (the
   * input's or the archetype's) to `gpu_specs.csv`; a row found renames the GPU ("fuzzy match") and
   * completes every characteristic not yet given nor read. Kept quirks: an input name becomes
   * COMPLETED with the row's spelling, keeping the input as its bounds; a row without a source is
   * cited as "None"; VRAM size and dies are truncated to integers; the die surface is taken as
   * already effective.
   */
  private completeFromName(): void {
    if (this.nameCompleted || !this.name.hasValue()) return;
    this.nameCompleted = true;
    const spec = this.context.lookups.gpuByName(String(this.name.value));
    if (spec === null) return;
    this.name.setCompleted(spec.name, { source: "fuzzy match" });
    const source = flatText(`Completed from name based on ${spec.source ?? "None"}.`);
    const fill = <V extends number | string>(attribute: Attribute<V>, value: V | null) => {
      if (value !== null && !attribute.isSet()) attribute.setCompleted(value, { source });
    };
    const whole = (value: number | null) => (value === null ? null : Math.trunc(value));
    fill(this.manufacturer, spec.manufacturer);
    fill(this.vram, whole(spec.vram));
    fill(this.vramDies, whole(spec.vramDies));
    fill(this.gpuSurface, spec.dieSurface);
    fill(this.pwbSurface, spec.pwbSurface);
    fill(this.transportBoat, spec.distanceBoat);
    fill(this.transportTruck, spec.distanceTruck);
    fill(this.transportPlane, spec.distancePlane);
    fill(this.casingWeight, spec.massCasing);
    fill(this.heatsinkWeight, spec.massHeatsink);
    fill(this.weight, spec.mass);
  }

  private byColumn(): Record<(typeof FROM_DEFAULT_GPU)[number], Attribute<number>> {
    return {
      weight: this.weight,
      heatsink_weight: this.heatsinkWeight,
      pwb_surface: this.pwbSurface,
      pwb_weight: this.pwbWeight,
      casing_weight: this.casingWeight,
      vram_dies: this.vramDies,
      transport_boat: this.transportBoat,
      transport_truck: this.transportTruck,
      transport_plane: this.transportPlane,
    };
  }

  /**
   * §5.2. Quirk kept (Appendix D.6): without any VRAM size nor die count the VRAM counts for
   * nothing, but a zero VRAM size still costs the area of its empty dies (6 × 0.0403 mm²).
   * A die count (given, or a server archetype's) without any VRAM size makes the reference fail
   * the whole request (HTTP 500, docs/methodology.md §19.5.3) when, and only when, a criterion's
   * embedded sum reaches this surface: the request is refused (`RequiredInputError`), while the
   * criteria whose sum stops before the GPU (no assembly or CPU factor: the generic server
   * factor) and the use phase, which never read it, are answered.
   */
  private completeVramSurface(): void {
    if (!this.vram.hasValue() && !this.vramDies.hasValue()) {
      this.vramSurface.setCompleted(0);
      return;
    }
    if (!this.vram.hasValue()) {
      throw new RequiredInputError("vram", "required with vramDies, nothing gives the GPU's VRAM size");
    }
    const value = vramSurface(this.vram.numberValue(), this.vramDies.numberValue());
    const min = vramSurface(this.vram.numberMin(), this.vramDies.numberMin());
    const max = vramSurface(this.vram.numberMax(), this.vramDies.numberMax());
    this.vramSurface.setCompleted(value, { min, max });
  }

  namedAttributes(): [string, Attribute<AttributeValue>][] {
    return [
      ["units", this.units],
      ["name", this.name],
      ["manufacturer", this.manufacturer],
      ["weight", this.weight],
      ["heatsink_weight", this.heatsinkWeight],
      ["pwb_surface", this.pwbSurface],
      ["pwb_weight", this.pwbWeight],
      ["casing_weight", this.casingWeight],
      ["gpu_surface", this.gpuSurface],
      ["vram", this.vram],
      ["vram_dies", this.vramDies],
      ["vram_surface", this.vramSurface],
      ["transport_boat", this.transportBoat],
      ["transport_truck", this.transportTruck],
      ["transport_plane", this.transportPlane],
    ];
  }

  private parts(): readonly GpuPart[] {
    return [
      ["casing", "manufacture", (at) => at(this.casingWeight)],
      ["heatsink", "manufacture", (at) => at(this.heatsinkWeight)],
      ["pwb", "manufacture", (at) => at(this.pwbSurface)],
      ["gpu", "manufacture", (at) => at(this.gpuSurface)],
      ["vram", "manufacture", (at) => at(this.vramSurface)],
      ["upstream_transport", "manufacture", (at) => at(this.weight)],
      ["transport_boat", "distribution", (at) => at(this.transportBoat) * at(this.weight)],
      ["transport_truck", "distribution", (at) => at(this.transportTruck) * at(this.weight)],
      ["transport_plane", "distribution", (at) => at(this.transportPlane) * at(this.weight)],
      ["end_of_life", "eol", (at) => at(this.weight)],
    ];
  }

  /** Σ amount × factor over the parts, with every attribute read at one bound. */
  private manufacturing(criterion: string, at: Bound): number {
    let total = 0;
    for (const [part, phase, amount] of this.parts()) {
      const factor = factorAt(this.context.data.factors, "gpu", part, phase, criterion, "impact");
      // The reference fails (HTTP 500) on a criterion the GPU factors lack (Appendix D.3); the
      // service answers "not implemented", as for any other component.
      if (typeof factor !== "number") throw new NotImplementedError(`no GPU ${part} factor for ${criterion}`);
      total += amount(at) * factor;
    }
    return total;
  }

  /** One GPU's manufacturing impact, allocated over the lifetime. */
  protected embeddedPerUnit(criterion: string, duration: number, allocation: Allocation): RawImpact {
    const value = this.manufacturing(criterion, (a) => a.numberValue());
    const min = this.manufacturing(criterion, (a) => a.numberMin());
    const max = this.manufacturing(criterion, (a) => a.numberMax());
    // §5.3: end of life is part of the GPU model, so no "End of life…" warning.
    return this.allocated({ value, min, max, warnings: [] }, duration, allocation);
  }

  /**
   * §5.3. Quirk kept (Appendix D.4): every bound is multiplied by the units' value, so the
   * units' own bounds are never read (verbose then shows `units` without min/max).
   */
  override embeddedImpact(criterion: string, duration: number, allocation: Allocation, share = 1): RawImpact {
    const perUnit = this.embeddedPerUnit(criterion, duration, allocation);
    const units = this.units.numberValue();
    return {
      value: perUnit.value * units * share,
      min: perUnit.min * units * share,
      max: perUnit.max * units * share,
      warnings: perUnit.warnings,
    };
  }

  /** §6.3: a GPU draws power only when its `avg_power` is given (no power model, D.4). */
  power(): { value: number; min: number; max: number } | null {
    const power = this.usage.avgPower;
    if (!power.hasValue()) return null;
    const units = this.units.numberValue();
    return {
      value: power.numberValue() * units,
      min: power.numberMin() * units,
      max: power.numberMax() * units,
    };
  }
}
