/*
 * Groups a reader chooses once the report is open (the /evaluate page's report, a mailed one): the
 * sums `--group-by` writes, by any one or two of the columns the run kept (a bill's columns and
 * tags, an inventory's own), of the lines the filter keeps (src/output/reportParts/filters.ts) —
 * summed in the page from the cube the run wrote (GroupCube: every combination's sums), the file
 * never sent again. The table sorts by any column; the chart shows the largest groups of the chosen
 * criterion.
 */

import { escapeHtml } from "../text.js";
import type { GroupCube } from "./model.js";

/** The cube's columns as a select's options, by their index. */
export const columnOptions = (cube: GroupCube) =>
  cube.columns
    .map((column, index) => `<option value="${index}">${escapeHtml(column.name)}</option>`)
    .join("");

/** The explorer's section: its controls, the command that writes the same sums, its chart and table. */
export function explorerSection(cube: GroupCube | null, what: string): string {
  if (cube === null || cube.columns.length === 0) return "";
  const options = columnOptions(cube);
  const left =
    cube.left.length === 0
      ? ""
      : `<details class="sub"><summary>Columns not offered (${cube.left.length})</summary>${escapeHtml(cube.left.join("; "))}; the command groups by any column: <code>--group-by</code>.</details>`;
  return `<h2 id="groups">Group</h2>
<p class="sub">The ${what} summed by the columns you choose, in this page (nothing is sent again); the same sums as the command's <code>--group-by</code>, whose line is below.</p>
<div class="explorer">
<label>Group by <select id="group-by">${options}</select></label>
<label>then by <select id="group-then"><option value="">(nothing)</option>${options}</select></label>
</div>
<p class="sub filtered-only">Of the ${what} the filter above keeps.</p>
<p class="sub"><code id="group-command"></code></p>
<div id="chart-explorer" class="chart"></div>
<div class="table"><table id="explorer-table" class="sortable"></table></div>${left}`;
}

export const EXPLORER_STYLE = `.explorer{display:flex;flex-wrap:wrap;gap:.4em 1.2em;align-items:center;margin:.4em 0}
.explorer select{font:inherit;max-width:min(16em,70vw)} .explorer select:disabled{display:none} .sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
#group-command{overflow-wrap:anywhere}
@media (max-width:640px){#explorer-table td.name{min-width:4.5em} #explorer-table th{overflow-wrap:anywhere}}`;

/** Groups listed in the table at most; the rest summed in its last row. */
const LISTED = 50;

/**
 * The explorer's script (the page's helpers in scope: data, counted, fmt, scaleOf, readable, chosen,
 * money, sortable). `data.cube`; `data.groupDefault`: the column first grouped by; `data.command`:
 * the command line before `--group-by`; `data.currency`; `data.costs`: false where the input has
 * none (an inventory: no cost, no impact per cost); `data.lines`: what the sums count.
 */
