import type { CriterionInfo } from "./criteria.js";
import type { ProfileRouteRules } from "./profileRoute.js";
import type { ImpactRounding } from "./rounding.js";
import type { UserDeviceRules } from "./userDevices.js";

/**
 * The rules of the methodology that differ between editions, as values and strategies the engine
 * reads (never an edition name the engine would test). Each edition's values are given in one
 * place, `src/editions/<edition>.ts`; the engine receives them through its context.
 */
export interface EditionRules {
  /** The version of the reference API these rules reproduce (`/v1/utils/version`). */
  readonly version: string;
  /** The terminal and peripheral kinds (routes, listings, GraphQL kinds available). */
  readonly userDevices: UserDeviceRules;
  /** How `POST /v1/consumption_profile/cpu` reads the CPU (TDP, family). */
  readonly profileRoute: ProfileRouteRules;
  /**
   * Archetype ids (server, component, terminal, IoT rows, instance types) are matched exactly in
   * 1.2.4 (`%20dellR740%20` is not found), after trimming surrounding blanks in 2.4.1
   * (docs/methodology.md §19.11.5).
   */
  readonly trimsArchetypeIds: boolean;
  /** How an impact triple is rounded (docs/methodology.md §12.3; docs/methodology.md §19.2 caps the magnitude). */
  readonly roundImpact: ImpactRounding;
  /**
   * The criteria of a request that names none: the edition's `default_criteria` setting (gwp, adp,
   * pe unless an edition's settings say otherwise).
   */
  readonly defaultCriteria: readonly string[];
  /** The criteria computed, in the table order the verbose computation follows (§14). */
  readonly criteria: readonly CriterionInfo[];
  /**
   * Criteria with an electricity factor slot in a usage (§5.1). A criterion without one has no
   * use phase; a slot without data (2.4.1 `fw`) is not implemented either.
   */
  readonly electricityFactorSlots: ReadonlySet<string>;
  /**
   * The units of a CPU or RAM on its modelled use: `again` multiplies the use of the power of all
   * units by the units once more (1.2.4 quirk, docs/methodology.md Appendix D.1); `once` does not
   * (docs/methodology.md §19.3.1: units are applied inside each phase function).
   */
  readonly modelledUseUnits: "again" | "once";
  /**
   * CPU power bounds: `point` gives min = max = the power at the workload (docs/methodology.md §5.8);
   * `workloadRange` evaluates the power at the workload's min and max (docs/methodology.md §19.3.2).
   */
  readonly cpuPowerBounds: "point" | "workloadRange";
  /**
   * Use-time ratio bounds in the simple use formula: `crossed` (τ⁺ on the min side, docs/methodology.md
   * §5.4) or `aligned` (docs/methodology.md §19.3.4).
   */
  readonly useTimeRatioBounds: "crossed" | "aligned";
  /**
   * A request location equal to the default location: `kept` as an input (narrow bounds,
   * docs/methodology.md §5.2), or `discarded` as if absent (docs/methodology.md §19.3.5).
   */
  readonly explicitDefaultLocation: "kept" | "discarded";
  /**
   * Units of a case: applied `once` by the skeleton (docs/methodology.md §4.7), or `twice` for an input case
   * type and inside the cross-type bound (docs/methodology.md §19.3.7, a kept quirk).
   */
  readonly caseUnits: "once" | "twice";
  /**
   * Terminal and peripheral embedded impacts: the `whole` manufacturing impact whatever the
   * duration (docs/methodology.md Appendix D.9), or `allocated` over the lifetime (docs/methodology.md §19.3.6).
   */
  readonly userDeviceEmbedded: "whole" | "allocated";
  /**
   * A CPU `die_size` input: used only `withCoreUnits` to derive the die size per core (docs/methodology.md
   * Appendix D.4), or `honoured` as the die size itself (docs/methodology.md §19.4.1).
   */
  readonly dieSizeInput: "withCoreUnits" | "honoured";
  /**
   * When a family's die sizes are scaled by the rule of three: only for a `singleRow` (docs/methodology.md
   * §4.2.3), or also when all its rows share one core count (`sharedCoreCount`, docs/methodology.md §19.4.2).
   */
  readonly ruleOfThree: "singleRow" | "sharedCoreCount";
  /**
   * Several base power profiles left by the fuzzy filters: `none` is chosen (docs/methodology.md §10.2), or
   * the first whose model range equals the requested one (`exactModelRange`, docs/methodology.md §19.4.4).
   */
  readonly profileTieBreak: "none" | "exactModelRange";
  /**
   * The assembly component (a fixed impact per unit, docs/methodology.md §4.8): `served` where our
   * specification lists it among the component routes (edition 1.2.4, although boaviztapi 1.2.4
   * answered 404), `absent` where the reproduced API has no such route (boaviztapi 2.4.1).
   */
  readonly assemblyComponent: "served" | "absent";
  /** How cloud instances differ (docs/methodology.md §19.7, §12). */
  readonly cloud: CloudRules;
  /** How a RAM module's power is modelled (§5.6; docs/methodology.md §20.3.1). */
  readonly ramPower: RamPowerModel;
  /**
   * What each RAM entry of a server records as its `avg_power`: the `runningSum` up to that entry
   * (kept quirk of 1.2.4 and 2.4.1, Appendix D.2) or its `own` power (docs/methodology.md §20.3.3).
   */
  readonly serverRamPower: "runningSum" | "own";
  /**
   * The power of each SSD and HDD drive added to a server's and a cloud instance's modelled power,
   * outside the other consumption ratio (docs/methodology.md §20.3.2); null where disks draw nothing.
   */
  readonly diskPower: DiskPower | null;
  /**
   * The electricity table's key of each criterion whose key differs from its name (§5.2: `adp`
   * reads `adpe`; docs/methodology.md §20.5.2: `gwppf` reads `gwpf` from 2.5.0 on).
   */
  readonly electricityKeys: Readonly<Record<string, string>>;
  /** The unit label of each criterion's `<criterion>_factor` verbose attribute (§7.3). */
  readonly factorUnits: Readonly<Record<string, string>>;
  /**
   * A zero global bound of an electricity factor (lu, odp, pm…): `missing` makes the criterion not
   * implemented for the default location (kept quirk, Appendix D.12), `bound` uses it
   * (docs/methodology.md §20.5.3).
   */
  readonly zeroGlobalBound: "missing" | "bound";
  /**
   * A GPU's name: `stored` only (docs/methodology.md §19.15.2), or `completes` the GPU's other
   * characteristics from the closest `gpu_specs.csv` row when they are first read (§20.4.1).
   */
  readonly gpuName: "stored" | "completes";
}

