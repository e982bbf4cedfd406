/*
 * Several files chosen on the /evaluate page at once — an account's monthly exports, each a CSV
 * (or gzipped CSV) of the same header — sent as one bill: the first whole, each other without its
 * header line, in the order chosen (by name), gzipped again when any was. The service then reads
 * one file within the page's bounds (its bytes and lines counted as one upload), and the report
 * shows its months side by side. Files of another kind (Parquet, JSON, a workbook) or another
 * header are refused in the page with the command line that reads them as one bill.
 */

/** Files chosen at once at most. */
export const MAX_JOINED_FILES = 36;

/**
 * The script: `joinedUpload(files)` resolves to `{ blob, name }`, the one file sent, or rejects
 * with the sentence the page shows.
 */
export const JOIN_SCRIPT = `
const JOINED = /\\.csv(\\.gz)?$/i;
function gunzipped(file) {
  return /\\.gz$/i.test(file.name) ? new Response(file.stream().pipeThrough(new DecompressionStream("gzip"))).blob() : Promise.resolve(file);
}
async function headerOf(blob) {
  const start = new Uint8Array(await blob.slice(0, 1048576).arrayBuffer());
  const end = start.indexOf(10);
  if (end < 0) return null;
  return { bytes: end + 1, text: new TextDecoder().decode(start.subarray(0, end)).replace(/\\r$/, "") };
}
async function joinedUpload(files) {
  if (files.length === 1) return { blob: files[0], name: files[0].name };
  const sorted = [...files].sort((a, b) => a.name.localeCompare(b.name));
  const command = "npx impact-service evaluate " + sorted.map((f) => f.name).join(" ") + " -o impacts.csv --report report.html";
  if (sorted.length > ${MAX_JOINED_FILES}) throw new Error(sorted.length + " files: the page joins ${MAX_JOINED_FILES} at most; the command line reads more: " + command);
  const other = sorted.find((f) => !JOINED.test(f.name));
  if (other) throw new Error(other.name + " is no CSV: the page joins CSV and CSV.gz files (a month's export each, one header); the command line reads the others as one bill: " + command);
  const parts = [];
  let first = null;
  for (const file of sorted) {
    const text = await gunzipped(file);
    const header = await headerOf(text);
    if (header === null) throw new Error(file.name + ": no header line");
    if (first === null) first = header.text;
    else if (header.text !== first) throw new Error(file.name + "'s header differs from " + sorted[0].name + "'s: the months of one bill are joined when their columns are the same; the command line says which differs: " + command);
    const body = parts.length === 0 ? text : text.slice(header.bytes);
    parts.push(body);
    const last = new Uint8Array(await body.slice(-1).arrayBuffer());
    if (last.length === 1 && last[0] !== 10) parts.push("\\n");
  }
  const joined = new Blob(parts, { type: "text/csv" });
  const gzip = sorted.some((f) => /\\.gz$/i.test(f.name));
  const stem = sorted[0].name.replace(JOINED, "");
  const name = stem + "-and-" + (sorted.length - 1) + "-more.csv" + (gzip ? ".gz" : "");
  const blob = gzip ? await new Response(joined.stream().pipeThrough(new CompressionStream("gzip"))).blob() : joined;
  return { blob, name };
}
`;
