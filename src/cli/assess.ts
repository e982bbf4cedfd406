import type { LineOutcome } from "../batch/index.js";
import { PHASES, type Phase } from "../output/columns.js";
import { type AssessedRow, type Bounds, badRowStatus, ROW_STATUS } from "../output/table.js";
import { columnName, INVENTORY_COLUMNS } from "./inventory/inventory.js";
import type { RowOutcome } from "./inventoryChunk.js";

/*
 * A row's answer as the output's row: its impacts and energy for all the units it stands for
 * (the route's value × the row's quantity), the warnings its answer carries for the row (an unknown location,
 * an instance name matched approximately) and its status (`evaluated`, or `bad row: …`, the
 * billing output's words).
 */

/** What is wrong with a line, in one line: the answer's status and detail. */
export function problemOf(outcome: LineOutcome): string {
  const detail = (outcome.body as { detail?: unknown } | null)?.detail;
  if (typeof detail === "string") return `${outcome.status} ${detail}`;
  if (Array.isArray(detail) && detail.length > 0) {
    const first = detail[0] as { loc?: unknown[]; msg?: string };
    return `${outcome.status} ${(first.loc ?? []).join(".")}: ${first.msg ?? ""}`;
  }
  return `${outcome.status} ${typeof outcome.body === "string" ? outcome.body : JSON.stringify(outcome.body)}`;
}

type PhaseAnswer = { value?: unknown; min?: unknown; max?: unknown } | string;

function boundsOf(answer: PhaseAnswer | undefined, quantity: number): Bounds | undefined {
  if (typeof answer !== "object" || answer === null || typeof answer.value !== "number") return undefined;
  const { value } = answer;
  const min = typeof answer.min === "number" ? answer.min : value;
  const max = typeof answer.max === "number" ? answer.max : value;
  return { value: value * quantity, min: min * quantity, max: max * quantity };
}

export function assessedRow(
  line: number,
  cells: readonly string[],
  outcome: RowOutcome,
  problem: string | undefined,
): AssessedRow {
  const body = outcome.body as {
    impacts?: Record<string, Partial<Record<Phase, PhaseAnswer>>>;
    warnings?: unknown;
  } | null;
  if (outcome.status !== 200 || typeof body?.impacts !== "object" || body.impacts === null) {
    return { line, cells, impacts: null, warnings: [], status: badRowStatus(problem ?? problemOf(outcome)) };
  }
  const impacts: Record<string, Partial<Record<Phase, Bounds>>> = {};
  for (const [criterion, phases] of Object.entries(body.impacts)) {
    const row: Partial<Record<Phase, Bounds>> = {};
    for (const phase of PHASES) {
      const bounds = boundsOf(phases?.[phase], outcome.quantity);
      if (bounds) row[phase] = bounds;
    }
    impacts[criterion] = row;
  }
  const answerWarnings = Array.isArray(body.warnings)
    ? body.warnings.filter((warning): warning is string => typeof warning === "string")
    : [];
  return {
    line,
    cells,
    impacts,
    ...(outcome.energyKwh !== undefined ? { energyKwh: outcome.energyKwh * outcome.quantity } : {}),
    ...(outcome.gridGco2PerKwh !== undefined ? { gridGco2PerKwh: outcome.gridGco2PerKwh } : {}),
    warnings: [...(outcome.warnings ?? []), ...answerWarnings],
    status: ROW_STATUS.evaluated,
  };
}

/** The columns that say what an asset is, in the order a label shows them. */
const ASSET_COLUMNS = ["kind", "type", "provider", "instance_type", "archetype", "cpu_name"];

const READ_COLUMNS: ReadonlySet<string> = new Set(INVENTORY_COLUMNS.map(({ column }) => column));

/**
 * How the report names a row: by the user's own columns (those no kind reads: `team`, `site`,
 * `asset`…), then what the asset is — `sales · Paris · laptop pro` — or by its line when its cells
 * say nothing (`line 7`).
 */
export function rowLabel(inputColumns: readonly string[]): (row: AssessedRow) => string {
  const names = inputColumns.map(columnName);
  const own = names.flatMap((name, index) => (READ_COLUMNS.has(name) ? [] : [index]));
  const asset = ASSET_COLUMNS.map((column) => names.indexOf(column)).filter((index) => index !== -1);
  const words = (row: AssessedRow, indices: readonly number[]) =>
    indices.map((index) => row.cells[index]?.trim() ?? "").filter((word) => word !== "");
  return (row) => {
    const what = words(row, asset).join(" ");
    const label = [...words(row, own), ...(what === "" ? [] : [what])].join(" · ");
    return label === "" ? `line ${row.line}` : label;
  };
}
