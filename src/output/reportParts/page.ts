/*
 * The script every report's page starts with: its data (the JSON of `#report-data`), one figure
 * format, the scales and money of the tables, the criterion switch, the sortable tables, and the
 * charts counted as they draw (`document.body.dataset.charts`, up to `dataset.wanted`: what a
 * reader, a test, waits for). Each part's drawing follows it (pageScript).
 */

import { SCALE_SCRIPT } from "../readable.js";
import { CRITERION_SCRIPT } from "./criteria.js";
import { LEGEND_SCRIPT } from "./legend.js";
import { SORTABLE_SCRIPT } from "./sortable.js";

const HEAD = `
const data = JSON.parse(document.getElementById("report-data").textContent);
const phases = ["embedded", "use"];
const fmt = (v) => new Intl.NumberFormat("en-US", data.figures).format(v);
${SCALE_SCRIPT}${CRITERION_SCRIPT}${SORTABLE_SCRIPT}${LEGEND_SCRIPT}let drawn = 0;
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
`;

/** A page's script: the head, each part's drawing, then how many charts it draws. */
export function pageScript(...parts: readonly string[]): string {
  return `${HEAD}${parts.join("")}
// How many charts the page draws: a reader (a test) waits for document.body.dataset.charts to reach it
document.body.dataset.wanted = String(charts.length);
`;
}
