/**
 * A bill's CSV lines make the file's text cells formula-safe by the types the file was read as
 * (src/billing/stages/read.ts, exportColumns; src/billing/stages/write.ts): a Parquet export's
 * text column gets a quote before a cell a spreadsheet would run, its numbers, timestamps and
 * records are written as they are. A CSV export's cells are all text (test/cli/files.test.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { exportColumns } from "../../src/billing/stages/read.js";
import { FORMULAS } from "../support/formulaCells.js";
import { billingRequest, billingTermsOf } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "text-cells-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FOCUS_PARQUET = join(import.meta.dirname, "../fixtures/billing/focus-1.2.parquet");

describe("the columns read as text", () => {
  it("are the file's VARCHAR columns, as the run names them", () => {
    const { columns } = exportColumns(
      "export.parquet",
      [
        ["BilledCost", "DOUBLE"],
        ["ChargeCategory", "VARCHAR"],
        ["ChargePeriodStart", "TIMESTAMP"],
        ["ConsumedQuantity", "DOUBLE"],
        ["ConsumedUnit", "VARCHAR"],
        ["EffectiveCost", "DOUBLE"],
        ["ServiceProviderName", "VARCHAR"],
        ["RegionId", "VARCHAR"],
        ["ServiceName", "VARCHAR"],
        ["SkuId", "VARCHAR"],
        ["Tags", "MAP(VARCHAR, VARCHAR)"],
        ["status", "VARCHAR"],
        ["hours", "BIGINT"],
      ],
      null,
      ["gwp_use_kgco2eq"],
    );
    expect([...columns.text].sort()).toEqual(
      [
        "ChargeCategory",
        "ConsumedUnit",
        "RegionId",
        "ServiceName",
        "ServiceProviderName",
        "SkuId",
        "input_status",
      ].sort(),
    );
    expect([...columns.nested]).toEqual(["Tags"]);
  });
});

describe("a Parquet export's cells in the CSV lines", () => {
  it("quote a text cell a spreadsheet would run; numbers, timestamps and records as they are", async () => {
    const input = join(scratch, "formulas.parquet");
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    try {
      const formulas = FORMULAS.map(([cell]) => `'${cell.replaceAll("'", "''")}'`).join(", ");
      // Each line's sub-account one of the formulas, beside a number, a timestamp and a record of the same text
      await connection.run(
        `COPY (SELECT * REPLACE ([${formulas}][(row_number() OVER () - 1) % ${FORMULAS.length} + 1] AS SubAccountId),
                -2.5 AS x_Discount, {'note': '=1+1'} AS x_Record
              FROM read_parquet('${FOCUS_PARQUET}'))
         TO '${input}' (FORMAT parquet)`,
      );
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
    const output = join(scratch, "lines.csv");
    await evaluateBillingExport(
      billingTermsOf("2.4.1", { criteria: ["gwp"] }),
      billingRequest(input, output),
    );
    const rows = parse(readFileSync(output, "utf8"), { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(60);
    expect(rows.slice(0, FORMULAS.length).map((row) => row.SubAccountId)).toEqual(
      FORMULAS.map(([, written]) => written),
    );
    expect(new Set(rows.map((row) => row.x_Discount))).toEqual(new Set(["-2.5"]));
    expect(new Set(rows.map((row) => row.x_Record))).toEqual(new Set(['{"note":"=1+1"}']));
    expect(rows[0].BillingPeriodStart).toMatch(/^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}/);
    expect(new Set(rows.map((row) => row.status)).has("evaluated")).toBe(true);
  });
});
