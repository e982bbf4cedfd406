import type { ArchetypeCell } from "../../data/types.js";
import { Attribute, type AttributeValue, NotImplementedError } from "../model/attribute.js";
import { type Allocation, type EngineContext, requiredFactor } from "../model/context.js";
import { flatText } from "../model/flatText.js";
import { END_OF_LIFE_WARNING, type RawImpact } from "../model/impact.js";
import type { HddInput, RamInput, SsdInput } from "../model/inputs.js";
import { roundSigFig } from "../model/rounding.js";
import type { TimeWorkload } from "../model/usage.js";
import { Component, type ComponentCells, PoweredComponent, type PowerTriple } from "./component.js";
import { averageOverWorkload, powerOverWorkloadRange } from "./cpu.js";

/** What a RAM or SSD request may say of its memory die (§4.3, §4.4). */
type MemoryDieInput = Pick<RamInput & SsdInput, "units" | "usage" | "capacity" | "density" | "manufacturer">;

interface DensityRow {
  readonly manufacturer: string;
  readonly density: number;
}

/** Python's repr of a float (`32.0`), as the reference prints archetype numbers in sources. */
function pythonFloat(value: number): string {
  return Number.isInteger(value) ? `${value}.0` : String(value);
}

/**
 * §4.3 / §4.4 density completion shared by RAM and SSD: narrow the manufacture table by the
 * (fuzzy-corrected) manufacturer and the process / layers, then take the single row, or the
 * average with min/max of what remains.
 */
function completeDensity<R extends DensityRow>(
  density: Attribute<number>,
  manufacturer: Attribute<string>,
  table: readonly R[],
  correctManufacturer: (m: string) => string | null,
  filter: ((row: R) => boolean) | null,
  singleRowSource: (row: R) => string,
): void {
  let rows = table;
  const given = manufacturer.value;
  if (given !== null) {
    const match = correctManufacturer(given);
    if (match !== null) {
      rows = rows.filter((row) => row.manufacturer === match);
      if (match !== given) manufacturer.setChanged(match);
    }
  }
  if (filter) rows = rows.filter(filter);
  if (rows.length === 1) {
    const [row] = rows;
    density.setCompleted(row.density, { min: row.density, max: row.density, source: singleRowSource(row) });
    return;
  }
  if ((rows.length === 0 || rows.length === table.length) && density.defaultValue !== null) return;
  // The reference divides by zero rows here (HTTP 500); the whole table is the honest fallback.
  if (rows.length === 0) rows = table;
  const values = rows.map((row) => row.density);
  const average = values.reduce((sum, v) => sum + v, 0) / values.length;
  density.setCompleted(average, {
    min: Math.min(...values),
    max: Math.max(...values),
    source: flatText(`Average of ${values.length} rows`),
  });
}

/** The attributes RAM and SSD share: a memory die of `capacity` GB at `density` GB/cm² (§4.3, §4.4). */
interface MemoryDie {
  readonly manufacturer: Attribute<string>;
  readonly capacity: Attribute<number>;
  readonly density: Attribute<number>;
}

/**
 * Where a die's density comes from when it is not given: its kind's manufacture table, narrowed by
 * the manufacturer and by one more column of the component (RAM's process, SSD's layers).
 */
interface DensitySource<R extends DensityRow> {
  readonly table: readonly R[];
  readonly correctManufacturer: (m: string) => string | null;
  readonly narrowedBy: Attribute<number>;
  readonly column: (row: R) => number | null;
  readonly singleRowSource: (row: R) => string;
}

/** RAM and SSD alike: the die's density completes from its source (completeDensity), and its inputs are set. */
function setUpMemoryDie<R extends DensityRow>(
  die: MemoryDie,
  source: DensitySource<R>,
  input: MemoryDieInput,
): void {
  die.density.completeWith(() => {
    const wanted = source.narrowedBy.value;
    completeDensity(
      die.density,
      die.manufacturer,
      source.table,
      source.correctManufacturer,
      wanted === null ? null : (row) => source.column(row) === wanted,
      source.singleRowSource,
    );
  });
  if (input.capacity != null) die.capacity.setInput(input.capacity);
  if (input.density != null) die.density.setInput(input.density);
  if (input.manufacturer != null) die.manufacturer.setInput(input.manufacturer);
}

