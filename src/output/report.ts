import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { PHASES } from "./columns.js";
import { FIGURES, figure, MASS_SCALES, quantityCell, readable, scaleOf } from "./readable.js";
import { criterionStyle, criterionSwitch, per } from "./reportParts/criterionSwitch.js";
import { EXPLORER_SCRIPT, EXPLORER_STYLE, explorerSection } from "./reportParts/explorer.js";
import { FILTER_SCRIPT, FILTER_STYLE, filterSection } from "./reportParts/filters.js";
import { LEGEND_STYLE } from "./reportParts/legend.js";
import type { GroupCube, OverTime, ReportCriterion, WhatIf } from "./reportParts/model.js";
import { OVER_TIME_SCRIPT, overTimeSection } from "./reportParts/overTime.js";
import { pageScript } from "./reportParts/page.js";
import { SORTABLE_STYLE, sortHeading } from "./reportParts/sortable.js";
import { TABLE_TOOLS_SCRIPT, TABLE_TOOLS_STYLE } from "./reportParts/tableTools.js";
import { whatIfSection } from "./reportParts/whatIf.js";
import type { AssessedRow, CriterionUnit, Group, RowImpacts, Sums } from "./table.js";
import { escapeHtml, withoutControls } from "./text.js";

export { escapeHtml };

/*
 * The report: one self-contained HTML file (styles, data and the charting library inline, no
 * request at view time) with the totals per criterion and their ranges, embedded against use,
 * the largest contributors, the groups (largest first), the rows that failed or carry
 * warnings, and with a grid series the gwp use by hour of day and month. Charts are drawn by
 * Apache ECharts (SVG renderer). Every number of the page — cards, tables, chart labels — is
 * written by one format (FIGURES). Its model is gathered row by row with bounded memory: only
 * the largest rows and the first failed and warned ones are kept.
 */

/** Rows kept of each list (largest contributors, failed rows, warned rows). */
const CONTRIBUTORS = 10;
const LISTED_ROWS = 100;

interface ReportRow {
  /** The input line the row starts on. */
  readonly line: number;
  readonly label: string;
  readonly impacts: RowImpacts | null;
  readonly note: string;
}

/** A criterion as the report shows it: its unit and what it measures, in a line. */
interface MeaningfulCriterion extends CriterionUnit {
  readonly meaning?: string;
}

/** What the embedded phase is, where the edition gives no more precise wording. */
const EMBEDDED_MEANING =
  "Embedded is each asset's manufacturing impact allocated over the hours evaluated (their share of its lifetime).";

/** The gwp use of the rows evaluated with a grid series (`--grid-intensity`), over time. */
export interface GridUse {
  /** Rows whose gwp use came from the series, of the rows with a gwp use (the series' summary line's counts). */
  readonly rows: number;
  readonly of: number;
  readonly zones: readonly string[];
  /** kgCO2eq by hour of day, UTC 0–23. */
  readonly byHour: readonly number[];
  /** kgCO2eq by month (`YYYY-MM`), every month from the first to the last. */
  readonly byMonth: readonly (readonly [string, number])[];
}

interface ReportModel {
  readonly title: string;
  /** What was evaluated: the input, the edition, the date. */
  readonly subtitle: string;
  /** A line under it on how the run was evaluated (the grid series used and what it lacked). */
  readonly note?: string;
  readonly criteria: readonly MeaningfulCriterion[];
  /** What the embedded phase is in the edition shown (default EMBEDDED_MEANING). */
  readonly embedded?: string;
  readonly totals: Sums;
  readonly groupColumns: readonly string[];
  readonly groups: readonly Group[];
  readonly contributors: readonly ReportRow[];
  readonly failed: readonly ReportRow[];
  readonly warned: readonly ReportRow[];
  /** Set when a grid series gave rows their gwp use: the charts of that use by hour and month. */
  readonly gridUse?: GridUse;
  /** Set when the run was interrupted: the report covers the rows evaluated before. */
  readonly interrupted: boolean;
  /** The impacts per day, month or year of the rows with a period, by kind (src/cli/inventory/inventoryReport.ts). */
  readonly overTime?: OverTime | null;
  /** The sums by the columns a reader groups and filters by on the page. */
  readonly cube?: GroupCube | null;
  /** What moving or renewing the largest cloud rows saves; null when not evaluated. */
  readonly whatIf?: readonly WhatIf[] | null;
  /** The command line that writes the groups the page shows, before its `--group-by`. */
  readonly command?: string;
}

