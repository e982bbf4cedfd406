/*
 * "What to act on": the changes to the largest usages ranked by the gwp they save — the same hours
 * in the provider's region of lowest intensity on the same continent, or as the current family's
 * type of the same size — with the cost they save where the input prices both (else "price
 * unknown"), and for each the requests that reproduce its figures (one hour each, × its hours).
 * Written as a table for the report and as CSV for `--what-if` (one description of the columns).
 */

import { formatNumber } from "../columns.js";
import { csvLine } from "../csv.js";
import { costCell, figure, quantityCell, type Scale, scaleOf } from "../readable.js";
import { escapeHtml, unbrokenParts } from "../text.js";
import type { WhatIf } from "./model.js";
import { sortHeading } from "./sortable.js";

/** The cost a change saves over the usage's hours, or null where the input prices one side only (or none). */
export function costSaving(change: WhatIf): number | null {
  return change.price === null || change.toPrice === null || change.hours === null
    ? null
    : (change.price - change.toPrice) * change.hours;
}

const changeText = (change: WhatIf) =>
  change.change === "region"
    ? `move to ${change.toPlace}`
    : change.change === "size"
      ? `${change.toInstanceType} (one size down)`
      : `${change.toInstanceType} (current family)`;

/** A request as `--what-if`'s CSV writes it: its method, path and body. */
const restText = (request: WhatIf["requests"]["from"]) =>
  `POST ${request.rest.path}\n${JSON.stringify(request.rest.body)}`;

/** Where the report's requests are sent: the service as `npm start` runs it. */
const SERVICE = "http://localhost:8080";

/** A text in a shell's single quotes. */
const quoted = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/** A request as a reader runs it, a `curl` command: REST's POST with its body; GraphQL's query URL-encoded. */
const restCurl = (request: WhatIf["requests"]["from"]) =>
  `curl -s ${quoted(SERVICE + request.rest.path)} -H 'content-type: application/json' -d ${quoted(JSON.stringify(request.rest.body))}`;
const graphqlCurl = (query: string) =>
  `curl -sG ${SERVICE}/graphql --data-urlencode ${quoted(`query=${query}`)}`;

/** A change's requests as commands, the usage's then the change's: REST's, then GraphQL's where it has them. */
function requestsText(change: WhatIf): string {
  const { from, to } = change.requests;
  const graphql =
    from.graphql === null || to.graphql === null
      ? []
      : ["", graphqlCurl(from.graphql), graphqlCurl(to.graphql)];
  return [
    `# the service (npm start) at ${SERVICE}; each answer × ${formatNumber(change.times.value)} ${change.times.what}`,
    restCurl(from),
    restCurl(to),
    ...graphql,
  ].join("\n");
}

/** Text of several lines in a page: each line escaped, its line breaks kept (escapeHtml writes a control as `\x0a`). */
const escapeLines = (text: string) => text.split("\n").map(escapeHtml).join("\n");

/** A row of the table: its rank, usage, hours, change, the gwp saved (its share) and, where priced, the cost. */
function whatIfRow(
  change: WhatIf,
  index: number,
  scale: Scale,
  currency: string | null,
  priced: boolean,
): string {
  const saved = change.gwp - change.toGwp;
  const cost = costSaving(change);
  const read = escapeHtml(change.priceRead);
  const costText = !priced
    ? ""
    : cost === null
      ? `<td class="na" data-v="" title="${read}">price unknown<span class="why">${escapeHtml(change.priceRead.replace(/^price unknown: /, ""))}</span></td>`
      : costCell(cost, currency)
          .replace("<td ", `<td data-v="${cost}" data-read="bill" `)
          .replace(/ title="([^"]*)"/, (_, exact) => ` title="${exact}; ${read}"`)
          .replace(/<\/td>$/, `<span class="why">${escapeHtml(change.priceOrigin)}</span></td>`);
  const share = change.gwp > 0 ? (100 * saved) / change.gwp : 0;
  const usage = `<td class="name" title="${escapeHtml(`${change.provider} ${change.instanceType} at ${change.place}`)}"><span class="tok">${escapeHtml(change.instanceType)}</span> · <span class="tok">${escapeHtml(change.place)}</span></td>`;
  const hours = `<td class="n wide" data-v="${change.hours ?? ""}">${change.hours === null ? "" : figure(change.hours)}</td>`;
  const what = `<td class="name" title="${escapeHtml(change.why)}">${unbrokenParts(changeText(change))}</td>`;
  const requests = requestsText(change);
  return `<tr><td class="n mid" data-v="${index + 1}">${index + 1}</td>${usage}${hours}${what}${quantityCell(saved, "kgCO2eq", scale).replace("<td ", `<td data-v="${saved}" `)}<td class="pct mid" data-v="${share}">${share.toFixed(1)} %</td>${costText}<td class="wide"><details><summary>requests</summary><pre>${escapeLines(requests)}</pre></details></td></tr>`;
}

/**
 * The report's section: the ranked table, or why there is none; `priced`: with the cost column (a
 * bill's); `looked`: the usages the changes were looked for (none: nothing to move, said so).
 */