/** A triple of watts: value, min, max. */
export type WattRange = readonly [value: number, min: number, max: number];

/** Per-drive power of each disk kind (docs/methodology.md §20.3.2). */
export interface DiskPower {
  readonly ssd: WattRange;
  readonly hdd: WattRange;
}

/**
 * RAM power. `perGigabyte`: a constant power per GB whatever the load (§5.6). `perModule`
 * (docs/methodology.md §20.3.1): a module draws `base + perGb × capacity` W at full load and
 * `idleRatio` of it idle, linear in between; a cloud host's RAM is counted as modules of the typical
 * size of its CPU family's memory type.
 */
export type RamPowerModel =
  | { readonly kind: "perGigabyte"; readonly wattsPerGb: number }
  | {
      readonly kind: "perModule";
      readonly baseWatts: number;
      readonly wattsPerGb: number;
      readonly idleRatio: number;
      /** GB of a typical module of each memory type (`DDR4` → 32). */
      readonly typicalModuleGb: Readonly<Record<string, number>>;
      /** The memory type of a CPU family the memory-type table does not name. */
      readonly defaultMemoryType: string;
    };

/** Cloud instance rules that differ between editions. */
export interface CloudRules {
  /**
   * Whether the verbose lists the instance's `units` (1.2.4). 2.4.1 never reads them, so its
   * verbose has no `units` (kept quirk, docs/methodology.md §19.15.19).
   */
  readonly verboseUnits: boolean;
  /**
   * An instance whose platform is not a server archetype: hosted on the default server archetype
   * (1.2.4, where the reference fails with HTTP 500), or not found (404, docs/methodology.md §19.7.2).
   */
  readonly unknownPlatform: "default-server" | "not-found";
  /**
   * Whether sharing a host's storage also reads the bounds of its disks' capacity. Only 2.4.1's
   * verbose shows them (an HDD `capacity` with min/max in cloud answers); no number depends on it.
   */
  readonly storageShareReadsCapacityBounds: boolean;
  /**
   * A host GPU's share of an instance: the instance's `vcpu` share (kept quirk of 2.4.1, Appendix
   * D.5) or its `gpuUnits` over the host's GPUs, the GPU left out of an instance without any
   * (docs/methodology.md §20.6.1).
   */
  readonly gpuShare: "vcpu" | "gpuUnits";
}
