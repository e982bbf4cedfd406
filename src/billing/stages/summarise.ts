/*
 * The summarise stage of a billing run: what the run tells of the bill (src/billing/report/runSummary.ts
 * writes it for a reader): the format read, its kinds of lines and their fate, the matches, the
 * totals per criterion and phase (the kinds' units times their coefficients, no line read again),
 * and the currency of its amounts, read on its first lines (billCurrency).
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier, literal } from "../../duckdb/sqlText.js";
import type { RequestedCriterion } from "../../engine/index.js";
import type { GridRun } from "../../grid/billLines.js";
import type { BillReportData } from "../../output/billReport.js";
import { PHASES, type Phase } from "../../output/columns.js";
import type { WhatIf } from "../../output/reportParts/model.js";
import type { CoefficientRow } from "../../service/coefficients.js";
import {
  amortisedCostColumns,
  type BillingFormat,
  coverageCostColumn,
  currencyColumns,
  filedColumns,
  headerColumn,
} from "../formats/knownFormats.js";
import type { LineStatusCode } from "../lineStatus.js";
import type { InstanceMatch } from "../matching.js";
import { billName } from "../reading/layout.js";
import { SET_ASIDE_REASONS } from "../registry/methods.js";
import { currencySql } from "./classify.js";
import type { LineGroup } from "./evaluate.js";
import type { FilteredSums } from "./filters.js";
import { lookupKey } from "./lookUp.js";
import type { BillPeriod, MonthCoverage } from "./monthCoverage.js";
import type { ReadExport } from "./read.js";
import type { BillRun } from "./request.js";
import { billUsages, whatIfs } from "./whatIf.js";
import type { WrittenBill } from "./write.js";

export interface ImpactTotal {
  readonly criterion: RequestedCriterion;
  readonly phase: Phase;
  readonly value: number;
  readonly min: number;
  readonly max: number;
}

export interface BillingSummary {
  readonly file: string;
  /**
   * The files a command names to read this bill again (the manifests, the archives or every part),
   * as the command was given them; absent: `file`.
   */
  readonly commandFiles?: readonly string[];
  /** The export's format, titled as the version read (src/billing/formats/, readAs). */
  readonly format: BillingFormat;
  /** The cost the coverage reads, as the file names it (EffectiveCost, an amortised CUR's columns…). */
  readonly costColumn: string;
  /** Whether that cost is amortised (the export has the columns of the cost paid for the hours). */
  readonly amortisedCost: boolean;
  readonly edition: string;
  /** What is said of a bill's parts joined by their columns' names (src/billing/reading/joinedParts.ts). */
  readonly joinNotes?: readonly string[];
  readonly groups: readonly LineGroup[];
  readonly matches: readonly InstanceMatch[];
  /** Sums over the evaluated lines, per criterion and phase. */
  readonly totals: readonly ImpactTotal[];
  /** The energy behind the evaluated lines' use impacts, kWh (PUE included): the sum of their energy_kwh. */
  readonly energyKwh: number;
  /** The columns written besides the file's own. */
  readonly impactColumns: readonly string[];
  /** The report's rankings, when asked for. */
  readonly report: BillReportData | null;
  /** How the lines fared with the grid series, when one was given. */
  readonly grid: GridRun | null;
  /** What changes to its largest usages would save (src/billing/stages/whatIf.ts), when asked (a report, --what-if). */
  readonly whatIf: readonly WhatIf[] | null;
  /** The instance usages the changes were looked for among (none: nothing to move; 0 where none were looked for). */
  readonly whatIfUsages: number;
  /** The currency of its amounts (billCurrency), null when the export names none. */
  readonly currency: string | null;
  /** The sums of the lines --filter keeps, null without; the filter's columns and values for the report. */
  readonly filtered: FilteredSums | null;
  /** --filter's columns as named, their values, and the file's column a plain name opens the page's filter by. */
  readonly filters: readonly {
    readonly column: string;
    readonly values: readonly string[];
    readonly opens?: string;
  }[];
  /** Each month's coverage, where the bill's lines span two months or more (several files, or a report). */
  readonly months: readonly MonthCoverage[] | null;
  /** The bill's period (its lines' first start, last end), where read: with a report or several files. */
  readonly period: BillPeriod | null;
}