/** A row's impact of a criterion over both phases (what "largest" means). */
function rowTotal(impacts: RowImpacts | null, criterion: string): number {
  const phases = impacts?.[criterion];
  return (phases?.embedded?.value ?? 0) + (phases?.use?.value ?? 0);
}

/** Gathers the report's rows: the largest by the first criterion, the first failed and warned ones. */
export function reportRows(criterion: string | undefined, label: (row: AssessedRow) => string) {
  const contributors: ReportRow[] = [];
  const failed: ReportRow[] = [];
  const warned: ReportRow[] = [];
  return {
    add(row: AssessedRow) {
      if (row.impacts === null) {
        if (failed.length < LISTED_ROWS) {
          failed.push({ line: row.line, label: label(row), impacts: null, note: row.status });
        }
        return;
      }
      if (row.warnings.length > 0 && warned.length < LISTED_ROWS) {
        warned.push({
          line: row.line,
          label: label(row),
          impacts: row.impacts,
          note: row.warnings.join("; "),
        });
      }
      if (criterion === undefined) return;
      const total = rowTotal(row.impacts, criterion);
      const smallest = contributors[contributors.length - 1];
      if (contributors.length === CONTRIBUTORS && rowTotal(smallest.impacts, criterion) >= total) return;
      if (contributors.length === CONTRIBUTORS) contributors.pop();
      const at = contributors.findIndex((kept) => rowTotal(kept.impacts, criterion) < total);
      contributors.splice(at === -1 ? contributors.length : at, 0, {
        line: row.line,
        label: label(row),
        impacts: row.impacts,
        note: "",
      });
    },
    result: () => ({ contributors, failed, warned }),
  };
}

/**
 * A report shown in a frame (the /evaluate page's, sandboxed: its document has an origin of its
 * own, so the page cannot read its height) tells the page its height, a number and nothing else,
 * whenever it changes (its charts drawn, the window narrowed).
 */
export const FRAME_HEIGHT_SCRIPT = `if (window.parent !== window) {
  const tell = () => window.parent.postMessage({ reportHeight: document.documentElement.scrollHeight }, "*");
  new ResizeObserver(tell).observe(document.body);
}
`;

/** JSON inside a script element: no `</script>` can end it early. */
export const scriptJson = (value: unknown) => JSON.stringify(value).replaceAll("<", "\\u003c");

let library: string | undefined;
/** ECharts' browser build (bars and pies, both renderers), inlined once per process. */
export function chartLibrary(): string {
  library ??= readFileSync(
    createRequire(import.meta.url).resolve("echarts/dist/echarts.common.min.js"),
    "utf8",
  ).replaceAll("</script", "<\\/script");
  return library;
}

/** A criterion's impact over both phases in sums. */
const sumsTotal = (sums: Sums, criterion: string) => rowTotal(sums.impacts, criterion);

/** The groups, largest first by the first criterion (ties in order of first appearance). */
function largestFirst(groups: readonly Group[], criterion: string | undefined): Group[] {
  if (criterion === undefined) return [...groups];
  return [...groups].sort((a, b) => sumsTotal(b.sums, criterion) - sumsTotal(a.sums, criterion));
}

function totalsTable(model: ReportModel): string {
  const rows = model.criteria.map(({ criterion, unit, meaning }) => {
    const sums = model.totals.impacts[criterion];
    const scale = scaleOf(unit, [sumsTotal(model.totals, criterion)]);
    const value = (v: number | undefined) => (v === undefined ? "" : escapeHtml(readable(v, unit, scale)));
    const cell = (v: number | undefined, className = "n") =>
      v === undefined ? `<td class="${className}"></td>` : quantityCell(v, unit, scale, className);
    const phases = PHASES.map((phase) => {
      const sum = sums?.[phase];
      const spread = sum === undefined ? "" : `${value(sum.min)} – ${value(sum.max)}`;
      return `${cell(sum?.value)}<td class="n ranges">${spread}</td>`;
    }).join("");
    const total = sums === undefined ? "<td></td>" : cell(sumsTotal(model.totals, criterion), "n total");
    return `<tr><td><b>${escapeHtml(criterion)}</b></td><td class="wide">${escapeHtml(meaning ?? "")}</td><td>${escapeHtml(scale.unit)}</td>${total}${phases}</tr>`;
  });
  const phases = PHASES.map(
    (phase) => `<th>${phase}</th><th class="ranges">${phase} range (min – max)</th>`,
  ).join("");
  return table(
    `<thead><tr><th>criterion</th><th class="wide">what it measures</th><th>unit</th><th>total</th>${phases}</tr></thead><tbody>${rows.join("")}</tbody>`,
  );
}

