import { type FileEvaluationBounds, READ_ENDINGS } from "../../service/fileEvaluation.js";
import { JOIN_SCRIPT, MAX_JOINED_FILES } from "./joinedFiles.js";
import { WHAT_IF_PANEL, WHAT_IF_SCRIPT, WHAT_IF_STYLE } from "./whatIfPanel.js";

/*
 * The /evaluate page: a person drops an inventory or a billing export, chooses the edition and
 * criteria, sees the upload and the run progress, then the command's own report, summary and
 * files to download. Everything the file gives back stays in the browser (blob URLs); the
 * service keeps nothing once the answer ends (src/service/fileEvaluation.ts).
 */

interface EvaluatePageInfo {
  readonly editions: readonly string[];
  readonly defaultEdition: string;
  /** The edition the page recommends for new work (docs/editions.md, "Which edition?"). */
  readonly newWorkEdition: string;
  /** The edition our specification describes (the API's built-in default). */
  readonly specificationEdition: string;
  readonly criteria: readonly string[];
  readonly bounds: FileEvaluationBounds;
}

/** Bytes as the bounds say them: `512 MiB`. */
const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const STYLE = `
*{box-sizing:border-box}
body{font-family:system-ui,sans-serif;margin:0;color:#1d1d1d;line-height:1.45}
header,main{padding:0 clamp(.75rem,3vw,2.5rem)}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:.3rem 1.5rem;border-bottom:1px solid #ddd;padding-top:.8rem;padding-bottom:.6rem}
header h1{font-size:1.35rem;margin:0}
header a{font-size:.9rem}
form{display:grid;grid-template-columns:minmax(0,2fr) minmax(0,1fr);gap:1rem 1.5rem;margin:1.2rem 0}
@media (max-width:760px){form{grid-template-columns:minmax(0,1fr)}}
#drop{display:flex;flex-direction:column;justify-content:center;align-items:center;text-align:center;min-height:9rem;border:2px dashed #7aa88c;border-radius:10px;background:#f5faf6;padding:1rem;cursor:pointer}
#drop.over{background:#e3f2e8;border-color:#2f6f4e}
#drop strong{font-size:1.1rem}
#drop input{position:absolute;width:1px;height:1px;opacity:0;overflow:hidden}
#drop:focus-within{outline:2px solid #2f6f4e;outline-offset:2px}
#drop .pick{display:inline-block;margin:.5rem 0 .3rem;padding:.35rem 1rem;border:1px solid #2f6f4e;border-radius:6px;background:#fff;color:#2f6f4e;font-weight:600}
#chosen{overflow-wrap:anywhere}
#why{margin:.4rem 0 0;font-size:.9rem}
fieldset{border:1px solid #ddd;border-radius:8px;margin:0;padding:.6rem .9rem;min-width:0}
legend{font-weight:600}
label.choice{display:inline-block;margin-right:.9rem;white-space:nowrap}
select,input[type=text]{font:inherit;max-width:100%}
button{font:inherit;font-weight:600;padding:.55rem 1.4rem;border-radius:6px;border:1px solid #2f6f4e;background:#2f6f4e;color:#fff;cursor:pointer}
button:disabled{opacity:.5;cursor:default}
#status{margin:.6rem 0;min-height:1.5rem}
#status.refused{color:#a4262c;font-weight:600}
progress{width:min(30rem,100%)}
#downloads a{display:inline-block;margin:.2rem 1rem .2rem 0;padding:.35rem .8rem;border:1px solid #2f6f4e;border-radius:6px;text-decoration:none;color:#2f6f4e;font-weight:600}
pre{background:#f6f6f6;padding:.7rem;overflow-x:auto;font-size:.85rem}
iframe{width:100%;border:1px solid #ddd;border-radius:6px;min-height:40rem}
.bounds{font-size:.85rem;color:#555}
`;

