import {
  costCell,
  FIGURES,
  MASS_SCALES,
  money,
  quantityCell,
  readable,
  type Scale,
  scaleOf,
} from "./readable.js";
import { chartLibrary, escapeHtml, FRAME_HEIGHT_SCRIPT, STYLE, scriptJson, table } from "./report.js";
import { criterionStyle, criterionSwitch, per } from "./reportParts/criterionSwitch.js";
import { equivalentsLine } from "./reportParts/equivalents.js";
import { EXPLORER_SCRIPT, EXPLORER_STYLE, explorerSection } from "./reportParts/explorer.js";
import { FILTERED_PARTS_SCRIPT, filteredTable } from "./reportParts/filteredParts.js";
import { FILTER_SCRIPT, FILTER_STYLE, filterSection } from "./reportParts/filters.js";
import type {
  GroupCube,
  OverTime,
  RankedRow,
  Ranking,
  ReportCriterion,
  WhatIf,
} from "./reportParts/model.js";
import {
  type BillPeriod,
  MONTHS_SCRIPT,
  MONTHS_STYLE,
  type MonthCoverage,
  monthSpan,
  monthsSection,
  monthsShown,
  spanText,
} from "./reportParts/months.js";
import { OVER_TIME_SCRIPT, overTimeSection } from "./reportParts/overTime.js";
import { pageScript } from "./reportParts/page.js";
import { SORTABLE_STYLE, sortHeading } from "./reportParts/sortable.js";
import { TABLE_TOOLS_SCRIPT } from "./reportParts/tableTools.js";
import { whatIfSection } from "./reportParts/whatIf.js";
import { unbrokenParts } from "./text.js";

/*
 * The report of a billing export: one self-contained HTML page (the inventory report's styles and
 * inlined ECharts, src/output/report.ts). Its first screen says how much (the chosen criterion's
 * total, embedded and use, and the energy) and where from (the largest services and regions); its
 * first chart when (the impacts per day or month, by service, the kWh beside); then what to act on
 * (the changes to the largest usages that save most), how much of the bill is estimated, the
 * groups a reader chooses, the impacts by service, region, account and method, the use by hour and
 * month where a grid series was used, and the largest resources. Every criterion the run computed
 * is in the page, one shown at a time (the switch). Every cost is of one basis, named under the
 * title (`costBasis`): the coverage's, so that each table's rows, with its last row summing the
 * rest, add up to the cost estimated.
 */

interface CoverageLine {
  readonly name: string;
  readonly lines: number;
  readonly cost: number;
  /** Why a service's lines are not estimated, when the registry says ("a fee", "unknown to the registry"). */
  readonly why?: string;
}

/** A phase's total with its range, in its criterion's unit. */
export interface PhaseTotal {
  readonly phase: string;
  readonly value: number;
  readonly min: number;
  readonly max: number;
}

