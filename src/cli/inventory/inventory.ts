import { REGION_COUNTRIES } from "../../billing/registry/regions.js";
import { utcMilliseconds } from "../../grid/times.js";
import { PERIPHERAL_KINDS, TERMINAL_KINDS } from "../../service/engineVocabulary.js";
import { type DecimalMark, decimalPointText, REASONABLE_TEXT, readNumber } from "../../support/numbers.js";

/*
 * An inventory row (CSV, one asset per row) as a batch line: the single route that evaluates it
 * and the route's body. The columns are described once, in INVENTORY_COLUMNS: where each one goes
 * in the v1 request of each kind that reads it; the row's conversion and the documentation's
 * column table (`columnTable`, written by `npm run docs`) are both derived from it. An empty cell
 * is absent; a column no kind reads (a `team`, a `site`) is the user's own: kept in the output,
 * never sent.
 *
 * Only the row's layout is checked here (a known kind, numbers where numbers go); the values
 * themselves are the route's to judge, so a row answers what its route answers.
 */

export type InventoryRow = Readonly<Record<string, string | undefined>>;

/** The row's batch line (JSON text), or what is wrong with the row. */
type RowLine = { readonly line: string } | { readonly problem: string };

/** The families of asset kinds: each has its route and its body's layout. */
type Family = "cloud" | "server" | "terminal" | "peripheral" | "iot" | "component" | "generative_ai";

/** Components an inventory may list on their own (those an analyst counts: spare parts, upgrades). */
const COMPONENT_KINDS = ["cpu", "ram", "ssd", "hdd"] as const;
type ComponentKind = (typeof COMPONENT_KINDS)[number];

/** Every `kind` a row may give, with its family (the terminal and peripheral kinds of any edition). */
export const INVENTORY_KINDS: ReadonlyMap<string, Family> = new Map<string, Family>([
  ["cloud", "cloud"],
  ["server", "server"],
  ...TERMINAL_KINDS.map((kind) => [kind, "terminal"] as const),
  ...PERIPHERAL_KINDS.map((kind) => [kind, "peripheral"] as const),
  ["iot_device", "iot"],
  ...COMPONENT_KINDS.map((kind) => [kind, "component"] as const),
  // Requests to a generative-AI model (docs/methodology.md, "Generative AI"): quantity is the requests.
  ["generative_ai", "generative_ai"],
]);

/** Terminal kinds whose factors depend on a posted `type` (use type or screen type). */
const TYPED_KINDS = ["laptop", "desktop", "television", "vr_headset"] as const;

/** Who reads a column: a family, or one kind. */
type Reader = Family | ComponentKind | (typeof TYPED_KINDS)[number];

/**
 * Where a column's value goes: a body path (`usage.hours_use_time`; `name[ssd]` is the entry of
 * the list `name` whose `type` is ssd, `name[0]` its first entry), `?name` a query parameter,
 * `quantity` the batch line's quantity.
 */
type Target = string;

interface InventoryColumn {
  readonly column: string;
  /** `time`: an ISO 8601 date or time (UTC unless an offset is given). */
  readonly type: "text" | "number" | "time";
  /** The unit of a number ("" for a count or a text). */
  readonly unit: string;
  readonly description: string;
  /** Where it goes, for each reader. */
  readonly targets: readonly (readonly [Reader, Target])[];
  /** What reads a column sent to no route (the documentation's "v1 field it fills"). */
  readonly readInstead?: string;
}

/** The families of hardware (a generative-AI request has neither lifetime, load nor place of use). */
const EVERY_FAMILY: readonly Family[] = ["cloud", "server", "terminal", "peripheral", "iot", "component"];
const everyFamily = (target: Target) => EVERY_FAMILY.map((family) => [family, target] as const);

/** A component column: in the server's configuration and on the component's own row. */
function componentColumn(
  component: ComponentKind,
  field: string,
  serverPath: string,
  unit: string,
  description: string,
): InventoryColumn {
  return {
    column: `${component}_${field}`,
    type: field === "name" ? "text" : "number",
    unit,
    description,
    targets: [
      ["server", `configuration.${serverPath}.${field}`],
      [component, field],
    ],
  };
}

