/*
 * A bill's months side by side (several monthly exports read as one bill, or one export over
 * months): the chosen criterion's impacts of each service, account or region per month, its trend
 * drawn beside it, and the largest changes from one month to the next — summed in the page from the
 * facts (src/billing/report/facts.ts: each row's step, a day or a month), so that the filter
 * (src/output/reportParts/filters.ts) and the criterion switch apply, no request made. Shown where
 * the lines span two months or more.
 */

import { escapeHtml } from "../text.js";
import type { GroupCube } from "./model.js";

/** A month's lines and positive cost, and the part of each estimated (src/billing/stages/monthCoverage.ts). */
export interface MonthCoverage {
  /** `2026-04`, or `(no period)`. */
  readonly month: string;
  readonly lines: number;
  readonly estimatedLines: number;
  readonly cost: number;
  readonly estimatedCost: number;
  /** The first start and last end of its lines' periods, seconds since 1970 UTC; null where none reads. */
  readonly first: number | null;
  readonly last: number | null;
}

/** A bill's period: its lines' first start and last end, seconds since 1970 UTC. */
export interface BillPeriod {
  readonly first: number;
  readonly last: number;
}

const HOUR = 3600;
const DAY = 24 * HOUR;

/** A time as a reader reads it, UTC: `2023-06-30 21:00`, its day alone at midnight where `days`. */
function utcTime(seconds: number, days: boolean): string {
  const text = new Date(seconds * 1000).toISOString();
  return days ? text.slice(0, 10) : `${text.slice(0, 10)} ${text.slice(11, 16)}`;
}

/**
 * A span as the report and the summary say it: `2023-06-30 21:00 to 2023-07-01 13:00 UTC (16 h)`,
 * or by days where it starts and ends at midnight (`2026-04-01 to 2026-06-30, 91 days`: its last
 * day the one before its end).
 */
export function spanText(first: number, last: number): string {
  const seconds = last - first;
  if (first % DAY === 0 && last % DAY === 0 && seconds > 0) {
    const days = seconds / DAY;
    return `${utcTime(first, true)} to ${utcTime(last - DAY, true)} (${days} day${days === 1 ? "" : "s"})`;
  }
  const length =
    seconds < 2 * DAY ? `${+(seconds / HOUR).toFixed(1)} h` : `${+(seconds / DAY).toFixed(1)} days`;
  return `${utcTime(first, false)} to ${utcTime(last, false)} UTC (${length})`;
}

/** A month's covered span: its days covered and whether partial (its lines start after its first hour or end before its last). */
export interface MonthSpan {
  readonly partial: boolean;
  /** The days its lines cover within it (a fraction for hours). */
  readonly days: number;
  /** The span covered, as spanText says it. */
  readonly text: string;
}

/** A month's span covered (`2026-04`), or null where its lines have no period (`(no period)`). */
export function monthSpan(month: MonthCoverage): MonthSpan | null {
  const matched = /^(\d{4})-(\d{2})$/.exec(month.month);
  if (matched === null || month.first === null || month.last === null) return null;
  const start = Date.UTC(Number(matched[1]), Number(matched[2]) - 1, 1) / 1000;
  const end = Date.UTC(Number(matched[1]), Number(matched[2]), 1) / 1000;
  const from = Math.max(start, month.first);
  const to = Math.min(end, month.last);
  return { partial: from > start || to < end, days: Math.max(0, to - from) / DAY, text: spanText(from, to) };
}

/** A month as the page's script reads it: its span covered, whether partial, its days covered. */
export interface MonthShown extends MonthSpan {
  readonly month: string;
}

/** The months' spans the page's script reads (each month with a period that reads). */
export function monthsShown(months: readonly MonthCoverage[] | null | undefined): MonthShown[] {
  return (months ?? []).flatMap((month) => {
    const span = monthSpan(month);
    return span === null ? [] : [{ month: month.month, ...span }];
  });
}

