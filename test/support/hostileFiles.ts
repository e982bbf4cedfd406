/**
 * Hostile files, made small on disk by the tests that send them: a workbook whose parts inflate to
 * gigabytes (a ZIP written here, its parts' deflate streams the same flushed block repeated: each
 * block inflates to the same text, so a few MB stand for GBs), a gzip of 10^8 grid intervals.
 */
import { constants, crc32, deflateRawSync, gzipSync } from "node:zlib";

/** A ZIP part: its name, deflate stream, and what it inflates to (size and CRC-32). */
export interface ZipPart {
  readonly name: string;
  readonly deflated: Buffer;
  readonly size: number;
  readonly crc: number;
}

/** A part holding `text` as it is. */
export function textPart(name: string, text: string): ZipPart {
  const bytes = Buffer.from(text);
  return { name, deflated: deflateRawSync(bytes), size: bytes.length, crc: crc32(bytes) };
}

/**
 * A part of `head`, then `unit` repeated `times` times, then `tail`: the unit deflated once (its
 * block flushed whole, so it stands alone) and its bytes repeated. `size` and `crc` are what it
 * inflates to, unless `declared` says otherwise (a directory that lies).
 */
export function repeatedPart(
  name: string,
  { head, unit, times, tail }: { head: string; unit: string; times: number; tail: string },
  declared?: number,
): ZipPart {
  const flushed = (text: string) =>
    deflateRawSync(Buffer.from(text), { finishFlush: constants.Z_FULL_FLUSH });
  const block = flushed(unit);
  const deflated = Buffer.concat([
    flushed(head),
    ...new Array<Buffer>(times).fill(block),
    deflateRawSync(Buffer.from(tail)),
  ]);
  let crc = crc32(head);
  const unitBytes = Buffer.from(unit);
  for (let i = 0; i < times; i += 1) crc = crc32(unitBytes, crc);
  crc = crc32(tail, crc);
  const size = Buffer.byteLength(head) + unitBytes.length * times + Buffer.byteLength(tail);
  return { name, deflated, size: declared ?? size, crc };
}

/** A ZIP archive of the parts, in their order (each deflated, sizes in 32 bits). */
export function zipOf(parts: readonly ZipPart[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(part.crc >>> 0, 14);
    local.writeUInt32LE(part.deflated.length, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(part.crc >>> 0, 16);
    central.writeUInt32LE(part.deflated.length, 20);
    central.writeUInt32LE(part.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, part.deflated);
    centrals.push(central, name);
    offset += local.length + name.length + part.deflated.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';
const REL_NS = 'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

/** The small parts of a one-sheet workbook (with shared strings when asked). */
function workbookFrame(sharedStrings: boolean): Record<string, ZipPart> {
  const strings = sharedStrings
    ? '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings" Target="sharedStrings.xml"/>'
    : "";
  return {
    types: textPart(
      "[Content_Types].xml",
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>',
    ),
    rels: textPart(
      "_rels/.rels",
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>',
    ),
    workbook: textPart(
      "xl/workbook.xml",
      `<?xml version="1.0"?><workbook ${NS} ${REL_NS}><sheets><sheet name="assets" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    workbookRels: textPart(
      "xl/_rels/workbook.xml.rels",
      `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>${strings}</Relationships>`,
    ),
  };
}

/** A sheet's XML around its rows. */
const sheetXml = (rows: string) =>
  `<?xml version="1.0"?><worksheet ${NS}><sheetData>${rows}</sheetData></worksheet>`;

/** The 3.1 MB workbook of the issue: its sheet, 3 GiB of spaces, stored before the workbook's relationships. */
export function spacesWorkbook(declaredSheetBytes?: number): Buffer {
  const frame = workbookFrame(false);
  const sheet = repeatedPart(
    "xl/worksheets/sheet1.xml",
    {
      head: `<?xml version="1.0"?><worksheet ${NS}>`,
      unit: " ".repeat(1024 * 1024),
      times: 3072,
      tail: "</worksheet>",
    },
    declaredSheetBytes,
  );
  return zipOf([frame.types, frame.rels, frame.workbook, sheet, frame.workbookRels]);
}

/** A workbook of `count` shared strings, each `string` (`<si>` elements), stored after its sheet. */
export function sharedStringsWorkbook(count: number, string = "<si><t>a</t></si>"): Buffer {
  const frame = workbookFrame(true);
  const perUnit = Math.ceil((1024 * 1024) / string.length);
  const sheet = textPart(
    "xl/worksheets/sheet1.xml",
    sheetXml('<row r="1"><c r="A1" t="s"><v>0</v></c></row><row r="2"><c r="A2" t="s"><v>0</v></c></row>'),
  );
  const strings = repeatedPart("xl/sharedStrings.xml", {
    head: `<?xml version="1.0"?><sst ${NS} count="${count}" uniqueCount="${count}">`,
    unit: string.repeat(perUnit),
    times: Math.ceil(count / perUnit),
    tail: "</sst>",
  });
  return zipOf([frame.types, frame.rels, frame.workbook, frame.workbookRels, sheet, strings]);
}

/** A workbook whose `rows` rows each hold one cell, at the last column (XFD): rows × 16,384 cells. */
export function farColumnsWorkbook(rows: number): Buffer {
  const frame = workbookFrame(false);
  const header = '<row r="1"><c r="A1" t="inlineStr"><is><t>kind</t></is></c></row>';
  const body = Array.from(
    { length: rows },
    (_, i) => `<row r="${i + 2}"><c r="XFD${i + 2}"><v>1</v></c></row>`,
  );
  const sheet = textPart("xl/worksheets/sheet1.xml", sheetXml(header + body.join("")));
  return zipOf([frame.types, frame.rels, frame.workbook, frame.workbookRels, sheet]);
}

/**
 * A gzip of a grid series of `zones` zones × `hours` hourly intervals (`zone,start,gco2_per_kwh`):
 * the lines of one zone's day repeated, each member of the gzip the same bytes (gzip members
 * concatenated are one stream), so 10^8 intervals are a few MB.
 */
export function gridSeriesGzip(intervals: number): Buffer {
  const day = Array.from(
    { length: 24 },
    (_, hour) => `FR,2025-01-01T${String(hour).padStart(2, "0")}:00:00Z,50\n`,
  ).join("");
  const member = gzipSync(day.repeat(100_000), { level: 9 });
  const members = Math.ceil(intervals / 2_400_000);
  return Buffer.concat([gzipSync("zone,start,gco2_per_kwh\n"), ...new Array<Buffer>(members).fill(member)]);
}

/**
 * A gzip of `head` then one line of `lineBytes` bytes of `x` (a multiple of 1 MiB): the megabyte's
 * block deflated once, flushed whole, its bytes repeated (about 1 KB a MiB, so 5 GiB is 5.3 MB).
 * Its trailer's CRC is not computed (5 GiB of CRC-32 take seconds): what reads it stops long before.
 */
export function gzipOfOneLongLine(head: string, lineBytes: number): Buffer {
  const unit = 1024 * 1024;
  const flushed = (bytes: Buffer) => deflateRawSync(bytes, { finishFlush: constants.Z_FULL_FLUSH, level: 9 });
  const header = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE((Buffer.byteLength(head) + lineBytes) % 2 ** 32, 4);
  return Buffer.concat([
    header,
    flushed(Buffer.from(head)),
    ...new Array<Buffer>(lineBytes / unit).fill(flushed(Buffer.alloc(unit, "x"))),
    deflateRawSync(Buffer.alloc(0)),
    trailer,
  ]);
}
