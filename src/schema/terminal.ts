import { availability, editionsWhere } from "../editions/features.js";
import {
  deviceTypes,
  isTypedKind,
  PERIPHERAL_KINDS,
  TERMINAL_KINDS,
  type UserDeviceKind,
  type UserDeviceRules,
  userDeviceModel,
} from "../engine/index.js";
import type { EditionContext } from "../service/context.js";
import { archetypeConfigField } from "./archetypeConfig.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { badUserInput, notFound } from "./errors.js";
import { type AssetParent, AssetRef } from "./impact.js";
import { UsageInputRef, validateUsage } from "./inputs.js";

/*
 * Terminals and peripherals (docs/methodology.md §9.1): one `Terminal` type for both families, evaluated
 * from a row of user_terminal.csv. The route kind picks the factors; any row may supply the usage
 * (Appendix D.22).
 */

const KIND_DESCRIPTIONS: Readonly<Record<UserDeviceKind, string>> = {
  laptop: "A laptop (types pro, perso).",
  desktop: "A desktop computer (types pro, perso).",
  smartphone: "A smartphone.",
  tablet: "A tablet.",
  television: "A television (types pro, perso).",
  box: "An internet box.",
  vr_headset: `A virtual-reality headset (types lcd, oled). ${availability("vrDevices")}`,
  monitor: "A monitor.",
  usb_stick: "A USB stick.",
  external_ssd: "An external SSD.",
  external_hdd: "An external hard disk.",
  vr_controller: `A virtual-reality controller. ${availability("vrDevices")}`,
};

/** Enum values of device kinds, each with its description. */
export function kindValues<K extends UserDeviceKind>(
  kinds: readonly K[],
): Record<K, { description: string }> {
  return Object.fromEntries(kinds.map((kind) => [kind, { description: KIND_DESCRIPTIONS[kind] }])) as Record<
    K,
    { description: string }
  >;
}

const TerminalKindEnum = builder.enumType("TerminalKind", {
  description: "End-user terminals (an edition may not have every kind).",
  values: kindValues(TERMINAL_KINDS),
});

const PeripheralKindEnum = builder.enumType("PeripheralKind", {
  description: "Peripherals (an edition may not have every kind).",
  values: kindValues(PERIPHERAL_KINDS),
});

export interface TerminalParent extends AssetParent {
  readonly kind: UserDeviceKind;
  readonly family: "terminal" | "peripheral";
  readonly archetype: string;
}

export const TerminalRef = builder.objectRef<TerminalParent>("Terminal").implement({
  interfaces: [AssetRef],
  description:
    "A terminal or peripheral: a generic manufacturing impact per device (allocated over the " +
    `duration in edition ${editionsWhere((e) => e.rules.userDeviceEmbedded === "allocated")}, not in ` +
    `${editionsWhere((e) => e.rules.userDeviceEmbedded === "whole")}) and the electricity of its average power over the duration.`,
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "The device kind (laptop, monitor…)." }),
    family: t.exposeString("family", { description: "terminal or peripheral." }),
    archetype: t.exposeString("archetype", { description: "The user_terminal.csv row used." }),
  }),
});

const TerminalInputRef = builder.inputType("TerminalInput", {
  description: "What a terminal's request may set: its type and its usage.",
  fields: (t) => ({
    type: t.string({
      required: false,
      description:
        "Use type, pro or perso: laptop, desktop and television factors depend on it; screen type, lcd or " +
        "oled, for a VR headset (default: the archetype's). Not accepted for other kinds.",
    }),
    usage: t.field({ type: UsageInputRef, required: false, description: "The device usage." }),
  }),
});

const PeripheralInputRef = builder.inputType("PeripheralInput", {
  description: "What a peripheral's request may set: its usage.",
  fields: (t) => ({
    usage: t.field({ type: UsageInputRef, required: false, description: "The device usage." }),
  }),
});

interface DeviceInputValue {
  readonly type?: string | null;
  readonly usage?: unknown;
}

/** A kind the request's edition does not have is not found (like the reference's unknown route). */
function ensureKind(rules: UserDeviceRules, kind: UserDeviceKind, family: TerminalParent["family"]): void {
  const kinds: readonly UserDeviceKind[] =
    family === "terminal" ? rules.terminalKinds : rules.peripheralKinds;
  if (!kinds.includes(kind)) throw notFound(`${kind} is not a ${family} of this edition`);
}

/** The posted type must be one the device's factors know (the reference fails with HTTP 500). */
function validateType(
  context: EditionContext,
  kind: UserDeviceKind,
  type: string | null | undefined,
  path: readonly string[],
) {
  if (type == null) return null;
  if (!isTypedKind(kind)) throw badUserInput(`type does not apply to ${kind}`, [...path, "type"]);
  const known = deviceTypes(context.service.data.factors, kind);
  if (!known.includes(type)) {
    throw badUserInput(`type must be one of ${known.join(", ")} (got ${type})`, [...path, "type"]);
  }
  return type;
}