/**
 * The months' section: its place, drawn by MONTHS_SCRIPT; nothing where the facts have no step.
 * Where a month is partial (its lines start after its first hour or end before its last), each
 * month is compared by its daily rate over its covered span, the partial ones named, and no trend
 * is drawn between them.
 */
export function monthsSection(
  cube: GroupCube | null,
  coverage = "",
  shown: readonly MonthShown[] = [],
): string {
  if (cube?.step === undefined || cube.step.grain === null || cube.dimensions === undefined) return "";
  const months = new Set(cube.step.values.map((step) => step.slice(0, 7)));
  if (months.size < 2) return "";
  const partial = shown.filter((month) => month.partial);
  const compared =
    partial.length === 0
      ? "each row's trend beside it"
      : `compared by their daily rate over the span each covers, as ${partial.length === 1 ? "a month is" : `${partial.length} months are`} partial (${partial.map((month) => `${month.month}: ${month.text}`).join("; ")}): no trend is drawn`;
  return `<h2 id="months">Month by month</h2>
<p class="sub">The ${months.size} months of the bill side by side (each line in the month of its period), ${escapeHtml(compared)}, and the largest changes from one month to the next, for the criterion shown and the filter set.</p>
<h3>Each month's cost, energy and impact</h3>
<div class="table"><table id="months-totals" class="sortable"></table></div>
<div class="explorer"><label>By <select id="months-by"><option value="service">service</option><option value="account">account</option><option value="region">region</option></select></label></div>
<div id="chart-months" class="chart"></div>
<div class="table"><table id="months-table" class="sortable"></table></div>
<h3>Largest changes month to month</h3>
<div class="table"><table id="months-changes"></table></div>${coverage}`;
}

