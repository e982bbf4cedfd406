/*
 * A chart's legend where its names fit whole. On a wide chart, ECharts' own above the bars; on a
 * narrow one (a phone's 390 px), where ECharts' legend pages its names one or two at a time and
 * cuts them ("1/8"), a list under the chart that wraps, each name whole beside its colour and a
 * button that hides or shows its series, as ECharts' legend does.
 */

/** Styles of the list under a narrow chart. */
export const LEGEND_STYLE = `ul.legend{list-style:none;margin:-.4em 0 .8em;padding:0;display:flex;flex-wrap:wrap;gap:.2em .8em;font-size:.85em}
ul.legend button{font:inherit;background:none;border:0;padding:.1em 0;cursor:pointer;color:inherit;text-align:left}
ul.legend button[aria-pressed=false]{color:#999;text-decoration:line-through}
ul.legend .swatch{display:inline-block;width:.9em;height:.9em;border-radius:2px;margin-right:.3em;vertical-align:-.1em}`;

/** Charts narrower than this (px) have their legend under them. */
const NARROW = 560;

/**
 * The script (after the page's head): `CHART_COLOURS`, the colours series take in order, and
 * `chartLegend(chart, entries)`, the legend option of a chart whose series are `entries` (`{ name,
 * colour }`), drawing the list under a narrow chart (and removing it from a wide one).
 */
export const LEGEND_SCRIPT = `
const CHART_COLOURS = ["#5470c6", "#91cc75", "#fac858", "#ee6666", "#73c0de", "#3ba272", "#fc8452", "#9a60b4", "#ea7ccc"];
function chartLegend(chart, entries) {
  const element = chart.getDom();
  const narrow = chart.getWidth() < ${NARROW};
  let list = element.nextElementSibling;
  if (!list || !list.classList.contains("legend")) {
    list = document.createElement("ul");
    list.className = "legend";
    element.after(list);
  }
  list.hidden = !narrow;
  list.replaceChildren(...(narrow ? entries : []).map((entry) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.setAttribute("aria-pressed", "true");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = entry.colour;
    button.append(swatch, entry.name);
    button.addEventListener("click", () => {
      button.setAttribute("aria-pressed", button.getAttribute("aria-pressed") === "true" ? "false" : "true");
      chart.dispatchAction({ type: "legendToggleSelect", name: entry.name });
    });
    item.append(button);
    return item;
  }));
  const names = entries.map((entry) => entry.name);
  return narrow ? { show: false, data: names } : { type: "scroll", top: 0, data: names };
}
`;
