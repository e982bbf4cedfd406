import {
  costCell,
  FIGURES,
  MASS_SCALES,
  money,
  quantityCell,
  readable,
  SCALE_SCRIPT,
  type Scale,
  scaleOf,
} from "./readable.js";
import { chartLibrary, escapeHtml, FRAME_HEIGHT_SCRIPT, STYLE, scriptJson, table } from "./report.js";

/*
 * The report of a billing export: one self-contained HTML page (the inventory report's styles and
 * inlined ECharts, src/output/report.ts). Its first screen says how much (the first criterion's
 * total, embedded and use) and where from (the largest services and regions), then how much of
 * the bill is estimated (lines and positive cost, in the bill's currency, per method; the largest
 * services left); then the impacts by service, region, account and method, the use by hour of
 * the day and month where a grid series was used, and the largest resources. Every cost is of one
 * basis, named under the title (`costBasis`): the coverage's, so that each table's rows, with its
 * last row summing the rest, add up to the cost estimated.
 */

/** Impacts (first criterion) and positive cost of the evaluated lines of one name. */
export interface BillRanked {
  readonly name: string;
  /** The export's id of the name, when it differs (the row's hover). */
  readonly id?: string;
  readonly lines: number;
  readonly cost: number;
  readonly embedded: number;
  readonly use: number;
}

