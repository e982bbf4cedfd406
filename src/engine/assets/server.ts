import type { ArchetypeCell } from "../../data/types.js";
import { builtOncePer } from "../../support/builtOnce.js";
import type { Component, ComponentCells, PowerTriple } from "../components/component.js";
import { Cpu } from "../components/cpu.js";
import {
  ASSEMBLY_PART,
  Case,
  FixedImpactComponent,
  MOTHERBOARD_PART,
  PowerSupply,
} from "../components/enclosure.js";
import { defaultGpuCells, Gpu, type GpuInput } from "../components/gpu.js";
import { Hdd, Ram, Ssd } from "../components/storage.js";
import { Attribute, type AttributeValue, NotImplementedError } from "../model/attribute.js";
import { type Allocation, type EngineContext, factorAt } from "../model/context.js";
import {
  allocate,
  GENERIC_DATA_WARNING,
  modelledUse,
  type RawImpact,
  scaleByUnits,
  sumImpacts,
} from "../model/impact.js";
import type { DiskInput, ServerInput } from "../model/inputs.js";
import { LIST_WORKLOAD_UNIT, Usage, usageCells } from "../model/usage.js";

export type { ServerInput } from "../model/inputs.js";

/** A cloud instance's share of each kind of its host's power (§8.4); null for a disk kind it does not state. */
export interface HostPowerShares {
  readonly cpu: number;
  readonly ram: number;
  readonly ssd: number | null;
  readonly hdd: number | null;
}

type Cells = Readonly<Record<string, ArchetypeCell>>;

/**
 * A configuration entry's own usage is mapped like a component route's: a workload list gets the
 * list unit label, while the server usage keeps `%` (§5.1).
 */
const COMPONENT_LIST_UNIT = LIST_WORKLOAD_UNIT;

/**
 * §3.4: a component's archetype is the device's sub-object named after it, with the device's
 * `USAGE.*` cells injected; a device without that sub-object gives the component no archetype.
 */
function subArchetype(cells: Cells, name: string): ComponentCells {
  const byName = subArchetypesOf(cells);
  const known = byName.get(name);
  if (known) return known;
  const built = buildSubArchetype(cells, name);
  byName.set(name, built);
  return built;
}

/** A component without archetype (§3.4): one shared empty row, so its derived cells are computed once. */
const NO_ARCHETYPE: ComponentCells = Object.freeze({});

/**
 * Sub-archetypes of the (immutable, loaded-once) archetype rows, built once per row and name:
 * a pure function's results keyed by identity, so they are shared safely across requests.
 */
const subArchetypesOf = builtOncePer((_row: Cells) => new Map<string, ComponentCells>());

function buildSubArchetype(cells: Cells, name: string): ComponentCells {
  const prefix = `${name}.`;
  const out: Record<string, ArchetypeCell> = {};
  let found = false;
  for (const [key, cell] of Object.entries(cells)) {
    if (key.startsWith(prefix)) {
      out[key.slice(prefix.length)] = cell;
      found = true;
    }
  }
  if (!found) return NO_ARCHETYPE;
  for (const [key, cell] of Object.entries(cells)) if (key.startsWith("USAGE.")) out[key] = cell;
  return out;
}

function cellIsPresentAndNonZero(cell: ArchetypeCell | undefined): boolean {
  return cell?.default !== undefined && cell.default !== 0;
}

/** A server: its components, its usage and the §7 embedded / use rules. */
export class Server {
  readonly usage: Usage;
  /** Devices have one unit (§3.3). */
  readonly units = new Attribute<number>(null, 1, 1, 1);
  readonly assembly: FixedImpactComponent<"ASSEMBLY">;
  readonly cpu: Cpu;
  readonly gpu: Gpu | null;
  readonly rams: Ram[];
  readonly disks: (Ssd | Hdd)[];
  readonly powerSupply: PowerSupply;
  readonly case: Case;
  readonly motherboard: FixedImpactComponent<"MOTHERBOARD">;
  /**
   * What the embedded sum obtained from each component, per criterion (share included): the
   * verbose blocks report these (Appendix D.31), not a computation made afterwards.
   */
  private readonly embeddedParts = new Map<string, Map<Component, RawImpact>>();