export const INVENTORY_COLUMNS: readonly InventoryColumn[] = [
  {
    column: "kind",
    type: "text",
    unit: "",
    description: `What the asset is: ${[...INVENTORY_KINDS.keys()].join(", ")} (vr_headset and vr_controller: not in every edition)`,
    targets: [],
    readInstead:
      "the route: `/v1/cloud/instance`, `/v1/server/`, `/v1/terminal/<kind>`, `/v1/peripheral/<kind>`, `/v1/iot/iot_device`, `/v1/component/<kind>`, `/v1/generative_ai`",
  },
  {
    column: "quantity",
    type: "number",
    unit: "",
    description:
      "How many such assets the row stands for (default 1): its impacts count that many times (generative_ai: that many requests)",
    targets: [...everyFamily("quantity"), ["generative_ai", "quantity"]],
  },
  {
    column: "provider",
    type: "text",
    unit: "",
    description:
      "Cloud provider: aws, azure, gcp, scaleway… (required); generative_ai: the model's provider, anthropic, mistralai, openai… (required)",
    targets: [
      ["cloud", "provider"],
      ["generative_ai", "provider"],
    ],
  },
  {
    column: "model",
    type: "text",
    unit: "",
    description: "generative_ai: the model, as its provider's API names it, e.g. gpt-4o-mini (required)",
    targets: [["generative_ai", "model"]],
  },
  {
    column: "output_tokens",
    type: "number",
    unit: "tokens",
    description: "generative_ai: tokens generated by one request (required; input tokens are not part of it)",
    targets: [["generative_ai", "output_tokens"]],
  },
  {
    column: "request_latency",
    type: "number",
    unit: "s",
    description:
      "generative_ai: seconds one request took, when measured (the generation is counted no longer)",
    targets: [["generative_ai", "request_latency"]],
  },
  {
    column: "zone",
    type: "text",
    unit: "",
    description:
      "generative_ai: the electricity's zone, ISO 3166-1 alpha-3 (FRA, USA…) or WOR; default: the provider's data centres'",
    targets: [["generative_ai", "zone"]],
  },
  {
    column: "instance_type",
    type: "text",
    unit: "",
    description: "Instance type of the provider, e.g. m5.xlarge (required)",
    targets: [["cloud", "instance_type"]],
  },
  {
    column: "region",
    type: "text",
    unit: "",
    description:
      "The provider's region (sets the location), e.g. eu-west-3; one the edition lacks: its country's (a warning says so)",
    targets: [["cloud", "usage.region"]],
  },
  {
    column: "archetype",
    type: "text",
    unit: "",
    description: "Archetype id (the kind's `…/archetypes` route lists them); default: the kind's default",
    targets: [
      ["server", "?archetype"],
      ["terminal", "?archetype"],
      ["peripheral", "?archetype"],
      ["iot", "?archetype"],
      ["component", "?archetype"],
    ],
  },
  {
    column: "type",
    type: "text",
    unit: "",
    description: "pro or perso (laptop, desktop, television); lcd or oled (vr_headset)",
    targets: TYPED_KINDS.map((kind) => [kind, "type"] as const),
  },
  {
    column: "usage_location",
    type: "text",
    unit: "",
    description:
      "Country or region code of the electricity mix (FRA, DEU, EEE…; /v1/utils/country_code); default EEE",
    targets: everyFamily("usage.usage_location"),
  },
  {
    column: "hours",
    type: "number",
    unit: "h",
    description: "Hours of use evaluated (8760 for a year); default: the whole lifetime",
    targets: everyFamily("usage.hours_use_time"),
  },
  {
    column: "hours_life_time",
    type: "number",
    unit: "h",
    description: "Lifetime; default: the archetype's",
    targets: everyFamily("usage.hours_life_time"),
  },
  {
    column: "use_time_ratio",
    type: "number",
    unit: "",
    description: "Share of the time the asset is on, 0–1; default: the archetype's",
    targets: everyFamily("usage.use_time_ratio"),
  },
  {
    column: "time_workload",
    type: "number",
    unit: "%",
    description: "Average load, 0–100; default: the archetype's",
    targets: [
      ["cloud", "usage.time_workload"],
      ["server", "usage.time_workload"],
      ["component", "usage.time_workload"],
    ],
  },
  {
    column: "avg_power",
    type: "number",
    unit: "W",
    description: "Measured average power (replaces the power model)",
    targets: everyFamily("usage.avg_power"),
  },
  {
    column: "period_start",
    type: "time",
    unit: "",
    description:
      "When the row's use began: an ISO 8601 date or time, UTC unless an offset is given (2024-01-01T13:00Z); with period_end. Its energy is spread uniformly over the period; hours defaults to the period's length",
    targets: [],
    readInstead: "with `--grid-intensity`: the series' intervals the period spans",
  },
  {
    column: "period_end",
    type: "time",
    unit: "",
    description: "When the row's use ended (excluded), after period_start",
    targets: [],
    readInstead: "with `--grid-intensity`: the series' intervals the period spans",
  },
  componentColumn("cpu", "name", "cpu", "", "CPU model, matched approximately, e.g. Intel Xeon Gold 6134"),
  componentColumn("cpu", "units", "cpu", "", "Number of CPUs"),
  componentColumn("cpu", "core_units", "cpu", "", "Cores per CPU"),
  componentColumn("ram", "units", "ram[0]", "", "Number of RAM modules"),
  componentColumn("ram", "capacity", "ram[0]", "GB", "Capacity of one module"),
  componentColumn("ssd", "units", "disk[ssd]", "", "Number of SSDs"),
  componentColumn("ssd", "capacity", "disk[ssd]", "GB", "Capacity of one SSD"),
  componentColumn("hdd", "units", "disk[hdd]", "", "Number of HDDs"),
  componentColumn("hdd", "capacity", "disk[hdd]", "GB", "Capacity of one HDD"),
];

