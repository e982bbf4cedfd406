/*
 * Filters a reader combines once the report is open: several values of several columns (a bill's
 * accounts, services, regions, tags, any of its columns; an inventory's own), values of one column
 * either, columns all — applied in the page to the facts the run wrote (GroupCube: the lines summed
 * by every combination of the columns' values, src/billing/report/facts.ts), no request made. The
 * parts of the page that sum lines follow (the `filter` event; `filteredRows()`); what the filter
 * shows is what the command's `--filter` sums (its line shown). Columns and values are searched by
 * their text when many.
 */

import { escapeHtml } from "../text.js";
import { columnOptions } from "./explorer.js";
import type { GroupCube } from "./model.js";

/** The filter's section: its chips, its picker of a column and values, what it shows. */
export function filterSection(cube: GroupCube | null, what: string): string {
  if (cube === null || cube.columns.length === 0) return "";
  return `<section id="filters" aria-label="filters">
<div class="filter-bar"><b>Filter</b> <span id="filter-chips"><span class="sub">every ${escapeHtml(what.replace(/s$/, ""))}</span></span>
<button type="button" id="filter-clear" hidden>clear</button></div>
<details id="filter-add"><summary>add a filter: any column or tag, several values</summary><div class="filter-panel">
<label>Column <input type="search" id="filter-column-search" placeholder="search ${cube.columns.length} columns" aria-label="search the columns"></label>
<select id="filter-column" aria-label="filter column" size="6">${columnOptions(cube)}</select>
<label>Values <input type="search" id="filter-value-search" placeholder="search its values" aria-label="search the values"></label>
<div id="filter-values" role="group" aria-label="filter values"></div>
</div></details>
<p id="filter-said" class="sub" hidden></p>
</section>`;
}

export const FILTER_STYLE = `#filters{border:1px solid #d7e3dc;border-radius:6px;padding:.4em .7em;margin:.6em 0;background:#fbfdfc}
.filter-bar{display:flex;flex-wrap:wrap;gap:.3em .8em;align-items:center}
.chip{display:inline-flex;gap:.3em;align-items:baseline;background:#e3f2e8;border-radius:1em;padding:.1em .6em;overflow-wrap:anywhere}
.chip button,#filter-clear{font:inherit;font-size:.85em;border:0;background:none;color:#2f6f4e;cursor:pointer;padding:0 .2em}
#filter-add summary{cursor:pointer;color:#2f6f4e}
.filter-panel{display:grid;gap:.3em;margin-top:.3em;max-width:min(32em,100%)}
.filter-panel select{width:100%;font:inherit}
.filter-panel input[type=search]{font:inherit;width:100%}
#filter-values{max-height:14em;overflow-y:auto;border:1px solid #e5e5e5;padding:.2em .4em}
#filter-values label{display:block;overflow-wrap:anywhere}
#filter-said code{overflow-wrap:anywhere}
body.filtered .unfiltered{display:none} body:not(.filtered) .filtered-only{display:none}`;

/** Values listed under a column at most (the search finds the others). */
const LISTED_VALUES = 200;

/**
 * The filter's script, before the parts that follow it (the page's helpers in scope: data,
 * chosen). `data.cube`; `data.filters`: filters to apply at once (`{ column, values }` by name,
 * the command's `--filter`); `data.command`; `data.filterable`: the command takes `--filter` (a
 * bill's). Defines `filterState`, `passes(row)`,
 * `filteredRows()`, `isFiltered()`, `valueName(column, index)`, `cubeSums(rows)` and
 * `filterCommand()`, and dispatches `filter` when the filter changes.
 */