export interface BillReportModel {
  readonly title: string;
  /** The export, its format, the edition, the date. */
  readonly subtitle: string;
  /** What every cost of the report is (`amortised cost, as EffectiveCost`), the currency apart. */
  readonly costBasis: string;
  /** Every criterion the run computed, in its order (the first shown first). */
  readonly criteria: readonly ReportCriterion[];
  /** Each criterion's phases' totals, in the criteria's order. */
  readonly totals: readonly (readonly PhaseTotal[])[];
  readonly coverage: {
    readonly lines: number;
    readonly estimatedLines: number;
    readonly cost: number;
    readonly estimatedCost: number;
    /**
     * The usage's share: the positive cost but the charges carrying no hardware by the bill's own
     * charge type (set aside, each named with its cost), in the bill's one currency.
     */
    readonly usage: {
      readonly cost: number;
      readonly estimatedCost: number;
      readonly byCost: number;
      readonly setAside: readonly { readonly name: string; readonly lines: number; readonly cost: number }[];
    };
    readonly byMethod: readonly CoverageLine[];
    readonly unestimated: readonly CoverageLine[];
  };
  readonly byMethod: Ranking;
  readonly byService: Ranking;
  readonly byRegion: Ranking;
  readonly byAccount: Ranking;
  readonly resources: Ranking;
  /** The impacts per day or month by service; null where no line's period reads. */
  readonly overTime: OverTime | null;
  /** The sums a reader groups and filters on the page; null without. */
  readonly groups: GroupCube | null;
  /** The command line that writes the same groups, before its `--group-by`. */
  readonly command: string;
  /**
   * The filter the page opens with (the command's `--filter`): each column's values, and `opens`,
   * the file's column a plain name (`region`) reads alone, by which the page's filter opens it.
   */
  readonly filters?: readonly {
    readonly column: string;
    readonly values: readonly string[];
    readonly opens?: string;
  }[];
  /** What changes to the largest usages save, ranked; null when not evaluated. */
  readonly whatIf: readonly WhatIf[] | null;
  /** The usages the changes were looked for among (0: nothing to move). */
  readonly whatIfUsages?: number;
  /** The edition the run evaluated in (the what-if's requests name it). */
  readonly edition?: string;
  /** Each month's coverage where the lines span two months or more. */
  readonly months?: readonly MonthCoverage[] | null;
  /** The bill's period (its lines' first start, last end), where read. */
  readonly period?: BillPeriod | null;
  /** The bill's currency (`USD`), or null when the export names none. */
  readonly currency: string | null;
  /** With a grid series: the gwp use of the lines that used it, by hour of the day and by month (UTC). */
  readonly grid?: {
    readonly series: string;
    readonly byHour: readonly GridShare[];
    readonly byMonth: readonly GridShare[];
  } | null;
}

/**
 * The report's tables as the page model has them, read from a bill's written lines
 * (src/billing/report/reportData.ts); the write stage carries them to the summary.
 */
export interface BillReportData
  extends Pick<
    BillReportModel,
    "byMethod" | "byService" | "byRegion" | "byAccount" | "resources" | "overTime"
  > {
  readonly criteria: readonly ReportCriterion[];
  /** The sums by the columns a reader may group by once the page is open. */
  readonly groups: GroupCube;
  /** The bill's currency (`USD`), several joined (`EUR, USD`), or null when the export has none. */
  readonly currency: string | null;
}

/** The lines of one hour of the day or month that used the grid series: their energy and gwp use. */
export interface GridShare {
  readonly name: string;
  readonly lines: number;
  readonly energyKwh: number;
  readonly gwpUse: number;
}

const share = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : "n/a");
/** A count of lines, thousands separated (a bill has millions): exact. */
const count = (value: number) => counts.format(value);
const counts = new Intl.NumberFormat("en-US");

/** `cost (USD)`: a table's cost heading with the bill's currency. */
const costHeading = (model: BillReportModel) =>
  model.currency === null ? "cost" : `cost (${escapeHtml(model.currency)})`;

/**
 * A name as a reader scans it: a resource's ARN or path by its last part (`arn:…:instance/i-0abc`
 * → `i-0abc`; `/subscriptions/…/virtualMachines/vm-1` → `vm-1`; a load balancer's
 * `…/app/web/5aa31f51e1f5640b` → `web`, the hash apart), the whole on hover.
 */
export function shortName(name: string): string {
  const resource = name.startsWith("arn:") ? name.slice(name.lastIndexOf(":") + 1) : name;
  const segments = resource.split("/").filter((segment) => segment !== "");
  if (segments.length < 2 && resource === name) return name;
  const last = segments.at(-1) ?? resource;
  const named = /^[0-9a-f]{12,}$/i.test(last) && segments.length > 2 ? segments[segments.length - 2] : last;
  return named === "" ? name : named;
}

function coverageTable(model: BillReportModel): string {
  const { coverage } = model;
  // The services not estimated say why when the registry knows (a fee, unknown to the registry)
  const row = (line: CoverageLine, why: boolean) =>
    `<tr><td class="name">${escapeHtml(line.name || "(none)")}</td><td class="n">${count(line.lines)}</td>${costCell(line.cost, model.currency)}<td class="n">${share(line.cost, coverage.cost)}</td>${why ? `<td>${escapeHtml(line.why ?? "")}</td>` : ""}</tr>`;
  const head = (why: boolean) =>
    `<tr><th></th><th>lines</th><th>${costHeading(model)}</th><th>of the bill</th>${why ? "<th>why</th>" : ""}</tr>`;
  const left =
    coverage.unestimated.length === 0
      ? "<p>None: every line with a cost is estimated.</p>"
      : table(`${head(true)}${coverage.unestimated.map((line) => row(line, true)).join("")}`);
  return `<div class="side"><div><h3>Estimated, per method</h3>${table(`${head(false)}${coverage.byMethod.map((line) => row(line, false)).join("")}`)}</div>
<div><h3>Largest services not estimated</h3>${left}</div></div>`;
}

