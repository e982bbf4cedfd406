import type { ArchetypeCell, FactorTree } from "../../data/types.js";
import { Attribute, type AttributeValue, NotImplementedError } from "../model/attribute.js";
import { type Allocation, type EngineContext, requiredFactor } from "../model/context.js";
import type { RequestedCriterion } from "../model/criteria.js";
import {
  type Asset,
  type CriterionImpact,
  type Evaluation,
  type PhaseOutcome,
  rounded,
  type VerboseComponent,
  type VerboseReport,
  verboseAttributes,
} from "../model/evaluation.js";
import {
  allocate,
  constantImpact,
  modelledUse,
  type RawImpact,
  scaleByUnits,
  sumImpacts,
} from "../model/impact.js";
import type { FunctionalBlockInput, IotDeviceInput } from "../model/inputs.js";
import { LIST_WORKLOAD_UNIT, Usage, usageCells } from "../model/usage.js";
import { assetOf, deviceAttributes } from "./assets.js";

export type { IotDeviceInput } from "../model/inputs.js";

export const IOT_SERVICES_WARNING =
  "Connected object, not including associated digital services (use of network, datacenter, virtual machines or other terminals not included)";
export const IOT_DISTRIBUTION_WARNING = "Do not include the impact of distribution";

type Cells = Readonly<Record<string, ArchetypeCell>>;

const HSL_SUFFIX = ".hsl_level";

function iotFactors(factors: FactorTree): FactorTree {
  const node = factors.IoT;
  return node !== null && typeof node === "object" ? node : {};
}

/** Functional block names (upper case) known to factors.yml's IoT section (§9.3). */
export function functionalBlockNames(factors: FactorTree): string[] {
  return Object.keys(iotFactors(factors)).map((name) => name.toUpperCase());
}

/** A functional block of an IoT device (§9.3): a fixed manufacturing + end-of-life impact per level. */
class FunctionalBlock {
  /** Blocks have one unit, like devices (§3.3). */
  readonly units = new Attribute<number>(null, 1, 1, 1);
  readonly hslLevel: Attribute<string>;
  /** Embedded impacts the device computation obtained from this block, per criterion. */
  private readonly computed = new Map<string, RawImpact>();

  constructor(
    private readonly context: EngineContext,
    readonly name: string,
    cell: ArchetypeCell | undefined,
    private readonly lifetime: Attribute<number>,
  ) {
    this.hslLevel = Attribute.fromCell<string>("none", cell);
  }

  /**
   * §9.3: manufacture + eol of the block's level, allocated with the block's own lifetime.
   * The allocation ratio is taken before the factor lookup: a block whose level has no factors
   * still reads the lifetime bounds (they show in verbose), but never its units.
   */
  embeddedImpact(criterion: string, duration: number, allocation: Allocation): RawImpact {
    const ratio = this.allocationRatio(duration, allocation);
    const level = this.hslLevel.value;
    if (level === null) throw new NotImplementedError(`${this.name} has no level`);
    const path = ["IoT", this.name.toLowerCase(), String(level)];
    const factors = this.context.data.factors;
    const impact =
      requiredFactor(factors, ...path, "manufacture", criterion) +
      requiredFactor(factors, ...path, "eol", criterion);
    const raw = scaleByUnits(
      { value: impact * ratio.value, min: impact * ratio.min, max: impact * ratio.max, warnings: [] },
      this.units,
    );
    this.computed.set(criterion, raw);
    return raw;
  }

  /**
   * §6.2 ratio with the block's lifetime. Kept quirk (docs/methodology.md Appendix D.32): the
   * block reads the lifetime's value, then its bounds, before the ratio is capped at 1, so a
   * duration beyond the lifetime still shows the bounds in the report.
   */
  allocationRatio(duration: number, allocation: Allocation): RawImpact {
    if (allocation !== "TOTAL") {
      this.lifetime.numberValue();
      this.lifetime.max;
      this.lifetime.min;
    }
    return allocate(constantImpact(1), duration, this.lifetime, allocation);
  }

  /** What the device computation got from this block for a criterion (§9.3 verbose). */
  outcome(criterion: string): PhaseOutcome {
    const raw = this.computed.get(criterion);
    return raw ? rounded(raw, this.context.rules.roundImpact) : "not implemented";
  }

  namedAttributes(): [string, Attribute<AttributeValue>][] {
    return [
      ["units", this.units],
      ["hsl_level", this.hslLevel],
    ];
  }
}

/**
 * An IoT device (§9.2–9.3): the sum of its functional blocks' embedded impacts, and a use phase
 * only when a power is known.
 */
class IotDevice {
  /** The device usage shown in verbose and used for the use phase. */
  readonly usage: Usage;
  /** Devices have one unit (§3.3). */
  readonly units = new Attribute<number>(null, 1, 1, 1);
  readonly blocks: FunctionalBlock[];