export const EXPLORER_SCRIPT = `
const esc = (text) => String(text).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
function explorerGroups(cube, by) {
  const n = cubeKeys(cube);
  const groups = new Map();
  for (const row of filteredRows()) {
    const key = by.map((k) => row[k]).join(",");
    let sums = groups.get(key);
    if (!sums) { sums = { values: by.map((k) => row[k]), sums: new Array(row.length - n).fill(0) }; groups.set(key, sums); }
    for (let i = n; i < row.length; i++) sums.sums[i - n] += row[i];
  }
  return [...groups.values()];
}
function drawExplorer(chart) {
  const cube = data.cube;
  const by = [Number(document.getElementById("group-by").value)];
  const then = document.getElementById("group-then").value;
  if (then !== "" && Number(then) !== by[0]) by.push(Number(then));
  const c = chosen();
  const criterion = data.criteria[c] || { name: "", unit: "" };
  const total = (g) => g.sums[3 + 2 * c] + g.sums[4 + 2 * c];
  const groups = explorerGroups(cube, by).sort((a, b) => total(b) - total(a));
  const name = (g) => g.values.map((v, i) => valueName(cube.columns[by[i]], v)).join(" · ");
  const scale = scaleOf(criterion.unit, groups.map(total));
  const rates = groups.filter((g) => g.sums[1] > 0).map((g) => total(g) / g.sums[1]);
  const rate = scaleOf(criterion.unit, rates);
  const energy = scaleOf("kWh", groups.map((g) => g.sums[2]));
  const currency = data.currency || "cost";
  const listed = groups.slice(0, ${LISTED});
  const rest = groups.slice(${LISTED});
  // A figure with its own unit (too small for the column's scale) may wrap before the unit, as the page's tables
  // "< 0.01 mgCO2eq" too, its "<" kept with its number: 50 rows of a phone's table hold a few
  const cell = (v, unit, s, more) => { const text = readableIn(v, unit, s).replace(/^< /, "<\\u00a0"); return '<td class="n' + (text.includes(" ") ? " own" : "") + (more || "") + '" data-v="' + v + '" title="' + v + " " + esc(unit) + '">' + esc(text) + "</td>"; };
  // A tablet or a phone keeps the total: the phases are a desktop's
  const quantity = (v, s, more) => cell(v, criterion.unit, s, more);
  const costs = data.costs !== false;
  const row = (g, label, kind) => "<tr" + (kind ? ' class="' + kind + '"' : "") + ">" + label +
    '<td class="n wide" data-v="' + g.sums[0] + '">' + fmtCount(g.sums[0]) + "</td>" +
    (costs ? '<td class="n" data-v="' + g.sums[1] + '" title="' + g.sums[1] + '">' + money(g.sums[1]) + "</td>" : "") +
    quantity(g.sums[3 + 2 * c], scale, " mid") + quantity(g.sums[4 + 2 * c], scale, " mid") + quantity(total(g), scale) +
    cell(g.sums[2], "kWh", energy) +
    (!costs ? "" : g.sums[1] > 0 ? cell(total(g) / g.sums[1], criterion.unit, rate) : '<td class="na" data-v="">n/a</td>') + "</tr>";
  const cells = (g) => g.values.map((v, i) => '<td class="name">' + nameHtml(valueName(cube.columns[by[i]], v)) + "</td>").join("");
  const summed = rest.length === 0 ? null : rest.reduce((acc, g) => ({ values: [], sums: acc.sums.map((s, i) => s + g.sums[i]) }), { values: [], sums: new Array(rest[0].sums.length).fill(0) });
  const heading = (text, cls) => '<th data-sort tabindex="0" role="button" aria-sort="none"' + (cls ? ' class="' + cls + '"' : "") + ">" + text + "</th>";
  const table = document.getElementById("explorer-table");
  table.innerHTML = "<thead><tr>" + by.map((k) => heading(esc(cube.columns[k].name))).join("") + heading(esc(data.lines || "lines"), "wide") + (costs ? heading("cost (" + esc(currency) + ")") : "") +
    heading("embedded (" + esc(scale.unit) + ")", "mid") + heading("use (" + esc(scale.unit) + ")", "mid") + heading(esc(criterion.name) + " (" + esc(scale.unit) + ")") +
    heading(esc(energy.unit)) + (costs ? heading(esc(rate.unit) + " per " + esc(currency)) : "") + "</tr></thead><tbody>" +
    listed.map((g) => row(g, cells(g))).join("") +
    (summed ? row(summed, '<td class="name" colspan="' + by.length + '">' + rest.length + " more</td>", "others") : "") + "</tbody>";
  for (const cell of table.querySelectorAll("th:nth-child(" + (by.length + 1) + "), td:nth-child(" + (by.length + 1) + ")")) cell.classList.add("wide");
  sortable(table);
  const names = cube.columns;
  document.getElementById("group-command").textContent = data.command + filterCommand() + " --group-by " + shellQuoted(by.map((k) => names[k].name).join(","));
  const shown = groups.slice(0, 12);
  const left = Math.round(Math.min(230, chart.getWidth() * 0.4));
  chart.setOption({
    animation: false, color: ["#5470c6", "#91cc75"],
    tooltip: { trigger: "axis", axisPointer: { type: "shadow" }, valueFormatter: (v) => readable(v * scale.divisor, criterion.unit) },
    legend: { data: ["embedded", "use"], top: 0 },
    grid: { left, right: 24, top: 40, bottom: 50 },
    xAxis: { type: "value", name: criterion.name + " (" + scale.unit + ")", nameLocation: "middle", nameGap: 28, splitNumber: left < 200 ? 3 : 5, axisLabel: { formatter: fmt, hideOverlap: true } },
    yAxis: { type: "category", inverse: true, data: shown.map(name), axisLabel: { width: left - 12, overflow: left < 180 ? "truncate" : "break", lineHeight: 13, fontSize: 11 } },
    series: ["embedded", "use"].map((phase, p) => ({ name: phase, type: "bar", stack: "total", data: shown.map((g) => g.sums[3 + p + 2 * c] / scale.divisor) })),
  }, true);
}
if (data.cube && data.cube.columns.length > 0 && document.getElementById("chart-explorer")) {
  const chart = counted(document.getElementById("chart-explorer"));
  document.getElementById("group-by").value = String(data.groupDefault || 0);
  const redraw = () => drawExplorer(chart);
  for (const id of ["group-by", "group-then"]) document.getElementById(id).addEventListener("change", redraw);
  document.addEventListener("criterion", redraw);
  document.addEventListener("filter", redraw);
  redraw();
}
`;
