/*
 * The report's chart of impacts over time: per day, month or year (the input's own grain), the
 * chosen criterion's impacts stacked by series (a bill's largest services, an inventory's kinds),
 * the energy (kWh) as a line on its own axis beside them; redrawn when the criterion changes.
 * What no step holds (lines or rows without a period that reads) is said under it.
 */

import { figure } from "../readable.js";
import { escapeHtml } from "../text.js";
import type { OverTime } from "./model.js";
import { MAX_STEPS } from "./time.js";

const GRAIN_WORDS = { day: "day", month: "month", year: "year" } as const;

/**
 * The chart's section: its heading, its place, and what it leaves out — the steps summed coarser
 * than the input's own, and why no chart is drawn; nothing without steps or a reason.
 */
export function overTimeSection(over: OverTime | null, what: string, covered = ""): string {
  if (over !== null && over.steps.length === 0 && over.undrawn !== undefined) {
    return `<h2>Impacts over time</h2>\n<p class="sub">${escapeHtml(over.undrawn)}</p>`;
  }
  if (over === null || over.steps.length === 0) return "";
  const grain = GRAIN_WORDS[over.grain];
  const undated =
    over.undated.lines > 0
      ? `<p class="sub">${figure(over.undated.lines)} ${what} without a period that reads are in no ${grain} (their impacts are in every table).</p>`
      : "";
  const coarser =
    over.own !== undefined && over.own !== over.grain
      ? ` Their own periods are ${GRAIN_WORDS[over.own]}s; from ${escapeHtml(over.steps[0])} to ${escapeHtml(over.steps[over.steps.length - 1])} they would take more than the chart's ${MAX_STEPS} steps, so they are summed by ${grain}.`
      : "";
  return `<h2>Impacts per ${grain}, by ${escapeHtml(over.by)}</h2>
<p class="sub">Each of the ${what} in its own period (its impacts spread over the ${grain}s it spans), the energy behind the use impacts beside.${coarser}</p>
<div id="chart-time" class="chart tall"></div>${covered === "" ? "" : `<p class="sub">${escapeHtml(covered)}</p>`}${undated}`;
}

/** Draws the chart from `data.overTime` (the page's helpers in scope: counted, fmt, scaleOf, readable, chosen). */
export const OVER_TIME_SCRIPT = `
function drawOverTime(chart) {
  const over = filteredOverTime();
  const c = chosen();
  const criterion = data.criteria[c];
  if (!criterion) return;
  const totals = over.steps.map((_, s) => over.series.reduce((sum, series) => sum + series.impacts[c][s], 0));
  const scale = scaleOf(criterion.unit, totals);
  const energy = over.steps.map((_, s) => over.series.reduce((sum, series) => sum + series.energy[s], 0));
  const kwh = "energy (kWh)";
  const narrow = chart.getWidth() < 500;
  const legend = chartLegend(chart, [...over.series.map((s, i) => ({ name: s.name, colour: CHART_COLOURS[i % CHART_COLOURS.length] })), { name: kwh, colour: "#222" }]);
  chart.setOption({
    animation: false, color: CHART_COLOURS,
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v) => fmt(v) },
    legend,
    grid: { left: 56, right: narrow ? 44 : 64, top: legend.show === false ? 36 : 56, bottom: 56 },
    xAxis: { type: "category", data: over.steps, axisLabel: { hideOverlap: true } },
    yAxis: [
      { type: "value", name: criterion.name + " (" + scale.unit + ")", nameTextStyle: { align: "left" }, axisLabel: { formatter: fmt, hideOverlap: true } },
      { type: "value", name: "kWh", axisLabel: { formatter: fmt, hideOverlap: true }, splitLine: { show: false } },
    ],
    series: [
      ...over.series.map((s) => ({ name: s.name, type: "bar", stack: "impacts", data: s.impacts[c].map((v) => v / scale.divisor) })),
      { name: kwh, type: "line", yAxisIndex: 1, symbol: "none", lineStyle: { width: 2 }, itemStyle: { color: "#222" }, data: energy },
    ],
  }, true);
}
if (data.overTime && document.getElementById("chart-time")) {
  const chart = counted(document.getElementById("chart-time"));
  drawOverTime(chart);
  document.addEventListener("criterion", () => drawOverTime(chart));
  window.addEventListener("resize", () => drawOverTime(chart));
  document.addEventListener("filter", () => drawOverTime(chart));
}
`;