  constructor(
    readonly context: EngineContext,
    readonly archetype: Cells,
    input: ServerInput = {},
  ) {
    this.usage = new Usage(context, usageCells(archetype), true);
    this.usage.applyInput(input.usage, "%");
    const configuration = input.configuration ?? {};

    this.assembly = new FixedImpactComponent(context, NO_ARCHETYPE, ASSEMBLY_PART);
    this.cpu = new Cpu(context, subArchetype(archetype, "CPU"), configuration.cpu ?? {}, COMPONENT_LIST_UNIT);
    this.gpu = this.buildGpu(configuration.gpu);
    const ramCells = subArchetype(archetype, "RAM");
    this.rams = (configuration.ram ?? [{}]).map(
      (ram) => new Ram(context, ramCells, ram, COMPONENT_LIST_UNIT),
    );
    this.disks = this.buildDisks(configuration.disk);
    this.powerSupply = new PowerSupply(
      context,
      subArchetype(archetype, "POWER_SUPPLY"),
      configuration.powerSupply ?? {},
      COMPONENT_LIST_UNIT,
    );
    const caseType = input.model?.type;
    this.case = new Case(context, subArchetype(archetype, "CASE"), {
      caseType: caseType === "rack" || caseType === "blade" ? caseType : null,
    });
    this.motherboard = new FixedImpactComponent(context, NO_ARCHETYPE, MOTHERBOARD_PART);

    // Appendix D.15: an input server power stops all usage propagation to components.
    if (this.usage.avgPower.status !== "INPUT") {
      for (const component of this.usageSharingComponents()) component.usage.shareFrom(this.usage);
    }
  }

  /** Components whose usage inherits the server's (§7.1; docs/methodology.md §19.6.1 adds the GPU). */
  usageSharingComponents(): Component[] {
    return [this.cpu, ...(this.gpu ? [this.gpu] : []), this.case, ...this.rams, ...this.disks];
  }

  /**
   * docs/methodology.md §19.6.1: a GPU from the configuration (with the server's `GPU` cells as archetype),
   * else from the archetype when its `GPU.units` is given and not 0 — in an edition with GPUs.
   */
  private buildGpu(input: GpuInput | null | undefined): Gpu | null {
    const defaultGpu = defaultGpuCells(this.context);
    if (!defaultGpu) return null;
    const cells = subArchetype(this.archetype, "GPU");
    if (input) return new Gpu(this.context, cells, defaultGpu, input, COMPONENT_LIST_UNIT);
    if (!cellIsPresentAndNonZero(this.archetype["GPU.units"])) return null;
    return new Gpu(this.context, cells, defaultGpu);
  }

  /**
   * §7.1: disks from the body (type `ssd` by default, any case; unknown types dropped), or from
   * the archetype when no body disk remains. Quirk kept (Appendix D.25): `disk: []` (or only
   * unknown types) restores the archetype disks, while `ram: []` removes RAM.
   */
  private buildDisks(disks: readonly DiskInput[] | null | undefined): (Ssd | Hdd)[] {
    const ssdCells = subArchetype(this.archetype, "SSD");
    const hddCells = subArchetype(this.archetype, "HDD");
    const built: (Ssd | Hdd)[] = [];
    for (const disk of disks ?? []) {
      const type = (disk.type ?? "ssd").toLowerCase();
      if (type === "ssd") built.push(new Ssd(this.context, ssdCells, disk, COMPONENT_LIST_UNIT));
      else if (type === "hdd") built.push(new Hdd(this.context, hddCells, disk, COMPONENT_LIST_UNIT));
    }
    if (built.length > 0) return built;
    if (cellIsPresentAndNonZero(this.archetype["SSD.units"])) built.push(new Ssd(this.context, ssdCells));
    if (cellIsPresentAndNonZero(this.archetype["HDD.units"])) built.push(new Hdd(this.context, hddCells));
    return built;
  }

