import { MAX_BILL_PARTS } from "../../service/fileEvaluation.js";

/*
 * Several files chosen or dropped at once on the /evaluate page: an account's monthly exports, a
 * bill's parts. They are sent as one upload, a ZIP archive the browser packs (stored, not
 * compressed: the files' own bytes, a gzipped part still gzipped), which the command reads as one
 * bill's parts given one by one (src/support/zipArchive.ts) and the service checks first, bounded
 * as one file (src/service/fileEvaluation/archiveBounds.ts). Any bill's file is a part: CSV,
 * CSV.gz, Parquet, BigQuery's JSON; the command holds each against the first and joins them.
 *
 * The parts go in month order: the month a file's name says (`2026-04`, `202604`, `20261101-…`,
 * `April`, `apr-2026`), then the name. The command reads an archive's files in their names'
 * order, so where that order is not the months' each file is packed under its place's number
 * (`01-December.parquet` becomes `02-…` of October, November, December). The command the page
 * suggests past its bounds names the files in the same order, each quoted as a shell needs.
 */

/**
 * The script: `billParts(files)` orders the files (month order); `partsUpload(files)` resolves to
 * `{ blob, name }`, the one file sent, or rejects with the sentence the page shows (`bound` set
 * when it is the page's bound of parts: the page then shows the command line);
 * `commandFor(files, edition)` is the command line that evaluates the files as the page does.
 */
export const PARTS_SCRIPT = `
const MAX_PARTS = ${MAX_BILL_PARTS};
const PART = /\\.(csv|csv\\.gz|parquet|json|json\\.gz)$/i;
const MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"];
const MONTH_NAME = /(?:^|[^a-z])(january|february|march|april|may|june|july|august|september|sept|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)(?![a-z])/i;
// A month a name says, as year × 12 + month (the year 0 when the name has none); null: none
function monthOf(name) {
  const numeric = /(?:^|\\D)((?:19|20)\\d\\d)[-_. ]?(0[1-9]|1[0-2])(?:[-_. ]?(?:[0-2]\\d|3[01]))?(?!\\d)/.exec(name);
  if (numeric) return Number(numeric[1]) * 12 + Number(numeric[2]) - 1;
  const named = MONTH_NAME.exec(name);
  if (!named) return null;
  const year = /(?:^|\\D)((?:19|20)\\d\\d)(?!\\d)/.exec(name);
  return (year ? Number(year[1]) : 0) * 12 + MONTHS.indexOf(named[1].slice(0, 3).toLowerCase());
}
const byName = (a, b) => a.localeCompare(b, "en", { numeric: true });
function billParts(files) {
  const keyed = [...files].map((file) => ({ file, month: monthOf(file.name) }));
  keyed.sort((a, b) => (a.month ?? Infinity) - (b.month ?? Infinity) || byName(a.file.name, b.file.name));
  return keyed.map((k) => k.file);
}
const quote = (name) => (/^[\\w./-]+$/.test(name) ? name : "'" + name.replace(/'/g, "'\\\\''") + "'");
const stemOf = (name) => name.replace(/\\.(csv|csv\\.gz|json|json\\.gz|ndjson|jsonl|parquet|xlsx|zip)$/i, "");
function commandFor(files, edition) {
  const parts = billParts(files);
  const stem = stemOf(parts[0].name);
  return "npx impact-service evaluate " + parts.map((f) => quote(f.name)).join(" ") + (edition ? " --edition " + edition : "") +
    " -o " + quote(stem + "-impacts.csv") + " --report " + quote(stem + "-report.html");
}
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => { let c = n; for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1; return c >>> 0; });
async function crcOf(file) {
  let crc = 0xffffffff;
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    for (let i = 0; i < value.length; i++) crc = CRC_TABLE[(crc ^ value[i]) & 0xff] ^ (crc >>> 8);
  }
  return (crc ^ 0xffffffff) >>> 0;
}
// A ZIP archive of the files as they are (stored), named as given: its local headers, the files, its directory
async function zipOf(entries) {
  const parts = [];
  const directory = [];
  let offset = 0;
  for (const { name, file } of entries) {
    const bytes = new TextEncoder().encode(name);
    const crc = await crcOf(file);
    const header = (size, signature) => { const b = new DataView(new ArrayBuffer(size)); b.setUint32(0, signature, true); return b; };
    const local = header(30, 0x04034b50);
    // version 2.0, UTF-8 names (bit 11), stored, 1980-01-01 00:00
    [[4, 20], [6, 0x0800], [8, 0], [10, 0], [12, 33]].forEach(([at, v]) => local.setUint16(at, v, true));
    local.setUint32(14, crc, true); local.setUint32(18, file.size, true); local.setUint32(22, file.size, true);
    local.setUint16(26, bytes.length, true); local.setUint16(28, 0, true);
    const central = header(46, 0x02014b50);
    [[4, 20], [6, 20], [8, 0x0800], [10, 0], [12, 0], [14, 33]].forEach(([at, v]) => central.setUint16(at, v, true));
    central.setUint32(16, crc, true); central.setUint32(20, file.size, true); central.setUint32(24, file.size, true);
    central.setUint16(28, bytes.length, true); central.setUint32(42, offset, true);
    parts.push(local, bytes, file);
    directory.push(central, bytes);
    offset += 30 + bytes.length + file.size;
  }
  const size = directory.reduce((sum, part) => sum + part.byteLength, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true); end.setUint16(8, entries.length, true); end.setUint16(10, entries.length, true);
  end.setUint32(12, size, true); end.setUint32(16, offset, true);
  return new Blob([...parts, ...directory, end], { type: "application/zip" });
}
async function partsUpload(files) {
  if (files.length === 1) return { blob: files[0], name: files[0].name };
  const parts = billParts(files);
  if (parts.length > MAX_PARTS) throw Object.assign(new Error(parts.length + " files: the page reads " + MAX_PARTS + " files of one bill at most (the page's bound); the command line reads more"), { bound: true });
  const other = parts.find((f) => !PART.test(f.name));
  if (other) throw new Error(other.name + " is not a bill's file: several files are read as one bill's parts (CSV, CSV.gz, Parquet, JSON, JSON.gz each, an account's months); drop an inventory or a ZIP archive alone");
  // Named as they are where their names' order is the months' (the command's order), else numbered
  const names = parts.map((f) => f.name);
  const ordered = names.every((name, i) => i === 0 || (names[i - 1].localeCompare(name) < 0 && names[i - 1] < name));
  const width = String(parts.length).length;
  const entries = parts.map((file, i) => ({ file, name: ordered ? file.name : String(i + 1).padStart(Math.max(2, width), "0") + "-" + file.name }));
  const name = stemOf(parts[0].name).replace(/[^\\w.-]/g, "_") + "-and-" + (parts.length - 1) + "-more.zip";
  return { blob: await zipOf(entries), name };
}
`;