/** A ranked row's name cell: its short name, its whole name or id on hover. */
function nameCell(row: RankedRow): string {
  const shown = shortName(row.name);
  const hover = row.id ?? (shown === row.name ? undefined : row.name);
  return `<td class="name"${hover === undefined ? "" : ` title="${escapeHtml(hover)}"`}>${unbrokenParts(shown || "(none)")}</td>`;
}

/** A cell a sortable table sorts by its exact value. */
const sorted = (cell: string, value: number | null) => cell.replace("<td ", `<td data-v="${value ?? ""}" `);

/** How a ranked table is drawn: the criterion shown, its scales, and whether it has an intensity column. */
interface RankedColumns {
  readonly criterion: number;
  readonly scale: Scale;
  readonly energy: Scale;
  readonly intensity: Scale | null;
}

/** A row of a ranked table: name, lines, cost, embedded, use, kWh and, where asked, impact per cost. */
function rankedRow(model: BillReportModel, row: RankedRow, columns: RankedColumns, kind = ""): string {
  const unit = model.criteria[columns.criterion]?.unit ?? "";
  const phases = row.impacts[columns.criterion] ?? { embedded: 0, use: 0 };
  const total = phases.embedded + phases.use;
  const perCost = row.cost > 0 ? total / row.cost : null;
  const intensity =
    columns.intensity === null
      ? ""
      : perCost === null
        ? `<td class="na" data-v="">n/a</td>`
        : sorted(quantityCell(perCost, unit, columns.intensity), perCost);
  // A tablet or a phone keeps the total (its phases are a desktop's), a phone not the lines
  const quantity = (value: number, className: string) =>
    sorted(quantityCell(value, unit, columns.scale, className), value);
  return `<tr${kind === "" ? "" : ` class="${kind}"`}>${nameCell(row)}<td class="n wide" data-v="${row.lines}">${count(row.lines)}</td>${sorted(costCell(row.cost, model.currency), row.cost)}${quantity(phases.embedded, "n mid")}${quantity(phases.use, "n mid")}${quantity(total, "n")}${sorted(quantityCell(row.energy, "kWh", columns.energy), row.energy)}${intensity}</tr>`;
}

/**
 * The scale of the impact per unit of cost, one for every table of a criterion (the bill's own
 * rate's: its total over its estimated cost), so that `gCO2eq per USD` reads alike in each.
 */
function intensityScale(model: BillReportModel, criterion: number, rates: readonly number[]): Scale {
  const unit = model.criteria[criterion]?.unit ?? "";
  const cost = model.coverage.estimatedCost;
  const whole = phasesTotal(model.totals[criterion] ?? []);
  return scaleOf(unit, cost > 0 && whole > 0 ? [whole / cost] : rates);
}

/**
 * A ranking's table for each criterion: its largest rows, then the rest in one row, so that its
 * costs sum to the estimated cost; sortable by every column. `intensity`: with the impact per
 * unit of cost (where money and carbon diverge).
 */
