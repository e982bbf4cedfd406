/**
 * The read stage (src/billing/stages/read.ts) and the relation it reads a bill from
 * (src/billing/reading/exportScan.ts): each layout's columns counted before the work they bound, the
 * stage's own refusals passed on as they are (not reworded as a file that cannot be read), and a
 * text's columns read under the file's names and renamed where the run writes them otherwise.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BillingInputError } from "../../src/billing/errors.js";
import { billSource } from "../../src/billing/reading/exportScan.js";
import { billLayout } from "../../src/billing/reading/layout.js";
import { readExport } from "../../src/billing/stages/read.js";
import type { BillingRequest } from "../../src/billing/stages/request.js";
import { type Database, openDatabase, sourceOf } from "../../src/duckdb/database.js";
import { InputFileError } from "../../src/duckdb/errors.js";
import { FileReadError, readFailing } from "../../src/duckdb/readErrors.js";
import { billingRequest } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-read-"));
let db: Database;
let connection: DuckDBConnection;
beforeAll(async () => {
  db = await openDatabase();
  connection = db.connection;
});
afterAll(() => {
  db.close();
  rmSync(scratch, { recursive: true, force: true });
});

function file(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

const request = (path: string, asked: Partial<BillingRequest> = {}) =>
  billingRequest(path, join(scratch, "out.csv"), asked);

/** The error a promise is refused with. */
async function refusal(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    () => {
      throw new Error("not refused");
    },
    (error: Error) => error,
  );
}

const record = (prefix: string, fields: number) =>
  Object.fromEntries(Array.from({ length: fields }, (_, index) => [`${prefix}${index}`, "x"]));

describe("a billing export's columns, counted before the work they bound", () => {
  it("JSON: 600 fields of one record refused by their count, as a refusal (exit 2), not a file unread", async () => {
    // Numbers and text alternate: DuckDB reads an object of more than 200 fields of one type as a map.
    const fields = Object.fromEntries(
      Array.from({ length: 600 }, (_, index) => [`c${index}`, index % 2 ? "x" : index]),
    );
    const path = file("wide.json", `${JSON.stringify(fields)}\n`);
    const error = await refusal(
      readExport({ connection, request: request(path), terms: { impactColumnNames: [] } }),
    );
    expect(error).toBeInstanceOf(BillingInputError);
    expect(error.message).toBe(`${path}: 600 columns; a billing export is read with 500 columns at most`);
  });

  it("JSON: 10 records of 60 fields each, 10 columns found, 600 once flat: refused at 600", async () => {
    const records = Object.fromEntries(
      Array.from({ length: 10 }, (_, index) => [`r${index}`, record("f", 60)]),
    );
    const path = file("records.json", `${JSON.stringify(records)}\n`);
    const error = await refusal(
      readExport({ connection, request: request(path), terms: { impactColumnNames: [] } }),
    );
    expect(error).toBeInstanceOf(BillingInputError);
    expect(error.message).toBe(`${path}: 600 columns; a billing export is read with 500 columns at most`);
  });

  it("Parquet: the footer counts each record and its fields (3 + 3 × 200 = 603) before any column is read", async () => {
    const path = join(scratch, "records.parquet");
    const struct = (fields: number) =>
      `{${Array.from({ length: fields }, (_, index) => `'f${index}': 1`).join(", ")}}`;
    await connection.run(
      `COPY (SELECT ${struct(200)} AS a, ${struct(200)} AS b, ${struct(200)} AS c) TO '${path}'`,
    );
    const error = await refusal(billSource(connection, [path], { kind: "parquet" }, null));
    expect(error.message).toBe(`${path}: 603 columns; a billing export is read with 500 columns at most`);
  });

  it("Parquet of records that is no format's as it is: read flat, no more columns than its footer counts", async () => {
    const path = join(scratch, "flat.parquet");
    await connection.run(`COPY (SELECT {'a': 1, 'b': 'x'} AS service, 2 AS other) TO '${path}'`);
    const source = await billSource(connection, [path], { kind: "parquet" }, null);
    // Footer: service, service.a, service.b, other (4, the root aside); flat: 3.
    expect(source.columns).toEqual([
      ["service.a", "INTEGER"],
      ["service.b", "VARCHAR"],
      ["other", "INTEGER"],
    ]);
    const rows = await connection.runAndReadAll(`SELECT * FROM ${source.from}`);
    expect(rows.getRowObjects()).toEqual([{ "service.a": 1, "service.b": "x", other: 2 }]);
  });

  it("a text: its header counted before DuckDB is asked anything (10,002 columns)", async () => {
    const header = [
      "ProviderName",
      "ChargeCategory",
      ...Array.from({ length: 10_000 }, (_, index) => `c${index}`),
    ];
    const path = file("wide.csv", `${header.join(",")}\n`);
    const error = await refusal(
      readExport({
        connection,
        request: request(path, { input: "focus" }),
        terms: { impactColumnNames: [] },
      }),
    );
    expect(error.message).toBe(`${path}: 10002 columns; a billing export is read with 500 columns at most`);
  });
});