/** A table that scrolls within its own box when a phone is narrower than it, never the page. */
export const table = (inner: string) => `<div class="table"><table>${inner}</table></div>`;

function rowsTable(rows: readonly ReportRow[], count: number, what: string, empty: string): string {
  if (count === 0) return `<p>${empty}</p>`;
  const more =
    count > rows.length ? `<p>${rows.length} of ${count} shown; every row is in the table output.</p>` : "";
  const body = rows.map(
    (row) =>
      `<tr><td class="n">${row.line}</td><td>${escapeHtml(row.label)}</td><td>${escapeHtml(row.note)}</td></tr>`,
  );
  return `${table(`<thead><tr><th>line</th><th>row</th><th>${what}</th></tr></thead><tbody>${body.join("")}</tbody>`)}${more}`;
}

function groupsTable(model: ReportModel, groups: readonly Group[]): string {
  if (model.groupColumns.length === 0 || model.criteria.length === 0) return "";
  const energies = groups.map((group) => group.sums.energyKwh ?? 0);
  const energy = scaleOf("kWh", energies);
  const named = switchable(model);
  return per(named, (index) => {
    const { criterion, unit } = model.criteria[index];
    const scale = scaleOf(
      unit,
      groups.flatMap((group) => PHASES.map((phase) => group.sums.impacts[criterion]?.[phase]?.value ?? 0)),
    );
    const head = model.groupColumns.map((column) => sortHeading(escapeHtml(column))).join("");
    const body = groups.map((group) => {
      const cells = group.values.map((value) => `<td>${escapeHtml(value)}</td>`).join("");
      const phases = PHASES.map((phase) => {
        const value = group.sums.impacts[criterion]?.[phase]?.value;
        return value === undefined
          ? '<td class="na" data-v=""></td>'
          : withValue(quantityCell(value, unit, scale), value);
      }).join("");
      const kwh = group.sums.energyKwh;
      const energyCell =
        kwh === undefined
          ? '<td class="na" data-v=""></td>'
          : withValue(quantityCell(kwh, "kWh", energy), kwh);
      return `<tr>${cells}<td class="n" data-v="${group.sums.rows}">${figure(group.sums.rows)}</td><td class="n" data-v="${group.sums.failed}">${figure(group.sums.failed)}</td>${phases}${energyCell}</tr>`;
    });
    const name = escapeHtml(criterion);
    const scaled = escapeHtml(scale.unit);
    return `<div class="table"><table class="sortable"><thead><tr>${head}${sortHeading("rows")}${sortHeading("failed")}${sortHeading(`${name} embedded (${scaled})`)}${sortHeading(`${name} use (${scaled})`)}${sortHeading(escapeHtml(energy.unit))}</tr></thead><tbody>${body.join("")}</tbody></table></div>`;
  });
}

/** A cell a sortable table sorts by its exact value. */
const withValue = (cell: string, value: number) => cell.replace("<td ", `<td data-v="${value}" `);

/** The criteria as the switch and the parts name them. */
const switchable = (model: ReportModel): ReportCriterion[] =>
  model.criteria.map(({ criterion, unit }) => ({ name: criterion, unit }));

/** The gwp criterion's unit, as the page names it. */
const gwpUnit = (model: ReportModel) =>
  model.criteria.find(({ criterion }) => criterion === "gwp")?.unit ?? "kgCO2eq";

/** Zones listed in the grid section's sentence, the rest counted. */
const LISTED_ZONES = 10;