/**
 * The summarise stage: the run's summary from what the stages before returned, and the bill's
 * currency read on its first lines.
 */
export async function summarise(run: BillRun, bill: WrittenBill): Promise<BillingSummary> {
  const { connection, request, terms } = run;
  const { read, lookedUp, groups, written } = bill;
  // What changes would save is the report's and --what-if's.
  const whatIf = request.whatIf === true || request.report === true;
  const { matches, coefficients, energies } = lookedUp;
  const currency = await billCurrency(connection, read);
  // The bill's instance usages, whose rates price the changes; a --filter's, among which they are looked for
  const usages = whatIf ? billUsages(groups, matches) : null;
  const ranked = written.filteredUsages ?? usages;
  const charges = await amortisedByCharges(connection, read);
  const column = coverageCostColumn(read.format, read.header);
  return {
    file: billName(read.parts),
    format: read.format,
    costColumn: charges === null ? column : `${column} (an amortised dataset: its ${charges} lines)`,
    amortisedCost: amortisedCostColumns(read.format, read.header).length > 0 || charges !== null,
    edition: terms.context.service.edition.id,
    joinNotes: read.joinNotes,
    groups,
    matches: [...matches.values()],
    totals: gridQueryTotals(totalsOf(groups, matches, coefficients, terms.criteria), written.grid),
    energyKwh: energyOf(groups, matches, energies),
    impactColumns: terms.impactColumnNames,
    report: written.report,
    grid: written.grid,
    whatIf: usages === null || ranked === null ? null : await whatIfs(terms, ranked, currency, usages),
    whatIfUsages: ranked?.length ?? 0,
    currency,
    filtered: written.filtered,
    months: written.months,
    period: written.period,
    filters: read.filterColumns.map(({ column, values }) => ({
      column: column.name,
      values,
      ...(column.opens === undefined ? {} : { opens: column.opens }),
    })),
  };
}

/**
 * The charges by which the export's lines say its cost is amortised (BillingFormat.amortisedCharges:
 * an Azure amortized dataset's unused reservation hours, `ChargeType UnusedReservation`), or null;
 * read on the first pass's tuples (billing_export_tuples, where the charge column is a describing
 * column): no line read again.
 */
async function amortisedByCharges(connection: DuckDBConnection, read: ReadExport): Promise<string | null> {
  const charges = read.format.amortisedCharges;
  if (charges === undefined) return null;
  const { header, runName } = filedColumns(read.views.header, read.views.renamed);
  const spelled = headerColumn(read.format, charges.column, header);
  if (spelled === null) return null;
  const column = runName(spelled);
  if (!read.tuple.columns.includes(column)) return null;
  const values = charges.values.map(literal).join(", ");
  const reader = await connection.runAndReadAll(
    `SELECT DISTINCT TRIM(CAST(${identifier(column)} AS VARCHAR)) AS charge FROM billing_export_tuples
     WHERE TRIM(CAST(${identifier(column)} AS VARCHAR)) IN (${values}) ORDER BY 1`,
  );
  const found = reader.getRowObjects().map((row) => String(row.charge));
  return found.length === 0 ? null : `${spelled} ${found.join(", ")}`;
}

/**
 * The key of the row an evaluated group's lines read (lookupKey(provider, matched type, place)) and
 * its units (hours of an instance, units of a method's key), or null for a group not evaluated.
 */
function groupRow(
  group: LineGroup,
  matches: ReadonlyMap<string, InstanceMatch>,
): { key: string; units: number } | null {
  if (group.problem !== null) return null;
  const billed = group.methodKey ?? group.instanceType;
  const matched = matches.get(lookupKey(group.provider ?? "", billed))?.matchedInstanceType ?? null;
  if (matched === null) return null;
  const units = group.methodKey === null ? group.hours : group.methodQuantity;
  return { key: lookupKey(group.provider ?? "", matched, group.place), units };
}

