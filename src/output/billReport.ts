import { chartLibrary, escapeHtml, figure, STYLE, scriptJson } from "./report.js";

/*
 * The report of a billing export: one self-contained HTML page (the inventory report's styles and
 * inlined ECharts, src/output/report.ts) with the totals of the first criterion, how much of the
 * bill is estimated (lines and positive cost, per method; the largest services left), the impacts
 * by method, service, region and account, the use by hour of the day and month where a grid
 * series was used, and the largest resources.
 */

/** Impacts (first criterion) and positive cost of the evaluated lines of one name. */
export interface BillRanked {
  readonly name: string;
  readonly lines: number;
  readonly cost: number;
  readonly embedded: number;
  readonly use: number;
}

interface CoverageLine {
  readonly name: string;
  readonly lines: number;
  readonly cost: number;
}

export interface BillReportModel {
  readonly title: string;
  /** The export, its format, the edition, the date. */
  readonly subtitle: string;
  /** The first criterion's name and unit; null when none has impacts. */
  readonly criterion: { readonly name: string; readonly unit: string } | null;
  readonly totals: readonly { phase: string; value: number; min: number; max: number }[];
  readonly coverage: {
    readonly lines: number;
    readonly estimatedLines: number;
    readonly cost: number;
    readonly estimatedCost: number;
    readonly byMethod: readonly CoverageLine[];
    readonly unestimated: readonly CoverageLine[];
  };
  readonly byMethod: readonly BillRanked[];
  readonly byService: readonly BillRanked[];
  readonly byRegion: readonly BillRanked[];
  readonly byAccount: readonly BillRanked[];
  readonly resources: readonly BillRanked[];
  /** With a grid series: the gwp use of the lines that used it, by hour of the day and by month (UTC). */
  readonly grid?: {
    readonly series: string;
    readonly byHour: readonly GridShare[];
    readonly byMonth: readonly GridShare[];
  } | null;
}

/** The lines of one hour of the day or month that used the grid series: their energy and gwp use. */
export interface GridShare {
  readonly name: string;
  readonly lines: number;
  readonly energyKwh: number;
  readonly gwpUse: number;
}

const share = (part: number, whole: number) => (whole > 0 ? `${((100 * part) / whole).toFixed(1)} %` : "n/a");
/** A cost as the bill writes it: cents, thousands separated. */
const costs = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 });
const money = (value: number) => costs.format(value);
/** A count of lines, thousands separated (a bill has millions). */
const count = (value: number) => counts.format(value);
const counts = new Intl.NumberFormat("en-US");

function coverageTable(model: BillReportModel): string {
  const { coverage } = model;
  const row = (line: CoverageLine) =>
    `<tr><td>${escapeHtml(line.name || "(none)")}</td><td class="n">${count(line.lines)}</td><td class="n">${money(line.cost)}</td><td class="n">${share(line.cost, coverage.cost)}</td></tr>`;
  const head = "<tr><th></th><th>lines</th><th>cost</th><th>of the bill</th></tr>";
  const left =
    coverage.unestimated.length === 0
      ? "<p>None: every line with a cost is estimated.</p>"
      : `<table>${head}${coverage.unestimated.map(row).join("")}</table>`;
  return `<h3>Estimated, per method</h3><table>${head}${coverage.byMethod.map(row).join("")}</table>
<h3>Largest services not estimated</h3>${left}`;
}

function rankedTable(rows: readonly BillRanked[], unit: string): string {
  const body = rows
    .map(
      (row) =>
        `<tr><td>${escapeHtml(row.name || "(none)")}</td><td class="n">${count(row.lines)}</td><td class="n">${money(row.cost)}</td><td class="n">${figure(row.embedded)}</td><td class="n">${figure(row.use)}</td></tr>`,
    )
    .join("");
  return `<table><tr><th></th><th>lines</th><th>cost</th><th>embedded (${escapeHtml(unit)})</th><th>use (${escapeHtml(unit)})</th></tr>${body}</table>`;
}

