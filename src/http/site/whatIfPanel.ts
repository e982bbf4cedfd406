/*
 * "Try a change" on the /evaluate page: the bill's what-if (the report's "What to act on", which
 * its frame tells this page: its rows, the edition) recomputed by this service's own GraphQL for
 * the settings a person chooses — the load, the hours (a share of those billed), the lifetime and
 * the region moved to — each figure one hour's unrounded impact × the hours, as the command's
 * (`--load` gives the same figures), the cost saved at the bill's own rates the frame tells (a
 * region chosen here at the rate the bill gives its type there), each with its origin.
 * The request sent is shown, a `curl` command that runs as written. The panel is under the report
 * (a link above it, one line, leads there): the report's frame stays in view on a phone. The report's frame is an
 * origin of its own (sandboxed): what it tells is data, checked before use, never markup.
 */

/** Rows of the frame's what-if the panel recomputes at most: the report's ten usages × three changes. */
export const MAX_TRIED_ROWS = 30;

/**
 * The panel's requests, each one operation of a constant text whatever the rows (their values in
 * the variables), so that the largest stays within the GraphQL limits (GRAPHQL_LIMITS,
 * src/app/main.ts: no alias at all) and the fleet's (MAX_FLEET_ITEMS: 2 × MAX_TRIED_ROWS items at
 * most): the rows' instances, each once, as one fleet; every provider's regions in one field.
 */
export const TRY_FLEET_QUERY =
  "query TryChange($edition: Edition, $inputs: [CloudInstanceItemInput!]!) { cloudInstances(edition: $edition, inputs: $inputs) { items { impacts(criteria: [gwp], duration: 1) { embedded { ... on Impact { unrounded { value } } } use { ... on Impact { unrounded { value } } } } } } }";
export const TRY_REGIONS_QUERY =
  "query TryRegions($edition: Edition) { cloudRegions(edition: $edition) { provider region } }";

/** The panel: its controls, the table of figures, the request. */
export const WHAT_IF_PANEL = `<details id="try" hidden><summary>Try a change: load, hours, lifetime, region — recomputed by this service's GraphQL</summary>
<p class="note">The largest usages' changes of the report's "What to act on", evaluated again for the settings below: each figure is one hour's gwp as the service answers it × the hours (the command's own rule: <code>--load</code> gives the same figures), the cost saved at the bill's own rates (of the type where it moves, else of a size of its family there by the provider's size factors), else at a public price list's (both sides at their list prices, or the usage's own rate × the two types' list ratio), the origin under each figure, else price unknown.</p>
<div class="try-controls">
<label>Load <input type="range" id="try-load" min="0" max="100" step="5" value="50" aria-describedby="try-load-said"> <output id="try-load-said">the archetype's</output></label>
<label>Hours <input type="range" id="try-hours" min="0" max="200" step="5" value="100"> <output id="try-hours-said">100 % of those billed</output></label>
<label>Lifetime <input type="number" id="try-lifetime" min="1" max="20" step="0.5" placeholder="the archetype's" inputmode="decimal"> years</label>
<label>Move to <select id="try-region"><option value="">each usage's region of the lowest intensity on its continent</option></select></label>
<button type="button" id="try-reset">as billed</button>
</div>
<div class="table-wrap"><table id="try-table"><thead><tr><th>usage</th><th>change</th><th>gwp (kgCO2eq)</th><th>changed</th><th>saves</th><th>cost saved</th></tr></thead><tbody></tbody></table></div>
<p id="try-status" class="note" role="status"></p>
<p class="note">The request (it runs as written):</p><pre id="try-request"></pre>
</details>`;

export const WHAT_IF_STYLE = `
#try{border:1px solid #d7e3dc;border-radius:8px;padding:.4rem .8rem;margin:.8rem 0}
#try summary{cursor:pointer;font-weight:600;color:#2f6f4e}
.try-controls{display:flex;flex-wrap:wrap;gap:.4rem 1.4rem;align-items:center;margin:.5rem 0}
.try-controls label{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center}
.try-controls select{max-width:min(22rem,80vw)}
.table-wrap{max-width:100%;overflow-x:auto}
#try-table{border-collapse:collapse;width:100%;font-size:.9rem}
#try-table th,#try-table td{border-bottom:1px solid #e5e5e5;padding:.2rem .4rem;text-align:left;vertical-align:top}
#try-table td.n{text-align:right;font-variant-numeric:tabular-nums}
#try-table td{overflow-wrap:anywhere}
#try-request{white-space:pre-wrap;overflow-wrap:anywhere}
.note{font-size:.85rem;color:#555}
`;

/**
 * The panel's script (the page's, beside its report's frame): `showWhatIf(told)` with what the
 * frame tells (`{ edition, currency, load, rows }`), then a request to /graphql whenever a setting
 * changes: the rows' instances as one fleet (TRY_FLEET_QUERY).
 */
