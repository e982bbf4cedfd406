import { availability, editionsWhere } from "../editions/features.js";
import { PERIPHERAL, TERMINAL } from "../inputs/inputFields.js";
import { type DeviceFamily, ensureKind, type PreparedDevice, prepareDevice } from "../service/devices.js";
import { PERIPHERAL_KINDS, TERMINAL_KINDS, type UserDeviceKind } from "../service/engineVocabulary.js";
import type { EditionContext } from "../service/open.js";
import { archetypeConfigField } from "./archetypeConfig.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { spelled, spelledUseCase } from "./errors.js";
import { ASSET_FIELD_NULLABLE, AssetRef } from "./impact.js";
import { inputRef } from "./inputs.js";

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

export const TerminalRef = builder.objectRef<PreparedDevice>("Terminal").implement({
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

const TerminalInputRef = inputRef(TERMINAL);
const PeripheralInputRef = inputRef(PERIPHERAL);

/** The use case of src/service, its domain errors spelled as GraphQL errors. */
export const resolveDevice = spelledUseCase(prepareDevice);

const ARCHETYPE_DESCRIPTION =
  "A user_terminal.csv row id (any row is accepted, as in the reference); default: the kind's default row.";

/** The evaluations: a terminal, a peripheral. */
builder.queryFields((t) => ({
  terminal: t.field({
    type: TerminalRef,
    nullable: ASSET_FIELD_NULLABLE,
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
    nullable: ASSET_FIELD_NULLABLE,
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
}));

/** What an edition lists of them: kinds, archetypes and their rows. */
builder.queryFields((t) => ({
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
  family: DeviceFamily,
): string[] | null {
  spelled(() => ensureKind(context.engine.rules.userDevices, kind, family));
  const table = context.service.data.archetypes.userTerminal;
  const ids = table.ids.filter((id) => table.byId.get(id)?.cells.device_type?.default === kind);
  return ids.length > 0 ? ids : null;
}