function rankedTable(model: BillReportModel, ranking: Ranking, intensity = false): string {
  const all = ranking.others === null ? ranking.rows : [...ranking.rows, ranking.others];
  return per(model.criteria, (criterion) => {
    const unit = model.criteria[criterion]?.unit ?? "";
    const scale = scaleOf(
      unit,
      all.map((row) => (row.impacts[criterion]?.embedded ?? 0) + (row.impacts[criterion]?.use ?? 0)),
    );
    const rates = all.flatMap((row) => {
      const phases = row.impacts[criterion];
      return row.cost > 0 && phases !== undefined ? [(phases.embedded + phases.use) / row.cost] : [];
    });
    const columns = {
      criterion,
      scale,
      energy: scaleOf(
        "kWh",
        all.map((row) => row.energy),
      ),
      intensity: intensity ? intensityScale(model, criterion, rates) : null,
    };
    const body = ranking.rows.map((row) => rankedRow(model, row, columns)).join("");
    const others = ranking.others === null ? "" : rankedRow(model, ranking.others, columns, "others");
    const scaled = escapeHtml(scale.unit);
    const rate =
      columns.intensity === null
        ? ""
        : sortHeading(
            `${escapeHtml(columns.intensity.unit)} per ${escapeHtml(model.currency ?? "unit of cost")}`,
          );
    return `<div class="table"><table class="sortable"><thead><tr><th></th>${sortHeading("lines", "wide")}${sortHeading(costHeading(model))}${sortHeading(`embedded (${scaled})`, "mid")}${sortHeading(`use (${scaled})`, "mid")}${sortHeading(`${escapeHtml(model.criteria[criterion]?.name ?? "")} (${scaled})`)}${sortHeading(escapeHtml(columns.energy.unit))}${rate}</tr></thead><tbody>${body}${others}</tbody></table></div>`;
  });
}

/** Rows of each list of the first screen. */
const FIRST_SCREEN_ROWS = 5;

/** The first screen's "where from": the largest of a ranking, its share of the total and its cost. */
function largestList(model: BillReportModel, title: string, ranking: Ranking): string {
  if (ranking.rows.length === 0) return "";
  const shown = ranking.rows.slice(0, FIRST_SCREEN_ROWS);
  // The rest summed in one row, so that the list adds up to the total
  const rest = [
    ...ranking.rows.slice(FIRST_SCREEN_ROWS),
    ...(ranking.others === null ? [] : [ranking.others]),
  ];
  const restCount = ranking.rows.length - shown.length + (ranking.others === null ? 0 : ranking.more);
  const lists = per(model.criteria, (criterion) => {
    const unit = model.criteria[criterion]?.unit ?? "";
    const whole = phasesTotal(model.totals[criterion] ?? []);
    const totalOf = (row: RankedRow) =>
      (row.impacts[criterion]?.embedded ?? 0) + (row.impacts[criterion]?.use ?? 0);
    const scale = scaleOf(unit, shown.map(totalOf));
    const body = shown
      .map(
        (row) =>
          `<tr>${nameCell(row)}${quantityCell(totalOf(row), unit, scale, "n total")}<td class="n">${share(totalOf(row), whole)}</td>${costCell(row.cost, model.currency)}</tr>`,
      )
      .join("");
    const restTotal = rest.reduce((sum, row) => sum + totalOf(row), 0);
    const restCost = rest.reduce((sum, row) => sum + row.cost, 0);
    const others =
      rest.length === 0
        ? ""
        : `<tr class="others"><td class="name">${count(restCount)} more</td>${quantityCell(restTotal, unit, scale, "n total")}<td class="n">${share(restTotal, whole)}</td>${costCell(restCost, model.currency)}</tr>`;
    const name = escapeHtml(model.criteria[criterion]?.name ?? "");
    return table(
      `<tr><th></th><th>${name} (${escapeHtml(scale.unit)})</th><th>of the total</th><th>${costHeading(model)}</th></tr>${body}${others}`,
    );
  });
  return `<div><h2>${title}</h2>${lists}</div>`;
}

const phasesTotal = (phases: readonly PhaseTotal[]) => phases.reduce((sum, phase) => sum + phase.value, 0);

