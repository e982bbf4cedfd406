import { nestedArchetype } from "../data/cells.js";
import {
  deviceTypes,
  isTypedKind,
  PERIPHERAL_KINDS,
  TERMINAL_KINDS,
  type UserDeviceKind,
  userDeviceModel,
} from "../engine/index.js";
import { builder } from "./builder.js";
import type { EditionContext } from "./context.js";
import { editionArg } from "./edition.js";
import { badUserInput, notFound } from "./errors.js";
import { type AssetParent, assetImpactFields } from "./impact.js";
import { UsageInputRef, validateUsage } from "./inputs.js";

/*
 * Terminals and peripherals (METHOD.md §9.1): one `Terminal` type for both families, evaluated
 * from a row of user_terminal.csv. The route kind picks the factors; any row may supply the usage
 * (Appendix D.22).
 */

const TerminalKindEnum = builder.enumType("TerminalKind", {
  description: "End-user terminals.",
  values: TERMINAL_KINDS,
});

const PeripheralKindEnum = builder.enumType("PeripheralKind", {
  description: "Peripherals.",
  values: PERIPHERAL_KINDS,
});

export interface TerminalParent extends AssetParent {
  readonly kind: UserDeviceKind;
  readonly family: "terminal" | "peripheral";
  readonly archetype: string;
}

export const TerminalRef = builder.objectRef<TerminalParent>("Terminal").implement({
  description:
    "A terminal or peripheral: a generic manufacturing impact per device (not allocated over the " +
    "duration) and the electricity of its average power over the duration.",
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "The device kind (laptop, monitor…)." }),
    family: t.exposeString("family", { description: "terminal or peripheral." }),
    archetype: t.exposeString("archetype", { description: "The user_terminal.csv row used." }),
    ...assetImpactFields(t),
  }),
});

const TerminalInputRef = builder.inputType("TerminalInput", {
  fields: (t) => ({
    type: t.string({
      required: false,
      description:
        "Use type, pro or perso: laptop, desktop and television factors depend on it (default: the archetype's). " +
        "Not accepted for other kinds.",
    }),
    usage: t.field({ type: UsageInputRef, required: false }),
  }),
});

const PeripheralInputRef = builder.inputType("PeripheralInput", {
  fields: (t) => ({
    usage: t.field({ type: UsageInputRef, required: false }),
  }),
});

interface DeviceInputValue {
  readonly type?: string | null;
  readonly usage?: unknown;
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
  const type = validateType(context, kind, rawInput?.type, path);
  const usage = validateUsage(rawInput?.usage ?? null, [...path, "usage"]);
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
      kind: t.arg({ type: TerminalKindEnum, required: true }),
      archetype: t.arg.string({ required: false, description: ARCHETYPE_DESCRIPTION }),
      input: t.arg({ type: TerminalInputRef, required: false }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) =>
      resolveDevice(context.edition(args.edition), args.kind, "terminal", args.archetype, args.input),
  }),
  peripheral: t.field({
    type: TerminalRef,
    description: "Evaluate a peripheral (monitor, USB stick, external SSD or HDD).",
    args: {
      kind: t.arg({ type: PeripheralKindEnum, required: true }),
      archetype: t.arg.string({ required: false, description: ARCHETYPE_DESCRIPTION }),
      input: t.arg({ type: PeripheralInputRef, required: false }),
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) =>
      resolveDevice(context.edition(args.edition), args.kind, "peripheral", args.archetype, args.input),
  }),
  terminalArchetypes: t.stringList({
    nullable: true,
    description: "Ids of the user_terminal.csv rows of this terminal kind, or null if there is none.",
    args: { kind: t.arg({ type: TerminalKindEnum, required: true }), edition: editionArg(t.arg) },
    resolve: (_r, { kind, edition }, context) => archetypesOfKind(context.edition(edition), kind),
  }),
  peripheralArchetypes: t.stringList({
    nullable: true,
    description: "Ids of the user_terminal.csv rows of this peripheral kind, or null if there is none.",
    args: { kind: t.arg({ type: PeripheralKindEnum, required: true }), edition: editionArg(t.arg) },
    resolve: (_r, { kind, edition }, context) => archetypesOfKind(context.edition(edition), kind),
  }),
  terminalArchetypeConfig: t.field({
    type: "JSON",
    description: "A parsed user_terminal.csv row (terminals and peripherals share the file).",
    args: { archetype: t.arg.string({ required: true }), edition: editionArg(t.arg) },
    resolve: async (_r, { archetype, edition }, context) =>
      nestedArchetype((await loadRow(context.edition(edition), archetype)).cells),
  }),
}));

/** §16: rows whose `device_type` is the kind, in file order; null when none. */
function archetypesOfKind(context: EditionContext, kind: UserDeviceKind): string[] | null {
  const table = context.service.data.archetypes.userTerminal;
  const ids = table.ids.filter((id) => table.byId.get(id)?.cells.device_type?.default === kind);
  return ids.length > 0 ? ids : null;
}
