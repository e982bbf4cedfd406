/**
 * The line relation (LINE_RELATION, src/billing/formats/format.ts): every format's queries give each of its
 * columns with its type, as DuckDB makes their views (DESCRIBE), and a format whose mapping lacks
 * one, or gives it another type, is named before any line is read.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DuckDBConnection } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import {
  checkRelation,
  describedRelation,
  LINE_COLUMNS,
  LINE_RELATION,
  relationGaps,
} from "../../src/billing/formats/format.js";
import {
  BILLING_FORMAT_NAMES,
  BILLING_FORMATS,
  type BillingFormatName,
} from "../../src/billing/formats/knownFormats.js";
import { sqlQuery } from "../../src/billing/queries.js";
import { createLineViews, createRegistryTables } from "../../src/billing/stages/classify.js";
import { readExport } from "../../src/billing/stages/read.js";
import { openDatabase } from "../../src/duckdb/database.js";
import { billingFixture } from "../support/publicExports.js";
import { billingRequest } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "line-relation-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A bill of each format. */
const FIXTURES: Record<BillingFormatName, string> = {
  focus: "focus-1.0.csv",
  cur: "cur-whole-bill.csv",
  azure: "azure.csv",
  gcp: "gcp-bigquery-resource.csv",
  oci: "oci-cost-report.csv",
};

/** `work` on a connection holding a bill's views of the line relation, as the classify stage makes them. */
async function withLineViews<T>(
  name: BillingFormatName,
  work: (connection: DuckDBConnection) => Promise<T>,
): Promise<T> {
  const db = await openDatabase();
  try {
    const { connection } = db;
    const request = billingRequest(billingFixture(FIXTURES[name]), join(scratch, "unused.csv"));
    const read = await readExport({ connection, request, terms: { impactColumnNames: [] } });
    expect(read.views.format.name).toBe(name);
    await createRegistryTables(connection);
    await createLineViews(connection, read.views, true);
    return await work(connection);
  } finally {
    db.close();
  }
}

/** The oci format's views made again from `lines` and `usage` (its queries changed), then checked. */
async function ociGaps(lines: string, usage = sqlQuery("classify/billing_usage_oci.sql")) {
  return withLineViews("oci", async (connection) => {
    await connection.run(`CREATE OR REPLACE VIEW billing_lines AS ${lines}`);
    await connection.run(`CREATE OR REPLACE VIEW billing_usage AS ${usage}`);
    const gaps = relationGaps(BILLING_FORMATS.oci, await describedRelation(connection));
    await expect(checkRelation(connection, BILLING_FORMATS.oci)).rejects.toThrow(gaps[0]);
    return gaps;
  });
}

describe("the line relation", () => {
  it.each(BILLING_FORMAT_NAMES)("%s: its views give every column of the relation, typed", async (name) => {
    const described = await withLineViews(name, describedRelation);
    expect(relationGaps(BILLING_FORMATS[name], described)).toEqual([]);
    for (const column of LINE_RELATION)
      expect(described[column.query].get(column.name)).toBe(column.type === "text" ? "VARCHAR" : "DOUBLE");
  });

  it("names each column a format's queries lack, and the query that must give it", async () => {
    const lines = sqlQuery("classify/billing_lines_oci.sql").replace(
      " AS billing_region,",
      " AS region_of_oci,",
    );
    const usage = sqlQuery("classify/billing_usage_oci.sql").replace(" AS billing_account", " AS tenancy");
    expect(await ociGaps(lines, usage)).toEqual([
      "the oci format maps no billing_region (sql/classify/billing_lines_oci.sql: the region as the export writes it (placed later: src/billing/places.ts))",
      "the oci format maps no billing_account (sql/classify/billing_usage_oci.sql: the account (sub-account, subscription, project, tenancy))",
    ]);
  });

  it("refuses a column of another type, naming it and its type", async () => {
    const lines = sqlQuery("classify/billing_lines_oci.sql").replace(
      "TRY_CAST(e.usage_billed_quantity AS DOUBLE) AS billing_quantity,",
      "'x' AS billing_quantity,",
    );
    expect(await ociGaps(lines)).toEqual([
      "the oci format maps billing_quantity as VARCHAR, not DOUBLE (a number) (sql/classify/billing_lines_oci.sql: the quantity, in `billing_unit`)",
    ]);
  });

  it("refuses a column named only in a comment", async () => {
    const lines = sqlQuery("classify/billing_lines_oci.sql").replace(
      "  e.product_region AS billing_region,",
      "  -- e.product_region AS billing_region,\n  e.product_region AS region_of_oci,",
    );
    expect(lines).toMatch(/\bAS billing_region\b/);
    expect(await ociGaps(lines)).toEqual([
      "the oci format maps no billing_region (sql/classify/billing_lines_oci.sql: the region as the export writes it (placed later: src/billing/places.ts))",
    ]);
  });

  it("holds each column once; what differs line by line is its quantity, costs, account, resource, period", () => {
    const names = LINE_RELATION.map((column) => column.name);
    expect(new Set(names).size).toBe(names.length);
    expect(LINE_COLUMNS).toEqual([
      "billing_quantity",
      "billing_cost",
      "billing_paid_cost",
      "billing_account",
      "billing_resource",
      "billing_period_start_text",
      "billing_period_end_text",
      "billing_period_end_days",
    ]);
  });
});
