/*
 * Tables a reader sorts by a column (`table.sortable`): a heading with `data-sort` sorts the body's
 * rows by that column's cells — their `data-v` number where they have one (a figure's exact value),
 * else their text — largest first, then smallest first on a second click; the row summing the rest
 * (`tr.others`) stays last. A cell without a value (`data-v=""`: no cost, no intensity) sorts last.
 */

/** A sortable heading: its text, and the column it sorts by its cells' values. */
export const sortHeading = (text: string, className = "") =>
  `<th data-sort${className === "" ? "" : ` class="${className}"`} tabindex="0" role="button" aria-sort="none">${text}</th>`;

export const SORTABLE_STYLE = `th[data-sort]{cursor:pointer;user-select:none} th[data-sort]::after{content:" ↕";color:#aaa;font-size:.8em}
th[aria-sort=descending]::after{content:" ↓";color:#222} th[aria-sort=ascending]::after{content:" ↑";color:#222}`;

export const SORTABLE_SCRIPT = `
function sortable(table) {
  const headings = [...table.querySelectorAll("thead th, tr:first-child th")];
  headings.forEach((heading, column) => {
    if (!heading.hasAttribute("data-sort")) return;
    const sort = () => {
      const down = heading.getAttribute("aria-sort") !== "descending";
      for (const other of headings) if (other.hasAttribute("data-sort")) other.setAttribute("aria-sort", "none");
      heading.setAttribute("aria-sort", down ? "descending" : "ascending");
      const body = table.tBodies[0];
      const rows = [...body.rows].filter((row) => row.querySelector("td"));
      const value = (row) => {
        const cell = row.cells[column];
        if (!cell) return null;
        const v = cell.dataset.v;
        return v === undefined ? cell.textContent.trim().toLowerCase() : v === "" ? null : Number(v);
      };
      const kept = rows.filter((row) => !row.classList.contains("others"));
      kept.sort((a, b) => {
        const x = value(a), y = value(b);
        if (x === null || y === null) return x === null ? (y === null ? 0 : 1) : -1;
        const order = typeof x === "number" ? x - y : String(x).localeCompare(String(y));
        return down ? -order : order;
      });
      for (const row of [...kept, ...rows.filter((row) => row.classList.contains("others"))]) body.append(row);
    };
    heading.addEventListener("click", sort);
    heading.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); sort(); } });
  });
}
for (const table of document.querySelectorAll("table.sortable")) sortable(table);
`;
