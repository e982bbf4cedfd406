/*
 * What an inventory's report adds to its totals, gathered row by row with bounded memory as the
 * rows are written (src/output/report.ts draws it): the impacts over time of the rows with a period
 * (period_start, period_end) by kind; the cube of the rows by the user's own columns and what each
 * row is (kind, provider, location…), for the page to group and filter; and the largest cloud rows,
 * whose region and family are then changed in their own requests (what-if). Every criterion and
 * the energy of each row are kept.
 */

import { currentFamilyType } from "../../billing/instanceShapes.js";
import { REGION_COUNTRIES } from "../../billing/registry/regions.js";
import { type PlaceMove, regionMove } from "../../billing/stages/whatIf.js";
import type { CloudRegion } from "../../data/types.js";
import type { GroupCube, Measured, OverTime, WhatIf } from "../../output/reportParts/model.js";
import {
  added,
  grainOf,
  scaled,
  spreadShares,
  stepLabels,
  TIME_SERIES,
} from "../../output/reportParts/time.js";
import type { AssessedRow, CriterionUnit } from "../../output/table.js";
import type { EditionService } from "../../service/open.js";
import { columnName, INVENTORY_COLUMNS, rowPeriod } from "./inventory.js";

/** Periods (start, end, kind) kept apart at most; the rows of others are in no step. */
const MAX_PERIODS = 20_000;
/** Values of a column at most for it to group by; combinations of the cube at most. */
const MAX_VALUES = 100;
const MAX_ROWS = 2_000;
/** Cloud rows looked at for a change: the largest by gwp. */
const CLOUD_ROWS = 10;

/** The columns an inventory reads as numbers or periods: none groups rows. */
const NOT_GROUPS: ReadonlySet<string> = new Set([
  ...INVENTORY_COLUMNS.filter((column) => column.type === "number").map((column) => column.column),
  "period_start",
  "period_end",
]);

/** A cloud row kept for its what-if: its cells, gwp and request line (the batch's JSON). */
interface CloudRow {
  readonly row: AssessedRow;
  readonly gwp: number;
  readonly request: string;
}

/** The cube being gathered: its columns (input indexes), each one's values, and the sums by combination. */
interface CubeState {
  columns: number[];
  readonly values: Map<number, Map<string, number>>;
  sums: Map<string, number[]>;
  readonly left: string[];
}

export function inventoryReportParts(inputColumns: readonly string[], criteria: readonly CriterionUnit[]) {
  const names = inputColumns.map(columnName);
  const at = (name: string) => names.indexOf(name);
  const periods = new Map<string, { start: number; end: number; series: string; sums: Measured }>();
  let undated = emptyMeasured(criteria.length);
  const seriesTotals = new Map<string, number>();
  const cube: CubeState = {
    columns: inputColumns.flatMap((_, index) => (NOT_GROUPS.has(names[index]) ? [] : [index])),
    values: new Map(),
    sums: new Map(),
    left: [],
  };
  const clouds: CloudRow[] = [];
  const gwp = criteria.findIndex((criterion) => criterion.criterion === "gwp");
  return {
    /** Adds an evaluated row (its request line, for a cloud row's what-if). */
    add(row: AssessedRow, request: string | undefined): void {
      if (row.impacts === null) return;
      const sums = measuredOf(row, criteria);
      const series = row.cells[at("kind")]?.trim() || "(none)";
      seriesTotals.set(series, (seriesTotals.get(series) ?? 0) + first(sums));
      const read = rowPeriod({
        period_start: row.cells[at("period_start")],
        period_end: row.cells[at("period_end")],
      });
      const period = "period" in read ? read.period : null;
      const key = period === null ? null : `${period[0]}\u0000${period[1]}\u0000${series}`;
      const kept = key === null ? undefined : periods.get(key);
      if (period !== null && key !== null && (kept !== undefined || periods.size < MAX_PERIODS)) {
        periods.set(key, {
          start: period[0] / 1000,
          end: period[1] / 1000,
          series,
          sums: kept === undefined ? sums : added(kept.sums, sums),
        });
      } else undated = added(undated, sums);
      addToCube(cube, row.cells, inputColumns, sums);
      if (
        gwp >= 0 &&
        request !== undefined &&
        names.includes("kind") &&
        row.cells[at("kind")]?.trim() === "cloud"
      ) {
        keepLargest(clouds, { row, gwp: sums.impacts[gwp].embedded + sums.impacts[gwp].use, request });
      }
    },
    /** The impacts over time (null without a row's period), the cube, the cloud rows kept. */
    result() {
      return {
        overTime: overTimeOf([...periods.values()], undated, seriesTotals, criteria.length),
        cube: cubeOf(cube, inputColumns),
        clouds: [...clouds],
      };
    },
  };
}

