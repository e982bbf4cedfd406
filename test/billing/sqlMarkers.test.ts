/**
 * The markers of sql/ (src/billing/queries.ts): every marker is one the generator knows and each
 * one it knows is used, so that a mistyped marker is refused rather than left in a query.
 */
import { describe, expect, it } from "vitest";
import { BILLING_FORMATS, readColumns } from "../../src/billing/formats/knownFormats.js";
import { splicedSql, spliceProblems, sqlQuery } from "../../src/billing/queries.js";

describe("the markers of sql/", () => {
  it("are all known and all used in the tree as it is", () => {
    expect(spliceProblems()).toEqual([]);
  });

  it("are spliced once, at load: a query asked twice is the same text, an unknown name is refused", () => {
    const query = sqlQuery("classify/billing_methods.sql");
    expect(query).not.toMatch(/-- @/);
    expect(sqlQuery("classify/billing_methods.sql")).toBe(query);
    expect(() => sqlQuery("classify/billing_method.sql")).toThrow(
      "sql/classify/billing_method.sql: no such query of sql/",
    );
  });

  it("refuses a mistyped standalone marker, naming it and its query", () => {
    const text = "SELECT CASE\n            -- @methd rules\n  END AS x";
    expect(() => splicedSql("classify/billing_methods.sql", text)).toThrow(
      /^sql\/classify\/billing_methods\.sql: unknown marker "-- @methd rules"; the markers are -- @method rules, /,
    );
  });

  it("refuses a marker whose argument its splice does not read", () => {
    expect(() => splicedSql("q.sql", "          -- @catalogue colours of s\n")).toThrow(
      'sql/q.sql: unknown marker "-- @catalogue colours of s"',
    );
  });

  it("refuses a mistyped column mark ending a line of SQL", () => {
    const text = "SELECT\n  h.a * h.b_per_hour AS b, -- impcat\n  1 AS c";
    expect(() => splicedSql("evaluate/billing_impacts.sql", text)).toThrow(
      'sql/evaluate/billing_impacts.sql: unknown marker "h.a * h.b_per_hour AS b, -- impcat"',
    );
  });

  it("writes a format's provider, and refuses the marker of a format that has none or of no format", () => {
    expect(splicedSql("q.sql", "SELECT\n  -- @provider of format cur\n  1 AS x")).toBe(
      "SELECT\n  'aws' AS billing_provider,\n  1 AS x",
    );
    for (const name of ["focus", "acme"])
      expect(() => splicedSql("q.sql", `SELECT\n  -- @provider of format ${name}\n  1 AS x`)).toThrow(
        `sql/q.sql: unknown marker "-- @provider of format ${name}"`,
      );
  });

  it("writes the units a format rescales, and refuses the marker of a format that rescales none", () => {
    const text = "CASE u\n    -- @rescaled scales of format gcp\n  END";
    expect(splicedSql("q.sql", text)).toBe(
      "CASE u\n    WHEN 'byte-seconds' THEN 1.0 / (1073741824.0 * 3600.0)\n    WHEN 'bytes' THEN 1.0 / 1073741824.0\n  END",
    );
    expect(() => splicedSql("q.sql", text.replace("gcp", "cur"))).toThrow(
      'sql/q.sql: unknown marker "-- @rescaled scales of format cur"',
    );
  });

  it("writes a format's instance lines from its data, the columns its format reads, and refuses a format without", () => {
    const memory = splicedSql("q.sql", "  -- @instance memory of format cur over e\n");
    expect(memory).toBe(
      "  TRY_CAST(NULLIF(REGEXP_EXTRACT(TRIM(COALESCE(e.product_memory, '')), '^([0-9]+(?:[.][0-9]+)?) ?GiB$', 1), '') AS DOUBLE)\n",
    );
    const hoursUnit = splicedSql("q.sql", "    -- @instance hours unit of format cur over e\n");
    expect(hoursUnit).toContain("WHEN e.line_item_usage_type LIKE '%Usage%:%'");
    // SageMaker's nodes, the one hourly node service, and no other
    expect(hoursUnit).toContain(
      "(e.line_item_product_code = 'AmazonSageMaker' AND LOWER(e.line_item_usage_type) LIKE '%ml.%')",
    );
    expect(hoursUnit).not.toContain("AmazonRedshift");
    expect(hoursUnit.trimEnd().endsWith("THEN 'Hrs'")).toBe(true);
    const kinds = splicedSql("q.sql", "    -- @instance hours kinds of format cur over e\n");
    // An operation without a wildcard is compared as it is; several services of a node as a list
    expect(kinds).toContain("e.line_item_operation = 'ESDomain'");
    expect(kinds).toContain("e.line_item_operation LIKE 'RunInstances%'");
    expect(kinds).toContain("e.line_item_product_code IN ('AmazonElastiCache', 'AmazonMemoryDB')");
    expect(kinds.match(/THEN 'compute'/g)).toHaveLength(2);
    const cur = BILLING_FORMATS.cur;
    const columns = [...Object.values(cur.instanceHours?.columns ?? {}), cur.instanceMemory?.column];
    for (const column of columns) expect(readColumns(cur)).toContain(column);
    for (const give of ["hours kinds", "type", "hours unit", "memory"])
      expect(() => splicedSql("q.sql", `  -- @instance ${give} of format azure over e\n`)).toThrow(
        `sql/q.sql: unknown marker "-- @instance ${give} of format azure over e"`,
      );
  });

  it("writes the units a format implies by a column it reads, and refuses the marker of one that implies none", () => {
    const text = "CASE\n    -- @implied units of format cur over l\n  END";
    expect(splicedSql("q.sql", text)).toBe(
      "CASE\n    WHEN l.line_item_usage_type LIKE '%-Bytes' THEN 'GB'\n" +
        "    WHEN l.line_item_usage_type LIKE '%-ByteHrs' OR l.line_item_usage_type LIKE '%EBS:VolumeUsage%' OR l.line_item_usage_type LIKE '%EBS:SnapshotUsage%' THEN 'GB-Mo'\n  END",
    );
    expect(() => splicedSql("q.sql", text.replace("cur", "azure"))).toThrow(
      'sql/q.sql: unknown marker "-- @implied units of format azure over l"',
    );
    for (const format of Object.values(BILLING_FORMATS))
      for (const { column } of [
        ...(format.impliedUnits ?? []),
        ...(format.computeWhen ? [format.computeWhen] : []),
      ])
        expect(readColumns(format), format.name).toContain(column);
    expect(splicedSql("q.sql", "    -- @compute lines of format azure over e\n")).toBe(
      "    WHEN e.MeterCategory = 'Virtual Machines' THEN 'compute'\n",
    );
    expect(() => splicedSql("q.sql", "    -- @compute lines of format cur over e\n")).toThrow(
      'sql/q.sql: unknown marker "-- @compute lines of format cur over e"',
    );
  });

  it("refuses a FOCUS provider condition whose skeleton names a provider", () => {
    const line = "  CASE WHEN l.billing_provider IN ('aws') THEN 1 END AS x -- @own focus rules\n";
    expect(() => splicedSql("q.sql", line)).toThrow(
      'sql/q.sql: unknown marker "CASE WHEN l.billing_provider',
    );
    expect(splicedSql("q.sql", line.replace("'aws'", "''"))).toContain(
      "CASE WHEN l.billing_provider IN ('aws', 'azure', 'gcp', 'oracle') THEN 1 END AS x\n",
    );
  });

  it("names a marker no query uses (a marker written without its @ is prose)", () => {
    const problems = spliceProblems(["evaluate/billing_impacts.sql"]);
    expect(problems).toContain("no query of sql/ uses the marker -- @method rules");
    expect(problems).toContain("no query of sql/ uses the marker -- @focus providers of <expression>");
  });

  it("leaves no marker in a query written", () => {
    const methods = sqlQuery("classify/billing_methods.sql");
    expect(methods).not.toMatch(/^ *-- @/m);
    expect(methods).not.toMatch(/ -- @[a-z]/);
    expect(methods).toContain("WHEN");
  });
});
