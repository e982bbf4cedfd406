import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sqlQuery } from "../../src/billing/queries.js";
import { createLocatedView } from "../../src/billing/stages/evaluate.js";
import { openDatabase } from "../../src/duckdb/database.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-lookup-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const LINES = 200_000;

/**
 * Lines of many chunks whose keys cover what an export holds: no provider, no instance type, no
 * region, instance types holding the characters a key is written with, and methods' keys.
 */
const LINES_QUERY = `
  SELECT
    i AS line_number,
    CASE i % 7 WHEN 0 THEN NULL WHEN 1 THEN 'azure' ELSE 'aws' END AS billing_provider,
    CASE i % 11 WHEN 0 THEN NULL WHEN 1 THEN CONCAT('odd', chr(31), '3') ELSE CONCAT('m', CAST(i % 97 AS VARCHAR), '.large') END AS billing_instance_type,
    CASE i % 5 WHEN 0 THEN '' ELSE CONCAT('region', CAST(i % 13 AS VARCHAR)) END AS billing_region_key,
    CASE i % 17 WHEN 3 THEN 'method:ssd-gb-hour' ELSE NULL END AS billing_method_key
  FROM range(${LINES}) t(i)`;

/** The lookup table of the lines' keys, each row telling its key apart. */
const KEYS_QUERY = `
  SELECT key_provider, key_instance_type, key_region,
    CONCAT(key_provider, '/', key_instance_type, '/', key_region) AS billing_place,
    LENGTH(key_instance_type) * 1.5 AS gwp_use_kgco2eq_per_hour
  FROM (
    SELECT DISTINCT COALESCE(billing_provider, '') AS key_provider,
      COALESCE(billing_method_key, billing_instance_type, '') AS key_instance_type, billing_region_key AS key_region
    FROM billing_classified
  )`;

async function written(query: string, file: string): Promise<string[]> {
  const db = await openDatabase();
  try {
    await db.connection.run(`CREATE TABLE billing_classified AS ${LINES_QUERY}`);
    await db.connection.run(`CREATE TABLE billing_keys AS ${KEYS_QUERY}`);
    await createView(db.connection, query);
    await db.connection.run(`COPY (SELECT * FROM billing_located) TO '${file}' (FORMAT csv, HEADER true)`);
  } finally {
    db.close();
  }
  return readFileSync(file, "utf8").trimEnd().split("\n");
}

async function createView(connection: Awaited<ReturnType<typeof openDatabase>>["connection"], query: string) {
  if (query === "lookup") await createLocatedView(connection);
  else await connection.run(`CREATE VIEW billing_located AS ${sqlQuery("evaluate/billing_located.sql")}`);
}

describe("DuckDB's lookup of the lookup table", () => {
  it("gives every line the row evaluate/billing_located.sql's join gives it, lines in their order", async () => {
    const looked = await written("lookup", join(scratch, "lookup.csv"));
    const joined = await written("join", join(scratch, "join.csv"));
    expect(looked).toHaveLength(LINES + 1);
    expect(looked[0]).toBe(joined[0]);
    const numbers = looked.slice(1).map((line) => Number(line.split(",")[0]));
    expect(numbers).toEqual(Array.from({ length: LINES }, (_, i) => i));
    // The join's lines in their order (DuckDB's join, on two threads, hands them on in any order).
    const byNumber = (lines: string[]) =>
      lines.slice(1).sort((a, b) => Number(a.split(",")[0]) - Number(b.split(",")[0]));
    expect(looked.slice(1)).toEqual(byNumber(joined));
    // Line 0 has neither provider nor instance type (NULL, written empty) and no region (''):
    // its key is three empty texts (written "").
    expect(looked[1]).toBe(`0,,,"",,"","","",//,0.0`);
    // Line 3's key is its method's.
    expect(looked[4]).toBe(
      "3,aws,m3.large,region3,method:ssd-gb-hour,aws,method:ssd-gb-hour,region3,aws/method:ssd-gb-hour/region3,27.0",
    );
    // Line 1's instance type holds the character keys are written with; 5 characters × 1.5.
    expect(looked[2]).toBe(
      `1,azure,odd\u001f3,region1,,azure,odd\u001f3,region1,azure/odd\u001f3/region1,7.5`,
    );
  });
});