/** The energy of the evaluated groups: their units × their row's energy per unit. */
function energyOf(
  groups: readonly LineGroup[],
  matches: ReadonlyMap<string, InstanceMatch>,
  energies: ReadonlyMap<string, number | null>,
): number {
  let sum = 0;
  for (const group of groups) {
    const read = groupRow(group, matches);
    const energy = read === null ? null : (energies.get(read.key) ?? null);
    if (read !== null && energy !== null) sum += energy * read.units;
  }
  return sum;
}

function totalsOf(
  groups: readonly LineGroup[],
  matches: ReadonlyMap<string, InstanceMatch>,
  coefficients: ReadonlyMap<string, CoefficientRow>,
  criteria: readonly RequestedCriterion[],
): ImpactTotal[] {
  const totals = criteria.flatMap((criterion) =>
    PHASES.map((phase) => ({ criterion, phase, value: 0, min: 0, max: 0 })),
  );
  for (const group of groups) {
    const read = groupRow(group, matches);
    const row = read === null ? undefined : coefficients.get(read.key);
    if (read === null || row === undefined) continue;
    const { units } = read;
    for (const total of totals) {
      const impact = row.perHour[criteria.indexOf(total.criterion)][total.phase];
      if (impact === null) continue;
      total.value += impact.value * units;
      total.min += impact.min * units;
      total.max += impact.max * units;
    }
  }
  return totals;
}

/**
 * The run's totals with the series' gwp use: the value as written; min and max, the sums of the
 * written columns with --ranges, else the edition's scaled by the ratio of the totals.
 */
function gridQueryTotals<
  T extends {
    criterion: { info: { name: string } };
    phase: string;
    value: number;
    min: number;
    max: number;
  },
>(totals: readonly T[], grid: GridRun | null): T[] {
  if (grid === null) return [...totals];
  return totals.map((total) => {
    if (total.criterion.info.name !== "gwp" || total.phase !== "use") return total;
    const value = grid.useTotals.get(GRID_USE_VALUE) ?? total.value;
    const ratio = total.value > 0 ? value / total.value : 1;
    return {
      ...total,
      value,
      min: grid.useTotals.get(`${GRID_USE_VALUE}_min`) ?? total.min * ratio,
      max: grid.useTotals.get(`${GRID_USE_VALUE}_max`) ?? total.max * ratio,
    };
  });
}

const GRID_USE_VALUE = "gwp_use_kgco2eq";

/*
 * How much of a bill is estimated: lines and positive cost of the evaluated lines — the cost paid
 * for the hours (FOCUS EffectiveCost, a CUR's amortised cost where it has the columns, else the
 * billed cost: sql/classify/billing_usage_<format>.sql, src/billing/formats/ `amortisedCost`), so that a
 * reservation's fee counts where its hours are estimated —
 * per method and per service, and the services left unestimated, largest cost first. Credits and
 * refunds (negative costs) are left out of every sum: a share of a bill is a share of what it
 * charges.
 */

export interface CoverageRow {
  /** A method or a service; "" for lines without one. */
  readonly name: string;
  readonly lines: number;
  readonly cost: number;
  readonly estimatedLines: number;
  readonly estimatedCost: number;
}

/** A status of a service's unestimated lines, with those lines and their cost. */
export interface LeftStatus extends GroupFate {
  readonly lines: number;
  readonly cost: number;
}

/** A service with cost left unestimated, and the statuses of its unestimated lines. */
export interface UnestimatedRow extends CoverageRow {
  /** The `status` its unestimated lines are written with that bears the most of their cost (then lines). */
  readonly status: string;
  /** Every status of its unestimated lines, the most cost first (then lines, then by name). */
  readonly statuses: readonly LeftStatus[];
}