const emptyMeasured = (criteria: number): Measured => ({
  lines: 0,
  cost: 0,
  energy: 0,
  impacts: Array.from({ length: criteria }, () => ({ embedded: 0, use: 0 })),
});

const first = (sums: Measured) => (sums.impacts[0]?.embedded ?? 0) + (sums.impacts[0]?.use ?? 0);

/** A row's sums: one row, its energy and every criterion's phases (for all the units it stands for). */
function measuredOf(row: AssessedRow, criteria: readonly CriterionUnit[]): Measured {
  return {
    lines: 1,
    cost: 0,
    energy: row.energyKwh ?? 0,
    impacts: criteria.map(({ criterion }) => ({
      embedded: row.impacts?.[criterion]?.embedded?.value ?? 0,
      use: row.impacts?.[criterion]?.use?.value ?? 0,
    })),
  };
}

/** Keeps the CLOUD_ROWS largest cloud rows by gwp (the first of equals first). */
function keepLargest(kept: CloudRow[], row: CloudRow): void {
  if (kept.length === CLOUD_ROWS && (kept[kept.length - 1]?.gwp ?? 0) >= row.gwp) return;
  const at = kept.findIndex((other) => other.gwp < row.gwp);
  kept.splice(at === -1 ? kept.length : at, 0, row);
  if (kept.length > CLOUD_ROWS) kept.pop();
}

/** The sums as the cube holds them: lines, cost, energy, then each criterion's embedded and use. */
const cubeSums = (sums: Measured) => [
  sums.lines,
  sums.cost,
  sums.energy,
  ...sums.impacts.flatMap((p) => [p.embedded, p.use]),
];

/** Adds a row to the cube; a column past MAX_VALUES values, or the widest past MAX_ROWS combinations, is left out. */
function addToCube(
  cube: CubeState,
  cells: readonly string[],
  inputColumns: readonly string[],
  sums: Measured,
): void {
  for (const index of [...cube.columns]) {
    const values = cube.values.get(index) ?? new Map<string, number>();
    cube.values.set(index, values);
    const value = cells[index]?.trim() ?? "";
    if (!values.has(value)) values.set(value, values.size);
    if (values.size > MAX_VALUES)
      leaveOut(cube, index, `${inputColumns[index]} (more than ${MAX_VALUES} values)`);
  }
  const key = cube.columns.map((index) => cube.values.get(index)?.get(cells[index]?.trim() ?? "")).join(",");
  const row = cube.sums.get(key);
  const adding = cubeSums(sums);
  if (row === undefined) cube.sums.set(key, adding);
  else
    adding.forEach((value, k) => {
      row[k] += value;
    });
  while (cube.sums.size > MAX_ROWS && cube.columns.length > 0) {
    const widest = cube.columns.reduce((a, b) =>
      (cube.values.get(b)?.size ?? 0) > (cube.values.get(a)?.size ?? 0) ? b : a,
    );
    leaveOut(cube, widest, `${inputColumns[widest]} (past ${MAX_ROWS.toLocaleString("en-US")} combinations)`);
  }
}

/** The cube without a column: its combinations merged. */
function leaveOut(cube: CubeState, index: number, why: string): void {
  const position = cube.columns.indexOf(index);
  if (position === -1) return;
  cube.columns = cube.columns.filter((column) => column !== index);
  cube.values.delete(index);
  cube.left.push(why);
  const merged = new Map<string, number[]>();
  for (const [key, sums] of cube.sums) {
    const parts = key.split(",");
    parts.splice(position, 1);
    const kept = merged.get(parts.join(","));
    if (kept === undefined) merged.set(parts.join(","), [...sums]);
    else
      sums.forEach((value, k) => {
        kept[k] += value;
      });
  }
  cube.sums = merged;
}