/** The page's script: reads the NDJSON events of POST /v1/evaluate as they arrive. */
const SCRIPT = `
const form = document.getElementById("form");
const drop = document.getElementById("drop");
const input = document.getElementById("file");
const chosen = document.getElementById("chosen");
const statusLine = document.getElementById("status");
const bar = document.getElementById("progress");
const results = document.getElementById("results");
const maxBytes = Number(form.dataset.maxBytes);
// The files chosen, and the file sent: one, or several months' CSVs joined (JOIN_SCRIPT)
let chosenFiles = [];
let file = null;
// Scrolled smoothly unless the reader's system asks for less motion (then at once).
function bringIntoView(element, block) {
  const still = matchMedia("(prefers-reduced-motion: reduce)").matches;
  element.scrollIntoView({ block, behavior: still ? "auto" : "smooth" });
}
function size(bytes) {
  const units = [["GB", 1e9], ["MB", 1e6], ["kB", 1e3]];
  const [unit, of] = units.find(([, of]) => bytes >= of) || ["bytes", 1];
  return Number((bytes / of).toPrecision(3)).toLocaleString("en") + " " + unit;
}
function choose(list) {
  chosenFiles = [...(list || [])];
  const bytes = chosenFiles.reduce((sum, f) => sum + f.size, 0);
  file = chosenFiles.length === 0 ? null : chosenFiles.length === 1 ? chosenFiles[0] : { name: chosenFiles.map((f) => f.name).join(", "), size: bytes };
  chosen.textContent = chosenFiles.length === 0 ? "No file chosen yet" : chosenFiles.length === 1
    ? "Chosen: " + file.name + " (" + size(file.size) + "), edition " + form.edition.value
    : "Chosen: " + chosenFiles.length + " files (" + file.name + "; " + size(bytes) + "), read as one bill over their months, edition " + form.edition.value;
}
form.edition.addEventListener("change", () => choose(chosenFiles));
const instead = document.getElementById("instead");
// A refusal is brought into view at every width (on a phone the status line is below the form). One
// of the page's bounds (\`bound\`: the file's size or lines, the run's time, memory or files, the
// service busy) says the bound (the service's sentence) and the command line that has none but the
// machine's; a file the command refuses too (an image, an empty file) is not sent to it.
function say(text, refused, bound) {
  statusLine.textContent = text; statusLine.className = refused ? "refused" : "";
  instead.hidden = !bound || !file;
  if (bound && file) {
    const named = chosenFiles.length > 1 ? chosenFiles[0].name : file.name;
    const stem = named.replace(/\\.(csv|csv\\.gz|json|json\\.gz|ndjson|jsonl|parquet|xlsx|zip)$/i, "");
    const quote = (name) => (/^[\\w./-]+$/.test(name) ? name : JSON.stringify(name));
    document.getElementById("instead-command").textContent = "npx impact-service evaluate " + (chosenFiles.length > 1 ? chosenFiles.map((f) => quote(f.name)).join(" ") : quote(file.name)) +
      (form.edition.value ? " --edition " + form.edition.value : "") + " -o " + quote(stem + "-impacts.csv") + " --report " + quote(stem + "-report.html");
  }
  if (refused) bringIntoView(statusLine, "center");
}
// The bar shows the upload, then the evaluation: the share the run tells (an inventory's rows
// read, a bill's stage), else a bar without a value (moving: under way, not finished).
function evaluating(done) {
  bar.setAttribute("aria-label", "evaluation");
  if (typeof done === "number") bar.value = done; else bar.removeAttribute("value");
}
input.addEventListener("change", () => choose(input.files));
drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
drop.addEventListener("dragleave", () => drop.classList.remove("over"));
drop.addEventListener("drop", (e) => { e.preventDefault(); drop.classList.remove("over"); choose(e.dataTransfer.files); });
function query() {
  const q = new URLSearchParams({ name: file.name, format: form.format.value });
  if (form.edition.value) q.set("edition", form.edition.value);
  const criteria = [...form.querySelectorAll("input[name=criterion]:checked")].map((c) => c.value);
  const more = form.more.value.split(",").map((c) => c.trim()).filter(Boolean);
  if (criteria.length + more.length > 0) q.set("criteria", [...criteria, ...more].join(","));
  return q;
}
// A gzipped file is inflated when its link is first followed (on demand), then downloaded.
function inflated(parts, type) {
  const stream = new Blob(parts).stream().pipeThrough(new DecompressionStream("gzip"));
  return new Response(stream).blob().then((blob) => new Blob([blob], { type }));
}
function shown(parts, name, type, role, encoding) {
  const a = document.createElement("a");
  a.download = name; a.textContent = (role === "report" ? "Download the report " : "Download the output ") + name;
  a.dataset.role = role;
  document.getElementById("downloads").append(a);
  if (encoding === "gzip") {
    a.href = "#";
    a.addEventListener("click", (e) => {
      if (a.dataset.ready) return;
      e.preventDefault();
      say("Preparing " + name + "…");
      inflated(parts, type).then((blob) => { a.href = URL.createObjectURL(blob); a.dataset.ready = "yes"; say("Done: the report is below."); a.click(); });
    });
    return;
  }
  const url = URL.createObjectURL(new Blob(parts, { type }));
  a.href = url;
  if (role === "report") {
    heightTold = false;
    document.getElementById("report").src = url;
  }
}
// The report runs in a sandboxed frame, an origin of its own (nothing it holds can reach this
// page's): it tells its height, which this page cannot read. Brought into view again once the
// frame has its height: before, a phone's page may be too short below the status line for it to
// reach the top.
let heightTold = false;
window.addEventListener("message", (e) => {
  const frame = document.getElementById("report");
  if (e.source === frame.contentWindow && e.data && typeof e.data.reportWhatIf === "object" && e.data.reportWhatIf !== null) return showWhatIf(e.data.reportWhatIf);
  const height = e.data && e.data.reportHeight;
  if (e.source !== frame.contentWindow || typeof height !== "number" || !(height >= 0)) return;
  frame.style.height = Math.min(height, 1e6) + 40 + "px";
  if (!heightTold) bringIntoView(statusLine, "start");
  heightTold = true;
});
function bytesOf(base64) { const text = atob(base64); const b = new Uint8Array(text.length); for (let i = 0; i < text.length; i++) b[i] = text.charCodeAt(i); return b; }
// The report is shown as soon as it has arrived (before the output, the larger, is received).
function showReport(files) {
  const report = files.report;
  if (!report || report.shown) return;
  report.shown = true;
  shown(report.parts, report.name, report.type, "report");
  results.hidden = false;
  bringIntoView(statusLine, "start");
}
function finish(files, done) {
  showReport(files);
  if (files.output) shown(files.output.parts, files.output.name, files.output.type, "output", files.output.encoding);
  document.getElementById("summary").textContent = done.summary;
  results.hidden = false;
  say(done.exitCode === 0 ? "Done: the report is below." : "Done: every row failed (see the summary).", done.exitCode !== 0);
  // A phone's results start below the fold: the page moves to them (once: the report's arrival did).
  if (!files.report) bringIntoView(statusLine, "start");
}
form.addEventListener("submit", async (e) => {
  e.preventDefault();
  if (!file) return say("Choose or drop a file first.", true);
  let upload;
  try {
    upload = await joinedUpload(chosenFiles);
  } catch (error) {
    return say("Refused: " + error.message, true);
  }
  file = { name: upload.name, size: upload.blob.size };
  if (file.size > maxBytes) return say("The file exceeds " + maxBytes / 1048576 + " MiB (the page's bound): " + file.name + " is " + (file.size / 1048576).toFixed(1) + " MiB.", true, true);
  for (const id of ["downloads", "summary"]) document.getElementById(id).textContent = "";
  results.hidden = true;
  document.getElementById("try").hidden = true;
  document.getElementById("try-link").hidden = true;
  trying = null;
  form.run.disabled = true;
  const xhr = new XMLHttpRequest();
  xhr.open("POST", "/v1/evaluate?" + query());
  xhr.setRequestHeader("content-type", "application/octet-stream");
  bar.hidden = false; bar.value = 0; bar.setAttribute("aria-label", "upload");
  // On a phone the bar and the status line are below the form: in view while the file goes.
  bringIntoView(bar, "center");
  xhr.upload.onprogress = (p) => { if (p.lengthComputable) { bar.value = p.loaded / p.total; say("Sending " + file.name + "… " + Math.round(100 * p.loaded / p.total) + " %"); } };
  xhr.upload.onload = () => { evaluating(); say("Sent; evaluating…"); };
  let read = 0; const files = {};
  function events() {
    let end;
    while ((end = xhr.responseText.indexOf("\\n", read)) !== -1) {
      const event = JSON.parse(xhr.responseText.slice(read, end)); read = end + 1;
      if (event.event === "running") {
        const lines = event.lines === undefined ? "" : " " + event.lines.toLocaleString("en") + " lines,";
        evaluating(event.done);
        say("Evaluating " + file.name + "…" + (event.stage ? " " + event.stage + "," + lines : "") + " " + event.seconds + " s");
      }
      else if (event.event === "file") {
        (files[event.role] ??= { name: event.name, type: event.type, encoding: event.encoding, parts: [], bytes: 0 }).parts.push(bytesOf(event.data));
        files[event.role].bytes += event.data.length * 3 / 4;
        if (event.role === "output") showReport(files);
        say("Receiving the " + event.role + (event.encoding === "gzip" ? " (compressed)… " : "… ") + size(files[event.role].bytes));
      }
      else if (event.event === "refused") say("Refused: " + event.message, true, event.bound === true);
      else if (event.event === "done") finish(files, event);
    }
  }
  xhr.onprogress = () => { if (xhr.status === 200) events(); };
  xhr.onloadend = () => {
    form.run.disabled = false; bar.hidden = true;
    if (xhr.status === 200) return events();
    let detail = xhr.statusText || "the service could not be reached";
    try { detail = JSON.parse(xhr.responseText).detail; } catch {}
    // 408 an upload slower than the page's pace, 413 a file past its bytes or lines, 503 the service busy
    say("Refused: " + detail, true, [408, 413, 503].includes(xhr.status));
  };
  xhr.send(upload.blob);
});
`;