  /** Components in verbose order: ASSEMBLY, CPU, GPU, RAM…, disks…, POWER_SUPPLY, CASE, MOTHERBOARD. */
  components(): Component[] {
    return [
      this.assembly,
      this.cpu,
      ...(this.gpu ? [this.gpu] : []),
      ...this.rams,
      ...this.disks,
      this.powerSupply,
      this.case,
      this.motherboard,
    ];
  }

  /**
   * §7.2: sum of the components' embedded impacts, each allocated over the *server* lifetime
   * (Appendix D.10). Any component without the criterion switches to the generic SERVER factor
   * (Appendix D.11). `share` is the cloud instance's part of each component (§8.3).
   */
  embeddedImpact(
    criterion: string,
    duration: number,
    allocation: Allocation,
    share: (component: Component) => number | null = () => 1,
  ): RawImpact {
    const parts: RawImpact[] = [];
    const obtained = new Map<Component, RawImpact>();
    this.embeddedParts.set(criterion, obtained);
    for (const component of this.components()) {
      component.usage.hoursLifeTime = this.usage.hoursLifeTime;
      const alpha = share(component);
      if (alpha === null) continue;
      try {
        const part = component.embeddedImpact(criterion, duration, allocation, alpha);
        parts.push(part);
        obtained.set(component, part);
      } catch (error) {
        if (!(error instanceof NotImplementedError)) throw error;
        return scaleByUnits(
          this.genericEmbedded(criterion, duration, allocation, share(this.cpu) ?? 1),
          this.units,
        );
      }
    }
    return scaleByUnits(sumImpacts(parts), this.units);
  }

  /**
   * The embedded impact the last sum for `criterion` obtained from `component` (its share
   * included); undefined when the sum never reached it (it stopped at a component without the
   * criterion, Appendix D.11) or it had no such impact.
   */
  embeddedPartOf(component: Component, criterion: string): RawImpact | undefined {
    return this.embeddedParts.get(criterion)?.get(component);
  }

  private genericEmbedded(
    criterion: string,
    duration: number,
    allocation: Allocation,
    share: number,
  ): RawImpact {
    const impact = factorAt(this.context.data.factors, "SERVER", criterion, "impact");
    if (impact === undefined) throw new NotImplementedError(`no generic server factor for ${criterion}`);
    // A null SERVER factor (adp) reads as 0 (§4.1).
    const value = (impact ?? 0) * share;
    return allocate(
      { value, min: value, max: value, warnings: [GENERIC_DATA_WARNING] },
      duration,
      this.usage.hoursLifeTime,
      allocation,
    );
  }

  /** §7.4: the server's electricity over the duration, with its power modelled if not given. */
  useImpact(criterion: string, duration: number): RawImpact {
    const factor = this.usage.electricityFactor(criterion);
    if (!this.usage.avgPower.isSet()) {
      const power = this.modelPower(null);
      this.usage.avgPower.setCompleted(power.value, { min: power.min, max: power.max });
    }
    return scaleByUnits(
      modelledUse(factor, this.usage.avgPower, this.usage.useTimeRatio, duration),
      this.units,
    );
  }

