import type { ArchetypeCell } from "../../data/types.js";
import type { Component } from "../components/component.js";
import { Gpu } from "../components/gpu.js";
import { Hdd, Ram, Ssd } from "../components/storage.js";
import { cloudLocation } from "../lookups/region.js";
import { Attribute, type AttributeValue } from "../model/attribute.js";
import type { Allocation, EngineContext } from "../model/context.js";
import type { CloudRules } from "../model/edition.js";
import type { Asset, AssetWith, Evaluation, VerboseAttribute, VerboseReport } from "../model/evaluation.js";
import { verboseAttributes } from "../model/evaluation.js";
import { modelledUse, type RawImpact, scaleByUnits } from "../model/impact.js";
import { Usage, type UsageInput } from "../model/usage.js";
import { componentBlocks, deviceAttributes, serverAsset } from "./assets.js";
import { Server } from "./server.js";

type Cells = Readonly<Record<string, ArchetypeCell>>;

/** The instance's part of each kind of host component (§8.2). */
export interface HostShare {
  readonly cpu: number;
  readonly ram: number;
  readonly ssd: number;
  readonly hdd: number;
}

/** A cell whose value is a number (2.4.1's `gpu_units` also holds text such as "1/8th MI25"). */
function numericCell(cell: ArchetypeCell | undefined): ArchetypeCell | undefined {
  return typeof cell?.default === "number" ? cell : undefined;
}

/** A host total to divide by; an empty host (no threads, no capacity) leaves nothing to share. */
function ratio(part: number, whole: number): number {
  return whole > 0 ? part / whole : 0;
}

/**
 * A cloud instance: a share of a hosting platform server (§8). The share of each component is
 * the instance's vCPU / memory / storage over the host's threads / RAM / disks ("since v1.2").
 */
export class CloudInstance {
  /** Devices have one unit (§3.3). */
  readonly units = new Attribute<number>(null, 1, 1, 1);
  readonly vcpu: Attribute<number>;
  readonly memory: Attribute<number>;
  readonly hddStorage: Attribute<number>;
  readonly ssdStorage: Attribute<number>;
  /** The host GPUs an instance has (2.5.0 reads it, docs/methodology.md §20.6.1). */
  readonly gpuUnits: Attribute<number>;
  readonly usage: Usage;
  /** Part of the cloud usage (§8.2): an input shown in the verbose, read by no formula. */
  readonly instancePerServer = new Attribute<number>(null);
  readonly platform: Server;
  private readonly rules: CloudRules;

  constructor(
    context: EngineContext,
    instance: Cells,
    platformArchetype: Cells,
    usage: UsageInput | null = null,
    /** The provider the client named (a defaulted provider resolves no region). */
    provider: string | null = null,
  ) {
    this.rules = context.rules.cloud;
    this.vcpu = Attribute.fromCell(null, instance.vcpu);
    this.memory = Attribute.fromCell("GB", instance.memory);
    this.hddStorage = Attribute.fromCell("GB", instance.hdd_storage);
    this.ssdStorage = Attribute.fromCell("GB", instance.ssd_storage);
    this.gpuUnits = Attribute.fromCell(null, numericCell(instance.gpu_units));
    this.usage = new Usage(context, {}, true);
    if (usage?.instancePerServer != null) this.instancePerServer.setInput(usage.instancePerServer);
    const regions = context.data.cloudRegions;
    if (regions === null) {
      this.usage.applyInput(usage, "%");
    } else {
      // docs/methodology.md §19.7.5: a data set with regions resolves the location from the region first.
      this.usage.applyInput(usage && { ...usage, usageLocation: null }, "%");
      // §7.5 runs after the default-location reset of §3.5.
      const given = usage?.usageLocation;
      const location = given != null && this.usage.isDiscardedDefaultLocation(given) ? null : given;
      const resolved = cloudLocation(regions, provider, usage?.region, location);
      // Kept quirk (Appendix D.11): without a location the warning sits on an unset attribute,
      // which the verbose does not show.
      if (resolved.warning !== null) this.usage.usageLocation.warn(resolved.warning);
      if (resolved.location !== null)
        this.usage.applyLocation(resolved.location, resolved.completed ? "COMPLETED" : "INPUT");
    }
    this.platform = new Server(context, platformArchetype, {});
    // §8.2: the instance usage reaches the host and its components, unless its power is given
    // (Appendix D.15). Its electricity factor overrides never do (Appendix D.14).
    if (this.usage.avgPower.status !== "INPUT") {
      const host = this.platform;
      host.usage.shareFrom(this.usage);
      for (const component of host.usageSharingComponents()) component.usage.shareFrom(this.usage);
    }
  }

