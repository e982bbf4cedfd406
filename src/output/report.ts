import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { PHASES } from "./columns.js";
import type { AssessedRow, CriterionUnit, Group, RowImpacts, Sums } from "./table.js";
import { withoutControls } from "./text.js";

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
interface ReportCriterion extends CriterionUnit {
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
  readonly criteria: readonly ReportCriterion[];
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

export const escapeHtml = (text: string) =>
  withoutControls(text)
    .replaceAll("&", "&amp;")
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replaceAll('"', "&quot;");

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

/**
 * How the page writes a number, in its cards, tables and charts alike: 4 significant digits (the
 * margins are wider than that), thousands separated — `13,090`, `0.0001234`.
 */
const FIGURES: Intl.NumberFormatOptions = { maximumSignificantDigits: 4 };
const figures = new Intl.NumberFormat("en-US", FIGURES);
export const figure = (value: number | undefined) => (value === undefined ? "" : figures.format(value));

/** A criterion's impact over both phases in sums. */
const sumsTotal = (sums: Sums, criterion: string) => rowTotal(sums.impacts, criterion);

/** The groups, largest first by the first criterion (ties in order of first appearance). */
function largestFirst(groups: readonly Group[], criterion: string | undefined): Group[] {
  if (criterion === undefined) return [...groups];
  return [...groups].sort((a, b) => sumsTotal(b.sums, criterion) - sumsTotal(a.sums, criterion));
}

const range = (bounds: { min: number; max: number } | undefined) =>
  bounds === undefined ? "" : `${figure(bounds.min)} – ${figure(bounds.max)}`;

function totalsTable(model: ReportModel): string {
  const rows = model.criteria.map(({ criterion, unit, meaning }) => {
    const phases = PHASES.map((phase) => {
      const sum = model.totals.impacts[criterion]?.[phase];
      return `<td class="n">${figure(sum?.value)}</td><td class="n">${range(sum)}</td>`;
    }).join("");
    return `<tr><td><b>${escapeHtml(criterion)}</b></td><td>${escapeHtml(meaning ?? "")}</td><td>${escapeHtml(unit)}</td>${phases}</tr>`;
  });
  const phases = PHASES.map((phase) => `<th>${phase}</th><th>${phase} range (min – max)</th>`).join("");
  return `<table><thead><tr><th>criterion</th><th>what it measures</th><th>unit</th>${phases}</tr></thead><tbody>${rows.join("")}</tbody></table>`;
}

function rowsTable(rows: readonly ReportRow[], count: number, what: string, empty: string): string {
  if (count === 0) return `<p>${empty}</p>`;
  const more =
    count > rows.length ? `<p>${rows.length} of ${count} shown; every row is in the table output.</p>` : "";
  const body = rows.map(
    (row) =>
      `<tr><td class="n">${row.line}</td><td>${escapeHtml(row.label)}</td><td>${escapeHtml(row.note)}</td></tr>`,
  );
  return `<table><thead><tr><th>line</th><th>row</th><th>${what}</th></tr></thead><tbody>${body.join("")}</tbody></table>${more}`;
}

function groupsTable(model: ReportModel, groups: readonly Group[]): string {
  const first = model.criteria[0];
  if (model.groupColumns.length === 0 || first === undefined) return "";
  const head = model.groupColumns.map((column) => `<th>${escapeHtml(column)}</th>`).join("");
  const body = groups.map((group) => {
    const cells = group.values.map((value) => `<td>${escapeHtml(value)}</td>`).join("");
    const phases = PHASES.map(
      (phase) => `<td class="n">${figure(group.sums.impacts[first.criterion]?.[phase]?.value)}</td>`,
    ).join("");
    return `<tr>${cells}<td class="n">${figure(group.sums.rows)}</td><td class="n">${figure(group.sums.failed)}</td>${phases}</tr>`;
  });
  return `<table><thead><tr>${head}<th>rows</th><th>failed</th><th>${escapeHtml(first.criterion)} embedded (${escapeHtml(first.unit)})</th><th>${escapeHtml(first.criterion)} use (${escapeHtml(first.unit)})</th></tr></thead><tbody>${body.join("")}</tbody></table>`;
}

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

/** The charts' data: what the page's script draws. */
function chartData(model: ReportModel, groups: readonly Group[]) {
  const first = model.criteria[0];
  const phaseValues = (impacts: RowImpacts | null, criterion: string) =>
    PHASES.map((phase) => impacts?.[criterion]?.[phase]?.value ?? 0);
  return {
    criteria: model.criteria.map(({ criterion, unit }) => ({
      criterion,
      unit,
      phases: phaseValues(model.totals.impacts, criterion),
    })),
    first: first ?? null,
    figures: FIGURES,
    contributors: first
      ? model.contributors.map((row) => ({
          label: withoutControls(row.label),
          phases: phaseValues(row.impacts, first.criterion),
        }))
      : [],
    groups: first
      ? groups.map((group) => ({
          label: withoutControls(group.values.join(" · ")),
          phases: phaseValues(group.sums.impacts, first.criterion),
        }))
      : [],
    ...(model.gridUse === undefined
      ? {}
      : { grid: { unit: gwpUnit(model), byHour: model.gridUse.byHour, byMonth: model.gridUse.byMonth } }),
  };
}

/** Draws the charts; sets `document.body.dataset.charts` to how many drew (the browser test reads it). */
const DRAW = `
const data = JSON.parse(document.getElementById("report-data").textContent);
const phases = ["embedded", "use"];
const colours = ["#5470c6", "#91cc75"];
const fmt = (v) => new Intl.NumberFormat("en-US", data.figures).format(v);
let drawn = 0;
function chart(id, option) {
  const element = document.getElementById(id);
  if (!element) return;
  const instance = echarts.init(element, null, { renderer: "svg" });
  instance.on("finished", () => {
    if (element.dataset.drawn) return;
    element.dataset.drawn = "yes";
    document.body.dataset.charts = String(++drawn);
  });
  instance.setOption({ animation: false, color: colours, ...option });
}
const shares = data.criteria.map((c) => {
  const sum = c.phases[0] + c.phases[1];
  return c.phases.map((v) => (sum > 0 ? (100 * v) / sum : 0));
});
chart("chart-phases", {
  tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, formatter: (items) => items.map((i) => {
    const c = data.criteria[i.dataIndex];
    return i.marker + i.seriesName + ": " + fmt(c.phases[i.seriesIndex]) + " " + c.unit + " (" + i.value.toFixed(0) + " %)";
  }).join("<br>") },
  legend: { data: phases, top: 0 },
  grid: { left: 110, right: 30, top: 40, bottom: 30 },
  xAxis: { type: "value", max: 100, axisLabel: { formatter: "{value} %" } },
  yAxis: { type: "category", inverse: true, data: data.criteria.map((c) => c.criterion + " (" + c.unit + ")") },
  series: phases.map((phase, p) => ({ name: phase, type: "bar", stack: "share", data: shares.map((s) => s[p]),
    label: { show: true, formatter: (i) => (i.value >= 8 ? i.value.toFixed(0) + " %" : "") } })),
});
function ranking(id, rows) {
  if (!data.first || rows.length === 0) return;
  chart(id, {
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v) => fmt(v) + " " + data.first.unit },
    legend: { data: phases, top: 0 },
    grid: { left: 260, right: 40, top: 40, bottom: 50 },
    xAxis: { type: "value", name: data.first.criterion + " (" + data.first.unit + ")", nameLocation: "middle", nameGap: 25,
      axisLabel: { formatter: fmt } },
    yAxis: { type: "category", inverse: true, data: rows.map((r) => r.label),
      axisLabel: { width: 240, overflow: "truncate" } },
    series: phases.map((phase, p) => ({ name: phase, type: "bar", stack: "total", data: rows.map((r) => r.phases[p]) })),
  });
}
ranking("chart-contributors", data.contributors);
ranking("chart-groups", data.groups);
`;

/** Draws the grid series' two charts (DRAW's helpers in scope): gwp use by hour of day and by month. */
const DRAW_GRID = `
function overTime(id, labels, values, axis) {
  chart(id, {
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v) => fmt(v) + " " + data.grid.unit },
    grid: { left: 90, right: 30, top: 40, bottom: 50 },
    xAxis: { type: "category", data: labels, name: axis, nameLocation: "middle", nameGap: 30 },
    yAxis: { type: "value", name: "gwp use (" + data.grid.unit + ")", axisLabel: { formatter: fmt } },
    series: [{ name: "use", type: "bar", data: values, itemStyle: { color: colours[1] } }],
  });
}
overTime("chart-grid-hours", data.grid.byHour.map((_, h) => String(h).padStart(2, "0") + ":00"), data.grid.byHour, "hour of day (UTC)");
overTime("chart-grid-months", data.grid.byMonth.map((m) => m[0]), data.grid.byMonth.map((m) => m[1]), "month");
`;

export const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1100px; padding: 1.5em; color: #222; }
h1 { margin-bottom: 0.1em; } .sub { color: #666; margin-top: 0; }
.cards { display: flex; gap: 1em; flex-wrap: wrap; } .card { border: 1px solid #ddd; border-radius: 6px; padding: 0.6em 1em; min-width: 9em; }
.card b { display: block; font-size: 1.5em; } .bad b { color: #b3261e; } .warn b { color: #b06000; }
.chart { width: 100%; height: 340px; } .tall { height: 420px; }
table { border-collapse: collapse; margin: 0.5em 0 1em; } th, td { border-bottom: 1px solid #e5e5e5; padding: 0.25em 0.7em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; } .interrupted { background: #fde7e9; padding: 0.5em 1em; border-radius: 6px; }
`;

export function reportHtml(model: ReportModel): string {
  const { totals } = model;
  const first = model.criteria[0];
  const groupList = largestFirst(model.groups, first?.criterion);
  const card = (label: string, value: string, kind = "") =>
    `<div class="card ${kind}"><b>${value}</b>${label}</div>`;
  const headline = first
    ? PHASES.map((phase) => {
        const sum = totals.impacts[first.criterion]?.[phase];
        return card(
          `${escapeHtml(first.unit)}, ${escapeHtml(first.criterion)} ${phase} (${range(sum)})`,
          figure(sum?.value ?? 0),
        );
      }).join("")
    : "";
  const groups =
    model.groupColumns.length > 0 && first
      ? `<h2>Groups by ${model.groupColumns.map(escapeHtml).join(", ")}, largest first</h2><div id="chart-groups" class="chart tall"></div>${groupsTable(model, groupList)}`
      : "";
  const counts = [
    card("rows", figure(totals.rows)),
    card("evaluated", figure(totals.rows - totals.failed)),
    card("failed", figure(totals.failed), totals.failed > 0 ? "bad" : ""),
    card("with warnings", figure(totals.warned), totals.warned > 0 ? "warn" : ""),
  ].join("");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(model.title)}</title><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(model.title)}</h1><p class="sub">${escapeHtml(model.subtitle)}</p>${model.note === undefined ? "" : `<p class="sub">${escapeHtml(model.note)}</p>`}
${model.interrupted ? '<p class="interrupted">The evaluation was interrupted: this report covers the rows evaluated before.</p>' : ""}
<div class="cards">${counts}${headline}</div>
<h2>Totals per criterion</h2>${totalsTable(model)}
<h2>Embedded against use</h2><p>Share of each criterion's total from manufacturing (embedded) and from electricity (use). ${escapeHtml(model.embedded ?? EMBEDDED_MEANING)}</p>
<div id="chart-phases" class="chart"></div>${gridSection(model)}
${first ? `<h2>Largest contributors (${escapeHtml(first.criterion)}, ${escapeHtml(first.unit)})</h2><div id="chart-contributors" class="chart tall"></div>` : ""}
${groups}
<h2>Rows that failed</h2>${rowsTable(model.failed, totals.failed, "why", "None: every row was evaluated.")}
<h2>Rows with warnings</h2>${rowsTable(model.warned, totals.warned, "warnings", "None.")}
<script type="application/json" id="report-data">${scriptJson(chartData(model, groupList))}</script>
<script>${chartLibrary()}</script>
<script>${DRAW}${model.gridUse === undefined ? "" : DRAW_GRID}</script>
</body></html>
`;
}