/** The cube as the report holds it: columns of 2 values or more, not all numbers. */
function cubeOf(cube: CubeState, inputColumns: readonly string[]): GroupCube {
  const grouping = cube.columns.filter((index) => {
    const values = [...(cube.values.get(index)?.keys() ?? [])];
    return values.length >= 2 && !values.every((value) => value === "" || Number.isFinite(Number(value)));
  });
  const positions = grouping.map((index) => cube.columns.indexOf(index));
  const rows = new Map<string, number[]>();
  for (const [key, sums] of cube.sums) {
    const parts = key.split(",");
    const kept = positions.map((position) => parts[position]).join(",");
    const row = rows.get(kept);
    if (row === undefined) rows.set(kept, [...sums]);
    else
      sums.forEach((value, k) => {
        row[k] += value;
      });
  }
  return {
    columns: grouping.map((index) => ({
      name: inputColumns[index],
      values: [...(cube.values.get(index)?.keys() ?? [])],
    })),
    rows: [...rows].map(([key, sums]) => [...(key === "" ? [] : key.split(",").map(Number)), ...sums]),
    left: cube.left,
  };
}

/** The impacts over time by kind, from the periods kept (null without one). */
function overTimeOf(
  periods: readonly { start: number; end: number; series: string; sums: Measured }[],
  undated: Measured,
  totals: ReadonlyMap<string, number>,
  criteria: number,
): OverTime | null {
  if (periods.length === 0) return null;
  const lengths = periods.map((period) => period.end - period.start).sort((a, b) => a - b);
  const start = Math.min(...periods.map((period) => period.start));
  const end = Math.max(...periods.map((period) => period.end));
  const grain = grainOf(lengths[Math.floor((lengths.length - 1) / 2)], end - start);
  if (grain === null) return null;
  const steps = stepLabels(grain, start, end);
  const ranked = [...totals].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([name]) => name);
  const shown = ranked.slice(0, TIME_SERIES);
  const others = ranked.length > shown.length ? `${ranked.length - shown.length} more` : null;
  const names = [...shown, ...(others === null ? [] : [others])];
  const cells = new Map(names.map((name) => [name, new Map<string, Measured>()]));
  for (const period of periods) {
    const series = cells.get(shown.includes(period.series) ? period.series : (others as string));
    for (const [step, share] of spreadShares(grain, period.start, period.end)) {
      const part = scaled(period.sums, share);
      const kept = series?.get(step);
      series?.set(step, kept === undefined ? part : added(kept, part));
    }
  }
  return {
    grain,
    steps,
    series: names.map((name) => {
      const byStep = cells.get(name) ?? new Map<string, Measured>();
      return {
        name,
        impacts: Array.from({ length: criteria }, (_, c) =>
          steps.map((step) => {
            const phases = byStep.get(step)?.impacts[c];
            return phases === undefined ? 0 : phases.embedded + phases.use;
          }),
        ),
        energy: steps.map((step) => byStep.get(step)?.energy ?? 0),
      };
    }),
    undated,
    by: "kind",
  };
}

/** The registry's regions (src/billing/registry/regions.ts) as the places an edition without regions moves a row to. */
const REGISTRY_REGIONS: readonly CloudRegion[] = Object.entries(REGION_COUNTRIES).flatMap(
  ([provider, regions]) =>
    Object.entries(regions).map(([region, usageLocation]) => ({ provider, region, usageLocation })),
);

/** A request line as the batch reads it. */
interface RequestLine {
  readonly method: string;
  readonly path: string;
  readonly body: Record<string, unknown>;
}

/** Evaluates request lines (the run's evaluator): each one's gwp for all its units, or null where it failed. */
export type LinesGwp = (lines: readonly string[]) => Promise<(number | null)[]>;

/**
 * The what-ifs of the largest cloud rows: each row's own request with its region moved (the
 * provider's region of lowest intensity on its continent) or its instance type renewed (the
 * current family of the same size), answered by the same route; ranked by the gwp saved, only
 * changes that save some. The figures are the route's answers × the row's quantity.
 */
export async function inventoryWhatIfs(
  edition: EditionService,
  clouds: readonly CloudRow[],
  gwpOfLines: LinesGwp,
): Promise<WhatIf[]> {
  const planned: PlannedChange[] = clouds.flatMap((cloud) => changesOf(edition, cloud));
  const answers = await gwpOfLines(planned.map((change) => JSON.stringify(change.line)));
  const found: WhatIf[] = [];
  planned.forEach((change, index) => {
    const toGwp = answers[index];
    if (toGwp === null || toGwp >= change.whatIf.gwp) return;
    found.push({ ...change.whatIf, toGwp });
  });
  return found.sort((a, b) => b.gwp - b.toGwp - (a.gwp - a.toGwp));
}

