import {
  chartLibrary,
  escapeHtml,
  figure,
  MASS_SCALES,
  SCALE_SCRIPT,
  STYLE,
  scaleOf,
  scriptJson,
  table,
} from "./report.js";

/*
 * The report of a billing export: one self-contained HTML page (the inventory report's styles and
 * inlined ECharts, src/output/report.ts). Its first screen says how much (the first criterion's
 * total, embedded and use) and where from (the largest services and regions), then how much of
 * the bill is estimated (lines and positive cost, in the bill's currency, per method; the largest
 * services left); then the impacts by service, region, account and method, the use by hour of
 * the day and month where a grid series was used, and the largest resources.
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
  /** Why a service's lines are not estimated, when the registry says ("a fee", "unknown to the registry"). */
  readonly why?: string;
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
  /** The bill's currency (`USD`), or null when the export names none. */
  readonly currency: string | null;
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

/** `cost (USD)`: a table's cost heading with the bill's currency. */
const costHeading = (model: BillReportModel) =>
  model.currency === null ? "cost" : `cost (${escapeHtml(model.currency)})`;

function coverageTable(model: BillReportModel): string {
  const { coverage } = model;
  // The services not estimated say why when the registry knows (a fee, unknown to the registry)
  const row = (line: CoverageLine, why: boolean) =>
    `<tr><td>${escapeHtml(line.name || "(none)")}</td><td class="n">${count(line.lines)}</td><td class="n">${money(line.cost)}</td><td class="n">${share(line.cost, coverage.cost)}</td>${why ? `<td>${escapeHtml(line.why ?? "")}</td>` : ""}</tr>`;
  const head = (why: boolean) =>
    `<tr><th></th><th>lines</th><th>${costHeading(model)}</th><th>of the bill</th>${why ? "<th>why</th>" : ""}</tr>`;
  const left =
    coverage.unestimated.length === 0
      ? "<p>None: every line with a cost is estimated.</p>"
      : table(`${head(true)}${coverage.unestimated.map((line) => row(line, true)).join("")}`);
  return `<div class="side"><div><h3>Estimated, per method</h3>${table(`${head(false)}${coverage.byMethod.map((line) => row(line, false)).join("")}`)}</div>
<div><h3>Largest services not estimated</h3>${left}</div></div>`;
}

function rankedTable(model: BillReportModel, rows: readonly BillRanked[]): string {
  const scale = scaleOf(
    model.criterion?.unit ?? "",
    rows.map((row) => row.embedded + row.use),
  );
  const value = (v: number) => figure(v / scale.divisor);
  const body = rows
    .map(
      (row) =>
        `<tr><td>${escapeHtml(row.name || "(none)")}</td><td class="n wide">${count(row.lines)}</td><td class="n">${money(row.cost)}</td><td class="n">${value(row.embedded)}</td><td class="n">${value(row.use)}</td></tr>`,
    )
    .join("");
  const unit = escapeHtml(scale.unit);
  return table(
    `<tr><th></th><th class="wide">lines</th><th>${costHeading(model)}</th><th>embedded (${unit})</th><th>use (${unit})</th></tr>${body}`,
  );
}

/** Rows of each list of the first screen. */
const FIRST_SCREEN_ROWS = 5;

/** The first screen's "where from": the largest of a ranking, its share of the total and its cost. */
function largestList(
  model: BillReportModel,
  title: string,
  rows: readonly BillRanked[],
  whole: number,
): string {
  if (rows.length === 0) return "";
  const shown = rows.slice(0, FIRST_SCREEN_ROWS);
  const scale = scaleOf(
    model.criterion?.unit ?? "",
    shown.map((row) => row.embedded + row.use),
  );
  const body = shown
    .map(
      (row) =>
        `<tr><td>${escapeHtml(row.name || "(none)")}</td><td class="n"><b>${figure((row.embedded + row.use) / scale.divisor)}</b></td><td class="n">${share(row.embedded + row.use, whole)}</td><td class="n">${money(row.cost)}</td></tr>`,
    )
    .join("");
  const criterion = escapeHtml(model.criterion?.name ?? "");
  return `<div><h2>${title}</h2>${table(`<tr><th></th><th>${criterion} (${escapeHtml(scale.unit)})</th><th>of the total</th><th>${costHeading(model)}</th></tr>${body}`)}</div>`;
}

