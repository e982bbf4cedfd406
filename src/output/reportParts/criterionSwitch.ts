/*
 * The criterion switch of a report: every criterion the run computed is in the page, each figure
 * that depends on one written once per criterion (`per`, shown while its criterion is chosen), and
 * the charts redrawn for the one chosen (the `criterion` event) — no request, the page alone.
 */

import { escapeHtml } from "../text.js";
import type { ReportCriterion } from "./model.js";

/** The switch: one radio button per criterion (none for a single one: it is named where its figures are). */
export function criterionSwitch(criteria: readonly ReportCriterion[]): string {
  if (criteria.length < 2) return "";
  const buttons = criteria
    .map(
      ({ name, unit }, index) =>
        `<label><input type="radio" name="criterion" value="${index}"${index === 0 ? " checked" : ""}> <b>${escapeHtml(name)}</b> <span class="unit">${escapeHtml(unit)}</span></label>`,
    )
    .join("");
  return `<div class="switch" role="radiogroup" aria-label="criterion shown"><span>Show</span>${buttons}</div>`;
}

/** Content written once per criterion, each shown while its criterion is chosen. */
export function per(
  criteria: readonly ReportCriterion[],
  render: (index: number) => string,
  tag = "div",
): string {
  if (criteria.length === 0) return render(-1);
  return criteria
    .map((_, index) => `<${tag} class="per-c" data-c="${index}">${render(index)}</${tag}>`)
    .join("");
}

/** The styles that show the chosen criterion's content only. */
export function criterionStyle(criteria: readonly ReportCriterion[]): string {
  const shown = criteria.map((_, index) => `body[data-c="${index}"] .per-c[data-c="${index}"]`).join(", ");
  return `.per-c{display:none}${shown === "" ? "" : `${shown}{display:revert}`}
.switch{background:#fff;display:flex;flex-wrap:wrap;gap:.2em 1em;align-items:center;padding:.4em 0;border-bottom:1px solid #e5e5e5}
@media (min-width:641px){.switch{position:sticky;top:0;z-index:5}}
.switch label{white-space:nowrap;cursor:pointer} .switch .unit{color:#666;font-size:.9em}`;
}

/** The switch's script: the chosen criterion on the body (`data-c`), and the `criterion` event for the charts. */
export const CRITERION_SCRIPT = `
for (const input of document.querySelectorAll('input[name="criterion"]')) {
  input.addEventListener("change", () => {
    document.body.dataset.c = input.value;
    document.dispatchEvent(new CustomEvent("criterion", { detail: Number(input.value) }));
  });
}
const chosen = () => Number(document.body.dataset.c || 0);
`;