/**
 * The line beside the edition's choice: why the page evaluates in its default (the edition for
 * new work, unless an operator set another), and when to pick another.
 */
function editionWhy(info: EvaluatePageInfo): string {
  const newWork = escapeHtml(info.newWorkEdition);
  const why =
    info.defaultEdition === info.newWorkEdition
      ? `<b>${newWork}</b> is Boavizta's current release, the edition for new work`
      : `<b>${escapeHtml(info.defaultEdition)}</b> is this service's EDITION, set by its operator; new work should use <b>${newWork}</b>`;
  return `${why}; choose ${escapeHtml(info.specificationEdition)} only to reproduce the specification's numbers (<a href="/docs/editions">which edition?</a>).`;
}

export function evaluatePage(info: EvaluatePageInfo): string {
  const { bounds } = info;
  const editions = info.editions.map(
    (e) =>
      `<option value="${escapeHtml(e)}"${e === info.defaultEdition ? " selected" : ""}>${escapeHtml(e)}</option>`,
  );
  const criteria = info.criteria.map(
    (c) =>
      `<label class="choice"><input type="checkbox" name="criterion" value="${escapeHtml(c)}" checked> ${escapeHtml(c)}</label>`,
  );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Evaluate a file — IT equipment impacts</title><link rel="icon" href="data:,"><style>${STYLE}${WHAT_IF_STYLE}</style></head><body>
<header><h1>Evaluate a file</h1><a href="/">Start page</a><a href="/docs/inventory">Inventory columns</a><a href="/docs/billing">Billing exports</a></header>
<main>
<p>An inventory (CSV, an Excel workbook's first sheet or NDJSON: one asset a row) or a cloud billing export (FOCUS 1.0–1.4, AWS CUR 2.0 and legacy CUR, Azure, Google Cloud, Oracle OCI; CSV, CSV.gz, Parquet or BigQuery's JSON), evaluated as <code>npx impact-service evaluate FILE -o OUT --report REPORT</code> does: the same numbers, the same report. Nothing you send is kept once the answer is given.</p>
<form id="form" data-max-bytes="${bounds.maxBytes}">
<label id="drop" for="file"><strong>Drop a file here</strong><span>or an account's monthly exports together</span><span class="pick">or choose</span>
<input id="file" type="file" multiple accept="${[...new Set(READ_ENDINGS.map((ending) => ending.slice(ending.lastIndexOf("."))))].join(",")}"><span id="chosen">No file chosen yet</span></label>
<div>
<fieldset><legend>Edition</legend><select name="edition" aria-label="edition">${editions.join("")}</select>
<p id="why">${editionWhy(info)}</p></fieldset>
<fieldset><legend>Criteria</legend>${criteria.join(" ")}<br><label>more: <input type="text" name="more" placeholder="e.g. fe,ir" size="12"></label></fieldset>
<fieldset><legend>Output</legend><select name="format" aria-label="output format"><option value="csv" selected>CSV</option><option value="xlsx">Excel workbook (inventory)</option><option value="parquet">Parquet (billing export)</option></select></fieldset>
<p><button name="run" type="submit">Evaluate</button></p>
</div>
</form>
<p class="bounds">Bounds: ${bounds.maxBytes / 1024 / 1024} MiB a file, ${bounds.maxLines.toLocaleString("en")} lines (a .csv.gz or .json.gz counted inflated, its text ${bounds.maxInflatedBytes / 1024 / 1024 / 1024} GiB at most; several files, up to ${MAX_JOINED_FILES} CSV or CSV.gz exports of one header, joined into one and bounded as one; a workbook's parts, strings and cells by the workbook's bounds) — a bill of ${bounds.maxLines.toLocaleString("en")} lines as wide as an AWS CUR 2.0 (100 columns) is taken; a run then has ${bounds.timeoutMs / 1000} s, ${mib(bounds.runsMemoryBytes)} of memory and ${mib(bounds.runFolderBytes)} of files (the file, its output written gzipped, the report); ${bounds.maxConcurrent} files at once for the whole service and ${bounds.maxPerClient} a client; the upload at least ${bounds.minUploadBytes / 1024} KiB every ${bounds.uploadWindowMs / 1000} s. Past them, the page says which and the command line that has no bound but your machine's.</p>
<progress id="progress" max="1" value="0" aria-label="upload" hidden></progress>
<div id="status" role="status" aria-live="polite"></div>
<p id="instead" hidden>Past the page's bounds, run it on your own machine, where the only bounds are the machine's (the same numbers and report): <code id="instead-command"></code></p>
<section id="results" hidden>
<div id="downloads"></div>
<p id="try-link" hidden><a href="#try">Try a change to its largest usages: load, hours, lifetime, region ↓</a></p>
<iframe id="report" title="report" sandbox="allow-scripts"></iframe>
${WHAT_IF_PANEL}
<h2>The command's summary</h2>
<pre id="summary"></pre>
</section>
</main>
<script>${JOIN_SCRIPT}${WHAT_IF_SCRIPT}${SCRIPT}</script>
</body></html>`;
}
