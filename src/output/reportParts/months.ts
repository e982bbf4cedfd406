/*
 * A bill's months side by side (several monthly exports read as one bill, or one export over
 * months): the chosen criterion's impacts of each service, account or region per month, its trend
 * drawn beside it, and the largest changes from one month to the next — summed in the page from the
 * facts (src/billing/report/facts.ts: each row's step, a day or a month), so that the filter
 * (src/output/reportParts/filters.ts) and the criterion switch apply, no request made. Shown where
 * the lines span two months or more.
 */

import type { GroupCube } from "./model.js";

/** A month's lines and positive cost, and the part of each estimated (src/billing/report/monthCoverage.ts). */
export interface MonthCoverage {
  /** `2026-04`, or `(no period)`. */
  readonly month: string;
  readonly lines: number;
  readonly estimatedLines: number;
  readonly cost: number;
  readonly estimatedCost: number;
}

/** The months' section: its place, drawn by MONTHS_SCRIPT; nothing where the facts have no step. */
export function monthsSection(cube: GroupCube | null, coverage = ""): string {
  if (cube?.step === undefined || cube.step.grain === null || cube.dimensions === undefined) return "";
  const months = new Set(cube.step.values.map((step) => step.slice(0, 7)));
  if (months.size < 2) return "";
  return `<h2 id="months">Month by month</h2>
<p class="sub">The ${months.size} months of the bill side by side (each line in the month of its period), each row's trend beside it and the largest changes from one month to the next, for the criterion shown and the filter set.</p>
<div class="explorer"><label>By <select id="months-by"><option value="service">service</option><option value="account">account</option><option value="region">region</option></select></label></div>
<div id="chart-months" class="chart"></div>
<div class="table"><table id="months-table" class="sortable"></table></div>
<h3>Largest changes month to month</h3>
<div class="table"><table id="months-changes"></table></div>${coverage}`;
}

export const MONTHS_STYLE = `#months-table td.trend{padding:0 .3em} #months-table svg{display:block} #months-table caption{text-align:left;color:#555}
#months-changes td.up{color:#a4262c} #months-changes td.down{color:#1f5a3c}`;

/** Rows of the months' table and chart lines at most (the rest summed), changes listed. */
const ROWS = 12;
const LINES = 8;
const CHANGES = 10;

/**
 * The months' script (after the filter's: its helpers in scope). Draws the chart (a line per
 * service, account or region, the rest summed, and the total), the table (a row per group, a
 * column per month, its trend as a small line, the last month against the one before) and the
 * largest changes, on load and on each `criterion`, `filter` and choice of the dimension.
 */