/** The first screen's cards: the chosen criterion's total, embedded and use, scaled to the total; the energy. */
function impactCards(model: BillReportModel): string {
  const energy = [
    ...model.byMethod.rows,
    ...(model.byMethod.others === null ? [] : [model.byMethod.others]),
  ].reduce((sum, row) => sum + row.energy, 0);
  const kwhScale = scaleOf("kWh", [energy]);
  const kwh = `<div class="card" title="${energy} kWh"><b>${escapeHtml(readable(energy, "kWh", kwhScale))} ${kwhScale.unit}</b>energy of the lines estimated (use, PUE included)</div>`;
  const cards = per(model.criteria, (criterion) => {
    const { name, unit } = model.criteria[criterion];
    const phases = model.totals[criterion] ?? [];
    const total = phasesTotal(phases);
    const scale = scaleOf(unit, [total]);
    const figureOf = (v: number) => escapeHtml(readable(v, unit, scale));
    const value = (v: number) => `${figureOf(v)} ${escapeHtml(scale.unit)}`;
    const each = phases
      .map(
        (phase) =>
          `<div class="card"><b>${value(phase.value)}</b>${escapeHtml(name)} ${escapeHtml(phase.phase)} (${figureOf(phase.min)} – ${figureOf(phase.max)})</div>`,
      )
      .join("");
    return `<div class="cards"><div class="card total"><b>${value(total)}</b>${escapeHtml(name)} of the lines estimated, embedded and use</div>${each}${kwh}</div>`;
  });
  return model.criteria.length === 0 ? `<div class="cards">${kwh}</div>` : cards;
}

/** The gwp total as equivalents a reader grasps, under the first screen's lists (gwp shown alone). */
function equivalentsPart(model: BillReportModel): string {
  if (!model.criteria.some(({ name, unit }) => name === "gwp" && unit === "kgCO2eq")) return "";
  return per(model.criteria, (criterion) => {
    const { name, unit } = model.criteria[criterion];
    return name === "gwp" && unit === "kgCO2eq"
      ? equivalentsLine(phasesTotal(model.totals[criterion] ?? []))
      : "";
  });
}

/** Draws the rankings' charts for the chosen criterion, again when it changes. */
const DRAW_RANKINGS = `
function drawRanking(chart, rows) {
  const c = chosen();
  const criterion = data.criteria[c];
  const total = (r) => r.impacts[c].embedded + r.impacts[c].use;
  const scale = scaleOf(criterion.unit, rows.map(total));
  // The names' room: up to 40 % of the width (a phone's 390 px keeps its bars).
  const left = Math.round(Math.min(230, chart.getWidth() * 0.4));
  chart.setOption({
    animation: false, color: ["#5470c6", "#91cc75"],
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v) => readable(v * scale.divisor, criterion.unit) },
    legend: { data: phases, top: 0 },
    grid: { left, right: 24, top: 40, bottom: 50 },
    xAxis: { type: "value", name: criterion.name + " (" + scale.unit + ")", nameLocation: "middle", nameGap: 28,
      splitNumber: left < 200 ? 3 : 5, axisLabel: { formatter: fmt, hideOverlap: true } },
    // A long name wraps on two lines rather than being cut (its whole text in the tooltip)
    yAxis: { type: "category", inverse: true, data: rows.map((r) => r.name || "(none)"),
      axisLabel: { width: left - 12, overflow: "break", lineHeight: 13, fontSize: 11 } },
    series: phases.map((phase) => ({ name: phase, type: "bar", stack: "total", data: rows.map((r) => r.impacts[c][phase] / scale.divisor) })),
  }, true);
}
// Under a filter, the filter's rows (src/output/reportParts/filteredParts.ts), the twelve largest
const rowsOf = (id, rows) => (isFiltered() && data.cube && data.cube.dimensions ? rankedRows(id.slice("chart-".length)).slice(0, 12) : rows);
for (const [id, rows] of Object.entries(data.rankings)) {
  const element = document.getElementById(id);
  if (!element || rows.length === 0 || data.criteria.length === 0) continue;
  const chart = counted(element);
  drawRanking(chart, rowsOf(id, rows));
  document.addEventListener("criterion", () => drawRanking(chart, rowsOf(id, rows)));
  document.addEventListener("filter", () => drawRanking(chart, rowsOf(id, rows)));
}
`;