/** The grid series' section: what its charts show, and the charts' places (nothing without a series). */
function gridSection(model: ReportModel): string {
  const use = model.gridUse;
  if (use === undefined) return "";
  const total = use.byHour.reduce((sum, kg) => sum + kg, 0);
  const zones = use.zones.slice(0, LISTED_ZONES).join(", ");
  const more = use.zones.length > LISTED_ZONES ? ` and ${use.zones.length - LISTED_ZONES} more` : "";
  const share = use.of > 0 ? ` (${figure((100 * use.rows) / use.of)} %)` : "";
  // The charts add the rows' values before the edition rounds each (docs/methodology.md, "Grid
  // intensity series"): their sum may differ from the table's by that rounding.
  const text =
    `The climate change of use (gwp) of the rows whose use came from the grid series, by hour of day (UTC) and by month: ` +
    `${figure(use.rows)} of ${figure(use.of)} rows${share}, ${use.zones.length === 1 ? "zone" : "zones"} ${zones}${more}, ` +
    `${figure(total)} ${gwpUnit(model)} before each row's rounding. ` +
    "Each row's energy is spread evenly over its period (a row without one: over its zone's whole series), " +
    "at the intensity of each interval, and at the edition's factor where the series has none.";
  return `<h2>Climate change of use by time (grid series)</h2><p>${escapeHtml(text)}</p><div id="chart-grid-hours" class="chart"></div><div id="chart-grid-months" class="chart"></div>`;
}

/** Bars of the use-by-time chart at most: past it, months are summed by year, decade, century or millennium. */
const MAX_TIME_BARS = 240;

/**
 * The use by month as the chart shows it: every month when they are few, else summed in spans of
 * years, so that the page's size is bounded by its bars, not by the span of the rows' periods
 * (periods of years 1000–9999 are 108,000 months).
 */
export function timeBars(byMonth: readonly (readonly [string, number])[]): {
  readonly axis: string;
  readonly bars: readonly (readonly [string, number])[];
} {
  if (byMonth.length <= MAX_TIME_BARS) return { axis: "month", bars: byMonth };
  const spans: readonly [number, string][] = [
    [1, "year"],
    [10, "decade"],
    [100, "century"],
    [1000, "millennium"],
  ];
  for (const [years, axis] of spans) {
    const sums = new Map<number, number>();
    for (const [month, kg] of byMonth) {
      const from = Math.floor(Number(month.slice(0, month.length - 3)) / years) * years;
      sums.set(from, (sums.get(from) ?? 0) + kg);
    }
    if (sums.size <= MAX_TIME_BARS || years === 1000) {
      const label = (from: number) => (years === 1 ? String(from) : `${from}–${from + years - 1}`);
      return { axis, bars: [...sums].map(([from, kg]) => [label(from), kg] as const) };
    }
  }
  return { axis: "month", bars: byMonth };
}

/** The use-by-time chart's data: `byMonth` its bars (months, or spans of years as `timeAxis` says). */
function gridTimeData(byMonth: readonly (readonly [string, number])[]) {
  const { axis, bars } = timeBars(byMonth);
  return { byMonth: bars, timeAxis: axis };
}

/** The charts' data: what the page's script draws. */
function chartData(model: ReportModel, groups: readonly Group[]) {
  const impactsOf = (impacts: RowImpacts | null) =>
    model.criteria.map(({ criterion }) => ({
      embedded: impacts?.[criterion]?.embedded?.value ?? 0,
      use: impacts?.[criterion]?.use?.value ?? 0,
    }));
  return {
    criteria: model.criteria.map(({ criterion, unit }) => ({
      name: criterion,
      criterion,
      unit,
      phases: PHASES.map((phase) => model.totals.impacts[criterion]?.[phase]?.value ?? 0),
    })),
    figures: FIGURES,
    scales: MASS_SCALES,
    currency: null,
    costs: false,
    lines: "rows",
    contributors: model.contributors.map((row) => ({
      label: withoutControls(row.label),
      impacts: impactsOf(row.impacts),
    })),
    groups: groups.map((group) => ({
      label: withoutControls(group.values.join(" · ")),
      impacts: impactsOf(group.sums.impacts),
    })),
    overTime: model.overTime ?? null,
    cube: model.cube ?? null,
    groupDefault: groupDefault(model.cube ?? null),
    command: model.command ?? "",
    ...(model.gridUse === undefined
      ? {}
      : {
          grid: {
            unit: gwpUnit(model),
            byHour: model.gridUse.byHour,
            ...gridTimeData(model.gridUse.byMonth),
          },
        }),
  };
}

