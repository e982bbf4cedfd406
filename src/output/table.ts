import { type Bound, formatNumber, impactColumn, keptInputNames, PHASES, type Phase } from "./columns.js";

/*
 * The table an analysis reads (inventory results, billing exports): one output row per input
 * row — its input cells kept in order, then `energy_kwh` (the electricity its use impacts
 * multiply), one column per criterion, phase (and bound with ranges) named with its unit, a
 * `status` and a `warnings` column, as the billing output orders them — and the sums over the
 * rows and over groups of rows. Writers (csv.ts, xlsx.ts,
 * report.ts) all read this one model.
 */

/** A criterion as its columns name it. */
export interface CriterionUnit {
  readonly criterion: string;
  readonly unit: string;
}

export interface TableLayout {
  /** The input's column names, in its order. */
  readonly inputColumns: readonly string[];
  readonly criteria: readonly CriterionUnit[];
  /** Whether each impact also has its `_min` and `_max` columns. */
  readonly ranges: boolean;
  /** Whether rows carry the grid intensity applied (`grid_gco2_per_kwh`: a run with a grid series). */
  readonly grid?: boolean;
}

/** An impact and its error margin, in the criterion's unit. */
export interface Bounds {
  readonly value: number;
  readonly min: number;
  readonly max: number;
}

/** A row's impacts: criterion → phase → bounds (a phase without a value is absent). */
export type RowImpacts = Readonly<Record<string, Partial<Record<Phase, Bounds>>>>;

export interface AssessedRow {
  /** The input line the row starts on. */
  readonly line: number;
  /** The input cells, in the layout's column order ("" when absent). */
  readonly cells: readonly string[];
  /** The row's impacts, for all the units it stands for; null when it failed. */
  readonly impacts: RowImpacts | null;
  /**
   * The electricity behind its use impacts, kWh, for all the units it stands for (each use impact
   * is its place's factor × this); absent when it failed or its use is not implemented.
   */
  readonly energyKwh?: number;
  /** The grid intensity applied to that energy, gCO2eq/kWh (a run with a grid series). */
  readonly gridGco2PerKwh?: number;
  readonly warnings: readonly string[];
  /** `evaluated`, or what went wrong (`bad row: 404 m5.huge at aws not found`): ROW_STATUS. */
  readonly status: string;
}

/** The status words a row's `status` begins with, as the billing output spells them. */
export const ROW_STATUS = { evaluated: "evaluated", bad: "bad row" } as const;

/** A failed row's status: `bad row: ` and what went wrong. */
export const badRowStatus = (problem: string) => `${ROW_STATUS.bad}: ${problem}`;

/** One column of impacts: which criterion, phase and bound. */
interface ImpactColumn {
  readonly name: string;
  readonly criterion: string;
  readonly phase: Phase;
  readonly bound: Bound;
}

function impactColumns(layout: TableLayout): ImpactColumn[] {
  const bounds: readonly Bound[] = layout.ranges ? ["value", "min", "max"] : ["value"];
  return layout.criteria.flatMap(({ criterion, unit }) =>
    PHASES.flatMap((phase) =>
      bounds.map((bound) => ({ name: impactColumn(criterion, unit, phase, bound), criterion, phase, bound })),
    ),
  );
}

/** The column of a row's energy, named as the billing output names it. */
export const ENERGY_COLUMN = "energy_kwh";

/** The column of the grid intensity applied to a row's energy: gwp_use = energy_kwh × it / 1000. */
export const GRID_COLUMN = "grid_gco2_per_kwh";

/** The number columns' names, in order: the energy (and grid intensity), then the impacts. */
function numberHeader(layout: TableLayout): string[] {
  return [
    ENERGY_COLUMN,
    ...(layout.grid ? [GRID_COLUMN] : []),
    ...impactColumns(layout).map(({ name }) => name),
  ];
}

/** The columns a row adds after the input's. */
const rowColumns = (layout: TableLayout) => [...numberHeader(layout), "status", "warnings"];

/**
 * The input's columns as every output names them (keptInputNames): `input_energy_kwh` for an
 * input's own `energy_kwh`, so that no name is written twice.
 */
export function writtenInputColumns(layout: TableLayout): string[] {
  return keptInputNames(layout.inputColumns, rowColumns(layout));
}

/** The header: input columns, energy, impact columns, status, warnings. */
export function header(layout: TableLayout): string[] {
  return [...writtenInputColumns(layout), ...rowColumns(layout)];
}