describe("the read stage's failures, said once", () => {
  it("a JSON file named with both a backslash and a [ is refused by its name (exit 2), said once", async () => {
    const path = file("a\\[b].json", `${JSON.stringify({ a: 1 })}\n`);
    const error = await refusal(
      readExport({ connection, request: request(path), terms: { impactColumnNames: [] } }),
    );
    expect(error).toBeInstanceOf(InputFileError);
    expect(error).not.toBeInstanceOf(FileReadError);
    expect(error.message).toBe(
      `${path}: a file name with both a backslash and one of [ * ? cannot be read literally; rename it`,
    );
  });

  it("readFailing passes on what `said` names, words any other failure as the file's", async () => {
    const refused = new InputFileError("bill.csv: refused");
    const failing = () => Promise.reject(refused);
    const read = { files: "bill.csv", gzip: false };
    expect(await refusal(readFailing(failing, read, (error) => error instanceof InputFileError))).toBe(
      refused,
    );
    const worded = await refusal(readFailing(failing, read));
    expect(worded).toBeInstanceOf(FileReadError);
    expect(worded.message).toBe("bill.csv: bill.csv: refused; nothing written");
  });
});

describe("a text export's columns", () => {
  const FOCUS = "ProviderName,ChargeCategory,ServiceName,ConsumedQuantity,ConsumedUnit,RegionId";

  it("are read as the file names them and renamed in the view where the run writes them otherwise", async () => {
    const path = file("focus.csv", `${FOCUS},status,billing_note\nAWS,Usage,EC2,24,Hours,eu-west-3,paid,n\n`);
    const read = await readExport({
      connection,
      request: request(path),
      terms: { impactColumnNames: ["gwp_use_kgco2eq"] },
    });
    expect(read.header.slice(6)).toEqual(["status", "billing_note"]);
    expect(read.columns.names.slice(6)).toEqual(["input_status", "input_billing_note"]);
    expect([...read.views.renamed]).toEqual([
      ["status", "input_status"],
      ["billing_note", "input_billing_note"],
    ]);
    // The file's compression told by its first bytes (not its name): plain text
    expect(read.views.from).toBe(sourceOf(path, read.header, { separator: ",", skipped: 0, gzip: false }));
    expect(read.views.from).toContain("compression = 'none'");
    expect(read.format.name).toBe("focus");
  });

  it("with `;` and two report lines above: read_csv told so; with commas on line 1, as every CSV", () => {
    const read = sourceOf("bill.csv", ["a", "b"], { separator: ";", skipped: 2 });
    expect(read).toBe(
      `read_csv('bill.csv', auto_detect = false, header = true, columns = {'a': 'VARCHAR', 'b': 'VARCHAR'}, delim = ';', quote = '"', escape = '"', compression = 'auto', strict_mode = true, skip = 2)`,
    );
    expect(sourceOf("bill.csv", ["a"], { separator: ",", skipped: 0, gzip: true })).toContain(
      "compression = 'gzip'",
    );
    expect(sourceOf("bill.csv", ["a"])).toBe(
      `read_csv('bill.csv', auto_detect = false, header = true, columns = {'a': 'VARCHAR'}, delim = ',', quote = '"', escape = '"', compression = 'auto', strict_mode = true)`,
    );
  });

  it("with a decimal comma: the quantity and cost read as SQL reads numbers (24 and 1.234,5 → 1234.5), other cells as written", async () => {
    const header = "MeterCategory;MeterName;Quantity;UnitOfMeasure;ResourceLocation;CostInBillingCurrency";
    const path = file(
      "azure.csv",
      `Report;;\n${header}\nVirtual Machines;D2 v3;24;1 Hour;westeurope;1.234,5\n`,
    );
    const layout = billLayout(path);
    expect(layout).toMatchObject({ kind: "csv", separator: ";", skipped: 1, decimalMark: "," });
    const source = await billSource(connection, [path], layout ?? { kind: "parquet" }, null);
    const rows = await connection.runAndReadAll(
      `SELECT MeterName, Quantity, CostInBillingCurrency FROM ${source.from}`,
    );
    expect(rows.getRowObjects()).toEqual([
      { MeterName: "D2 v3", Quantity: "24", CostInBillingCurrency: "1234.5" },
    ]);
  });
});
