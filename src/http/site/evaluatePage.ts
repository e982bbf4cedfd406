import { type FileEvaluationBounds, MAX_BILL_PARTS, READ_ENDINGS } from "../../service/fileEvaluation.js";
import { PARTS_SCRIPT } from "./billParts.js";
import { EVALUATE_SCRIPT } from "./evaluateScript.js";
import { WHAT_IF_PANEL, WHAT_IF_SCRIPT, WHAT_IF_STYLE } from "./whatIfPanel.js";

/*
 * The /evaluate page: a person drops an inventory or a billing export, chooses the edition and
 * criteria, sees the upload and the run progress, then the command's own report, summary and
 * files to download. Everything the file gives back stays in the browser (blob URLs); the
 * service keeps nothing once the answer ends (src/service/fileEvaluation.ts). This module is the
 * page's HTML and style; what runs in the browser is evaluateScript.ts's.
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
<label id="drop" for="file"><strong>Drop a file here</strong><span>or an account's monthly exports together (CSV, Parquet, JSON), or their ZIP</span><span class="pick">or choose</span>
<input id="file" type="file" multiple accept="${[...new Set(READ_ENDINGS.map((ending) => ending.slice(ending.lastIndexOf("."))))].join(",")}"><span id="chosen">No file chosen yet</span></label>
<div>
<fieldset><legend>Edition</legend><select name="edition" aria-label="edition">${editions.join("")}</select>
<p id="why">${editionWhy(info)}</p></fieldset>
<fieldset><legend>Criteria</legend>${criteria.join(" ")}<br><label>more: <input type="text" name="more" placeholder="e.g. fe,ir" size="12"></label></fieldset>
<fieldset><legend>Output</legend><select name="format" aria-label="output format"><option value="csv" selected>CSV</option><option value="xlsx">Excel workbook (inventory)</option><option value="parquet">Parquet (billing export)</option></select></fieldset>
<p><button name="run" type="submit">Evaluate</button></p>
</div>
</form>
<p class="bounds">Bounds: ${bounds.maxBytes / 1024 / 1024} MiB a file, ${bounds.maxLines.toLocaleString("en")} lines (a .csv.gz or .json.gz counted inflated, its text ${bounds.maxInflatedBytes / 1024 / 1024 / 1024} GiB at most; several files (CSV, CSV.gz, Parquet, JSON: an account's months, a bill's parts) or a ZIP archive of them, up to ${MAX_BILL_PARTS}, read as one bill's parts in month order and bounded as one file, their bytes unpacked and their lines together; a workbook's parts, strings and cells by the workbook's bounds) — a bill of ${bounds.maxLines.toLocaleString("en")} lines as wide as an AWS CUR 2.0 (100 columns) is taken; a run then has ${bounds.timeoutMs / 1000} s, ${mib(bounds.runsMemoryBytes)} of memory and ${mib(bounds.runFolderBytes)} of files (the file, its output written gzipped, the report); ${bounds.maxConcurrent} files at once for the whole service and ${bounds.maxPerClient} a client; the upload at least ${bounds.minUploadBytes / 1024} KiB every ${bounds.uploadWindowMs / 1000} s. Past them, the page says which and the command line that has no bound but your machine's.</p>
<progress id="progress" max="1" value="0" aria-label="progress of the run" hidden></progress>
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
<script>${PARTS_SCRIPT}${WHAT_IF_SCRIPT}${EVALUATE_SCRIPT}</script>
</body></html>`;
}