/** The grid series' use: gwp use as bars, the intensity it averages (gCO2eq/kWh) as a line. */
const GRID_CHARTS = `
for (const [id, rows] of Object.entries(data.grid ?? {})) {
  const element = document.getElementById(id);
  if (!element || rows.length === 0) continue;
  const chart = counted(element);
  const scale = scaleOf("kgCO2eq", rows.map((r) => r.gwpUse));
  const use = "gwp use (" + scale.unit + ")";
  chart.setOption({
    animation: false, color: ["#91cc75", "#ee6666"], tooltip: { trigger: "axis" },
    legend: { data: [use, "intensity (gCO2eq/kWh)"], top: 0 },
    grid: { left: 60, right: 60, top: 40, bottom: 40 },
    xAxis: { type: "category", data: rows.map((r) => r.name), axisLabel: { hideOverlap: true } },
    yAxis: [{ type: "value", name: scale.unit, axisLabel: { formatter: fmt, hideOverlap: true } }, { type: "value", name: "gCO2eq/kWh", axisLabel: { hideOverlap: true } }],
    series: [
      { name: use, type: "bar", data: rows.map((r) => r.gwpUse / scale.divisor) },
      { name: "intensity (gCO2eq/kWh)", type: "line", yAxisIndex: 1, data: rows.map((r) => r.energyKwh > 0 ? (1000 * r.gwpUse) / r.energyKwh : null) },
    ],
  });
}
`;

/** Tells the page showing the report in its frame the what-if it recomputes (src/http/site/whatIfPanel.ts). */
const TELL_WHAT_IF = `
if (window.parent !== window && data.whatIf) window.parent.postMessage({ reportWhatIf: data.whatIf }, "*");
`;

/** The page's script: its helpers, then each part's drawing. */
const DRAW = pageScript(
  FILTER_SCRIPT,
  OVER_TIME_SCRIPT,
  DRAW_RANKINGS,
  EXPLORER_SCRIPT,
  FILTERED_PARTS_SCRIPT,
  MONTHS_SCRIPT,
  GRID_CHARTS,
  TELL_WHAT_IF,
);

/** A ranking's rows as its chart draws them: short names, every criterion's phases. */
const chartRows = (ranking: Ranking) =>
  ranking.rows.map((row) => ({ name: shortName(row.name), impacts: row.impacts }));

/** The data the page's script reads. */
function pageData(model: BillReportModel) {
  return {
    criteria: model.criteria,
    scales: MASS_SCALES,
    figures: FIGURES,
    currency: model.currency,
    costs: true,
    rankings: {
      "chart-service": chartRows(model.byService),
      "chart-region": chartRows(model.byRegion),
      "chart-account": chartRows(model.byAccount),
      "chart-method": chartRows(model.byMethod),
    },
    overTime: model.overTime,
    cube: model.groups,
    groupDefault: groupDefault(model.groups),
    command: model.command,
    filters: (model.filters ?? []).map(({ column, opens, values }) => ({ column: opens ?? column, values })),
    filterable: true,
    months: monthsShown(model.months),
    whatIf: whatIfTold(model),
    grid: model.grid
      ? { "chart-grid-hour": model.grid.byHour, "chart-grid-month": model.grid.byMonth }
      : null,
  };
}

/**
 * What the report tells the /evaluate page that shows it (its "Try a change", which recomputes
 * the changes through the service's GraphQL): the edition, currency, load and each change's usage,
 * places and figures.
 */
function whatIfTold(model: BillReportModel) {
  if (model.whatIf === null || model.whatIf.length === 0 || model.edition === undefined) return null;
  const usage = (request: WhatIf["requests"]["from"]) =>
    (request.rest.body as { usage?: Record<string, unknown> }).usage ?? {};
  const load = usage(model.whatIf[0].requests.from).time_workload;
  return {
    edition: model.edition,
    currency: model.currency,
    load: typeof load === "number" ? load : null,
    rows: model.whatIf.map((change) => ({
      provider: change.provider,
      instanceType: change.instanceType,
      place: change.place,
      change: change.change,
      toInstanceType: change.toInstanceType,
      toPlace: change.toPlace,
      hours: change.hours,
      price: change.price,
      toPrice: change.toPrice,
      priceOrigin: change.priceOrigin,
      placePrices: change.placePrices,
      gwp: change.gwp,
      toGwp: change.toGwp,
      from: usage(change.requests.from),
      to: usage(change.requests.to),
    })),
  };
}

/**
 * The run's --filter columns the page cannot open its filter with: no column of that name among
 * those it filters (`month`; a plain name read from several columns), or none of the values.
 */
function unopenedFilters(model: BillReportModel): string[] {
  const columns = model.groups?.columns ?? [];
  return (model.filters ?? []).flatMap(({ column, opens, values }) => {
    const offered = columns.find((candidate) => candidate.name === (opens ?? column));
    return offered !== undefined && values.every((value) => offered.values.includes(value)) ? [] : [column];
  });
}