/** A row's (or sums') numbers, column by column under `numberHeader` (undefined where there is none). */
export function numberValues(
  layout: TableLayout,
  energyKwh: number | undefined,
  impacts: RowImpacts | null,
  gridGco2PerKwh?: number,
): (number | undefined)[] {
  return [
    energyKwh,
    ...(layout.grid ? [gridGco2PerKwh] : []),
    ...impactColumns(layout).map(({ criterion, phase, bound }) => impacts?.[criterion]?.[phase]?.[bound]),
  ];
}

const numberTexts = (numbers: readonly (number | undefined)[]) =>
  numbers.map((value) => (value === undefined ? "" : formatNumber(value)));

/** A row's cells as text: numbers written by `formatNumber`. */
export function rowCells(layout: TableLayout, row: AssessedRow): string[] {
  const numbers = numberTexts(numberValues(layout, row.energyKwh, row.impacts, row.gridGco2PerKwh));
  return [...row.cells, ...numbers, row.status, row.warnings.join("; ")];
}

/** The header of the sums per group: the group's columns, its counts, the energy and impact columns. */
export function groupHeader(layout: TableLayout, groupColumns: readonly string[]): string[] {
  const added = ["rows", "failed", ...numberHeader(layout)];
  return [...keptInputNames(groupColumns, added), ...added];
}

/** A group's cells as text, under `groupHeader`. */
export function groupCells(layout: TableLayout, group: Group): string[] {
  const numbers = numberTexts(numberValues(layout, group.sums.energyKwh, group.sums.impacts));
  return [...group.values, String(group.sums.rows), String(group.sums.failed), ...numbers];
}

/** Sums of impacts over rows: the same layout as a row's impacts. */
export interface Sums {
  rows: number;
  failed: number;
  warned: number;
  /** The rows' energy, kWh; undefined while no row had one. */
  energyKwh: number | undefined;
  readonly impacts: Record<string, Partial<Record<Phase, { value: number; min: number; max: number }>>>;
}

export function emptySums(): Sums {
  return { rows: 0, failed: 0, warned: 0, energyKwh: undefined, impacts: {} };
}

/** Adds a row to sums (in the rows' order, so sums are reproducible). */
export function addTo(sums: Sums, row: AssessedRow): void {
  sums.rows += 1;
  if (row.impacts === null) sums.failed += 1;
  if (row.warnings.length > 0) sums.warned += 1;
  if (row.energyKwh !== undefined) sums.energyKwh = (sums.energyKwh ?? 0) + row.energyKwh;
  for (const [criterion, phases] of Object.entries(row.impacts ?? {})) {
    for (const phase of PHASES) {
      const bounds = phases[phase];
      if (bounds === undefined) continue;
      sums.impacts[criterion] ??= {};
      const summed = sums.impacts[criterion];
      summed[phase] ??= { value: 0, min: 0, max: 0 };
      const sum = summed[phase];
      sum.value += bounds.value;
      sum.min += bounds.min;
      sum.max += bounds.max;
    }
  }
}

/** A group of `--group-by`: its columns' values and the sums of its rows. */
export interface Group {
  readonly values: readonly string[];
  readonly sums: Sums;
}

/** Sums per group of rows sharing the values of some input columns, in order of first appearance. */
export interface Groups {
  readonly columns: readonly string[];
  add(row: AssessedRow): void;
  list(): readonly Group[];
}

export function createGroups(layout: TableLayout, columns: readonly string[]): Groups {
  const indices = columns.map((column) => layout.inputColumns.indexOf(column));
  const groups = new Map<string, Group>();
  return {
    columns,
    add(row) {
      if (columns.length === 0) return;
      const values = indices.map((index) => row.cells[index] ?? "");
      const key = JSON.stringify(values);
      let group = groups.get(key);
      if (!group) {
        group = { values, sums: emptySums() };
        groups.set(key, group);
      }
      addTo(group.sums, row);
    },
    list: () => [...groups.values()],
  };
}

/**
 * Where the sums per group go: beside the output, with `.groups` before its extension
 * (`impacts.csv` → `impacts.groups.csv`, `lines.parquet` → `lines.groups.parquet`), so the
 * output holds only rows and a spreadsheet's SUM of a column is the total.
 */
export function groupsPath(output: string, extension: string): string {
  return `${output.replace(/\.(csv|parquet|ndjson|jsonl|xlsx)$/i, "")}.groups.${extension}`;
}

/** `12 rows, 10 ok, 2 failed, 3 with warnings`. */
export function sumsStatus(sums: Sums): string {
  return `${sums.rows} rows, ${sums.rows - sums.failed} ok, ${sums.failed} failed, ${sums.warned} with warnings`;
}