/** The column the page first groups by: the inventory's kind, else its first. */
function groupDefault(cube: GroupCube | null): number {
  return Math.max(0, cube?.columns.findIndex((column) => column.name.trim().toLowerCase() === "kind") ?? -1);
}

/** Draws the embedded-against-use and ranking charts (the page's head in scope: src/output/reportParts/page.ts). */
const DRAW = `
const colours = ["#5470c6", "#91cc75"];
// The category labels' room: up to 40 % of the chart's width (a phone's 390 px keeps its bars).
const labelRoom = (id, widest) => Math.round(Math.min(widest, document.getElementById(id).clientWidth * 0.4));
function chart(id, draw) {
  const element = document.getElementById(id);
  if (!element) return;
  const instance = counted(element);
  const option = () => instance.setOption({ animation: false, color: colours, ...draw() }, true);
  option();
  document.addEventListener("criterion", option);
}
function ranking(id, rows) {
  if (data.criteria.length === 0 || rows.length === 0 || !document.getElementById(id)) return;
  chart(id, () => {
    const c = chosen();
    const criterion = data.criteria[c];
    const scale = scaleOf(criterion.unit, rows.map((r) => r.impacts[c].embedded + r.impacts[c].use));
    const left = labelRoom(id, 260);
    return {
      tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v) => readable(v * scale.divisor, criterion.unit) },
      legend: { data: phases, top: 0 },
      grid: { left, right: 24, top: 40, bottom: 50 },
      xAxis: { type: "value", name: criterion.criterion + " (" + scale.unit + ")", nameLocation: "middle", nameGap: 28,
        splitNumber: left < 200 ? 3 : 5, axisLabel: { formatter: fmt, hideOverlap: true } },
      // A long label wraps rather than being cut where the chart has room; on a phone, where it
      // would run over its neighbours, it is cut (its whole text in the tooltip)
      yAxis: { type: "category", inverse: true, data: rows.map((r) => r.label),
        axisLabel: { width: left - 12, overflow: left < 180 ? "truncate" : "break", lineHeight: 13, fontSize: 11 } },
      series: phases.map((phase) => ({ name: phase, type: "bar", stack: "total", data: rows.map((r) => r.impacts[c][phase] / scale.divisor) })),
    };
  });
}
ranking("chart-contributors", data.contributors);
ranking("chart-groups", data.groups);
const shares = data.criteria.map((c) => {
  const sum = c.phases[0] + c.phases[1];
  return c.phases.map((v) => (sum > 0 ? (100 * v) / sum : 0));
});
chart("chart-phases", () => ({
  tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, formatter: (items) => items.map((i) => {
    const c = data.criteria[i.dataIndex];
    return i.marker + i.seriesName + ": " + readable(c.phases[i.seriesIndex], c.unit) + " (" + i.value.toFixed(0) + " %)";
  }).join("<br>") },
  legend: { data: phases, top: 0 },
  grid: { left: labelRoom("chart-phases", 130), right: 20, top: 40, bottom: 30 },
  xAxis: { type: "value", max: 100, axisLabel: { formatter: "{value} %", hideOverlap: true } },
  yAxis: { type: "category", inverse: true, data: data.criteria.map((c) => c.criterion), axisLabel: { width: 110, overflow: "truncate" } },
  series: phases.map((phase, p) => ({ name: phase, type: "bar", stack: "share", data: shares.map((s) => s[p]),
    label: { show: true, formatter: (i) => (i.value >= 8 ? i.value.toFixed(0) + " %" : "") } })),
}));
`;