/**
 * Whose lines "What to act on" ranks: under a filter set in the page, the run's (its --filter's);
 * and always where the page could not open the run's filter, its figures then the whole bill's.
 */
function whatIfScope(model: BillReportModel): string {
  const filters = model.filters ?? [];
  if (filters.length === 0)
    return '<p class="sub filtered-only">What to act on is the whole bill\'s, whatever the filter.</p>';
  const said = filters.map(({ column, values }) => `${column}=${values.join(" or ")}`).join(", ");
  const unopened = unopenedFilters(model);
  if (unopened.length === 0)
    return `<p class="sub filtered-only">${escapeHtml(`What to act on is the run's: the lines of its --filter (${said}), whatever the filter set here.`)}</p>`;
  return `<p class="sub">${escapeHtml(`What to act on is the run's: the lines of its --filter (${said}). This page's figures are the whole bill's: its filter has no ${unopened.join(", ")} to open with.`)}</p>`;
}

/** The column the page first groups by: the bill's service, else the first offered. */
function groupDefault(cube: GroupCube | null): number {
  const services = [
    "servicename",
    "product_product_name",
    "line_item_product_code",
    "metercategory",
    "service_description",
    "service.description",
    "product_service",
    "product/service",
  ];
  const at = cube?.columns.findIndex((column) => services.includes(column.name.toLowerCase())) ?? -1;
  return Math.max(0, at);
}

function gridSection(model: BillReportModel): string {
  if (!model.grid) return "";
  return `<h2>Use with the grid series</h2><p class="sub">${escapeHtml(model.grid.series)}: the gwp use of the lines that used it, and the intensity it averages, by the hour of the day and by the month of their start (UTC)</p>
<div class="side"><div><h3>By hour of the day</h3><div id="chart-grid-hour" class="chart"></div></div><div><h3>By month</h3><div id="chart-grid-month" class="chart"></div></div></div>`;
}

/** Seconds in a day. */
const DAY_SECONDS = 86_400;

/**
 * What the chart over time covers, where its first or last step is partial (the lines start or
 * end inside a day or month): `The lines cover 2023-11-13 05:00 to 2023-11-13 12:00 UTC (7 h): its
 * first and last days are partial, their bars of those hours alone.`
 */
function coveredNote(model: BillReportModel): string {
  const { period, overTime } = model;
  if (!period || overTime === null || overTime.steps.length === 0) return "";
  const grain = overTime.grain;
  const whole = (seconds: number) =>
    grain === "day"
      ? seconds % DAY_SECONDS === 0
      : new Date(seconds * 1000).toISOString().slice(8, 19) === "01T00:00:00";
  if (whole(period.first) && whole(period.last)) return "";
  const steps =
    overTime.steps.length === 1
      ? `its one ${grain} is partial, its bar`
      : `its first and last ${grain}s are partial, their bars`;
  return `The lines cover ${spanText(period.first, period.last)}: ${steps} of those hours alone.`;
}

/** Each month's coverage as a table: its lines and positive cost, and the part estimated. */
function monthsCoverage(model: BillReportModel): string {
  if (!model.months) return "";
  const rows = model.months.map(
    (month) =>
      `<tr><td>${escapeHtml(month.month)}${monthSpan(month)?.partial === true ? " (partial)" : ""}</td><td class="n">${count(month.estimatedLines)} of ${count(month.lines)}</td>${costCell(month.estimatedCost, model.currency)}${costCell(month.cost, model.currency)}<td class="n">${share(month.estimatedCost, month.cost)}</td></tr>`,
  );
  return `<h3>Each month's coverage</h3>${table(`<tr><th>month</th><th>lines estimated</th><th>${costHeading(model)} estimated</th><th>of the positive cost</th><th>share</th></tr>${rows.join("")}`)}`;
}

