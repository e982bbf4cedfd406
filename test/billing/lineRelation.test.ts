/**
 * The line relation (LINE_RELATION, src/billing/formats/format.ts): every format's queries give each of its
 * columns, and a format whose mapping lacks one is named before any line is read.
 */
import { describe, expect, it } from "vitest";
import { LINE_COLUMNS, LINE_RELATION, relationGaps } from "../../src/billing/formats/format.js";
import { BILLING_FORMAT_NAMES, BILLING_FORMATS } from "../../src/billing/formats/knownFormats.js";
import { sqlQuery } from "../../src/billing/queries.js";

describe("the line relation", () => {
  it.each(BILLING_FORMAT_NAMES)("%s: its queries give every column of the relation", (name) => {
    expect(relationGaps(BILLING_FORMATS[name])).toEqual([]);
  });

  it("names each column a format's queries lack, and the query that must give it", () => {
    const lines = sqlQuery("classify/billing_lines_oci.sql").replace(
      " AS billing_region,",
      " AS region_of_oci,",
    );
    const usage = sqlQuery("classify/billing_usage_oci.sql").replace(" AS billing_account", " AS tenancy");
    expect(relationGaps(BILLING_FORMATS.oci, { lines, usage })).toEqual([
      "the oci format maps no billing_region (sql/classify/billing_lines_oci.sql: the region as the export writes it (placed later: src/billing/places.ts))",
      "the oci format maps no billing_account (sql/classify/billing_usage_oci.sql: the account (sub-account, subscription, project, tenancy))",
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