/** Draws the grid series' two charts (DRAW's helpers in scope): gwp use by hour of day and by month. */
const DRAW_GRID = `
function overTime(id, labels, values, axis) {
  const scale = scaleOf(data.grid.unit, values);
  chart(id, () => ({
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v) => fmt(v) + " " + scale.unit },
    grid: { left: 70, right: 20, top: 40, bottom: 50 },
    xAxis: { type: "category", data: labels, name: axis, nameLocation: "middle", nameGap: 30, axisLabel: { hideOverlap: true } },
    yAxis: { type: "value", name: "gwp use (" + scale.unit + ")", axisLabel: { formatter: fmt, hideOverlap: true } },
    series: [{ name: "use", type: "bar", data: values.map((v) => v / scale.divisor), itemStyle: { color: colours[1] } }],
  }));
}
overTime("chart-grid-hours", data.grid.byHour.map((_, h) => String(h).padStart(2, "0") + ":00"), data.grid.byHour, "hour of day (UTC)");
overTime("chart-grid-months", data.grid.byMonth.map((m) => m[0]), data.grid.byMonth.map((m) => m[1]), data.grid.timeAxis);
`;

export const STYLE = `
* { box-sizing: border-box; }
body { font: 15px/1.45 system-ui, sans-serif; margin: 0; padding: 1.2em clamp(0.75em, 3vw, 3em); color: #222; overflow-wrap: break-word; }
h1 { margin: 0 0 0.1em; font-size: 1.6em; } h2 { margin-top: 1.6em; } .sub { color: #666; margin-top: 0; }
.cards { display: flex; gap: 0.8em; flex-wrap: wrap; margin: 0.6em 0; } .card { border: 1px solid #ddd; border-radius: 6px; padding: 0.6em 1em; min-width: 9em; flex: 1 1 12em; max-width: 24em; }
.card b { display: block; font-size: 1.5em; } .card.total { border-color: #2f6f4e; background: #f3f9f5; } .card.total b { font-size: 2em; color: #1f5a3c; }
.bad b { color: #b3261e; } .warn b { color: #b06000; }
.chart { width: 100%; height: 340px; } .tall { height: 420px; }
.side { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 32em), 1fr)); gap: 0 2em; } h1 { overflow-wrap: anywhere; }
.table { max-width: 100%; overflow-x: auto; } table { border-collapse: collapse; margin: 0.5em 0 1em; width: 100%; }
th, td { border-bottom: 1px solid #e5e5e5; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
td.total { font-weight: 700; } tr.others td { color: #555; font-style: italic; } .basis { background: #f3f6fa; border-radius: 6px; padding: 0.4em 0.8em; } td.n { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; } .interrupted { background: #fde7e9; padding: 0.5em 1em; border-radius: 6px; }
th { overflow-wrap: normal; }
table.what-if .why { display: block; font-size: 0.8em; max-width: 16em; margin-left: auto; white-space: normal; }
table.what-if pre { white-space: pre-wrap; overflow-wrap: anywhere; max-width: 42em; margin: 0.3em 0 0; font-size: 0.85em; }
td.name { overflow-wrap: normal; min-width: 6.5em; } td.name .tok { white-space: nowrap; } td.n.own { white-space: normal; } td.na, td.pct { text-align: right; white-space: nowrap; color: #555; } table.what-if td.na { white-space: normal; }
@media (max-width: 960px) { .ranges, .mid { display: none; } }
${LEGEND_STYLE}
${TABLE_TOOLS_STYLE}
@media (max-width: 640px) { body { font-size: 14px; } .wide { display: none; } th, td { padding: 0.2em 0.25em; } .table { font-size: 0.93em; } .card { min-width: 0; flex-basis: 9em; } .card.total { flex-basis: 100%; max-width: none; } }
`;

