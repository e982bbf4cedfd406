import type { Archetype } from "../data/types.js";
import {
  deviceTypes,
  functionalBlockNames,
  type IotDeviceInput,
  iotDeviceModel,
  isTypedKind,
  type UserDeviceKind,
  type UserDeviceRules,
  userDeviceModel,
} from "../engine/index.js";
import { FUNCTIONAL_BLOCK } from "../inputs/inputFields.js";
import { elsewhere, loadArchetype } from "./archetypes.js";
import type { PreparedAsset } from "./asset.js";
import { DomainError } from "./errors.js";
import { checkedListLength, checkedUsage, checkedValue, engineInput } from "./inputs.js";
import type { EditionContext } from "./open.js";

/*
 * Terminals, peripherals and IoT devices (docs/methodology.md §9): a row of their archetype table
 * and what the request gives of their type, blocks and usage.
 */

export type DeviceFamily = "terminal" | "peripheral";

export interface PreparedDevice extends PreparedAsset {
  readonly kind: UserDeviceKind;
  readonly family: DeviceFamily;
  readonly archetype: string;
}

export interface PreparedIotDevice extends PreparedAsset {
  readonly archetype: string;
}

/** What a terminal's or peripheral's request gives (GraphQL names), unchecked. */
interface DeviceRequest {
  readonly type?: string | null;
  readonly usage?: unknown;
}

/** What an IoT device's request gives (GraphQL names), unchecked. */
interface IotDeviceRequest {
  readonly functionalBlocks?: readonly unknown[] | null;
  readonly usage?: unknown;
}

/** A kind the request's edition does not have is not found (like the reference's unknown route). */
export function ensureKind(
  rules: UserDeviceRules,
  kind: UserDeviceKind,
  family: DeviceFamily,
  /** Where else the kind exists (` (exists in edition 2.4.1)`), asked only when it is missing. */
  where: () => string = () => "",
): void {
  if (!kindsOf(rules, family).includes(kind)) {
    throw new DomainError("NOT_FOUND", `${kind} is not a ${family} of this edition${where()}`);
  }
}

function kindsOf(rules: UserDeviceRules, family: DeviceFamily): readonly UserDeviceKind[] {
  return family === "terminal" ? rules.terminalKinds : rules.peripheralKinds;
}

/** The posted type must be one the device's factors know (the reference fails with HTTP 500). */
function checkedType(
  context: EditionContext,
  kind: UserDeviceKind,
  type: string | null | undefined,
  path: readonly string[],
): string | null {
  if (type == null) return null;
  if (!isTypedKind(kind)) {
    throw new DomainError("BAD_USER_INPUT", `type does not apply to ${kind}`, [...path, "type"]);
  }
  const known = deviceTypes(context.service.data.factors, kind);
  if (!known.includes(type)) {
    throw new DomainError("BAD_USER_INPUT", `type must be one of ${known.join(", ")} (got ${type})`, [
      ...path,
      "type",
    ]);
  }
  return type;
}

/** A user_terminal.csv row (terminals and peripherals share the file), or NOT_FOUND. */
function loadDeviceRow(context: EditionContext, id: string): Promise<Archetype> {
  return loadArchetype(context, context.service.data.archetypes.userTerminal, id);
}

/** An iot_device.csv row, or NOT_FOUND. */
function loadIotRow(context: EditionContext, id: string): Promise<Archetype> {
  return loadArchetype(context, context.service.data.archetypes.iotDevice, id);
}

/** Checks a terminal or peripheral description and prepares its (lazy) evaluation. */
export async function prepareDevice(
  context: EditionContext,
  kind: UserDeviceKind,
  family: DeviceFamily,
  archetypeId: string | null | undefined,
  request: DeviceRequest | null | undefined,
  path: readonly string[] = ["input"],
): Promise<PreparedDevice> {
  ensureKind(context.engine.rules.userDevices, kind, family, () =>
    elsewhere(context, (served) => kindsOf(served.rules.userDevices, family).includes(kind)),
  );
  const type = checkedType(context, kind, request?.type, path);
  const usage = checkedUsage(context.limits, request?.usage ?? null, [...path, "usage"]);
  const archetype = archetypeId ?? context.service.data.config.defaultArchetypes[kind];
  const row = await loadDeviceRow(context, archetype);
  const engine = context.engine;
  return {
    kind,
    family,
    archetype,
    usageHours: usage.usageHours,
    build: () => userDeviceModel(engine, kind, row.cells, { type, usage: usage.input }),
  };
}

/**
 * Unknown block types are refused (the reference fails with HTTP 500): the list's length first,
 * then each block in turn, its texts and then its type.
 */
function checkedBlocks(
  context: EditionContext,
  blocks: readonly unknown[] | null | undefined,
): IotDeviceInput["functionalBlocks"] {
  if (!blocks) return null;
  const { limits } = context;
  const path = ["input", "functionalBlocks"];
  checkedListLength(limits, blocks, path);
  const known = functionalBlockNames(context.service.data.factors);
  return blocks.map((block, index) => {
    const checked = checkedValue(limits, FUNCTIONAL_BLOCK, block, [...path, index]);
    if (!known.includes(checked.type.toUpperCase())) {
      throw new DomainError(
        "BAD_USER_INPUT",
        `unknown functional block type ${checked.type} (known: ${known.map((n) => n.toLowerCase()).join(", ")})`,
        [...path, index, "type"],
      );
    }
    return engineInput(FUNCTIONAL_BLOCK, checked);
  });
}

/** Checks an IoT device description and prepares its (lazy) evaluation. */
export async function prepareIotDevice(
  context: EditionContext,
  archetypeId: string | null | undefined,
  request: IotDeviceRequest | null | undefined,
): Promise<PreparedIotDevice> {
  const functionalBlocks = checkedBlocks(context, request?.functionalBlocks);
  // No usage posted keeps the archetype's usage object (§9.3, Appendix D.23).
  const usage =
    request?.usage == null ? null : checkedUsage(context.limits, request.usage, ["input", "usage"]);
  const archetype = archetypeId ?? context.service.data.config.defaultArchetypes.iot_device;
  const row = await loadIotRow(context, archetype);
  const engine = context.engine;
  return {
    archetype,
    usageHours: usage?.usageHours ?? null,
    build: () => iotDeviceModel(engine, row.cells, { functionalBlocks, usage: usage?.input ?? null }),
  };
}