/** The single route of each family (a kind's route is its family's with the kind). */
function routeOf(family: Family, kind: string): string {
  switch (family) {
    case "cloud":
      return "/v1/cloud/instance";
    case "server":
      return "/v1/server/";
    case "iot":
      return "/v1/iot/iot_device";
    case "generative_ai":
      return "/v1/generative_ai";
    default:
      return `/v1/${family}/${kind}`;
  }
}

class RowProblem extends Error {}

function cell(row: InventoryRow, column: string): string | undefined {
  const value = row[column]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

/**
 * A cell's value by its column's type. `mark`: the decimal mark of the file's numbers (a `;` or tab
 * text's, told by its first rows: src/cli/inventoryRecords.ts); a workbook's and a comma text's are points.
 */
function cellValue(
  row: InventoryRow,
  column: InventoryColumn,
  mark: DecimalMark = ".",
): string | number | undefined {
  const text = cell(row, column.column);
  if (text === undefined || column.type === "text") return text;
  if (column.type === "time") {
    const time = utcMilliseconds(text);
    if (time === null)
      throw new RowProblem(`${column.column} is not an ISO 8601 date or time: ${JSON.stringify(text)}`);
    return time;
  }
  const pointed = decimalPointText(text, mark);
  if (pointed === null) {
    throw new RowProblem(
      `${column.column} is not a number written with ',' as the decimal mark (12,5 or 1.234,56), as the file writes them: ${JSON.stringify(text.slice(0, 100))}`,
    );
  }
  // Every input's number (src/support/numbers.ts): finite, within its range, -0 read as 0.
  const reading = readNumber(pointed);
  if ("value" in reading) return reading.value;
  const problem = reading.problem === REASONABLE_TEXT ? REASONABLE_TEXT : `is not a number`;
  throw new RowProblem(`${column.column} ${problem}: ${JSON.stringify(text.slice(0, 100))}`);
}

/** Sets `value` at a body path (`a.b`, `list[0].c`, `list[ssd].c`), making what is missing. */
function setAt(body: Record<string, unknown>, path: string, value: unknown): void {
  const steps = path.split(".");
  let at: Record<string, unknown> = body;
  for (const [index, step] of steps.entries()) {
    const last = index === steps.length - 1;
    const bracket = step.indexOf("[");
    if (bracket === -1) {
      if (last) at[step] = value;
      else {
        at[step] ??= {};
        at = at[step] as Record<string, unknown>;
      }
      continue;
    }
    const name = step.slice(0, bracket);
    const key = step.slice(bracket + 1, -1);
    at[name] ??= [];
    const list = at[name] as Record<string, unknown>[];
    let entry = /^\d+$/.test(key) ? list[Number(key)] : list.find((item) => item.type === key);
    if (entry === undefined) {
      entry = /^\d+$/.test(key) ? {} : { type: key };
      list.push(entry);
    }
    at = entry;
  }
}

const HOUR_MS = 3_600_000;

function inventoryColumn(name: string): InventoryColumn {
  return INVENTORY_COLUMNS.find(({ column }) => column === name) as InventoryColumn;
}

/** The row's period [start, end) in epoch milliseconds, null without one. */
function periodOf(row: InventoryRow): readonly [number, number] | null {
  const start = cellValue(row, inventoryColumn("period_start"));
  const end = cellValue(row, inventoryColumn("period_end"));
  if (start === undefined && end === undefined) return null;
  if (typeof start !== "number" || typeof end !== "number")
    throw new RowProblem("period_start and period_end go together: one is missing");
  if (end <= start) throw new RowProblem("period_end is not after period_start");
  return [start, end];
}

/** The row's period (periodOf), or what is wrong with it. */
export function rowPeriod(
  row: InventoryRow,
): { readonly period: readonly [number, number] | null } | { readonly problem: string } {
  try {
    return { period: periodOf(row) };
  } catch (error) {
    if (error instanceof RowProblem) return { problem: error.message };
    throw error;
  }
}

function targetOf(column: InventoryColumn, kind: string, family: Family): Target | undefined {
  return column.targets.find(([reader]) => reader === kind || reader === family)?.[1];
}

/** The country of a cloud row's region by the billing registry (src/billing/registry/regions.ts), null if it has none. */
export function regionCountry(row: InventoryRow): string | null {
  const provider = cell(row, "provider")?.trim().toLowerCase() ?? "";
  const region = cell(row, "region")?.trim() ?? "";
  return Object.hasOwn(REGION_COUNTRIES, provider) ? (REGION_COUNTRIES[provider][region] ?? null) : null;
}

/**
 * A cloud row's region also sets its usage location, when the row names none, to the region's
 * country: an edition that has the region reads the region (the same country), one that lacks it
 * falls back to that location (§7.5) rather than the default mix (src/cli/editionNotes.ts says so).
 */
function locateRegion(row: InventoryRow, body: Record<string, unknown>): void {
  const country = regionCountry(row);
  if (country !== null && cell(row, "usage_location") === undefined)
    setAt(body, "usage.usage_location", country);
}

/** The row's request: path, body and quantity. */
function requestOf(
  row: InventoryRow,
  kind: string,
  family: Family,
  mark: DecimalMark,
): Record<string, unknown> {
  if (family === "cloud") {
    for (const column of ["provider", "instance_type"]) {
      if (cell(row, column) === undefined) throw new RowProblem(`${column} is missing`);
    }
  }
  const period = periodOf(row);
  const body: Record<string, unknown> = {};
  // The verbose carries the power, hours and use-time ratio behind the use impacts: the row's
  // energy_kwh (src/cli/inventoryChunk.ts reads it and drops it from the answer).
  const query = new URLSearchParams({ verbose: "true" });
  let quantity: number | undefined;
  for (const column of INVENTORY_COLUMNS) {
    const target = targetOf(column, kind, family);
    if (target === undefined) continue;
    const value = cellValue(row, column, mark);
    if (value === undefined) continue;
    if (target === "quantity") {
      if (typeof value !== "number" || !Number.isInteger(value) || value < 1) {
        throw new RowProblem(`quantity is not a whole number of at least 1: ${cell(row, "quantity")}`);
      }
      quantity = value;
    } else if (target.startsWith("?")) query.set(target.slice(1), String(value));
    else setAt(body, target, value);
  }
  if (family === "cloud") locateRegion(row, body);
  // A period without hours: the hours of use are the period's.
  if (period !== null && cell(row, "hours") === undefined)
    setAt(body, "usage.hours_use_time", (period[1] - period[0]) / HOUR_MS);
  return {
    method: "POST",
    path: `${routeOf(family, kind)}?${query}`,
    body,
    ...(quantity !== undefined && quantity !== 1 ? { quantity } : {}),
  };
}

/** A row's request as a batch line, or its problem; `mark`: the decimal mark of its number cells. */
export function rowLine(row: InventoryRow, mark: DecimalMark = "."): RowLine {
  try {
    const kind = cell(row, "kind")?.toLowerCase();
    if (kind === undefined) return { problem: "kind is missing (cloud, server, laptop, …)" };
    const family = INVENTORY_KINDS.get(kind);
    if (family === undefined) {
      return {
        problem: `kind is not one of ${[...INVENTORY_KINDS.keys()].join(", ")}: ${JSON.stringify(kind)}`,
      };
    }
    return { line: JSON.stringify(requestOf(row, kind, family, mark)) };
  } catch (error) {
    if (error instanceof RowProblem) return { problem: error.message };
    throw error;
  }
}

/** The inventory's column names (a header naming none of them is no inventory's). */
export const INVENTORY_COLUMN_NAMES: ReadonlySet<string> = new Set(
  INVENTORY_COLUMNS.map(({ column }) => column),
);

/** A header cell as a column name: `Instance Type` is `instance_type`. */
export function columnName(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}

const FAMILY_LABELS: Readonly<Record<Family, string>> = {
  cloud: "cloud",
  server: "server",
  terminal: "terminals",
  peripheral: "peripherals",
  iot: "iot_device",
  component: "cpu, ram, ssd, hdd",
  generative_ai: "generative_ai",
};

/** The column table of the documentation (Markdown), derived from INVENTORY_COLUMNS. */
export function columnTable(): string {
  const lines = ["| column | unit | read by | v1 field it fills | meaning |", "|---|---|---|---|---|"];
  for (const column of INVENTORY_COLUMNS) {
    // Readers sharing a target are listed together: `usage.hours_use_time` for every kind.
    const byTarget = new Map<Target, string[]>();
    for (const [reader, target] of column.targets) {
      const readers = byTarget.get(target) ?? [];
      readers.push(FAMILY_LABELS[reader as Family] ?? reader);
      byTarget.set(target, readers);
    }
    const everyKind = column.targets.length === EVERY_FAMILY.length;
    const readBy =
      column.readInstead !== undefined
        ? "every kind"
        : everyKind
          ? "every kind of hardware"
          : column.targets.map(([reader]) => FAMILY_LABELS[reader as Family] ?? reader).join(", ");
    const fills =
      column.readInstead !== undefined
        ? column.readInstead
        : [...byTarget]
            .map(([target, readers]) => {
              const spelled =
                target === "quantity"
                  ? "the batch line's `quantity`"
                  : target.startsWith("?")
                    ? `query \`${target.slice(1)}\``
                    : `\`${target}\``;
              return byTarget.size === 1 ? spelled : `${readers.join(", ")}: ${spelled}`;
            })
            .join("; ");
    lines.push(`| \`${column.column}\` | ${column.unit} | ${readBy} | ${fills} | ${column.description} |`);
  }
  return `${lines.join("\n")}\n`;
}