export function whatIfSection(
  changes: readonly WhatIf[] | null,
  currency: string | null,
  what: string,
  priced = true,
  looked: number | null = null,
): string {
  if (changes === null) return "";
  const head = `<h2 id="what-if">What to act on</h2>
<p class="sub">The ${what} of the largest gwp, each evaluated once more in the provider's region of the lowest electricity intensity on the same continent, as the current family's type of the same size, and${priced ? " as its family's type one size down" : ""} for the same use.${priced ? " The cost saved at the input's own rates: of the type at the place it changes to, else of a size of its family there scaled by the provider's size factors, else from a public price list (both sides at their list prices, or the usage's own rate × the two types' list ratio) (the origin under each figure, each price as read on its hover), else price unknown and why." : ""} Each figure's requests to the service are under it.</p>`;
  if (looked === 0)
    return `${head}<p class="nothing">Nothing to move or resize: the ${what.replace(/ \(.*$/, "")} are none — no line of this input bills an instance's hours, the only use a region move or another size changes (its estimated lines are storage, transfer or services by their methods).</p>`;
  if (changes.length === 0)
    return `${head}<p class="nothing">No change saves gwp: the ${looked === null ? "largest" : `${looked.toLocaleString("en-US")} largest`} already run where their continent's intensity is lowest, in their line's current family and smallest size the edition has.</p>`;
  const scale = scaleOf(
    "kgCO2eq",
    changes.map((change) => change.gwp),
  );
  const cur = currency === null ? "" : ` (${escapeHtml(currency)})`;
  const rows = changes.map((change, index) => whatIfRow(change, index, scale, currency, priced));
  const headings = [
    sortHeading("rank", "mid"),
    sortHeading("usage"),
    sortHeading("hours", "wide"),
    sortHeading("change"),
    sortHeading(`saves (${escapeHtml(scale.unit)})`),
    sortHeading("of its gwp", "mid"),
    priced ? sortHeading(`saves${cur}`) : "",
    '<th class="wide">reproduce</th>',
  ];
  return `${head}<div class="table"><table class="sortable what-if"><thead><tr>${headings.join("")}</tr></thead><tbody>${rows.join("")}</tbody></table></div>`;
}

/** The columns of `--what-if`'s CSV. */
const WHAT_IF_COLUMNS = [
  "rank",
  "provider",
  "instance_type",
  "place",
  "hours",
  "cost",
  "change",
  "to_instance_type",
  "to_place",
  "why",
  "gwp_kgco2eq",
  "to_gwp_kgco2eq",
  "saved_gwp_kgco2eq",
  "price_per_hour",
  "to_price_per_hour",
  "saved_cost",
  "price_origin",
  "price_read",
  "request",
  "to_request",
  "graphql",
  "to_graphql",
  "times",
] as const;

const cell = (value: number | null) => (value === null ? "" : formatNumber(value));

/** `--what-if`'s CSV: one line per change, ranked; a saved cost empty where the price is unknown. */
export function whatIfCsv(changes: readonly WhatIf[]): string {
  const lines = changes.map((change, index) =>
    csvLine([
      String(index + 1),
      change.provider,
      change.instanceType,
      change.place,
      cell(change.hours),
      cell(change.cost),
      change.change,
      change.toInstanceType,
      change.toPlace,
      change.why,
      cell(change.gwp),
      cell(change.toGwp),
      cell(change.gwp - change.toGwp),
      cell(change.price),
      cell(change.toPrice),
      cell(costSaving(change)),
      change.priceOrigin,
      change.priceRead,
      restText(change.requests.from).replace("\n", " "),
      restText(change.requests.to).replace("\n", " "),
      change.requests.from.graphql ?? "",
      change.requests.to.graphql ?? "",
      `${formatNumber(change.times.value)} ${change.times.what}`,
    ]),
  );
  return [csvLine([...WHAT_IF_COLUMNS]), ...lines].join("");
}

/**
 * Why --what-if's file holds its header alone, for standard error: the bill has no instance's hours
 * evaluated (`usages` 0), or none of its `usages` largest has a change that saves.
 */
export function whatIfEmptyText(usages: number): string {
  return usages === 0
    ? "--what-if: its file has its header alone: the bill has no instance's hours evaluated (a type at a place) to move or resize"
    : `--what-if: its file has its header alone: none of the ${usages} largest usages has a change that saves gwp in this edition`;
}

/**
 * How the actions (--what-if's, the report's) relate to --group-by: they are not split by group.
 * A change acts on an instance type's hours at a place, and a usage's hours are summed whatever
 * group bills them (a type at a place may be several teams'); a group's own actions are its lines'
 * under --filter (its columns and values), named here with the first group column.
 */
export function whatIfGroupsText(
  groupBy: readonly string[],
  filters: readonly { readonly column: string; readonly values: readonly string[] }[],
): string {
  const whose =
    filters.length === 0
      ? "the whole bill's usages"
      : `the usages of the lines of --filter (${filters.map(({ column, values }) => `${column}=${values.join(" or ")}`).join(", ")})`;
  return `what to act on: ${whose}, not each group's of --group-by ${groupBy.join(",")} (a change acts on an instance type's hours at a place, whatever group bills them); one group's: --filter ${groupBy[0]}=VALUE`;
}