/** Draws one stacked bar chart per ranking; sets `document.body.dataset.charts` to how many drew. */
const DRAW = `
const data = JSON.parse(document.getElementById("report-data").textContent);
const phases = ["embedded", "use"];
const fmt = (v) => Number(v.toPrecision(4)).toLocaleString("en-US");
let drawn = 0;
// A chart on the element, counted in document.body.dataset.charts once drawn.
const counted = (element) => {
  const chart = echarts.init(element, null, { renderer: "svg" });
  chart.on("finished", () => {
    if (element.dataset.drawn) return;
    element.dataset.drawn = "yes";
    document.body.dataset.charts = String(++drawn);
  });
  return chart;
};
for (const [id, rows] of Object.entries(data.rankings)) {
  const element = document.getElementById(id);
  if (!element || rows.length === 0 || !data.criterion) continue;
  const chart = counted(element);
  chart.setOption({
    animation: false, color: ["#5470c6", "#91cc75"],
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v) => fmt(v) + " " + data.criterion.unit },
    legend: { data: phases, top: 0 },
    grid: { left: 230, right: 40, top: 40, bottom: 50 },
    xAxis: { type: "value", name: data.criterion.name + " (" + data.criterion.unit + ")", nameLocation: "middle", nameGap: 25 },
    yAxis: { type: "category", inverse: true, data: rows.map((r) => r.name || "(none)"), axisLabel: { width: 210, overflow: "truncate" } },
    series: phases.map((phase) => ({ name: phase, type: "bar", stack: "total", data: rows.map((r) => r[phase]) })),
  });
}
// The grid series' use: gwp use as bars, the intensity it averages (gCO2eq/kWh) as a line.
for (const [id, rows] of Object.entries(data.grid ?? {})) {
  const element = document.getElementById(id);
  if (!element || rows.length === 0) continue;
  const chart = counted(element);
  chart.setOption({
    animation: false, color: ["#91cc75", "#ee6666"], tooltip: { trigger: "axis" },
    legend: { data: ["gwp use (kgCO2eq)", "intensity (gCO2eq/kWh)"], top: 0 },
    grid: { left: 70, right: 70, top: 40, bottom: 40 },
    xAxis: { type: "category", data: rows.map((r) => r.name) },
    yAxis: [{ type: "value", name: "kgCO2eq" }, { type: "value", name: "gCO2eq/kWh" }],
    series: [
      { name: "gwp use (kgCO2eq)", type: "bar", data: rows.map((r) => r.gwpUse) },
      { name: "intensity (gCO2eq/kWh)", type: "line", yAxisIndex: 1, data: rows.map((r) => r.energyKwh > 0 ? (1000 * r.gwpUse) / r.energyKwh : null) },
    ],
  });
}
`;

export function billReportHtml(model: BillReportModel): string {
  const { coverage, criterion } = model;
  const card = (label: string, value: string) => `<div class="card"><b>${value}</b>${label}</div>`;
  const unit = criterion?.unit ?? "";
  const totals = model.totals
    .map((total) =>
      card(
        `${escapeHtml(unit)}, ${escapeHtml(criterion?.name ?? "")} ${escapeHtml(total.phase)} (${figure(total.min)} – ${figure(total.max)})`,
        figure(total.value),
      ),
    )
    .join("");
  const section = (id: string, title: string, rows: readonly BillRanked[]) =>
    `<h2>${title}</h2><div id="${id}" class="chart tall"></div>${rankedTable(rows, unit)}`;
  const data = {
    criterion,
    rankings: {
      "chart-method": model.byMethod,
      "chart-service": model.byService,
      "chart-region": model.byRegion,
      "chart-account": model.byAccount,
    },
    grid: model.grid
      ? { "chart-grid-hour": model.grid.byHour, "chart-grid-month": model.grid.byMonth }
      : null,
  };
  const grid = model.grid
    ? `<h2>Use with the grid series</h2><p class="sub">${escapeHtml(model.grid.series)}: the gwp use of the lines that used it, and the intensity it averages, by the hour of the day and by the month of their start (UTC)</p>
<h3>By hour of the day</h3><div id="chart-grid-hour" class="chart"></div><h3>By month</h3><div id="chart-grid-month" class="chart"></div>`
    : "";
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(model.title)}</title><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(model.title)}</h1><p class="sub">${escapeHtml(model.subtitle)}</p>
<div class="cards">${card("lines", count(coverage.lines))}${card("lines estimated", count(coverage.estimatedLines))}${card(`of the positive cost estimated (${money(coverage.estimatedCost)} of ${money(coverage.cost)})`, share(coverage.estimatedCost, coverage.cost))}${totals}</div>
<h2>Coverage</h2>${coverageTable(model)}
${section("chart-method", "By method", model.byMethod)}
${section("chart-service", "By service", model.byService)}
${section("chart-region", "By region", model.byRegion)}
${section("chart-account", "By account", model.byAccount)}
${grid}<h2>Largest resources</h2>${rankedTable(model.resources, unit)}
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${chartLibrary()}</script>
<script>${DRAW}</script>
</body></html>
`;
}