/** A planned change: the request line sent again, and what its what-if says before the answer. */
interface PlannedChange {
  readonly line: RequestLine;
  readonly whatIf: Omit<WhatIf, "toGwp">;
}

/** A cloud row's request as its changes read it. */
interface CloudRequest {
  readonly line: RequestLine;
  readonly body: Record<string, unknown>;
  readonly usage: Record<string, unknown>;
  readonly provider: string;
  readonly instanceType: string;
  readonly region: string | null;
  readonly country: string | null;
  readonly quantity: number;
  /** The path as a reader sends it: without the verbose the run asks for its energy, in the run's edition. */
  readonly path: string;
}

function cloudRequest(edition: EditionService, request: string): CloudRequest | null {
  let line: RequestLine;
  try {
    line = JSON.parse(request) as RequestLine;
  } catch {
    return null;
  }
  const body = line.body ?? {};
  const usage = (body.usage ?? {}) as Record<string, unknown>;
  return {
    line,
    body,
    usage,
    provider: String(body.provider ?? ""),
    instanceType: String(body.instance_type ?? ""),
    region: typeof usage.region === "string" ? usage.region : null,
    country: typeof usage.usage_location === "string" ? usage.usage_location : null,
    quantity: Number((line as { quantity?: unknown }).quantity ?? 1) || 1,
    path: `${line.path.replace("verbose=true", "verbose=false")}&edition=${edition.edition.id}`,
  };
}

/** A cloud row's changes: the moved and renewed request lines, and what each what-if says before its answer. */
function changesOf(edition: EditionService, cloud: CloudRow): PlannedChange[] {
  const request = cloudRequest(edition, cloud.request);
  if (request === null) return [];
  const { line, body, usage, provider, instanceType, region, country, quantity, path } = request;
  const base = {
    provider,
    instanceType,
    place: region ?? country ?? "(default place)",
    hours: typeof usage.hours_use_time === "number" ? usage.hours_use_time : null,
    cost: null,
    gwp: cloud.gwp,
    price: null,
    toPrice: null,
    priceRead: "",
    priceOrigin: "",
    placePrices: [],
    times: { value: quantity, what: quantity === 1 ? "unit" : "units (the row's quantity)" },
  };
  const from = { rest: { path, body }, graphql: null };
  const changed = (
    to: Record<string, unknown>,
    what: Pick<WhatIf, "change" | "toInstanceType" | "toPlace" | "why">,
  ) => ({
    line: { ...line, body: to },
    whatIf: { ...base, ...what, requests: { from, to: { rest: { path, body: to }, graphql: null } } },
  });
  const changes: PlannedChange[] = [];
  const own = edition.data.cloudRegions;
  const inEdition = own?.some((row) => row.provider === provider && row.region === region) === true;
  const place = inEdition && region !== null ? region : (country ?? "");
  const move = regionMove(edition, own ?? REGISTRY_REGIONS, provider, place);
  if (move !== null) {
    const what = {
      change: "region" as const,
      toInstanceType: instanceType,
      toPlace: move.to.shown,
      why: move.why,
    };
    changes.push(changed({ ...body, usage: movedUsage(usage, move) }, what));
  }
  const newer = currentFamilyType(
    provider,
    instanceType,
    edition.data.cloudInstances.get(provider)?.ids ?? [],
  );
  if (newer !== null) {
    const why = `the current family of ${instanceType}'s line and size in edition ${edition.edition.id}`;
    changes.push(
      changed(
        { ...body, instance_type: newer },
        { change: "family", toInstanceType: newer, toPlace: base.place, why },
      ),
    );
  }
  return changes;
}

/** A row's usage at the move's place: its region, or its location (an edition without regions). */
function movedUsage(usage: Record<string, unknown>, move: PlaceMove): Record<string, unknown> {
  const { region: _region, usage_location: _location, ...rest } = usage;
  return "region" in move.to.request
    ? { ...rest, region: move.to.request.region, usage_location: move.to.country }
    : { ...rest, usage_location: move.to.request.usageLocation };
}