/** A ranking: its largest rows and the rest summed (`others`, null when none is left). */
export interface BillRanking {
  readonly rows: readonly BillRanked[];
  readonly others: BillRanked | null;
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
  /** What every cost of the report is (`amortised cost, as EffectiveCost`), the currency apart. */
  readonly costBasis: string;
  /** The first criterion's name and unit; null when none has impacts. */
  readonly criterion: { readonly name: string; readonly unit: string } | null;
  readonly totals: readonly { phase: string; value: number; min: number; max: number }[];
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
  readonly byMethod: BillRanking;
  readonly byService: BillRanking;
  readonly byRegion: BillRanking;
  readonly byAccount: BillRanking;
  readonly resources: BillRanking;
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
/** A count of lines, thousands separated (a bill has millions): exact. */
const count = (value: number) => counts.format(value);
const counts = new Intl.NumberFormat("en-US");

/** `cost (USD)`: a table's cost heading with the bill's currency. */
const costHeading = (model: BillReportModel) =>
  model.currency === null ? "cost" : `cost (${escapeHtml(model.currency)})`;

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

/** A ranked row's name cell: the name, its id on hover. */
const nameCell = (row: BillRanked) =>
  `<td class="name"${row.id === undefined ? "" : ` title="${escapeHtml(row.id)}"`}>${escapeHtml(row.name || "(none)")}</td>`;

/** A row of a ranked table: name, lines, cost, embedded and use (readable, exact on hover). */
function rankedRow(model: BillReportModel, row: BillRanked, scale: Scale, kind = ""): string {
  const unit = model.criterion?.unit ?? "";
  return `<tr${kind === "" ? "" : ` class="${kind}"`}>${nameCell(row)}<td class="n wide">${count(row.lines)}</td>${costCell(row.cost, model.currency)}${quantityCell(row.embedded, unit, scale)}${quantityCell(row.use, unit, scale)}</tr>`;
}

/** A ranking's table: its largest rows, then the rest in one row, so that its costs sum to the estimated cost. */
function rankedTable(model: BillReportModel, ranking: BillRanking): string {
  const all = ranking.others === null ? ranking.rows : [...ranking.rows, ranking.others];
  const scale = scaleOf(
    model.criterion?.unit ?? "",
    all.map((row) => Math.max(row.embedded, row.use)),
  );
  const body = ranking.rows.map((row) => rankedRow(model, row, scale)).join("");
  const others = ranking.others === null ? "" : rankedRow(model, ranking.others, scale, "others");
  const unit = escapeHtml(scale.unit);
  return table(
    `<tr><th></th><th class="wide">lines</th><th>${costHeading(model)}</th><th>embedded (${unit})</th><th>use (${unit})</th></tr>${body}${others}`,
  );
}

/** Rows of each list of the first screen. */
const FIRST_SCREEN_ROWS = 5;

/** The first screen's "where from": the largest of a ranking, its share of the total and its cost. */
function largestList(model: BillReportModel, title: string, ranking: BillRanking, whole: number): string {
  if (ranking.rows.length === 0) return "";
  const shown = ranking.rows.slice(0, FIRST_SCREEN_ROWS);
  const unit = model.criterion?.unit ?? "";
  const scale = scaleOf(
    unit,
    shown.map((row) => row.embedded + row.use),
  );
  const body = shown
    .map(
      (row) =>
        `<tr>${nameCell(row)}${quantityCell(row.embedded + row.use, unit, scale, "n total")}<td class="n">${share(row.embedded + row.use, whole)}</td>${costCell(row.cost, model.currency)}</tr>`,
    )
    .join("");
  const criterion = escapeHtml(model.criterion?.name ?? "");
  return `<div><h2>${title}</h2>${table(`<tr><th></th><th>${criterion} (${escapeHtml(scale.unit)})</th><th>of the total</th><th>${costHeading(model)}</th></tr>${body}`)}</div>`;
}

/** Draws one stacked bar chart per ranking; sets `document.body.dataset.charts` to how many drew. */
const DRAW = `
const data = JSON.parse(document.getElementById("report-data").textContent);
const phases = ["embedded", "use"];
const fmt = (v) => new Intl.NumberFormat("en-US", data.figures).format(v);
${SCALE_SCRIPT}let drawn = 0;
// Every chart follows its frame's width (a window narrowed, a phone turned).
const charts = [];
window.addEventListener("resize", () => { for (const chart of charts) chart.resize(); });
// A chart on the element, counted in document.body.dataset.charts once drawn.
const counted = (element) => {
  const chart = echarts.init(element, null, { renderer: "svg" });
  charts.push(chart);
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
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v) => readable(v * scale.divisor, data.criterion.unit) },
    legend: { data: phases, top: 0 },
    grid: { left, right: 24, top: 40, bottom: 50 },
    xAxis: { type: "value", name: data.criterion.name + " (" + scale.unit + ")", nameLocation: "middle", nameGap: 28,
      splitNumber: left < 200 ? 3 : 5, axisLabel: { formatter: fmt, hideOverlap: true } },
    // A long name wraps on two lines rather than being cut (its whole text in the tooltip)
    yAxis: { type: "category", inverse: true, data: rows.map((r) => r.name || "(none)"),
      axisLabel: { width: left - 12, overflow: "break", lineHeight: 13, fontSize: 11 } },
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
  const figureOf = (v: number) => escapeHtml(readable(v, criterion.unit, scale));
  const value = (v: number) => `${figureOf(v)} ${escapeHtml(scale.unit)}`;
  const name = escapeHtml(criterion.name);
  const phases = model.totals
    .map(
      (phase) =>
        `<div class="card"><b>${value(phase.value)}</b>${name} ${escapeHtml(phase.phase)} (${figureOf(phase.min)} – ${figureOf(phase.max)})</div>`,
    )
    .join("");
  return `<div class="card total"><b>${value(total)}</b>${name} of the lines estimated, embedded and use</div>${phases}`;
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
  const whole = model.totals.reduce((sum, phase) => sum + phase.value, 0);
  const section = (id: string, title: string, ranking: BillRanking) =>
    `<div><h2>${title}</h2><div id="${id}" class="chart tall"></div>${rankedTable(model, ranking)}</div>`;
  const data = {
    criterion: model.criterion,
    scales: MASS_SCALES,
    figures: FIGURES,
    rankings: {
      "chart-service": model.byService.rows,
      "chart-region": model.byRegion.rows,
      "chart-account": model.byAccount.rows,
      "chart-method": model.byMethod.rows,
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
<p class="basis">Every cost below, its totals and shares: <b>${escapeHtml(model.costBasis)}</b>${currency === "" ? "" : `, in${currency}`}. Lines and impacts are those the run estimated; the exact value of each figure is on its hover and in the output file.</p>
<div class="cards">${impactCards(model)}</div>
<div class="side">${largestList(model, "Largest services", model.byService, whole)}${largestList(model, "Largest regions", model.byRegion, whole)}</div>
<h2>Coverage</h2>
<div class="cards">${card("lines", count(coverage.lines))}${card("lines estimated", count(coverage.estimatedLines))}${card(`of the positive cost estimated (${escapeHtml(money(coverage.estimatedCost))} of ${escapeHtml(money(coverage.cost))}${currency})`, share(coverage.estimatedCost, coverage.cost))}${usageCard(model, card)}</div>
${setAsideLine(model)}${coverageTable(model)}
<div class="side">${section("chart-service", "By service", model.byService)}
${section("chart-region", "By region", model.byRegion)}
${section("chart-account", "By account", model.byAccount)}
${section("chart-method", "By method", model.byMethod)}</div>
${grid}<h2>Largest resources</h2>${rankedTable(model, model.resources)}
<script type="application/json" id="report-data">${scriptJson(data)}</script>
<script>${chartLibrary()}</script>
<script>${DRAW}${FRAME_HEIGHT_SCRIPT}</script>
</body></html>
`;
}
