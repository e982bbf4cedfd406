import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/duckdb/database.js";
import { FileReadError, fileRead, readingConnection } from "../../src/duckdb/readErrors.js";
import { fileLiteral } from "../../src/duckdb/sqlText.js";

describe("the reading connection of a run", () => {
  let folder: string;
  let db: Database;
  let bill: string;
  let other: string;

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), "reading-connection-"));
    bill = join(folder, "bill.csv");
    other = join(folder, "series.csv");
    // Line 3 is not UTF-8: DuckDB stops reading there.
    writeFileSync(
      bill,
      Buffer.concat([Buffer.from("a,b\n1,2\n"), Buffer.from([0x33, 0xff, 0x2c, 0x34, 0x0a])]),
    );
    writeFileSync(other, Buffer.concat([Buffer.from("a,b\n"), Buffer.from([0x35, 0xfe, 0x2c, 0x36, 0x0a])]));
    db = await openDatabase();
  });
  afterAll(() => {
    db.close();
    rmSync(folder, { recursive: true, force: true });
  });

  const read = (file: string) =>
    `SELECT * FROM read_csv(${fileLiteral(file)}, header = true, all_varchar = true)`;

  it("words DuckDB's failure to read the run's file in one line, its line named", async () => {
    const connection = readingConnection(db.connection, fileRead(bill));
    const failure = await connection.runAndReadAll(read(bill)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FileReadError);
    expect((failure as Error).message).toBe(`${bill}: line 3: not UTF-8; nothing written`);
  });

  it("passes on as it is a failure DuckDB says of a file that is not the run's", async () => {
    const connection = readingConnection(db.connection, fileRead(bill));
    const failure = await connection.run(read(other)).catch((error: unknown) => error);
    expect(failure).not.toBeInstanceOf(FileReadError);
    expect((failure as Error).message).toContain(other);
  });

  it("answers as DuckDB's own connection where nothing fails", async () => {
    const connection = readingConnection(db.connection, fileRead(bill));
    const rows = (await connection.runAndReadAll("SELECT 40 + 2 AS answer")).getRowObjects();
    expect(rows).toEqual([{ answer: 42 }]);
    expect(connection.progress.percentage).toBeGreaterThanOrEqual(-1);
  });

  it("leaves an error already worded as it was", async () => {
    // A statement's failure inside a reading of its own (a zone table's, a series'): said once.
    const inner = readingConnection(db.connection, fileRead(other));
    const outer = readingConnection(inner, fileRead(bill));
    const failure = await outer.run(read(other)).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(FileReadError);
    expect((failure as Error).message).toBe(`${other}: line 2: not UTF-8; nothing written`);
  });
});