  /**
   * §7.4 step 2 (and §8.4 with a cloud instance's shares): CPU and RAM power for all units, plus
   * the other consumption ratio, plus the disks' power where the edition models it
   * (docs/methodology.md §20.3.2). Quirk kept (Appendix D.2) until 2.5.0: on a server each RAM
   * entry's `avg_power` holds the running sum up to that entry; in cloud each holds its own share.
   * A server asks the CPU three times (Appendix D.30), a cloud host once.
   */
  modelPower(shares: HostPowerShares | null): PowerTriple {
    const { rules } = this.context;
    const sCpu = shares?.cpu ?? 1;
    const sRam = shares?.ram ?? 1;
    const cpu = shares === null ? this.cpuPowerAsTheServerAsks() : this.cpu.modelPowerConsumption();
    const cpuPower = { value: cpu.value * sCpu, min: cpu.min * sCpu, max: cpu.max * sCpu };
    this.cpu.usage.avgPower.setCompleted(cpuPower.value, { min: cpuPower.min, max: cpuPower.max });
    const runningRamSum = shares === null && rules.serverRamPower === "runningSum";
    // docs/methodology.md §20.3.1: a cloud host's RAM counts as modules of its memory type's typical size.
    const moduleGb = shares === null ? null : this.typicalModuleGb();
    const ram = { value: 0, min: 0, max: 0 };
    for (const module of this.rams) {
      const power = module.modelPowerConsumption(moduleGb);
      const own = { value: power.value * sRam, min: power.min * sRam, max: power.max * sRam };
      ram.value += own.value;
      ram.min += own.min;
      ram.max += own.max;
      const stored = runningRamSum ? ram : own;
      module.usage.avgPower.setCompleted(stored.value, { min: stored.min, max: stored.max });
    }
    // docs/methodology.md §19.6.3: a GPU adds its given power (cloud hosts never have one, §7.6).
    const gpu = this.gpu?.power() ?? { value: 0, min: 0, max: 0 };
    const disks = this.diskPower(shares);
    const ratio = this.usage.otherConsumptionRatio as Attribute<number>;
    const value = (cpuPower.value + ram.value + gpu.value) * (1 + ratio.numberValue()) + disks.value;
    const min = (cpuPower.min + ram.min + gpu.min) * (1 + ratio.numberMin()) + disks.min;
    const max = (cpuPower.max + ram.max + gpu.max) * (1 + ratio.numberMax()) + disks.max;
    return { value, min, max };
  }

  /**
   * docs/methodology.md §20.3.2: each drive draws its kind's power, added outside the other
   * consumption ratio (which stood for them before); a cloud instance takes its storage share of
   * each kind, none of a kind whose storage it does not state.
   */
  private diskPower(shares: HostPowerShares | null): PowerTriple {
    const total = { value: 0, min: 0, max: 0 };
    const perDrive = this.context.rules.diskPower;
    if (perDrive === null) return total;
    for (const disk of this.disks) {
      const share = shares === null ? 1 : disk instanceof Ssd ? shares.ssd : shares.hdd;
      if (share === null) continue;
      const [value, min, max] = disk instanceof Ssd ? perDrive.ssd : perDrive.hdd;
      const units = disk.units.numberValue();
      total.value += value * units * share;
      total.min += min * units * share;
      total.max += max * units * share;
    }
    return total;
  }

  /**
   * docs/methodology.md §20.3.1: the size of a typical RAM module of this server's memory type,
   * found by its CPU family (exactly, else the part before a `-`: `Milan-X` is `Milan`), else the
   * model's default type.
   */
  private typicalModuleGb(): number | null {
    const model = this.context.rules.ramPower;
    if (model.kind !== "perModule") return null;
    const family = this.cpu.family.value;
    const types = this.context.data.memoryTypes;
    const type =
      (family ? (types?.get(family) ?? types?.get(family.split("-")[0])) : undefined) ??
      model.defaultMemoryType;
    return model.typicalModuleGb[type] ?? model.typicalModuleGb[model.defaultMemoryType];
  }

  /**
   * Kept quirk (docs/methodology.md Appendix D.30): the reference's server power model asks the CPU
   * for its power three times, keeping the value of the first answer, the min of the second and
   * the max of the third, and each answer chooses the CPU's profile afresh (§10.2) from what the
   * CPU knows by then. When no embedded computation has completed the CPU from its name before
   * (criteria without CPU factors; in 2.4.1 also a given die size), the first answer reads the
   * manufacturer and model range while still empty and completes them from the name only when it
   * reads the TDP: the value then comes from the profile chosen without them, min and max from the
   * model range's. Every other time the three answers agree.
   */
  private cpuPowerAsTheServerAsks(): PowerTriple {
    const value = this.cpu.modelPowerConsumption().value;
    const min = this.cpu.modelPowerConsumption().min;
    const max = this.cpu.modelPowerConsumption().max;
    return { value, min, max };
  }

  /** Server-level verbose attributes besides the usage block. */
  namedAttributes(): [string, Attribute<AttributeValue>][] {
    return [["units", this.units]];
  }
}