export const MONTHS_STYLE = `#months-table td.trend{padding:0 .3em} #months-table svg{display:block} #months-table caption{text-align:left;color:#555}
#months-totals td.span{color:#555} #months .month{white-space:nowrap} #months-changes td.up{color:#a4262c} #months-changes td.down{color:#1f5a3c}`;

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
// Each month's days covered (its lines' span, from data.months), else its calendar's
function monthDays(month) {
  const span = (data.months || []).find((m) => m.month === month);
  if (span && span.days > 0) return span.days;
  const [y, m] = month.split("-").map(Number);
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}
const monthPartial = (month) => (data.months || []).some((m) => m.month === month && m.partial);
function monthSums(dimension) {
  const cube = data.cube;
  const d = cube.dimensions[dimension];
  const months = [...new Set(cube.step.values.map((step) => step.slice(0, 7)))].sort();
  const at = new Map(months.map((month, i) => [month, i]));
  const n = cubeKeys(cube);
  const c = chosen();
  const groups = new Map();
  const empty = () => new Array(months.length).fill(0);
  for (const row of filteredRows()) {
    const step = cube.step.values[row[cube.step.at]];
    if (step === undefined) continue;
    const m = at.get(step.slice(0, 7));
    let g = groups.get(row[d.at]);
    if (!g) {
      const v = row[d.at];
      g = { name: v >= d.values.length ? "the rest" : d.names[v] || d.values[v] || "(none)", values: empty(), cost: empty(), energy: empty() };
      groups.set(v, g);
    }
    g.values[m] += data.criteria.length === 0 ? row[n] : row[n + 3 + 2 * c] + row[n + 4 + 2 * c];
    g.cost[m] += row[n + 1];
    g.energy[m] += row[n + 2];
  }
  // A partial month makes every month's figure its daily rate over the span it covers
  const daily = months.some(monthPartial);
  const per = months.map((m) => (daily ? monthDays(m) : 1));
  for (const g of groups.values()) for (const k of ["values", "cost", "energy"]) g[k] = g[k].map((v, i) => v / per[i]);
  const total = (g) => g.values.reduce((s, v) => s + v, 0);
  return { months, daily, groups: [...groups.values()].sort((a, b) => total(b) - total(a)) };
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
  const add = (a, b) => a.map((v, i) => v + b[i]);
  const sum = rest.reduce((acc, g) => ({ ...acc, values: add(acc.values, g.values), cost: add(acc.cost, g.cost), energy: add(acc.energy, g.energy) }),
    { name: rest.length + " more", values: new Array(rest[0].values.length).fill(0), cost: new Array(rest[0].values.length).fill(0), energy: new Array(rest[0].values.length).fill(0), others: true });
  return [...groups.slice(0, from), sum];
}
const monthHeading = (month) => '<span class="month">' + escapeText(month) + "</span>" + (monthPartial(month) ? " (partial)" : "");
const changeText = (before, after) => (before > 0 ? (after >= before ? "+" : "") + ((100 * (after - before)) / before).toFixed(1) + " %" : after > 0 ? "new" : "");
// Each month's cost, energy and impact side by side, each with its change from the month before
function drawMonthTotals(sums, criterion, unit) {
  const sumOf = (k) => sums.months.map((_, i) => sums.groups.reduce((s, g) => s + g[k][i], 0));
  const cost = sumOf("cost"), energy = sumOf("energy"), impact = sumOf("values");
  const scale = scaleOf(unit, impact), kwh = scaleOf("kWh", energy);
  const per = sums.daily ? " per day" : "";
  const cell = (v, text, title) => '<td class="n" data-v="' + v + '" title="' + escapeText(title) + '">' + escapeText(text) + "</td>";
  const change = (list, i) => '<td class="n">' + (i === 0 ? "" : changeText(list[i - 1], list[i])) + "</td>";
  const heading = (text) => '<th data-sort tabindex="0" role="button" aria-sort="none">' + text + "</th>";
  const covered = (m) => { const span = (data.months || []).find((x) => x.month === m); return span ? span.text : ""; };
  const table = document.getElementById("months-totals");
  table.innerHTML = "<thead><tr><th>month</th><th>lines cover</th>" + heading("cost" + per + " (" + escapeText(data.currency || "") + ")") + "<th>change</th>" +
    heading("energy" + per + " (" + escapeText(kwh.unit) + ")") + "<th>change</th>" + heading(escapeText(criterion.name) + per + " (" + escapeText(scale.unit) + ")") + "<th>change</th></tr></thead><tbody>" +
    sums.months.map((m, i) => "<tr><td>" + monthHeading(m) + '</td><td class="span">' + escapeText(covered(m)) + "</td>" +
      cell(cost[i], money(cost[i]), cost[i] + " " + (data.currency || "")) + change(cost, i) +
      cell(energy[i], readableIn(energy[i], "kWh", kwh), energy[i] + " kWh") + change(energy, i) +
      cell(impact[i], readableIn(impact[i], unit, scale), impact[i] + " " + unit) + change(impact, i) + "</tr>").join("") + "</tbody>";
  sortable(table);
}
function drawMonths(chart) {
  const dimension = document.getElementById("months-by").value;
  const sums = monthSums(dimension);
  const { months, groups, daily } = sums;
  const criterion = data.criteria[chosen()] || { name: "lines", unit: "" };
  const unit = criterion.unit;
  drawMonthTotals(sums, criterion, unit);
  const per = daily ? " per day" : "";
  const scale = scaleOf(unit, groups.flatMap((g) => g.values));
  const rows = summedRest(groups, ${ROWS});
  const change = (g) => g.values[g.values.length - 1] - g.values[g.values.length - 2];
  const cell = (v, cls) => '<td class="n' + (cls ? " " + cls : "") + '" data-v="' + v + '" title="' + v + " " + escapeText(unit) + '">' + escapeText(readableIn(v, unit, scale)) + "</td>";
  const heading = (text, cls) => '<th data-sort tabindex="0" role="button" aria-sort="none"' + (cls ? ' class="' + cls + '"' : "") + ">" + text + "</th>";
  // No trend between a partial month and a whole one: the rates are compared, not drawn as a line
  const trend = (g) => (daily ? '<td class="trend" title="no trend drawn: a month is partial">–</td>' : '<td class="trend">' + sparkline(g.values) + "</td>");
  const table = document.getElementById("months-table");
  table.innerHTML = "<caption>" + escapeText(criterion.name) + per + " per month (" + escapeText(scale.unit) + ")</caption><thead><tr><th>" + escapeText(dimension) + "</th>" + months.map((m) => heading(monthHeading(m))).join("") +
    '<th class="trend">trend</th>' + heading("last change", "wide") + "</tr></thead><tbody>" +
    rows.map((g) => "<tr" + (g.others ? ' class="others"' : "") + '><td class="name">' + nameHtml(g.name) + "</td>" + g.values.map((v) => cell(v)).join("") +
      trend(g) + cell(change(g), "wide") + "</tr>").join("") + "</tbody>";
  sortable(table);
  const changes = groups.flatMap((g) => g.values.slice(1).map((v, i) => ({ name: g.name, from: months[i], to: months[i + 1], before: g.values[i], after: v, cost: [g.cost[i], g.cost[i + 1]], energy: [g.energy[i], g.energy[i + 1]] })))
    .filter((x) => x.after !== x.before).sort((a, b) => Math.abs(b.after - b.before) - Math.abs(a.after - a.before)).slice(0, ${CHANGES});
  const kwh = scaleOf("kWh", changes.map((x) => x.energy[1] - x.energy[0]));
  document.getElementById("months-changes").innerHTML = "<thead><tr><th>" + escapeText(dimension) + "</th><th>months</th><th>" + escapeText(criterion.name) + per + " change (" + escapeText(scale.unit) + ")</th><th>of the month before</th><th>cost" + per + " change</th><th>energy" + per + " change (" + escapeText(kwh.unit) + ")</th></tr></thead><tbody>" +
    (changes.length === 0 ? '<tr><td colspan="6">No change from one month to the next.</td></tr>' : changes.map((x) => {
      const delta = x.after - x.before;
      const signed = (v, text) => (v > 0 ? "+" : "") + text;
      return '<tr><td class="name">' + nameHtml(x.name) + "</td><td>" + monthHeading(x.from) + " → " + monthHeading(x.to) + '</td><td class="n ' + (delta > 0 ? "up" : "down") + '" data-v="' + delta + '">' +
        signed(delta, escapeText(readableIn(delta, unit, scale))) + '</td><td class="n">' + changeText(x.before, x.after) + '</td><td class="n">' + signed(x.cost[1] - x.cost[0], escapeText(money(x.cost[1] - x.cost[0]))) +
        '</td><td class="n">' + signed(x.energy[1] - x.energy[0], escapeText(readableIn(x.energy[1] - x.energy[0], "kWh", kwh))) + "</td></tr>";
    }).join("")) + "</tbody>";
  const lines = summedRest(groups, ${LINES});
  const entries = lines.map((g, i) => ({ name: g.name, colour: CHART_COLOURS[i % CHART_COLOURS.length] }));
  const legend = chartLegend(chart, entries);
  chart.setOption({
    animation: false, color: CHART_COLOURS,
    tooltip: { trigger: "axis", valueFormatter: (v) => fmt(v) + " " + scale.unit },
    legend,
    grid: { left: 56, right: 24, top: legend.show === false ? 36 : 56, bottom: 40 },
    xAxis: { type: "category", data: months.map((m) => m + (monthPartial(m) ? " (partial)" : "")) },
    yAxis: { type: "value", name: criterion.name + per + " (" + scale.unit + ")", nameTextStyle: { align: "left" }, axisLabel: { formatter: fmt, hideOverlap: true } },
    // Bars side by side where a month is partial: its rate compared, no line drawn through it
    series: lines.map((g) => ({ name: g.name, type: daily ? "bar" : "line", data: g.values.map((v) => v / scale.divisor) })),
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
