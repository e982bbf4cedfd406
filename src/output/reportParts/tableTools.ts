/*
 * What every table of a report's page (`div.table`) has beside its rows: a hint where it scrolls
 * sideways (a phone's 390 px hides its last columns otherwise: a line above it and a shadow at its
 * right edge, kept while the page redraws its tables), and a link that downloads it as CSV — each
 * figure its exact value (a cell's `data-v`, else its hover's number), its headings as shown. A
 * table hidden by the page's state (the filter's, a criterion not shown) is left as it is.
 */

export const TABLE_TOOLS_STYLE = `.table.scrolls{box-shadow:inset -14px 0 10px -10px rgba(0,0,0,.45)}
.table.scrolls::before{content:"⇆ scrolls sideways: more columns to the right";position:sticky;left:0;display:block;font-size:.8em;color:#555}
.table-csv{display:block;text-align:right;font-size:.8em;margin:-0.8em 0 0.6em}`;

export const TABLE_TOOLS_SCRIPT = `
// A cell as a CSV field: its exact number where it has one, else its text; quoted where it must be
function csvField(cell) {
  const exact = cell.dataset.v !== undefined ? cell.dataset.v : /^-?[\\d.e+-]+(\\s|$)/i.test(cell.title || "") ? cell.title.split(/\\s/)[0] : null;
  const text = exact === null || exact === "" ? cell.textContent.replace(/[↕↓↑]/g, "").trim() : exact;
  return /[",\\n]/.test(text) ? '"' + text.replaceAll('"', '""') + '"' : text;
}
function tableCsv(table) {
  return [...table.rows].map((row) => [...row.cells].map(csvField).join(",")).join("\\n") + "\\n";
}
// The table's name for its file: the heading above it
function tableName(element) {
  for (let at = element; at; at = at.previousElementSibling || at.parentElement) {
    if (/^H[23]$/.test(at.tagName)) return at.textContent.trim().toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "table";
  }
  return "table";
}
function tableTools() {
  for (const box of document.querySelectorAll("div.table")) {
    const table = box.querySelector("table");
    if (!table) continue;
    box.classList.toggle("scrolls", box.scrollWidth > box.clientWidth + 1 && box.scrollLeft + box.clientWidth < box.scrollWidth - 1);
    if (box.dataset.csv) continue;
    box.dataset.csv = "yes";
    const link = document.createElement("a");
    link.className = "table-csv";
    link.href = "#";
    link.textContent = "download as CSV";
    link.addEventListener("click", (event) => {
      event.preventDefault();
      const url = URL.createObjectURL(new Blob([tableCsv(table)], { type: "text/csv" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = tableName(box) + ".csv";
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 0);
    });
    box.after(link);
    box.addEventListener("scroll", () => requestAnimationFrame(tableTools), { passive: true });
  }
}
let tableToolsQueued = false;
const queueTableTools = () => {
  if (tableToolsQueued) return;
  tableToolsQueued = true;
  requestAnimationFrame(() => { tableToolsQueued = false; tableTools(); });
};
tableTools();
new MutationObserver(queueTableTools).observe(document.body, { childList: true, subtree: true });
window.addEventListener("resize", queueTableTools);
for (const event of ["criterion", "filter"]) document.addEventListener(event, queueTableTools);
`;
