import type { ArchetypeCell, FactorTree } from "../../data/types.js";
import { Attribute, type AttributeValue, NotImplementedError } from "../model/attribute.js";
import { type Allocation, type EngineContext, requiredFactor } from "../model/context.js";
import type { Asset, VerboseReport } from "../model/evaluation.js";
import {
  allocate,
  constantImpact,
  GENERIC_DATA_WARNING,
  type RawImpact,
  scaleByUnits,
  simpleUse,
} from "../model/impact.js";
import type { UserDeviceInput } from "../model/inputs.js";
import { LIST_WORKLOAD_UNIT, Usage, usageCells } from "../model/usage.js";
import type { UserDeviceKind } from "../model/userDevices.js";
import { assetOf, deviceAttributes } from "./assets.js";

export type { UserDeviceInput } from "../model/inputs.js";

/**
 * Devices whose factors.yml entries are split by type: use type `pro` / `perso` (§9.1,
 * Appendix B) or the VR headset's screen `lcd` / `oled` (docs/methodology.md §19.9.2).
 */
const TYPED_KINDS: ReadonlySet<UserDeviceKind> = new Set<UserDeviceKind>([
  "laptop",
  "desktop",
  "television",
  "vr_headset",
]);

export function isTypedKind(kind: UserDeviceKind): boolean {
  return TYPED_KINDS.has(kind);
}

type Cells = Readonly<Record<string, ArchetypeCell>>;

/** The factors.yml section of a device kind (`LAPTOP`, `USB_STICK`…). */
function factorSection(kind: UserDeviceKind): string {
  return kind.toUpperCase();
}

/** A sub-tree of factors.yml, or undefined when the path is absent or ends on a leaf. */
function factorNode(tree: FactorTree, ...path: string[]): FactorTree | undefined {
  let node: FactorTree | number | string | null | undefined = tree;
  for (const key of path) {
    if (node === null || typeof node !== "object") return undefined;
    node = node[key];
  }
  return node !== null && typeof node === "object" ? node : undefined;
}

/**
 * The use types a typed device's factors know (`perso`, `pro`), so callers can reject any other
 * POSTed `type` (the reference fails with HTTP 500 on it, §9.1). Empty for untyped kinds.
 */
export function deviceTypes(factors: FactorTree, kind: UserDeviceKind): string[] {
  if (!isTypedKind(kind)) return [];
  const section = factorNode(factors, factorSection(kind)) ?? {};
  const types = new Set<string>();
  for (const criterion of Object.keys(section)) {
    for (const [key, value] of Object.entries(factorNode(section, criterion) ?? {})) {
      if (value !== null && typeof value === "object") types.add(key);
    }
  }
  return [...types].sort();
}

/**
 * A terminal or peripheral (§9.1): a generic manufacturing impact per device (allocated over the
 * duration or not, by edition) and the simple use formula of §5.4 over its usage.
 */
class UserDevice {
  readonly usage: Usage;
  /** Devices have one unit (§3.3). */
  readonly units = new Attribute<number>(null, 1, 1, 1);
  /** Use type of laptops, desktops and televisions; null for the other kinds. */
  readonly type: Attribute<string> | null;

  constructor(
    readonly context: EngineContext,
    readonly kind: UserDeviceKind,
    cells: Cells,
    input: UserDeviceInput = {},
  ) {
    this.usage = new Usage(context, usageCells(cells), false);
    this.usage.applyInput(input.usage, LIST_WORKLOAD_UNIT);
    this.type = isTypedKind(kind) ? this.typeAttribute(cells.type, input.type) : null;
  }

  /**
   * §9.1: the request always writes `type`, even when absent, so an omitted type is an INPUT
   * holding null until its first read takes the archetype's value (status ARCHETYPE).
   */
  private typeAttribute(
    cell: ArchetypeCell | undefined,
    given: string | null | undefined,
  ): Attribute<string> {
    const type = Attribute.fromCell<string>(null, cell);
    if (given != null) type.setInput(given);
    else type.status = "INPUT";
    return type;
  }

  /**
   * §9.1 embedded: the device's generic factor, indexed by the use type for typed kinds. In 1.2.4
   * it is never allocated over the duration (Appendix D.9); where the edition allocates it
   * (docs/methodology.md §19.3.6) the lifetime allocation of §6.2 applies, reading the lifetime bounds
   * only when the duration does not exceed the lifetime (they then show in verbose). The factor
   * entry is looked up before the type is read, so a criterion without an entry (adp, pe…)
   * leaves `type` unread.
   */
  embeddedImpact(criterion: string, duration: number, allocation: Allocation): RawImpact {
    const factors = this.context.data.factors;
    const entry = factorNode(factors, factorSection(this.kind), criterion);
    if (!entry) throw new NotImplementedError(`no ${this.kind} factor for ${criterion}`);
    const impact = this.type ? this.typedImpact(entry) : requiredFactor(entry, "impact");
    const whole = scaleByUnits(constantImpact(impact, [GENERIC_DATA_WARNING]), this.units);
    if (this.context.rules.userDeviceEmbedded === "whole") return whole;
    return allocate(whole, duration, this.usage.hoursLifeTime, allocation);
  }

  /**
   * Appendix D.22: any row may be used on any route, so a row's type may be unknown to this
   * device's factors (a smartphone row on the laptop route). The reference fails with HTTP 500;
   * there is no factor for that pair, which is what "not implemented" means.
   */
  private typedImpact(entry: FactorTree): number {
    const type = (this.type as Attribute<string>).value;
    if (type === null) throw new NotImplementedError(`${this.kind} has no type`);
    return requiredFactor(entry, String(type), "impact");
  }

  /** §5.4 simple use formula (τ bounds crossed) over the device usage. */
  useImpact(criterion: string, duration: number): RawImpact {
    const factor = this.usage.electricityFactor(criterion);
    if (!this.usage.avgPower.hasValue()) throw new NotImplementedError(`${this.kind} has no power`);
    return scaleByUnits(
      simpleUse(
        factor,
        this.usage.avgPower,
        this.usage.useTimeRatio,
        duration,
        this.context.rules.useTimeRatioBounds,
      ),
      this.units,
    );
  }

  /** Device attributes listed after the usage block (§9.1: `units`, then `type` when typed). */
  namedAttributes(): [string, Attribute<AttributeValue>][] {
    const named: [string, Attribute<AttributeValue>][] = [["units", this.units]];
    if (this.type) named.push(["type", this.type]);
    return named;
  }
}

/** A terminal or peripheral as an evaluated asset; verbose is the duration, usage, units and type. */
function userDeviceAsset(device: UserDevice): Asset {
  return assetOf(device, (evaluation): VerboseReport => {
    return {
      duration: evaluation.duration,
      impacts: null,
      components: [],
      attributes: deviceAttributes(device.usage, device.namedAttributes()),
    };
  });
}

/** Builds a terminal or peripheral of `kind` from a `user_terminal.csv` row (any row, D.22). */
export function userDeviceModel(
  context: EngineContext,
  kind: UserDeviceKind,
  cells: Cells,
  input: UserDeviceInput,
): Asset {
  return userDeviceAsset(new UserDevice(context, kind, cells, input));
}
