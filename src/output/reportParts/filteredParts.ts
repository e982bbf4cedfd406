/*
 * A bill's report under a filter (src/output/reportParts/filters.ts): the parts that sum its lines
 * drawn again in the page from the facts the filter keeps — the first screen's cards and largest
 * services and regions, the tables by service, region, account, method and resource (their
 * charts redrawn by the rankings' script) — where the report's own, exact for the whole bill, are
 * hidden (`.unfiltered`) while a filter is set (`.filtered-only`).
 */

/** Where a ranking's filtered table goes: its dimension (or the column `method`), whether it has the impact per cost. */
export const filteredTable = (by: string, intensity: boolean) =>
  `<div class="filtered-only" data-ranked="${by}"${intensity ? ' data-intensity="yes"' : ""}></div>`;

/** Rows of a filtered table, the rest summed in its last, as the report's own. */
const RANKED = 12;

/**
 * The script (after the filter's; the page's helpers in scope): `rankedRows(by)`, the groups of a
 * ranking as its chart draws them, and the parts drawn on each `filter` and `criterion` event.
 */
export const FILTERED_PARTS_SCRIPT = `
function rankedRows(by) {
  return by === "method" ? columnGroups("method") : dimensionGroups(by);
}
function criterionTotal(row, c) { return row.impacts[c].embedded + row.impacts[c].use; }
function filteredCell(value, unit, scale, cls) {
  const text = readableIn(value, unit, scale);
  return '<td class="n' + (text.includes(" ") ? " own" : "") + (cls ? " " + cls : "") + '" data-v="' + value + '" title="' + value + " " + escapeText(unit) + '">' + escapeText(text) + "</td>";
}
function filteredRanking(element) {
  const groups = rankedRows(element.dataset.ranked);
  const c = chosen();
  const criterion = data.criteria[c] || { name: "", unit: "" };
  const listed = groups.slice(0, ${RANKED});
  const rest = groups.slice(${RANKED});
  const rows = rest.length === 0 ? listed : [...listed, rest.reduce((sum, g) => ({ ...sum, lines: sum.lines + g.lines, cost: sum.cost + g.cost, energy: sum.energy + g.energy,
    impacts: sum.impacts.map((p, k) => ({ embedded: p.embedded + g.impacts[k].embedded, use: p.use + g.impacts[k].use })) }),
    { name: rest.length + " more", lines: 0, cost: 0, energy: 0, impacts: data.criteria.map(() => ({ embedded: 0, use: 0 })), others: true })];
  const scale = scaleOf(criterion.unit, rows.map((r) => criterionTotal(r, c)));
  const energy = scaleOf("kWh", rows.map((r) => r.energy));
  const intensity = element.dataset.intensity === "yes";
  const rate = scaleOf(criterion.unit, rows.filter((r) => r.cost > 0).map((r) => criterionTotal(r, c) / r.cost));
  const currency = data.currency || "cost";
  const heading = (text, cls) => '<th data-sort tabindex="0" role="button" aria-sort="none"' + (cls ? ' class="' + cls + '"' : "") + ">" + text + "</th>";
  const body = rows.map((r) => "<tr" + (r.others ? ' class="others"' : "") + '><td class="name"' + (r.id && r.id !== r.name ? ' title="' + escapeText(r.id) + '"' : "") + ">" + nameHtml(r.name) + "</td>" +
    '<td class="n wide" data-v="' + r.lines + '">' + fmtCount(r.lines) + "</td>" +
    '<td class="n" data-v="' + r.cost + '" title="' + r.cost + '">' + money(r.cost) + "</td>" +
    filteredCell(r.impacts[c]?.embedded ?? 0, criterion.unit, scale, "mid") + filteredCell(r.impacts[c]?.use ?? 0, criterion.unit, scale, "mid") +
    filteredCell(criterionTotal(r, c), criterion.unit, scale) + filteredCell(r.energy, "kWh", energy) +
    (!intensity ? "" : r.cost > 0 ? filteredCell(criterionTotal(r, c) / r.cost, criterion.unit, rate) : '<td class="na" data-v="">n/a</td>') + "</tr>").join("");
  element.innerHTML = '<div class="table"><table class="sortable"><thead><tr><th></th>' + heading("lines", "wide") + heading("cost (" + escapeText(currency) + ")") +
    heading("embedded (" + escapeText(scale.unit) + ")", "mid") + heading("use (" + escapeText(scale.unit) + ")", "mid") +
    heading(escapeText(criterion.name) + " (" + escapeText(scale.unit) + ")") + heading(escapeText(energy.unit)) +
    (intensity ? heading(escapeText(rate.unit) + " per " + escapeText(currency)) : "") + "</tr></thead><tbody>" + body + "</tbody></table></div>";
  sortable(element.querySelector("table"));
}
function filteredFirstScreen() {
  const cards = document.getElementById("filtered-cards");
  if (!cards) return;
  const sums = cubeSums(filteredRows());
  const c = chosen();
  const criterion = data.criteria[c];
  const card = (value, unit, label, cls) => '<div class="card' + (cls ? " " + cls : "") + '" title="' + value + " " + escapeText(unit) + '"><b>' + escapeText(readable(value, unit)) + "</b>" + escapeText(label) + "</div>";
  cards.innerHTML = '<div class="cards">' + (criterion ? card(sums[3 + 2 * c] + sums[4 + 2 * c], criterion.unit, criterion.name + " of the filter's lines, embedded and use", "total") +
    card(sums[3 + 2 * c], criterion.unit, criterion.name + " embedded") + card(sums[4 + 2 * c], criterion.unit, criterion.name + " use") : "") +
    card(sums[2], "kWh", "energy of the filter's lines (use, PUE included)") + "</div>";
  const largest = document.getElementById("filtered-largest");
  const list = (title, rows) => {
    const whole = sums[3 + 2 * c] + sums[4 + 2 * c];
    return "<div><h2>" + title + "</h2>" + (criterion ? '<div class="table"><table><tr><th></th><th>' + escapeText(criterion.name) + "</th><th>of the filter's</th><th>cost</th></tr>" +
      rows.slice(0, 5).map((r) => '<tr><td class="name">' + nameHtml(r.name) + '</td><td class="n total" data-v="' + criterionTotal(r, c) + '">' + escapeText(readable(criterionTotal(r, c), criterion.unit)) +
        '</td><td class="n">' + (whole > 0 ? ((100 * criterionTotal(r, c)) / whole).toFixed(1) + " %" : "n/a") + '</td><td class="n">' + money(r.cost) + "</td></tr>").join("") + "</table></div>" : "") + "</div>";
  };
  largest.innerHTML = list("Largest services", rankedRows("service")) + list("Largest regions", rankedRows("region"));
}
function drawFilteredParts() {
  if (!isFiltered() || !data.cube || !data.cube.dimensions) return;
  filteredFirstScreen();
  for (const element of document.querySelectorAll("[data-ranked]")) filteredRanking(element);
}
document.addEventListener("filter", drawFilteredParts);
document.addEventListener("criterion", drawFilteredParts);
drawFilteredParts();
`;