/** Draws one stacked bar chart per ranking; sets `document.body.dataset.charts` to how many drew. */
const DRAW = `
const data = JSON.parse(document.getElementById("report-data").textContent);
const phases = ["embedded", "use"];
const fmt = (v) => Number(v.toPrecision(4)).toLocaleString("en-US");
${SCALE_SCRIPT}let drawn = 0;
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
  const scale = scaleOf(data.criterion.unit, rows.map((r) => r.embedded + r.use));
  // The names' room: up to 40 % of the width (a phone's 390 px keeps its bars).
  const left = Math.round(Math.min(230, element.clientWidth * 0.4));
  chart.setOption({
    animation: false, color: ["#5470c6", "#91cc75"],
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v) => fmt(v) + " " + scale.unit },
    legend: { data: phases, top: 0 },
    grid: { left, right: 24, top: 40, bottom: 50 },
    xAxis: { type: "value", name: data.criterion.name + " (" + scale.unit + ")", nameLocation: "middle", nameGap: 28,
      splitNumber: left < 200 ? 3 : 5, axisLabel: { formatter: fmt, hideOverlap: true } },
    yAxis: { type: "category", inverse: true, data: rows.map((r) => r.name || "(none)"), axisLabel: { width: left - 12, overflow: "truncate" } },
    series: phases.map((phase) => ({ name: phase, type: "bar", stack: "total", data: rows.map((r) => r[phase] / scale.divisor) })),
  });
}
// The grid series' use: gwp use as bars, the intensity it averages (gCO2eq/kWh) as a line.
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

/** The first screen's cards: the first criterion's total, embedded and use, scaled to the total. */
function impactCards(model: BillReportModel): string {
  const { criterion } = model;
  if (criterion === null) return "";
  const total = model.totals.reduce((sum, phase) => sum + phase.value, 0);
  const scale = scaleOf(criterion.unit, [total]);
  const value = (v: number) => `${figure(v / scale.divisor)} ${escapeHtml(scale.unit)}`;
  const name = escapeHtml(criterion.name);
  const phases = model.totals
    .map(
      (phase) =>
        `<div class="card"><b>${value(phase.value)}</b>${name} ${escapeHtml(phase.phase)} (${figure(phase.min / scale.divisor)} – ${figure(phase.max / scale.divisor)})</div>`,
    )
    .join("");
  return `<div class="card total"><b>${value(total)}</b>${name} of the lines estimated, embedded and use</div>${phases}`;
}

export function billReportHtml(model: BillReportModel): string {
  const { coverage } = model;
  const card = (label: string, value: string) => `<div class="card"><b>${value}</b>${label}</div>`;
  const whole = model.totals.reduce((sum, phase) => sum + phase.value, 0);
  const section = (id: string, title: string, rows: readonly BillRanked[]) =>
    `<div><h2>${title}</h2><div id="${id}" class="chart tall"></div>${rankedTable(model, rows)}</div>`;
  const data = {
    criterion: model.criterion,
    scales: MASS_SCALES,
    rankings: {
      "chart-service": model.byService,
      "chart-region": model.byRegion,
      "chart-account": model.byAccount,
      "chart-method": model.byMethod,
    },
    grid: model.grid
      ? { "chart-grid-hour": model.grid.byHour, "chart-grid-month": model.grid.byMonth }
      : null,
  };
  const grid = model.grid
    ? `<h2>Use with the grid series</h2><p class="sub">${escapeHtml(model.grid.series)}: the gwp use of the lines that used it, and the intensity it averages, by the hour of the day and by the month of their start (UTC)</p>
<div class="side"><div><h3>By hour of the day</h3><div id="chart-grid-hour" class="chart"></div></div><div><h3>By month</h3><div id="chart-grid-month" class="chart"></div></div></div>`
    : "";
  const currency = model.currency === null ? "" : ` ${escapeHtml(model.currency)}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(model.title)}</title><style>${STYLE}</style></head>
<body>
<h1>${escapeHtml(model.title)}</h1><p class="sub">${escapeHtml(model.subtitle)}</p>
<div class="cards">${impactCards(model)}</div>
<div class="side">${largestList(model, "Largest services", model.byService, whole)}${largestList(model, "Largest regions", model.byRegion, whole)}</div>
<h2>Coverage</h2>
<div class="cards">${card("lines", count(coverage.lines))}${card("lines estimated", count(coverage.estimatedLines))}${card(`of the positive cost estimated (${money(coverage.estimatedCost)} of ${money(coverage.cost)}${currency})`, share(coverage.estimatedCost, coverage.cost))}</div>
${coverageTable(model)}
<div class="side">${section("chart-service", "By service", model.byService)}
${section("chart-region", "By region", model.byRegion)}
${section("chart-account", "By account", model.byAccount)}
${section("chart-method", "By method", model.byMethod)}</div>
${grid}<h2>Largest resources</h2>${rankedTable(model, model.resources)}
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${chartLibrary()}</script>
<script>${DRAW}</script>
</body></html>
`;
}