export const WHAT_IF_SCRIPT = `
const NAME = /^[\\w .:()\\/-]{1,100}$/;
const FLEET_QUERY = ${JSON.stringify(TRY_FLEET_QUERY)};
const REGIONS_QUERY = ${JSON.stringify(TRY_REGIONS_QUERY)};
let trying = null;
const numberOr = (value, other) => (typeof value === "number" && Number.isFinite(value) ? value : other);
const ORIGIN = /^[\\w .'×()-]{0,100}$/;
// A region move's prices of its type at each place the bill or the list prices: a name and a number each,
// with the usage's own price on the same basis where it is not the row's (a list's)
function placePricesOf(prices) {
  if (!Array.isArray(prices)) return new Map();
  return new Map(prices.slice(0, 200).filter((p) => p && NAME.test(p.place) && Number.isFinite(p.price) && ORIGIN.test(p.origin || ""))
    .map((p) => [p.place, { price: p.price, origin: p.origin || "", fromPrice: numberOr(p.fromPrice, null) }]));
}
// The frame's rows, kept only where every name is a name and every figure a number
function triedRows(rows) {
  if (!Array.isArray(rows)) return [];
  const place = (usage) => usage && typeof usage === "object" ? (NAME.test(usage.region || "") ? { region: usage.region } : NAME.test(usage.usage_location || "") ? { usageLocation: usage.usage_location } : {}) : {};
  return rows.slice(0, ${MAX_TRIED_ROWS}).filter((r) => r && NAME.test(r.provider) && NAME.test(r.instanceType) && NAME.test(r.toInstanceType) &&
    ["region", "family", "size"].includes(r.change) && Number.isFinite(r.hours)).map((r) => ({
      provider: r.provider, instanceType: r.instanceType, toInstanceType: r.toInstanceType, change: r.change,
      place: String(r.place).slice(0, 100), toPlace: String(r.toPlace).slice(0, 100), hours: r.hours,
      from: place(r.from), to: place(r.to), price: numberOr(r.price, null), toPrice: numberOr(r.toPrice, null),
      origin: ORIGIN.test(r.priceOrigin || "") ? r.priceOrigin || "" : "", placePrices: placePricesOf(r.placePrices),
      gwp: numberOr(r.gwp, 0), toGwp: numberOr(r.toGwp, 0) }));
}
function showWhatIf(told) {
  const rows = triedRows(told.rows);
  const panel = document.getElementById("try");
  const link = document.getElementById("try-link");
  if (rows.length === 0 || !NAME.test(told.edition || "")) { panel.hidden = true; link.hidden = true; return; }
  link.hidden = false;
  trying = { edition: told.edition, currency: NAME.test(told.currency || "") ? told.currency : "", load: numberOr(told.load, null), rows, sent: 0 };
  panel.hidden = false;
  resetTry();
  regionsOf([...new Set(rows.map((r) => r.provider))]);
}
function resetTry() {
  const load = document.getElementById("try-load");
  load.dataset.set = trying.load === null ? "" : "yes";
  load.value = trying.load === null ? "50" : String(trying.load);
  document.getElementById("try-hours").value = "100";
  document.getElementById("try-lifetime").value = "";
  document.getElementById("try-region").value = "";
  recompute();
}
async function graphql(query, variables) {
  const answer = await fetch("/graphql", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query, variables }) });
  const body = await answer.json();
  if (!answer.ok || body.errors) throw new Error((body.errors && body.errors[0] && body.errors[0].message) || answer.statusText);
  return body.data;
}
// Every provider's regions in one field (no alias, whatever the rows' providers), kept by provider
async function regionsOf(providers) {
  try {
    const data = await graphql(REGIONS_QUERY, { edition: trying.edition });
    const select = document.getElementById("try-region");
    for (const p of providers) {
      const group = document.createElement("optgroup");
      group.label = p;
      for (const { region } of data.cloudRegions.filter((each) => each.provider === p)) {
        const option = document.createElement("option");
        option.value = p + "|" + region; option.textContent = region;
        group.append(option);
      }
      if (group.children.length > 0) select.append(group);
    }
  } catch {}
}
// The settings as the requests read them, and the place each row's change is evaluated at
function settings() {
  const load = document.getElementById("try-load");
  const lifetime = Number(document.getElementById("try-lifetime").value);
  const region = document.getElementById("try-region").value;
  return {
    load: load.dataset.set === "yes" ? Number(load.value) : null,
    share: Number(document.getElementById("try-hours").value) / 100,
    lifetime: lifetime > 0 ? lifetime : null,
    region: region === "" ? null : { provider: region.split("|")[0], region: region.split("|")[1] },
  };
}
function targetOf(row, chosen) {
  if (row.change !== "region" || chosen.region === null || chosen.region.provider !== row.provider) return { place: row.to, shown: row.toPlace, billed: true };
  return { place: { region: chosen.region.region }, shown: chosen.region.region, billed: chosen.region.region === row.toPlace };
}
function usageInput(place, chosen) {
  const usage = {};
  if (place.region) usage.region = place.region;
  if (place.usageLocation) usage.usageLocation = place.usageLocation;
  if (chosen.load !== null) usage.timeWorkload = chosen.load;
  if (chosen.lifetime !== null) usage.hoursLifeTime = chosen.lifetime * 8760;
  return Object.keys(usage).length === 0 ? {} : { usage };
}
let timer = null;
function recompute() {
  const load = document.getElementById("try-load");
  document.getElementById("try-load-said").textContent = load.dataset.set === "yes" ? load.value + " %" : "the archetype's";
  document.getElementById("try-hours-said").textContent = document.getElementById("try-hours").value + " % of those billed";
  clearTimeout(timer);
  timer = setTimeout(send, 200);
}
// One fleet, each instance once (a row's usage and its change, 2 a row at most): one field whatever
// the rows, its items in the variables (MAX_FLEET_ITEMS), never an alias a row (maxAliases).
async function send() {
  const chosen = settings();
  const items = new Map();
  const item = (type, place) => {
    const input = { provider: place.provider, instanceType: type, ...usageInput(place.place, chosen) };
    const key = JSON.stringify(input);
    if (!items.has(key)) items.set(key, { at: items.size, input });
    return items.get(key).at;
  };
  const planned = trying.rows.map((row) => {
    const target = targetOf(row, chosen);
    return { row, target, from: item(row.instanceType, { provider: row.provider, place: row.from }), to: item(row.toInstanceType, { provider: row.provider, place: target.place }) };
  });
  const variables = { edition: trying.edition, inputs: [...items.values()].map((each) => each.input) };
  const body = JSON.stringify({ query: FLEET_QUERY, variables });
  document.getElementById("try-request").textContent = "curl -s " + location.origin + "/graphql -H 'content-type: application/json' -d '" + body.replace(/'/g, "'\\''") + "'";
  const sent = ++trying.sent;
  document.getElementById("try-status").textContent = "Asking the service…";
  try {
    const data = await graphql(FLEET_QUERY, variables);
    if (sent !== trying.sent) return;
    const hour = (at) => { const [impact] = data.cloudInstances.items[at].impacts; return impact.embedded.unrounded.value + impact.use.unrounded.value; };
    drawTried(planned.map((p) => ({ ...p, gwp: hour(p.from) * p.row.hours * chosen.share, toGwp: hour(p.to) * p.row.hours * chosen.share })), chosen);
    document.getElementById("try-status").textContent = "Recomputed by the service for these settings.";
  } catch (error) {
    if (sent === trying.sent) document.getElementById("try-status").textContent = "The service refused the request: " + error.message;
  }
}
function drawTried(tried, chosen) {
  const fmt = (v) => new Intl.NumberFormat("en-US", { maximumSignificantDigits: 4 }).format(v);
  const cell = (v, text) => { const td = document.createElement("td"); td.className = "n"; td.dataset.v = String(v); td.title = String(v); td.textContent = text ?? fmt(v); return td; };
  const body = document.querySelector("#try-table tbody");
  body.replaceChildren(...tried.map((t) => {
    const tr = document.createElement("tr");
    tr.dataset.change = t.row.change;
    const usage = document.createElement("td"); usage.textContent = t.row.instanceType + " · " + t.row.place;
    const change = document.createElement("td");
    change.textContent = t.row.change === "region" ? "move to " + t.target.shown : t.row.toInstanceType + (t.row.change === "size" ? " (one size down)" : " (current family)");
    const toPrice = t.target.billed ? (t.row.toPrice === null ? null : { price: t.row.toPrice, origin: t.row.origin }) : t.row.placePrices.get(t.target.shown) || null;
    const fromPrice = toPrice !== null && typeof toPrice.fromPrice === "number" ? toPrice.fromPrice : t.row.price;
    const saved = fromPrice !== null && toPrice !== null ? (fromPrice - toPrice.price) * t.row.hours * chosen.share : null;
    const cost = saved === null ? cell("", "price unknown") : cell(saved, fmt(saved) + (trying.currency ? " " + trying.currency : ""));
    if (saved !== null) { cost.dataset.read = "bill"; cost.title = String(saved) + "; " + toPrice.origin; const origin = document.createElement("small"); origin.className = "origin"; origin.textContent = " " + toPrice.origin; cost.append(origin); }
    else cost.title = t.row.price === null ? "the bill gives this usage no price" : "neither the bill nor the price list prices " + (t.row.change === "region" ? t.row.instanceType : t.row.toInstanceType) + " in " + t.target.shown;
    tr.append(usage, change, cell(t.gwp), cell(t.toGwp), cell(t.gwp - t.toGwp), cost);
    return tr;
  }));
}
for (const id of ["try-load", "try-hours", "try-lifetime", "try-region"]) {
  document.getElementById(id).addEventListener("input", () => {
    if (id === "try-load") document.getElementById("try-load").dataset.set = "yes";
    if (trying) recompute();
  });
}
document.getElementById("try-reset").addEventListener("click", () => { if (trying) resetTry(); });
// The link above the report opens the panel below it
document.querySelector("#try-link a").addEventListener("click", () => { document.getElementById("try").open = true; });
`;