async function loadRow(context: EditionContext, id: string) {
  const row = await context.archetypes.load({ table: context.service.data.archetypes.userTerminal, id });
  if (!row) throw notFound(`${id} not found`);
  return row;
}

/** Validates a terminal or peripheral description and prepares its (lazy) evaluation. */
export async function resolveDevice(
  context: EditionContext,
  kind: UserDeviceKind,
  family: TerminalParent["family"],
  archetypeId: string | null | undefined,
  rawInput: DeviceInputValue | null | undefined,
  path: readonly string[] = ["input"],
): Promise<TerminalParent> {
  const rules = context.engine.rules.userDevices;
  ensureKind(rules, kind, family);
  const type = validateType(context, kind, rawInput?.type, path);
  const usage = validateUsage(context.limits, rawInput?.usage ?? null, [...path, "usage"]);
  const archetype = archetypeId ?? context.service.data.config.defaultArchetypes[kind];
  const row = await loadRow(context, archetype);
  const engine = context.engine;
  return {
    kind,
    family,
    archetype,
    usageHours: usage.usageHours,
    build: () => userDeviceModel(engine, kind, row.cells, { type, usage: usage.input }),
  };
}

const ARCHETYPE_DESCRIPTION =
  "A user_terminal.csv row id (any row is accepted, as in the reference); default: the kind's default row.";

builder.queryFields((t) => ({
  terminal: t.field({
    type: TerminalRef,
    description: "Evaluate an end-user terminal (laptop, desktop, smartphone, tablet, television, box).",
    args: {
      kind: t.arg({ type: TerminalKindEnum, required: true, description: "The terminal kind." }),
      archetype: t.arg.string({ required: false, description: ARCHETYPE_DESCRIPTION }),
      input: t.arg({
        type: TerminalInputRef,
        required: false,
        description: "Type and usage of the terminal.",
      }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) =>
      resolveDevice(context.edition(args.edition), args.kind, "terminal", args.archetype, args.input),
  }),
  peripheral: t.field({
    type: TerminalRef,
    description: "Evaluate a peripheral (monitor, USB stick, external SSD or HDD).",
    args: {
      kind: t.arg({ type: PeripheralKindEnum, required: true, description: "The peripheral kind." }),
      archetype: t.arg.string({ required: false, description: ARCHETYPE_DESCRIPTION }),
      input: t.arg({ type: PeripheralInputRef, required: false, description: "Usage of the peripheral." }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) =>
      resolveDevice(context.edition(args.edition), args.kind, "peripheral", args.archetype, args.input),
  }),
  terminalKinds: t.field({
    type: [TerminalKindEnum],
    description: "The terminal kinds of the edition, in the order of the v1 `/v1/terminal/all` listing.",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, { edition }, context) => [
      ...context.edition(edition).engine.rules.userDevices.terminalKinds,
    ],
  }),
  peripheralKinds: t.field({
    type: [PeripheralKindEnum],
    description: "The peripheral kinds of the edition, in the order of the v1 `/v1/peripheral/all` listing.",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, { edition }, context) => [
      ...context.edition(edition).engine.rules.userDevices.peripheralKinds,
    ],
  }),
  terminalArchetypes: t.stringList({
    nullable: true,
    description: "Ids of the user_terminal.csv rows of this terminal kind, or null if there is none.",
    args: {
      kind: t.arg({ type: TerminalKindEnum, required: true, description: "The terminal kind." }),
      edition: editionArg(t.arg),
    },
    resolve: (_r, { kind, edition }, context) => archetypesOfKind(context.edition(edition), kind, "terminal"),
  }),
  peripheralArchetypes: t.stringList({
    nullable: true,
    description: "Ids of the user_terminal.csv rows of this peripheral kind, or null if there is none.",
    args: {
      kind: t.arg({ type: PeripheralKindEnum, required: true, description: "The peripheral kind." }),
      edition: editionArg(t.arg),
    },
    resolve: (_r, { kind, edition }, context) =>
      archetypesOfKind(context.edition(edition), kind, "peripheral"),
  }),
  terminalArchetypeConfig: archetypeConfigField(
    t,
    {
      field: "A parsed user_terminal.csv row (terminals and peripherals share the file).",
      archetype: "Row id of user_terminal.csv.",
    },
    (context) => context.service.data.archetypes.userTerminal,
  ),
}));

/** §16: rows whose `device_type` is the kind, in file order; null when none. */
function archetypesOfKind(
  context: EditionContext,
  kind: UserDeviceKind,
  family: TerminalParent["family"],
): string[] | null {
  ensureKind(context.engine.rules.userDevices, kind, family);
  const table = context.service.data.archetypes.userTerminal;
  const ids = table.ids.filter((id) => table.byId.get(id)?.cells.device_type?.default === kind);
  return ids.length > 0 ? ids : null;
}