  cpuShare(): number {
    const cpu = this.platform.cpu;
    const vcpu = this.vcpu.numberValue();
    const threads = cpu.threads.value;
    // A host CPU missing from the CPU table (e.g. "Apple M1") has no thread count: the reference
    // fails; a metal-like whole share is the honest answer.
    if (threads === null) return 1;
    // Kept quirk (docs/methodology.md §19.15.17): not capped at 1 (mac2.metal: 12 vCPU / 8 threads).
    return ratio(vcpu, threads * cpu.units.numberValue());
  }

  ramShare(): number {
    const total = this.platform.rams.reduce(
      (sum, r) => sum + r.capacity.numberValue() * r.units.numberValue(),
      0,
    );
    return ratio(this.memory.numberValue(), total);
  }

  private storageShare(kind: typeof Ssd | typeof Hdd, storage: Attribute<number>): number | null {
    if (!storage.hasValue()) return null;
    const disks = this.platform.disks.filter((d) => d instanceof kind);
    if (this.rules.storageShareReadsCapacityBounds) {
      // Reading a bound caches it (docs/methodology.md §2.2): the verbose then shows it, as 2.4.1's does.
      for (const disk of disks) {
        disk.capacity.min;
        disk.capacity.max;
      }
    }
    const total = disks.reduce((sum, d) => sum + d.capacity.numberValue() * d.units.numberValue(), 0);
    return ratio(storage.numberValue(), total);
  }

  /**
   * docs/methodology.md §20.3.2: the instance's share of the power of its host's disks of a kind —
   * none when the host has no capacity of that kind or the instance states no storage of it, whose
   * value is then never read (nor shown in the verbose).
   */
  private drawingStorageShare(kind: typeof Ssd | typeof Hdd, storage: Attribute<number>): number | null {
    const disks = this.platform.disks.filter((d) => d instanceof kind);
    const total = disks.reduce((sum, d) => sum + d.capacity.numberValue() * d.units.numberValue(), 0);
    if (!storage.hasValue() || !total) return null;
    return storage.numberValue() / total;
  }

  /** §8.3: α per component (null skips a disk whose storage share is unknown). */
  componentShare(component: Component): number | null {
    if (component instanceof Ram) return this.ramShare();
    if (component instanceof Ssd) return this.storageShare(Ssd, this.ssdStorage);
    if (component instanceof Hdd) return this.storageShare(Hdd, this.hddStorage);
    if (component instanceof Gpu && this.rules.gpuShare === "gpuUnits") return this.gpuShare(component);
    // Every other component, a platform GPU included until 2.5.0, takes the vCPU share: kept quirk
    // of 2.4.1 (Appendix D.5), whose instance `gpu_units` nothing reads.
    return this.cpuShare();
  }

  /**
   * docs/methodology.md §20.6.1: the instance's GPUs over the host's (a fraction of one for a
   * partitioned GPU); the GPU is left out of an instance without GPUs, or of a host without any.
   */
  private gpuShare(gpu: Gpu): number | null {
    const wanted = this.gpuUnits.value;
    const hosted = gpu.units.numberValue();
    if (!wanted || !hosted) return null;
    return wanted / hosted;
  }

  hostShare(): HostShare {
    return {
      cpu: this.cpuShare(),
      ram: this.ramShare(),
      ssd: this.storageShare(Ssd, this.ssdStorage) ?? 0,
      hdd: this.storageShare(Hdd, this.hddStorage) ?? 0,
    };
  }

