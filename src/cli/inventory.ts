/*
 * An inventory row (CSV, one asset per row) as a batch line: the single route that evaluates it
 * and the route's body. Columns are named by the v1 fields they fill; an empty cell is absent.
 *
 * - `kind`: `cloud` (POST /v1/cloud/instance) or `server` (POST /v1/server/);
 * - every kind: `usage_location`, `hours` (hours of use: `usage.hours_use_time`),
 *   `time_workload` (%), `quantity` (how many such assets; default 1);
 * - cloud: `provider`, `instance_type`, `region`, `use_time_ratio`;
 * - server: `archetype`, `cpu_name`, `cpu_units`, `cpu_core_units`, `ram_units`, `ram_capacity`,
 *   `ssd_units`, `ssd_capacity`, `hdd_units`, `hdd_capacity`.
 *
 * Only the row's layout is checked here (a known kind, numbers where numbers go); the values
 * themselves are the route's to judge, so a row answers what its route answers.
 */

export type InventoryRow = Readonly<Record<string, string | undefined>>;

/** The row's batch line (JSON text), or what is wrong with the row. */
export type RowLine = { readonly line: string } | { readonly problem: string };

type Field = readonly [column: string, kind: "text" | "number"];

/** Where each column goes: a body path. */
const USAGE_FIELDS: Readonly<Record<string, Field>> = {
  usage_location: ["usage_location", "text"],
  hours: ["hours_use_time", "number"],
  time_workload: ["time_workload", "number"],
};

const CLOUD_USAGE_FIELDS: Readonly<Record<string, Field>> = {
  ...USAGE_FIELDS,
  region: ["region", "text"],
  use_time_ratio: ["use_time_ratio", "number"],
};

/** Server components: column → [component, its field]. */
const SERVER_COMPONENT_FIELDS: Readonly<Record<string, readonly [string, string, "text" | "number"]>> = {
  cpu_name: ["cpu", "name", "text"],
  cpu_units: ["cpu", "units", "number"],
  cpu_core_units: ["cpu", "core_units", "number"],
  ram_units: ["ram", "units", "number"],
  ram_capacity: ["ram", "capacity", "number"],
  ssd_units: ["ssd", "units", "number"],
  ssd_capacity: ["ssd", "capacity", "number"],
  hdd_units: ["hdd", "units", "number"],
  hdd_capacity: ["hdd", "capacity", "number"],
};

/** The kinds of asset a row may be. */
export const INVENTORY_KINDS = ["cloud", "server"] as const;

class RowProblem extends Error {}

function cell(row: InventoryRow, column: string): string | undefined {
  const value = row[column]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

function cellValue(row: InventoryRow, column: string, kind: "text" | "number"): string | number | undefined {
  const text = cell(row, column);
  if (text === undefined || kind === "text") return text;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new RowProblem(`${column} is not a number: ${JSON.stringify(text)}`);
  return value;
}

function fieldsOf(row: InventoryRow, fields: Readonly<Record<string, Field>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, [name, kind]] of Object.entries(fields)) {
    const value = cellValue(row, column, kind);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function quantityOf(row: InventoryRow): number | undefined {
  const quantity = cellValue(row, "quantity", "number") as number | undefined;
  if (quantity !== undefined && (!Number.isInteger(quantity) || quantity < 1)) {
    throw new RowProblem(`quantity is not a whole number of at least 1: ${cell(row, "quantity")}`);
  }
  return quantity;
}

function cloudLine(row: InventoryRow): Record<string, unknown> {
  for (const column of ["provider", "instance_type"]) {
    if (cell(row, column) === undefined) throw new RowProblem(`${column} is missing`);
  }
  const usage = fieldsOf(row, CLOUD_USAGE_FIELDS);
  return {
    path: "/v1/cloud/instance?verbose=false",
    body: {
      provider: cell(row, "provider"),
      instance_type: cell(row, "instance_type"),
      ...(Object.keys(usage).length > 0 ? { usage } : {}),
    },
  };
}

function serverLine(row: InventoryRow): Record<string, unknown> {
  const parts: Record<string, Record<string, unknown>> = {};
  for (const [column, [part, name, kind]] of Object.entries(SERVER_COMPONENT_FIELDS)) {
    const value = cellValue(row, column, kind);
    if (value === undefined) continue;
    parts[part] ??= {};
    parts[part][name] = value;
  }
  // In the v1 body RAM is a list of entries and disks one list typed ssd / hdd; one entry each here.
  const disks = (["ssd", "hdd"] as const).flatMap((type) => (parts[type] ? [{ type, ...parts[type] }] : []));
  const configuration = {
    ...(parts.cpu ? { cpu: parts.cpu } : {}),
    ...(parts.ram ? { ram: [parts.ram] } : {}),
    ...(disks.length > 0 ? { disk: disks } : {}),
  };
  const body: Record<string, unknown> = {};
  if (Object.keys(configuration).length > 0) body.configuration = configuration;
  const usage = fieldsOf(row, USAGE_FIELDS);
  if (Object.keys(usage).length > 0) body.usage = usage;
  const archetype = cell(row, "archetype");
  const query = archetype === undefined ? "" : `&archetype=${encodeURIComponent(archetype)}`;
  return { path: `/v1/server/?verbose=false${query}`, body };
}

export function rowLine(row: InventoryRow): RowLine {
  try {
    const kind = cell(row, "kind")?.toLowerCase();
    if (kind === undefined) return { problem: "kind is missing (cloud or server)" };
    const request = kind === "cloud" ? cloudLine(row) : kind === "server" ? serverLine(row) : undefined;
    if (request === undefined) {
      return { problem: `kind is not one of ${INVENTORY_KINDS.join(", ")}: ${JSON.stringify(kind)}` };
    }
    const quantity = quantityOf(row);
    return { line: JSON.stringify({ method: "POST", ...request, ...(quantity ? { quantity } : {}) }) };
  } catch (error) {
    if (error instanceof RowProblem) return { problem: error.message };
    throw error;
  }
}

/** A header cell as a column name: `Instance Type` is `instance_type`. */
export function columnName(header: string): string {
  return header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
}