/** The first screen's cards: the chosen criterion's total, embedded and use, scaled to the total; the energy. */
function headlineCards(model: ReportModel): string {
  const energy = model.totals.energyKwh;
  const kwhScale = scaleOf("kWh", [energy ?? 0]);
  const kwh =
    energy === undefined
      ? ""
      : `<div class="card" title="${energy} kWh"><b>${escapeHtml(readable(energy, "kWh", kwhScale))} ${kwhScale.unit}</b>energy behind the use impacts</div>`;
  if (model.criteria.length === 0) return `<div class="cards">${kwh}</div>`;
  return per(switchable(model), (index) => {
    const first = model.criteria[index];
    const total = sumsTotal(model.totals, first.criterion);
    const scale = scaleOf(first.unit, [total]);
    const value = (v: number) => escapeHtml(readable(v, first.unit, scale));
    const unit = escapeHtml(scale.unit);
    const phases = PHASES.map((phase) => {
      const sum = model.totals.impacts[first.criterion]?.[phase];
      const spread = sum === undefined ? "" : ` (${value(sum.min)} – ${value(sum.max)})`;
      return `<div class="card"><b>${value(sum?.value ?? 0)} ${unit}</b>${escapeHtml(first.criterion)} ${phase}${spread}</div>`;
    }).join("");
    const meaning = first.meaning === undefined ? "" : `: ${escapeHtml(first.meaning.toLowerCase())}`;
    return `<div class="cards"><div class="card total"><b>${value(total)} ${unit}</b>${escapeHtml(first.criterion)}, embedded and use${meaning}</div>${phases}${kwh}</div>`;
  });
}

/** The script of the page: the head, its charts, the parts' (src/output/reportParts/). */
const pageOf = (model: ReportModel) =>
  pageScript(
    FILTER_SCRIPT,
    OVER_TIME_SCRIPT,
    DRAW,
    EXPLORER_SCRIPT,
    model.gridUse === undefined ? "" : DRAW_GRID,
  );

export function reportHtml(model: ReportModel): string {
  const { totals } = model;
  const first = model.criteria[0];
  const groupList = largestFirst(model.groups, first?.criterion);
  const card = (label: string, value: string, kind = "") =>
    `<div class="card ${kind}"><b>${value}</b>${label}</div>`;
  const groups =
    model.groupColumns.length > 0 && first
      ? `<div><h2>Groups by ${model.groupColumns.map(escapeHtml).join(", ")}, largest first</h2><div id="chart-groups" class="chart tall"></div></div>`
      : "";
  const counts = [
    card("rows", figure(totals.rows)),
    card("evaluated", figure(totals.rows - totals.failed)),
    card("failed", figure(totals.failed), totals.failed > 0 ? "bad" : ""),
    card("with warnings", figure(totals.warned), totals.warned > 0 ? "warn" : ""),
  ].join("");
  const contributors = first
    ? `<div><h2>Largest contributors</h2><div id="chart-contributors" class="chart tall"></div></div>`
    : "";
  const named = switchable(model);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(model.title)}</title><style>${STYLE}${criterionStyle(named)}${SORTABLE_STYLE}${EXPLORER_STYLE}${FILTER_STYLE}</style></head>
<body data-c="0">
<h1>${escapeHtml(model.title)}</h1><p class="sub">${escapeHtml(model.subtitle)}</p>${model.note === undefined ? "" : `<p class="sub">${escapeHtml(model.note)}</p>`}
${model.interrupted ? '<p class="interrupted">The evaluation was interrupted: this report covers the rows evaluated before.</p>' : ""}
${criterionSwitch(named)}
${headlineCards(model)}
${overTimeSection(model.overTime ?? null, "rows")}
<div class="side">${contributors}${groups}</div>
<h2>Rows evaluated</h2><div class="cards">${counts}</div>
<h2>Totals per criterion</h2>${totalsTable(model)}
${model.groupColumns.length > 0 && first ? `<h2>Groups</h2>${groupsTable(model, groupList)}` : ""}
${whatIfSection(model.whatIf ?? null, null, "cloud rows", false)}
${filterSection(model.cube ?? null, "rows")}
${explorerSection(model.cube ?? null, "rows")}
<h2>Embedded against use</h2><p>Share of each criterion's total from manufacturing (embedded) and from electricity (use). ${escapeHtml(model.embedded ?? EMBEDDED_MEANING)}</p>
<div id="chart-phases" class="chart"></div>${gridSection(model)}
<h2>Rows that failed</h2>${rowsTable(model.failed, totals.failed, "why", "None: every row was evaluated.")}
<h2>Rows with warnings</h2>${rowsTable(model.warned, totals.warned, "warnings", "None.")}
<script type="application/json" id="report-data">${scriptJson(chartData(model, groupList))}</script>
<script>${chartLibrary()}</script>
<script>${pageOf(model)}${TABLE_TOOLS_SCRIPT}${FRAME_HEIGHT_SCRIPT}</script>
</body></html>
`;
}