  embeddedImpact(criterion: string, duration: number, allocation: Allocation): RawImpact {
    const impact = this.platform.embeddedImpact(criterion, duration, allocation, (c) =>
      this.componentShare(c),
    );
    return scaleByUnits(impact, this.units);
  }

  /** §8.4: the platform's factor and use ratio applied to the instance's share of the host power. */
  useImpact(criterion: string, duration: number): RawImpact {
    const host = this.platform.usage;
    const factor = host.electricityFactor(criterion);
    if (!this.usage.avgPower.isSet()) {
      // Disk shares are read only where disks draw power: reading one caches capacity bounds (§2.2).
      const disksDraw = this.platform.context.rules.diskPower !== null;
      const power = this.platform.modelPower({
        cpu: this.cpuShare(),
        ram: this.ramShare(),
        ssd: disksDraw ? this.drawingStorageShare(Ssd, this.ssdStorage) : null,
        hdd: disksDraw ? this.drawingStorageShare(Hdd, this.hddStorage) : null,
      });
      this.usage.avgPower.setCompleted(power.value, { min: power.min, max: power.max });
    }
    return scaleByUnits(modelledUse(factor, this.usage.avgPower, host.useTimeRatio, duration), this.units);
  }

  namedAttributes(): [string, Attribute<AttributeValue>][] {
    const units: [string, Attribute<AttributeValue>][] = this.rules.verboseUnits
      ? [["units", this.units]]
      : [];
    return [
      ...units,
      ["vcpu", this.vcpu],
      ["memory", this.memory],
      ["hdd_storage", this.hddStorage],
      ["ssd_storage", this.ssdStorage],
      ["gpu_units", this.gpuUnits],
    ];
  }

  /** §8.5: instance attributes and usage, overwritten by the platform's verbose where keys meet. */
  verbose(evaluation: Evaluation, requested: Parameters<Asset["verbose"]>[1]): VerboseReport {
    const platform = this.platform;
    const components = componentBlocks(
      platform.components(),
      platform.usage.hoursLifeTime,
      requested,
      evaluation.duration,
      (component, criterion) => platform.embeddedPartOf(component, criterion),
    );
    const merged = new Map<string, VerboseAttribute>();
    const add = (attributes: readonly VerboseAttribute[]) => {
      for (const attribute of attributes) merged.set(attribute.name, attribute);
    };
    add(verboseAttributes(this.namedAttributes()));
    add(
      verboseAttributes([...this.usage.namedAttributes(), ["instance_per_server", this.instancePerServer]]),
    );
    add(deviceAttributes(platform.usage, platform.namedAttributes()));
    // Appendix D.19 (2.4.1): neither the instance's nor the platform's units are part of the answer.
    if (!this.rules.verboseUnits) merged.delete("units");
    return { duration: evaluation.duration, impacts: null, components, attributes: [...merged.values()] };
  }
}

/** What a cloud instance's type reads of its model: its share of its host (§8.2) and its platform. */
export interface CloudShape {
  readonly hostShare: () => HostShare;
  /** The hosting platform server, as an asset (evaluated on its own, it is the whole server). */
  readonly platform: Asset;
}

export function cloudAsset(instance: CloudInstance): AssetWith<CloudShape> {
  return {
    rules: instance.platform.context.rules,
    lifetime: () => instance.platform.usage.hoursLifeTime.value,
    embedded: (criterion, duration, allocation) => instance.embeddedImpact(criterion, duration, allocation),
    use: (criterion, duration) => instance.useImpact(criterion, duration),
    // §8.4: the use phase reads the platform's factor (the instance location is shared with it).
    useNotices: (criterion) => instance.platform.usage.useNotices(criterion),
    verbose: (evaluation, requested) => instance.verbose(evaluation, requested),
    shape: { hostShare: () => instance.hostShare(), platform: serverAsset(instance.platform) },
  };
}