export const FILTER_SCRIPT = `
var filterState = new Map();
var filterCache = null;
// A name's parts, each kept on one line (a line breaks after "/", ":", ",", a space; never inside "t3.large")
function nameHtml(text) {
  return String(text).split(/(?<=[/: ])(?=.)/).map((part) => '<span class="tok">' + escapeText(part) + "</span>").join("<wbr>");
}
function escapeText(text) {
  return String(text).replace(/[&<>"]/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[ch]);
}
function isFiltered() { return filterState.size > 0; }
function cubeKeys(cube) { return cube.keys ?? cube.columns.length; }
function passes(row) {
  for (const [column, values] of filterState) if (!values.has(row[column])) return false;
  return true;
}
function filteredRows() {
  if (!data.cube) return [];
  filterCache ??= data.cube.rows.filter(passes);
  return filterCache;
}
// A column's value by its index: its text, none as "(none)", past its values every other one.
function valueName(column, index) {
  if (index >= column.values.length) return "(" + (column.others || 0).toLocaleString("en-US") + " other values)";
  return column.values[index] === "" ? "(none)" : column.values[index];
}
// The sums of rows: lines, cost, energy, then each criterion's embedded and use.
function cubeSums(rows) {
  const n = cubeKeys(data.cube);
  const sums = new Array(3 + 2 * data.criteria.length).fill(0);
  for (const row of rows) for (let i = 0; i < sums.length; i++) sums[i] += row[n + i];
  return sums;
}
// The command's --filter of the filter, each value one option (a shell's quoting where it needs it).
function shellQuoted(text) {
  return /^[\\w./:=@%+-]+$/.test(text) ? text : "'" + text.replaceAll("'", "'\\\\''") + "'";
}
function filterCommand() {
  if (!data.filterable) return "";
  const quoted = shellQuoted;
  return [...filterState].flatMap(([column, values]) => [...values].map((v) =>
    " --filter " + quoted(data.cube.columns[column].name + "=" + data.cube.columns[column].values[v]))).join("");
}
function filterChanged() {
  filterCache = null;
  document.body.classList.toggle("filtered", isFiltered());
  drawFilterChips();
  document.dispatchEvent(new CustomEvent("filter"));
}
function drawFilterChips() {
  const chips = document.getElementById("filter-chips");
  if (!chips) return;
  chips.innerHTML = isFiltered()
    ? [...filterState].map(([column, values]) => '<span class="chip">' + escapeText(data.cube.columns[column].name) + ": " +
        [...values].map((v) => escapeText(valueName(data.cube.columns[column], v))).join(" or ") +
        ' <button type="button" data-column="' + column + '" aria-label="remove this filter">✕</button></span>').join(" and ")
    : '<span class="sub">every ' + escapeText((data.lines || "lines").replace(/s$/, "")) + "</span>";
  for (const button of chips.querySelectorAll("button")) button.addEventListener("click", () => {
    filterState.delete(Number(button.dataset.column));
    filterChanged();
    drawFilterValues();
  });
  document.getElementById("filter-clear").hidden = !isFiltered();
  drawFilterSaid();
}
function drawFilterSaid() {
  const said = document.getElementById("filter-said");
  said.hidden = !isFiltered();
  if (!isFiltered()) return;
  const all = cubeSums(data.cube.rows);
  const shown = cubeSums(filteredRows());
  const c = chosen();
  const criterion = data.criteria[c];
  const total = (s) => s[3 + 2 * c] + s[4 + 2 * c];
  said.innerHTML = "The filter's lines: <b>" + fmtCount(shown[0]) + "</b> of " + fmtCount(all[0]) + " evaluated" +
    (criterion ? ", <b data-v=\\"" + total(shown) + "\\">" + escapeText(readable(total(shown), criterion.unit)) + "</b> of " + escapeText(readable(total(all), criterion.unit)) : "") +
    (data.costs === false ? "" : ', cost <b data-v="' + shown[1] + '">' + money(shown[1]) + "</b>" + (data.currency ? " " + escapeText(data.currency) : "")) +
    ', energy <b data-v="' + shown[2] + '">' + escapeText(readable(shown[2], "kWh")) + "</b>" +
    (data.command && data.filterable ? '; the command\\'s sums: <code id="filter-command">' + escapeText(data.command + filterCommand()) + "</code>" : "");
}
function drawFilterValues() {
  const columnSelect = document.getElementById("filter-column");
  const box = document.getElementById("filter-values");
  if (!columnSelect || columnSelect.value === "") { if (box) box.innerHTML = ""; return; }
  const k = Number(columnSelect.value);
  const column = data.cube.columns[k];
  const chosenValues = filterState.get(k) || new Set();
  const search = document.getElementById("filter-value-search").value.trim().toLowerCase();
  const indexes = [...column.values.keys()].filter((v) => search === "" || valueName(column, v).toLowerCase().includes(search));
  const listed = indexes.slice(0, ${LISTED_VALUES});
  box.innerHTML = listed.map((v) => '<label><input type="checkbox" data-v="' + v + '"' + (chosenValues.has(v) ? " checked" : "") + "> " +
    escapeText(valueName(column, v)) + "</label>").join("") +
    (column.others ? '<p class="sub">' + escapeText(valueName(column, column.values.length)) + " are summed as one: the command's --filter takes any</p>" : "") +
    (indexes.length > listed.length ? '<p class="sub">' + (indexes.length - listed.length) + " more: search them</p>" : "");
  for (const input of box.querySelectorAll("input")) input.addEventListener("change", () => {
    const set = filterState.get(k) || new Set();
    if (input.checked) set.add(Number(input.dataset.v)); else set.delete(Number(input.dataset.v));
    if (set.size === 0) filterState.delete(k); else filterState.set(k, set);
    filterChanged();
  });
}
// The facts of the filter grouped by the row's cell \`at\`, each group named by \`nameOf(index)\` and
// carrying its id (\`idOf\`), largest first by the criterion shown: [{ name, id, lines, cost, energy, impacts }].
function groupedBy(at, nameOf, idOf) {
  const n = cubeKeys(data.cube);
  const groups = new Map();
  for (const row of filteredRows()) {
    let sums = groups.get(row[at]);
    if (!sums) { sums = new Array(3 + 2 * data.criteria.length).fill(0); groups.set(row[at], sums); }
    for (let i = 0; i < sums.length; i++) sums[i] += row[n + i];
  }
  const c = chosen();
  const weight = (s) => (data.criteria.length === 0 ? s[0] : s[3 + 2 * c] + s[4 + 2 * c]);
  return [...groups].sort((a, b) => weight(b[1]) - weight(a[1])).map(([index, s]) => ({
    name: nameOf(index), id: idOf ? idOf(index) : undefined, lines: s[0], cost: s[1], energy: s[2],
    impacts: data.criteria.map((_, k) => ({ embedded: s[3 + 2 * k], use: s[4 + 2 * k] })),
  }));
}
// A report dimension's groups (service, region, account, resource), the rest as one.
function dimensionGroups(dimension) {
  const d = data.cube.dimensions[dimension];
  const named = (v) => (v >= d.values.length ? "the rest" : d.names[v] || d.values[v] || "(none)");
  return groupedBy(d.at, named, (v) => d.values[v]);
}
// A column's groups (method), by its name.
function columnGroups(name) {
  const k = data.cube.columns.findIndex((column) => column.name === name);
  return k < 0 ? [] : groupedBy(k, (v) => valueName(data.cube.columns[k], v));
}
// The impacts over time of the filter, by service (the eight largest, the rest summed), as data.overTime is.
function filteredOverTime() {
  const cube = data.cube;
  if (!isFiltered() || !data.overTime || !cube || !cube.step || !cube.dimensions || cube.step.grain === null) return data.overTime;
  const same = cube.step.grain === data.overTime.grain;
  const steps = same ? data.overTime.steps : cube.step.values;
  const at = new Map(steps.map((step, s) => [step, s]));
  const shown = dimensionGroups("service").slice(0, 8);
  const d = cube.dimensions.service;
  const seriesOf = new Map(shown.map((g, i) => [g.id, i]));
  const series = [...shown.map((g) => g.name), ...(dimensionGroups("service").length > shown.length ? ["the rest"] : [])].map((name) => ({
    name, impacts: data.criteria.map(() => new Array(steps.length).fill(0)), energy: new Array(steps.length).fill(0) }));
  const n = cubeKeys(cube);
  for (const row of filteredRows()) {
    const s = at.get(cube.step.values[row[cube.step.at]]);
    if (s === undefined) continue;
    const one = series[seriesOf.get(d.values[row[d.at]]) ?? shown.length];
    data.criteria.forEach((_, k) => { one.impacts[k][s] += row[n + 3 + 2 * k] + row[n + 4 + 2 * k]; });
    one.energy[s] += row[n + 2];
  }
  return { ...data.overTime, grain: same ? data.overTime.grain : cube.step.grain, steps, series };
}
if (data.cube && data.cube.columns.length > 0 && document.getElementById("filters")) {
  const columnSelect = document.getElementById("filter-column");
  const columnSearch = document.getElementById("filter-column-search");
  columnSearch.addEventListener("input", () => {
    const search = columnSearch.value.trim().toLowerCase();
    for (const option of columnSelect.options) option.hidden = search !== "" && !option.textContent.toLowerCase().includes(search);
  });
  columnSelect.addEventListener("change", () => { document.getElementById("filter-value-search").value = ""; drawFilterValues(); });
  document.getElementById("filter-value-search").addEventListener("input", drawFilterValues);
  document.getElementById("filter-clear").addEventListener("click", () => { filterState.clear(); filterChanged(); drawFilterValues(); });
  document.addEventListener("criterion", drawFilterSaid);
  for (const given of data.filters || []) {
    const k = data.cube.columns.findIndex((column) => column.name === given.column);
    if (k < 0) continue;
    const set = new Set(given.values.map((value) => data.cube.columns[k].values.indexOf(value)).filter((v) => v >= 0));
    if (set.size > 0) filterState.set(k, set);
  }
  if (isFiltered()) { document.body.classList.add("filtered"); drawFilterChips(); }
}
`;