  constructor(
    readonly context: EngineContext,
    cells: Cells,
    input: IotDeviceInput = {},
  ) {
    // The blocks keep the archetype usage's lifetime; a posted usage replaces the device's usage
    // only, so a posted lifetime changes the duration but not the blocks' allocation
    // (Appendix D.23).
    const archetypeUsage = new Usage(context, usageCells(cells), false);
    this.usage = input.usage ? new Usage(context, usageCells(cells), false) : archetypeUsage;
    this.usage.applyInput(input.usage, LIST_WORKLOAD_UNIT);
    const lifetime = archetypeUsage.hoursLifeTime;
    // A posted usage without a lifetime keeps the archetype's lifetime attribute itself, the one
    // the blocks allocate with: verbose then shows the bounds their allocation read.
    if (input.usage?.hoursLifeTime == null) this.usage.hoursLifeTime = lifetime;
    // §9.3: no posted block (none, or an empty list) leaves the archetype's blocks, as the reference
    // fills an empty block list from its archetype.
    this.blocks = input.functionalBlocks?.length
      ? input.functionalBlocks.map((block) => this.inputBlock(context, cells, block, lifetime))
      : archetypeBlocks(context, cells, lifetime);
  }

  /** A posted block: type upper-cased, level INPUT when given (§9.3). */
  private inputBlock(
    context: EngineContext,
    cells: Cells,
    input: FunctionalBlockInput,
    lifetime: Attribute<number>,
  ): FunctionalBlock {
    const name = input.type.toUpperCase();
    if (!functionalBlockNames(context.data.factors).includes(name)) {
      throw new Error(`unknown functional block type ${input.type}`);
    }
    const block = new FunctionalBlock(context, name, cells[`${name}${HSL_SUFFIX}`], lifetime);
    if (input.hslLevel != null) block.hslLevel.setInput(input.hslLevel);
    return block;
  }

  /**
   * §9.3 device embedded: the sum over blocks, with the two IoT warnings. The first block
   * without the criterion makes the device "not implemented" and the later blocks are not
   * computed (their verbose then shows "not implemented" too). No block at all gives 0.
   */
  embeddedImpact(criterion: string, duration: number, allocation: Allocation): RawImpact {
    const parts = this.blocks.map((block) => block.embeddedImpact(criterion, duration, allocation));
    const sum = sumImpacts(parts);
    return scaleByUnits({ ...sum, warnings: [IOT_SERVICES_WARNING, IOT_DISTRIBUTION_WARNING] }, this.units);
  }

  /**
   * §9.3 device use: no archetype gives a power, so use needs a posted `avg_power`; the power
   * is checked before the electricity factor is read (nothing else shows in verbose then).
   */
  useImpact(criterion: string, duration: number): RawImpact {
    if (!this.usage.avgPower.hasValue()) throw new NotImplementedError("IoT device has no power");
    const factor = this.usage.electricityFactor(criterion);
    return scaleByUnits(
      modelledUse(factor, this.usage.avgPower, this.usage.useTimeRatio, duration),
      this.units,
    );
  }
}

/** One block per `<BLOCK>.hsl_level` column with a level, in column order (§9.3). */
function archetypeBlocks(
  context: EngineContext,
  cells: Cells,
  lifetime: Attribute<number>,
): FunctionalBlock[] {
  const blocks: FunctionalBlock[] = [];
  for (const [header, cell] of Object.entries(cells)) {
    if (!header.endsWith(HSL_SUFFIX) || cell.default === undefined) continue;
    blocks.push(new FunctionalBlock(context, header.slice(0, -HSL_SUFFIX.length), cell, lifetime));
  }
  return blocks;
}

/** Verbose blocks `ACTUATORS-1`, `CASING-1`…: what the device computation got from each. */
function blockReports(
  device: IotDevice,
  requested: readonly RequestedCriterion[],
  duration: number | null,
  allocation: Allocation,
): VerboseComponent[] {
  const counters = new Map<string, number>();
  return device.blocks.map((block) => {
    const n = (counters.get(block.name) ?? 0) + 1;
    counters.set(block.name, n);
    // Kept quirk (docs/methodology.md Appendix D.32): the report tries the blocks also for the
    // criteria the device never computes (`CTUh_c`, `CTUh_nc`); that attempt fails at the factor
    // lookup, after the allocation has read the lifetime's bounds.
    if (duration !== null && requested.some((criterion) => !criterion.computed)) {
      block.allocationRatio(duration, allocation);
    }
    const impacts: CriterionImpact[] = requested.map((criterion) => ({
      criterion,
      embedded: criterion.computed ? block.outcome(criterion.info.name) : "not implemented",
      use: "not implemented",
    }));
    return {
      key: `${block.name}-${n}`,
      impacts,
      attributes: verboseAttributes(block.namedAttributes()),
      duration,
    };
  });
}

function iotDeviceAsset(device: IotDevice): Asset {
  return assetOf(device, (evaluation: Evaluation, requested): VerboseReport => {
    return {
      duration: evaluation.duration,
      impacts: null,
      components: blockReports(device, requested, evaluation.duration, evaluation.allocation),
      attributes: deviceAttributes(device.usage, [["units", device.units]]),
    };
  });
}

/** Builds an IoT device from an `iot_device.csv` row; posted block types must be known. */
export function iotDeviceModel(context: EngineContext, cells: Cells, input: IotDeviceInput): Asset {
  return iotDeviceAsset(new IotDevice(context, cells, input));
}