/** Embedded impact of a memory die (§4.3): capacity / density cm² of die, bounds crossed. */
function dieEmbedded(
  context: EngineContext,
  item: "ram" | "ssd",
  criterion: string,
  capacity: Attribute<number>,
  density: Attribute<number>,
): RawImpact {
  const dieImpact = requiredFactor(context.data.factors, item, criterion, "die_impact");
  const fixed = requiredFactor(context.data.factors, item, criterion, "impact");
  const value = (capacity.numberValue() / density.numberValue()) * dieImpact + fixed;
  const min = (capacity.numberMin() / density.numberMax()) * dieImpact + fixed;
  const max = (capacity.numberMax() / density.numberMin()) * dieImpact + fixed;
  return { value, min, max, warnings: [END_OF_LIFE_WARNING] };
}

export class Ram extends PoweredComponent {
  readonly kind = "RAM";
  readonly manufacturer = Attribute.fromCell<string>(null, this.cells.manufacturer);
  readonly capacity = Attribute.fromCell<number>("GB", this.cells.capacity);
  readonly density = Attribute.fromCell<number>("GB/cm2", this.cells.density);
  readonly process = Attribute.fromCell<number>(null, this.cells.process);

  constructor(context: EngineContext, cells: ComponentCells, input: RamInput = {}, listWorkloadUnit = "%") {
    super(context, cells);
    this.applyCommonInput(input, listWorkloadUnit);
    setUpMemoryDie(
      this,
      {
        table: context.data.ramManufacture,
        correctManufacturer: context.lookups.ramManufacturer,
        narrowedBy: this.process,
        column: (row) => row.process,
        singleRowSource: (row) => row.manufacturer,
      },
      input,
    );
    if (input.process != null) this.process.setInput(input.process);
  }

  namedAttributes(): [string, Attribute<AttributeValue>][] {
    return [
      ["units", this.units],
      ["process", this.process],
      ["manufacturer", this.manufacturer],
      ["capacity", this.capacity],
      ["density", this.density],
    ];
  }

  protected embeddedPerUnit(criterion: string, duration: number, allocation: Allocation): RawImpact {
    return this.allocated(
      dieEmbedded(this.context, "ram", criterion, this.capacity, this.density),
      duration,
      allocation,
    );
  }

  /** The capacity as the reference prints it in a source: `32` for an input, `32.0` for an archetype value. */
  private shownCapacity(capacity: number): string {
    return this.capacity.status === "INPUT" ? String(capacity) : pythonFloat(capacity);
  }

  /** §5.6: 0.284 W/GB per module whatever the load; time shares of a workload list still apply. */
  protected perUnitPower(workload: TimeWorkload): number {
    const model = this.context.rules.ramPower;
    if (model.kind !== "perGigabyte")
      throw new Error("a per-module RAM power is modelled by modelPowerConsumption");
    const capacity = this.capacity.numberValue();
    const perModule = model.wattsPerGb * capacity;
    const params = new Attribute<AttributeValue>(null);
    params.setCompleted(
      { a: perModule },
      {
        source: flatText(
          `(ram_electrical_factor_per_go : ${model.wattsPerGb}) * (ram_capacity: ${this.shownCapacity(capacity)}) `,
        ),
      },
    );
    this.usage.params = params;
    return averageOverWorkload(workload, () => perModule);
  }