export const MONTHS_SCRIPT = `
function monthSums(dimension) {
  const cube = data.cube;
  const d = cube.dimensions[dimension];
  const months = [...new Set(cube.step.values.map((step) => step.slice(0, 7)))].sort();
  const at = new Map(months.map((month, i) => [month, i]));
  const n = cubeKeys(cube);
  const c = chosen();
  const groups = new Map();
  for (const row of filteredRows()) {
    const step = cube.step.values[row[cube.step.at]];
    if (step === undefined) continue;
    const m = at.get(step.slice(0, 7));
    let g = groups.get(row[d.at]);
    if (!g) {
      const v = row[d.at];
      g = { name: v >= d.values.length ? "the rest" : d.names[v] || d.values[v] || "(none)", values: new Array(months.length).fill(0), cost: new Array(months.length).fill(0) };
      groups.set(v, g);
    }
    g.values[m] += data.criteria.length === 0 ? row[n] : row[n + 3 + 2 * c] + row[n + 4 + 2 * c];
    g.cost[m] += row[n + 1];
  }
  const total = (g) => g.values.reduce((s, v) => s + v, 0);
  return { months, groups: [...groups.values()].sort((a, b) => total(b) - total(a)) };
}
function sparkline(values) {
  const top = Math.max(...values, 0), low = Math.min(...values, 0);
  const span = top - low || 1;
  const points = values.map((v, i) => (values.length === 1 ? 30 : (i * 60) / (values.length - 1)).toFixed(1) + "," + (18 - ((v - low) / span) * 16).toFixed(1)).join(" ");
  return '<svg width="48" height="20" viewBox="-2 0 64 20" aria-hidden="true"><polyline fill="none" stroke="#5470c6" stroke-width="1.5" points="' + points + '"/></svg>';
}
function summedRest(groups, from) {
  const rest = groups.slice(from);
  if (rest.length === 0) return groups;
  const sum = rest.reduce((acc, g) => ({ ...acc, values: acc.values.map((v, i) => v + g.values[i]), cost: acc.cost.map((v, i) => v + g.cost[i]) }),
    { name: rest.length + " more", values: new Array(rest[0].values.length).fill(0), cost: new Array(rest[0].values.length).fill(0), others: true });
  return [...groups.slice(0, from), sum];
}
function drawMonths(chart) {
  const dimension = document.getElementById("months-by").value;
  const { months, groups } = monthSums(dimension);
  const criterion = data.criteria[chosen()] || { name: "lines", unit: "" };
  const unit = criterion.unit;
  const scale = scaleOf(unit, groups.flatMap((g) => g.values));
  const rows = summedRest(groups, ${ROWS});
  const change = (g) => g.values[g.values.length - 1] - g.values[g.values.length - 2];
  const cell = (v, cls) => '<td class="n' + (cls ? " " + cls : "") + '" data-v="' + v + '" title="' + v + " " + escapeText(unit) + '">' + escapeText(readableIn(v, unit, scale)) + "</td>";
  const heading = (text, cls) => '<th data-sort tabindex="0" role="button" aria-sort="none"' + (cls ? ' class="' + cls + '"' : "") + ">" + text + "</th>";
  const table = document.getElementById("months-table");
  table.innerHTML = "<caption>" + escapeText(criterion.name) + " per month (" + escapeText(scale.unit) + ")</caption><thead><tr><th>" + escapeText(dimension) + "</th>" + months.map((m) => heading(escapeText(m))).join("") +
    '<th class="trend">trend</th>' + heading("last change", "wide") + "</tr></thead><tbody>" +
    rows.map((g) => "<tr" + (g.others ? ' class="others"' : "") + '><td class="name">' + escapeText(g.name) + "</td>" + g.values.map((v) => cell(v)).join("") +
      '<td class="trend">' + sparkline(g.values) + "</td>" + cell(change(g), "wide") + "</tr>").join("") + "</tbody>";
  sortable(table);
  const changes = groups.flatMap((g) => g.values.slice(1).map((v, i) => ({ name: g.name, from: months[i], to: months[i + 1], before: g.values[i], after: v })))
    .filter((x) => x.after !== x.before).sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before)).slice(0, ${CHANGES});
  document.getElementById("months-changes").innerHTML = "<thead><tr><th>" + escapeText(dimension) + "</th><th>months</th><th>change (" + escapeText(scale.unit) + ")</th><th>of the month before</th></tr></thead><tbody>" +
    (changes.length === 0 ? '<tr><td colspan="4">No change from one month to the next.</td></tr>' : changes.map((x) => {
      const delta = x.after - x.before;
      return '<tr><td class="name">' + escapeText(x.name) + "</td><td>" + escapeText(x.from) + " → " + escapeText(x.to) + '</td><td class="n ' + (delta > 0 ? "up" : "down") + '" data-v="' + delta + '">' +
        (delta > 0 ? "+" : "") + escapeText(readableIn(delta, unit, scale)) + '</td><td class="n">' + (x.before > 0 ? (delta > 0 ? "+" : "") + ((100 * delta) / x.before).toFixed(1) + " %" : "new") + "</td></tr>";
    }).join("")) + "</tbody>";
  const lines = summedRest(groups, ${LINES});
  const entries = lines.map((g, i) => ({ name: g.name, colour: CHART_COLOURS[i % CHART_COLOURS.length] }));
  const legend = chartLegend(chart, entries);
  chart.setOption({
    animation: false, color: CHART_COLOURS,
    tooltip: { trigger: "axis", valueFormatter: (v) => fmt(v) + " " + scale.unit },
    legend,
    grid: { left: 56, right: 24, top: legend.show === false ? 36 : 56, bottom: 40 },
    xAxis: { type: "category", data: months },
    yAxis: { type: "value", name: criterion.name + " (" + scale.unit + ")", nameTextStyle: { align: "left" }, axisLabel: { formatter: fmt, hideOverlap: true } },
    series: lines.map((g) => ({ name: g.name, type: "line", data: g.values.map((v) => v / scale.divisor) })),
  }, true);
}
if (document.getElementById("chart-months")) {
  const chart = counted(document.getElementById("chart-months"));
  const redraw = () => drawMonths(chart);
  redraw();
  document.getElementById("months-by").addEventListener("change", redraw);
  document.addEventListener("criterion", redraw);
  document.addEventListener("filter", redraw);
  window.addEventListener("resize", redraw);
}
`;