/** The usage's share of the cost estimated. */
function usageCard(model: BillReportModel, card: (label: string, value: string) => string): string {
  const { usage } = model.coverage;
  const currency = model.currency === null ? "" : ` ${escapeHtml(model.currency)}`;
  const quantity = usage.estimatedCost - usage.byCost;
  return card(
    `of the usage cost estimated (${escapeHtml(money(usage.estimatedCost))} of ${escapeHtml(money(usage.cost))}${currency}; from a quantity ${share(quantity, usage.cost)}, from cost alone ${share(usage.byCost, usage.cost)})`,
    share(usage.estimatedCost, usage.cost),
  );
}

/** The charges set aside from the usage cost, each with its cost. */
function setAsideLine(model: BillReportModel): string {
  const { usage } = model.coverage;
  if (usage.setAside.length === 0) return "";
  const named = usage.setAside.map(
    (row) =>
      `${escapeHtml(row.name)} ${escapeHtml(money(row.cost))} (${count(row.lines)} ${row.lines === 1 ? "line" : "lines"})`,
  );
  return `<p class="sub">Set aside from the usage cost (no hardware of their own, by the bill's charge type or estimated on other lines): ${named.join(", ")}.</p>\n`;
}

export function billReportHtml(model: BillReportModel): string {
  const { coverage } = model;
  const card = (label: string, value: string) => `<div class="card"><b>${value}</b>${label}</div>`;
  const section = (id: string, title: string, ranking: Ranking, intensity = false) =>
    `<div><h2>${title}</h2><div id="${id}" class="chart tall"></div><div class="unfiltered">${rankedTable(model, ranking, intensity)}</div>${filteredTable(id.slice("chart-".length), intensity)}</div>`;
  const currency = model.currency === null ? "" : ` ${escapeHtml(model.currency)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(model.title)}</title><style>${STYLE}${criterionStyle(model.criteria)}${SORTABLE_STYLE}${EXPLORER_STYLE}${FILTER_STYLE}${MONTHS_STYLE}</style></head>
<body data-c="0">
<h1>${escapeHtml(model.title)}</h1><p class="sub">${escapeHtml(model.subtitle)}</p>
<p class="basis">Every cost below, its totals and shares: <b>${escapeHtml(model.costBasis)}</b>${currency === "" ? "" : `, in${currency}`}. Lines and impacts are those the run estimated; the exact value of each figure is on its hover and in the output file.</p>
${criterionSwitch(model.criteria)}
${filterSection(model.groups, "lines")}
<div class="unfiltered">${impactCards(model)}</div><div class="filtered-only" id="filtered-cards"></div>
<div class="side unfiltered">${largestList(model, "Largest services", model.byService)}${largestList(model, "Largest regions", model.byRegion)}</div><div class="side filtered-only" id="filtered-largest"></div>
<div class="unfiltered">${equivalentsPart(model)}</div>
${overTimeSection(model.overTime, "lines", coveredNote(model))}
${monthsSection(model.groups, monthsCoverage(model), monthsShown(model.months))}
${whatIfSection(model.whatIf, model.currency, "usages (an instance type at a place, its hours summed)", true, model.whatIfUsages ?? null)}
${model.whatIf === null ? "" : whatIfScope(model)}
<h2>Coverage</h2>
<p class="sub filtered-only">The whole bill's, whatever the filter: how much of its cost is estimated.</p>
<div class="cards">${card("lines", count(coverage.lines))}${card("lines estimated", count(coverage.estimatedLines))}${card(`of the positive cost estimated (${escapeHtml(money(coverage.estimatedCost))} of ${escapeHtml(money(coverage.cost))}${currency})`, share(coverage.estimatedCost, coverage.cost))}${usageCard(model, card)}</div>
${setAsideLine(model)}${coverageTable(model)}
${explorerSection(model.groups, "lines")}
${section("chart-service", "By service", model.byService, true)}
${section("chart-region", "By region", model.byRegion)}
${section("chart-account", "By account", model.byAccount, true)}
${section("chart-method", "By method", model.byMethod)}
${gridSection(model)}<h2>Largest resources</h2><div class="unfiltered">${rankedTable(model, model.resources, true)}</div>${filteredTable("resource", true)}
<script type="application/json" id="report-data">${scriptJson(pageData(model))}</script>
<script>${chartLibrary()}</script>
<script>${DRAW}${TABLE_TOOLS_SCRIPT}${FRAME_HEIGHT_SCRIPT}</script>
</body></html>
`;
}