  /**
   * The power of all units (§5.5 step 3). With a per-module model (docs/methodology.md §20.3.1) the
   * RAM counts as modules of `moduleGb` (a cloud host's typical module; by default its own
   * capacity): each draws `base + perGb × moduleGb` W at full load and `idleRatio` of it idle,
   * linear in the load; the value, min and max follow the workload's value, min and max, are each
   * rounded to 5 figures and multiplied by the units and the number of modules. A module of 0 GB
   * counts as no module (the reference's `if dimm_capacity`).
   */
  override modelPowerConsumption(moduleGb: number | null = null): PowerTriple {
    const model = this.context.rules.ramPower;
    if (model.kind === "perGigabyte") return super.modelPowerConsumption();
    const workload = this.usage.timeWorkload.value;
    if (workload === null) throw new NotImplementedError("no time workload");
    const capacity = this.capacity.numberValue();
    const module = moduleGb ?? capacity;
    const modules = module ? capacity / module : 0;
    const full = model.baseWatts + model.wattsPerGb * module;
    const idle = model.idleRatio;
    const shown = moduleGb === null ? this.shownCapacity(capacity) : String(moduleGb);
    const params = new Attribute<AttributeValue>(null);
    params.setCompleted(
      { a: full, idle_ratio: idle },
      {
        source: flatText(
          `((dimm_base_power: ${pythonFloat(model.baseWatts)}) + (dimm_power_per_gb: ${model.wattsPerGb}) * ` +
            `(ram_capacity: ${shown})) * ((idle_ratio: ${idle}) + (1 - idle_ratio) * workload / 100)`,
        ),
      },
    );
    this.usage.params = params;
    const { value, min, max } = powerOverWorkloadRange(
      this.usage,
      workload,
      (load) => full * (idle + ((1 - idle) * load) / 100),
    );
    return {
      value: roundSigFig(value, 5) * this.units.numberValue() * modules,
      min: roundSigFig(min, 5) * this.units.numberMin() * modules,
      max: roundSigFig(max, 5) * this.units.numberMax() * modules,
    };
  }
}

export class Ssd extends Component {
  readonly kind = "SSD";
  readonly manufacturer = Attribute.fromCell<string>(null, this.cells.manufacturer);
  readonly capacity = Attribute.fromCell<number>("GB", this.cells.capacity);
  readonly density = Attribute.fromCell<number>("GB/cm2", this.cells.density);
  readonly layers = Attribute.fromCell<number>(null, this.cells.layers);

  constructor(context: EngineContext, cells: ComponentCells, input: SsdInput = {}, listWorkloadUnit = "%") {
    super(context, cells);
    this.applyCommonInput(input, listWorkloadUnit);
    setUpMemoryDie(
      this,
      {
        table: context.data.ssdManufacture,
        correctManufacturer: context.lookups.ssdManufacturer,
        narrowedBy: this.layers,
        column: (row) => row.layers,
        singleRowSource: (row) => row.source ?? row.manufacturer,
      },
      input,
    );
    if (input.layers != null) this.layers.setInput(input.layers);
  }

  namedAttributes(): [string, Attribute<AttributeValue>][] {
    return [
      ["units", this.units],
      ["manufacturer", this.manufacturer],
      ["capacity", this.capacity],
      ["density", this.density],
      ["layers", this.layers],
    ];
  }

  protected embeddedPerUnit(criterion: string, duration: number, allocation: Allocation): RawImpact {
    return this.allocated(
      dieEmbedded(this.context, "ssd", criterion, this.capacity, this.density),
      duration,
      allocation,
    );
  }
}

export class Hdd extends Component {
  readonly kind = "HDD";
  /**
   * Quirk kept (docs/methodology.md §4.5): the reference builds the HDD capacity with min = max = its
   * archetype default, whatever bounds the cell gives; cloud verbose shows them once the storage
   * share has read it (§8.5).
   */
  readonly capacity = new Attribute<number>(
    "GB",
    asDefault(this.cells.capacity),
    asDefault(this.cells.capacity),
    asDefault(this.cells.capacity),
  );

  constructor(context: EngineContext, cells: ComponentCells, input: HddInput = {}, listWorkloadUnit = "%") {
    super(context, cells);
    this.applyCommonInput(input, listWorkloadUnit);
    if (input.capacity != null) this.capacity.setInput(input.capacity);
  }

  namedAttributes(): [string, Attribute<AttributeValue>][] {
    return [
      ["units", this.units],
      ["capacity", this.capacity],
    ];
  }

  protected embeddedPerUnit(criterion: string, duration: number, allocation: Allocation): RawImpact {
    const impact = requiredFactor(this.context.data.factors, "hdd", criterion, "impact");
    return this.allocated(this.withEndOfLife(impact), duration, allocation);
  }
}

function asDefault(cell: ArchetypeCell | undefined): number | null {
  return typeof cell?.default === "number" ? cell.default : null;
}