/** Charges set aside from the usage cost, carrying no hardware by the bill's own charge type. */
export interface SetAside {
  /** As the coverage names them (`taxes`, `support`…: SET_ASIDE_REASONS). */
  readonly name: string;
  readonly lines: number;
  readonly cost: number;
}

/** The bill's usage cost: its positive cost but the charges set aside, and the part estimated. */
export interface UsageCoverage {
  readonly cost: number;
  readonly estimatedCost: number;
  /** Of the estimated cost, what is estimated from its cost alone (by-cost, no quantity behind it). */
  readonly byCost: number;
  /** The charges set aside, the largest cost first. */
  readonly setAside: readonly SetAside[];
}

export interface Coverage {
  readonly total: CoverageRow;
  /** The usage's share: the cost but the charges carrying no hardware by the bill's charge type. */
  readonly usage: UsageCoverage;
  /** Evaluated lines per method, largest cost first. */
  readonly byMethod: readonly CoverageRow[];
  /** Every service, largest cost first. */
  readonly byService: readonly CoverageRow[];
  /** Services with cost left unestimated, largest unestimated cost first. */
  readonly unestimated: readonly UnestimatedRow[];
}

/**
 * What became of a group's lines: its status's code, the words the coverage keeps its lines under
 * (its `status` as the output writes it, with the reason of lines no method reads: `not compute: a
 * tax`) and that reason apart (null for other statuses).
 */
export interface GroupFate {
  readonly code: LineStatusCode;
  readonly status: string;
  readonly reason: string | null;
  /** Whether no rule reads its lines (no reason decided, or no rule reads their text): false for other statuses. */
  readonly unread: boolean;
}

/** A group's fate (its lines are estimated when its code is `evaluated`). */
export type GroupStatus = (group: LineGroup) => GroupFate;

function tally(rows: Map<string, CoverageRow>, name: string, group: LineGroup, estimated: boolean): void {
  const row = rows.get(name) ?? { name, lines: 0, cost: 0, estimatedLines: 0, estimatedCost: 0 };
  rows.set(name, {
    name,
    lines: row.lines + group.lines,
    cost: row.cost + group.cost,
    estimatedLines: row.estimatedLines + (estimated ? group.lines : 0),
    estimatedCost: row.estimatedCost + (estimated ? group.cost : 0),
  });
}

const byCost = (a: CoverageRow, b: CoverageRow) => b.cost - a.cost || a.name.localeCompare(b.name);

/** A service's unestimated statuses, the most cost first, then lines, then by name. */
function rankedStatuses(statuses: ReadonlyMap<string, LeftStatus> | undefined): LeftStatus[] {
  return [...(statuses ?? new Map<string, LeftStatus>()).values()].sort(
    (x, y) => y.cost - x.cost || y.lines - x.lines || x.status.localeCompare(y.status),
  );
}

/** The method that reads a line's cost, no quantity behind it (src/billing/registry/methods.ts). */
const BY_COST = "by-cost";

/** The usage cost: the positive cost but the lines no method reads whose reason sets them aside. */
function usageCoverage(
  groups: readonly LineGroup[],
  statusOf: GroupStatus,
  total: CoverageRow,
  byCost: number,
): UsageCoverage {
  const setAside = new Map<string, SetAside>();
  for (const group of groups) {
    const name = group.reason === null ? undefined : SET_ASIDE_REASONS.get(group.reason);
    if (name === undefined || statusOf(group).code !== "not-compute") continue;
    const sum = setAside.get(name) ?? { name, lines: 0, cost: 0 };
    setAside.set(name, { name, lines: sum.lines + group.lines, cost: sum.cost + group.cost });
  }
  const rows = [...setAside.values()].sort((a, b) => b.cost - a.cost || a.name.localeCompare(b.name));
  const aside = rows.reduce((sum, row) => sum + row.cost, 0);
  return { cost: total.cost - aside, estimatedCost: total.estimatedCost, byCost, setAside: rows };
}

