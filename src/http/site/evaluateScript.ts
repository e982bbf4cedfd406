/*
 * The /evaluate page's script, run in the browser: the files chosen or dropped, the request's query
 * from the page's controls, the upload with its progress, then the NDJSON events of
 * POST /v1/evaluate read as they arrive — the run's progress, its refusal, its report (shown in a
 * sandboxed frame) and its files to download. The page's HTML and style are evaluatePage.ts's.
 */

/** The page's script: reads the NDJSON events of POST /v1/evaluate as they arrive. */
export const EVALUATE_SCRIPT = `
const form = document.getElementById("form");
const drop = document.getElementById("drop");
const input = document.getElementById("file");
const chosen = document.getElementById("chosen");
const statusLine = document.getElementById("status");
const bar = document.getElementById("progress");
const results = document.getElementById("results");
const maxBytes = Number(form.dataset.maxBytes);
// The files chosen, and the file sent: one, or several as one bill's parts, zipped (PARTS_SCRIPT)
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
  chosenFiles = billParts(list || []);
  const bytes = chosenFiles.reduce((sum, f) => sum + f.size, 0);
  file = chosenFiles.length === 0 ? null : chosenFiles.length === 1 ? chosenFiles[0] : { name: chosenFiles.map((f) => f.name).join(", "), size: bytes };
  chosen.textContent = chosenFiles.length === 0 ? "No file chosen yet" : chosenFiles.length === 1
    ? "Chosen: " + file.name + " (" + size(file.size) + "), edition " + form.edition.value
    : "Chosen: " + chosenFiles.length + " files (" + file.name + "; " + size(bytes) + "), read as one bill's parts in this order, edition " + form.edition.value;
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
  if (bound && file) document.getElementById("instead-command").textContent = commandFor(chosenFiles, form.edition.value);
  if (refused) bringIntoView(statusLine, "center");
}
// One bar for the whole run, from 0 to 100 % and never back: the upload its first fifth, the
// evaluation (the share the run tells: an inventory's rows read, a bill's stage) up to 90 %, the
// files received the rest; the status line says the same figure.
const SENT = 0.2, EVALUATED = 0.9;
let runShare = 0;
function advance(share) {
  runShare = Math.min(1, Math.max(runShare, share));
  bar.value = runShare;
  return Math.floor(100 * runShare) + " % · ";
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
  // Past the bytes before any is read or packed: several files count together, as one upload
  const past = (sent) => say("The file exceeds " + maxBytes / 1048576 + " MiB (the page's bound): " + sent.name + " is " + (sent.size / 1048576).toFixed(1) + " MiB.", true, true);
  if (file.size > maxBytes) return past(file);
  if (chosenFiles.length > 1) say("Packing " + chosenFiles.length + " files into one upload, in this order…");
  let upload;
  try {
    upload = await partsUpload(chosenFiles);
  } catch (error) {
    return say("Refused: " + error.message, true, error.bound === true);
  }
  file = { name: upload.name, size: upload.blob.size };
  if (file.size > maxBytes) return past(file);
  for (const id of ["downloads", "summary"]) document.getElementById(id).textContent = "";
  results.hidden = true;
  document.getElementById("try").hidden = true;
  document.getElementById("try-link").hidden = true;
  trying = null;
  form.run.disabled = true;
  const xhr = new XMLHttpRequest();
  xhr.open("POST", "/v1/evaluate?" + query());
  xhr.setRequestHeader("content-type", "application/octet-stream");
  runShare = 0; bar.hidden = false; bar.value = 0;
  // On a phone the bar and the status line are below the form: in view while the file goes.
  bringIntoView(bar, "center");
  xhr.upload.onprogress = (p) => { if (p.lengthComputable) say(advance(SENT * p.loaded / p.total) + "Sending " + file.name + "…"); };
  xhr.upload.onload = () => say(advance(SENT) + "Sent; evaluating…");
  let read = 0, received = 0; const files = {};
  function events() {
    let end;
    while ((end = xhr.responseText.indexOf("\\n", read)) !== -1) {
      const event = JSON.parse(xhr.responseText.slice(read, end)); read = end + 1;
      if (event.event === "running") {
        const lines = event.lines === undefined ? "" : " " + event.lines.toLocaleString("en") + " lines,";
        const share = typeof event.done === "number" ? SENT + (EVALUATED - SENT) * event.done : SENT;
        say(advance(share) + "Evaluating " + file.name + "…" + (event.stage ? " " + event.stage + "," + lines : "") + " " + event.seconds + " s");
      }
      else if (event.event === "file") {
        (files[event.role] ??= { name: event.name, type: event.type, encoding: event.encoding, parts: [], bytes: 0 }).parts.push(bytesOf(event.data));
        files[event.role].bytes += event.data.length * 3 / 4;
        if (event.role === "output") showReport(files);
        say(advance(EVALUATED + (1 - EVALUATED) * (1 - 0.8 ** ++received)) + "Receiving the " + event.role + (event.encoding === "gzip" ? " (compressed)… " : "… ") + size(files[event.role].bytes));
      }
      else if (event.event === "refused") say("Refused: " + event.message, true, event.bound === true);
      else if (event.event === "done") { advance(1); finish(files, event); }
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
