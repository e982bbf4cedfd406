/**
 * The written lines' Parquet copy (src/billing/stages/write.ts, withReadCopy) reads back as the CSV
 * it copies: every column's name, every cell (an empty cell, a quoted empty text, the text NULL,
 * blanks kept, quotes, a line break, letters of any script), every line in its order past the
 * copy's row groups, gzipped or not; a Parquet output is read as it is; the copy is gone after;
 * without the copy (no space for it), the CSV is read on one thread.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withReadCopy } from "../../src/billing/stages/write.js";
import { type WrittenFile, writtenSource } from "../../src/billing/writtenFile.js";

const scratch = mkdtempSync(join(tmpdir(), "read-copy-"));
let instance: DuckDBInstance;
let connection: DuckDBConnection;

beforeAll(async () => {
  instance = await DuckDBInstance.create(":memory:", { threads: "2" });
  connection = await instance.connect();
});

afterAll(() => {
  connection.closeSync();
  instance.closeSync();
  rmSync(scratch, { recursive: true, force: true });
});

/** Cells a written CSV holds, as COPY writes them (quoted where it must). */
const ODD_CELLS = [
  '""',
  "",
  "NULL",
  "  two blanks  ",
  '"a ""quoted"" word"',
  '"a line\nbreak"',
  "été 電力 ⚡",
  "1e-7",
];

/** 5,000 lines (past the copy's row groups of 2,048): a counter, an odd cell, a repeated header name. */
function csvText(): string {
  const lines = ["line_id,cell,status,status"];
  for (let n = 0; n < 5_000; n += 1)
    lines.push(`${n},${ODD_CELLS[n % ODD_CELLS.length]},evaluated,x${n % 7}`);
  return `${lines.join("\n")}\n`;
}

async function rowsOf(source: WrittenFile) {
  const reader = await connection.runAndReadAll(`SELECT * FROM ${writtenSource(source)}`);
  return { columns: reader.columnNames(), types: reader.columnTypes().map(String), rows: reader.getRows() };
}

describe("the written lines' copy", () => {
  it.each([false, true])("reads back as the CSV it copies (gzipped: %s), then is removed", async (gzip) => {
    const file = join(scratch, `lines-${gzip}.csv${gzip ? ".gz" : ""}`);
    writeFileSync(file, gzip ? gzipSync(csvText()) : csvText());
    const target: WrittenFile = { file, format: "csv", gzip };
    const fromCsv = await rowsOf(target);
    expect(fromCsv.rows).toHaveLength(5_000);
    const copy = await withReadCopy(connection, target, scratch, async (source) => {
      expect(source.copy).toBeDefined();
      expect(existsSync(source.copy ?? "")).toBe(true);
      return { path: source.copy, read: await rowsOf(source) };
    });
    expect(copy.read).toEqual(fromCsv);
    expect(existsSync(copy.path ?? "")).toBe(false);
  });

  it("is not made where the folder's disk has not the CSV's size to spare: the CSV is read", async () => {
    const file = join(scratch, "lines-room.csv");
    writeFileSync(file, csvText());
    const target: WrittenFile = { file, format: "csv" };
    const tight = () => 256 * 1024 * 1024 + 1_000;
    const roomy = () => 256 * 1024 * 1024 + 1_000_000;
    expect(await withReadCopy(connection, target, scratch, async (source) => source, tight)).toBe(target);
    // The CSV read without its copy is read on one thread, the connection's two given back after
    const threads = async () =>
      Number((await connection.runAndReadAll("SELECT current_setting('threads') AS t")).getRowObjects()[0].t);
    expect(await withReadCopy(connection, target, scratch, threads, tight)).toBe(1);
    expect(await threads()).toBe(2);
    const copied = await withReadCopy(connection, target, scratch, async (source) => source, roomy);
    expect(copied.copy).toBeDefined();
  });

  it("is not made of a Parquet output, nor without a folder", async () => {
    const parquet: WrittenFile = { file: join(scratch, "lines.parquet"), format: "parquet" };
    const csv: WrittenFile = { file: join(scratch, "lines.csv"), format: "csv" };
    expect(await withReadCopy(connection, parquet, scratch, async (source) => source)).toBe(parquet);
    expect(await withReadCopy(connection, csv, null, async (source) => source)).toBe(csv);
  });
});