export function billingCoverage(groups: readonly LineGroup[], statusOf: GroupStatus): Coverage {
  const total = new Map<string, CoverageRow>();
  const methods = new Map<string, CoverageRow>();
  const services = new Map<string, CoverageRow>();
  const left = new Map<string, Map<string, LeftStatus>>();
  for (const group of groups) {
    const fate = statusOf(group);
    const estimated = fate.code === "evaluated";
    const service = group.service ?? "";
    tally(total, "", group, estimated);
    if (estimated) tally(methods, group.method ?? "", group, true);
    tally(services, service, group, estimated);
    if (estimated) continue;
    const statuses = left.get(service) ?? new Map<string, LeftStatus>();
    const sum = statuses.get(fate.status) ?? { ...fate, cost: 0, lines: 0 };
    statuses.set(fate.status, { ...sum, cost: sum.cost + group.cost, lines: sum.lines + group.lines });
    left.set(service, statuses);
  }
  const byService = [...services.values()].sort(byCost);
  const leftCost = (row: CoverageRow) => row.cost - row.estimatedCost;
  const whole = total.get("") ?? { name: "", lines: 0, cost: 0, estimatedLines: 0, estimatedCost: 0 };
  return {
    total: whole,
    usage: usageCoverage(groups, statusOf, whole, methods.get(BY_COST)?.cost ?? 0),
    byMethod: [...methods.values()].sort(byCost),
    byService,
    unestimated: byService
      .filter((row) => leftCost(row) > 0)
      .sort((a, b) => leftCost(b) - leftCost(a) || a.name.localeCompare(b.name))
      .map((row) => {
        const statuses = rankedStatuses(left.get(row.name));
        return { ...row, status: statuses[0]?.status ?? "", statuses };
      }),
  };
}

/** A share in per cent, one decimal ("n/a" for nothing to share). */
export function percent(part: number, whole: number): string {
  return whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : "n/a";
}

/*
 * The currency a bill's amounts are in: the format's currency column (FOCUS BillingCurrency, CUR
 * line_item_currency_code, Azure BillingCurrency, Google currency, Oracle cost/currencyCode: each
 * format's `currency`, src/billing/formats/), read on the bill's first CURRENCY_LINES lines — a
 * bill is billed in one currency; a merged export's few are each named — so that the summary costs
 * no second pass over the file. Null when the export has no such column or leaves it empty.
 */

/** Lines read for the currency: a bill's first lines name it (LIMIT stops DuckDB's reader there). */
const CURRENCY_LINES = 100_000;

/**
 * Lines read first. A bill names one currency at most (one of several is refused after the first
 * pass: src/billing/stages/classify.ts), so where its first lines name one, its first
 * CURRENCY_LINES name that one; reading them cost 0.14-0.34 CPU s of a 1,000,000-line real-width
 * CSV, these 0.01-0.02 (bench/README.md, "Billing at a real width: where the command's time goes").
 */
const FIRST_LINES = 1_000;

/** Currencies named before the rest are counted. */
const NAMED = 3;

/** The bill's currency (`USD`), several joined (`EUR, USD`), or null. */
async function billCurrency(connection: DuckDBConnection, read: ReadExport): Promise<string | null> {
  // Found by the file's spelling, read by the run's name (`billing_currency` as input_billing_currency)
  const found = currencyColumns(read.views.format, read.views.header, read.views.renamed);
  if (found.length === 0) return null;
  const namedIn = (lines: number) =>
    connection.runAndReadAll(
      `SELECT DISTINCT currency FROM (SELECT ${currencySql(found)} AS currency FROM billing_export LIMIT ${lines})
       WHERE currency IS NOT NULL ORDER BY 1 LIMIT ${NAMED + 1}`,
    );
  const first = await namedIn(FIRST_LINES);
  const reader = first.currentRowCount > 0 ? first : await namedIn(CURRENCY_LINES);
  const names = reader.getRowObjects().map((row) => String(row.currency));
  if (names.length === 0) return null;
  return names.length > NAMED ? `${names.slice(0, NAMED).join(", ")}, …` : names.join(", ");
}
