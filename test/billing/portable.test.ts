/**
 * The billing SQL as another engine runs it (docs/billing.md, "The same SQL elsewhere"): the
 * exported coefficient table with the methods' rows, the export as a view, the small tables the
 * command wrote to its tables folder (instance_matches, billing_places, billing_energy, the
 * registry's billing_units, billing_storage_services, billing_gpus, billing_method_kinds and
 * billing_method_keys), then the
 * queries of sql/ in order, joins included. Each line's status, matched type, method, energy and
 * impacts equal those `impact-service evaluate` writes, which reads the lookup table by position.
 */
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { writeCoefficientParquet } from "../../src/billing/coefficientParquet.js";
import { billingImpactColumns, evaluateBillingExport } from "../../src/billing/evaluate.js";
import { absentColumns, recognisedFormat } from "../../src/billing/formats.js";
import { GRID_TABLES } from "../../src/billing/grid.js";
import { withMethodRows } from "../../src/billing/methods.js";
import { gridQuery, gridUseColumns, impactsQuery, keysQuery, sqlQuery } from "../../src/billing/queries.js";
import { REGISTRY_TABLES } from "../../src/billing/registry/tables.js";
import { identifier } from "../../src/duckdb/database.js";
import { coefficientCriteria, coefficientTable } from "../../src/service/coefficients.js";
import { app, editionContext, expectClose } from "./support.js";

const FIXTURES = new URL("../fixtures/billing/", import.meta.url).pathname;
const GRID_SERIES = new URL("../fixtures/grid/", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "billing-portable-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, unknown>;

/** A CSV file of the tables folder as text columns: "" is an empty text, an empty cell NULL. */
const textCsv = (file: string) =>
  `read_csv('${file}', header = true, all_varchar = true, allow_quoted_nulls = false)`;

/** `impact-service coefficients --methods`: every instance type's rows, then every method's. */
const coefficientsFile = join(scratch, "coefficients.parquet");
beforeAll(async () => {
  const context = editionContext("2.4.1");
  const instances = coefficientTable(context, { provider: null, load: null, criteria: null });
  await writeCoefficientParquet(withMethodRows(context, instances, null), coefficientsFile);
});

/** A run's lines as the command wrote them and as the portable steps give them, and what they are. */
interface BothWays {
  readonly header: readonly string[];
  readonly columns: readonly string[];
  readonly portable: Row[];
  readonly written: Row[];
}

/**
 * `impact-service evaluate` on a fixture (with a grid series when given), then the portable steps
 * on the tables it wrote to its tables folder.
 */
async function bothWays(fixture: string, grid: { series: string; zones: null } | null): Promise<BothWays> {
  const edition = app.service.editions.get("2.4.1");
  if (edition === undefined) throw new Error("edition 2.4.1 is served");
  const context = editionContext("2.4.1");
  const name = fixture.replaceAll("/", "-");
  const output = join(scratch, `${name}.evaluated.csv`);
  const tables = join(scratch, `${name}.tables`);
  mkdirSync(tables);
  await evaluateBillingExport(context, edition.data.cloudRegions ?? [], {
    file: fixture,
    input: null,
    output,
    format: "csv",
    criteria: null,
    ranges: grid !== null,
    groupBy: [],
    groupsOutput: null,
    instanceTypeColumn: null,
    load: null,
    strict: false,
    tablesFolder: tables,
    grid,
  });

  const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
  const connection = await instance.connect();
  try {
    const read = `read_csv('${fixture}', header = true, all_varchar = true)`;
    const header = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${read}`))
      .getRowObjects()
      .map((row) => String(row.column_name));
    const format = recognisedFormat(header);
    if (format === null) throw new Error(`${fixture} is a billing export`);
    const absent = absentColumns(format, header).map(
      (name) => `CAST(NULL AS VARCHAR) AS ${identifier(name)}`,
    );
    // The coefficient table, the run's methods' rows appended: those of --methods at its places.
    const methods = `read_parquet('${join(tables, "method_coefficients.parquet")}')`;
    await connection.run(
      `CREATE TABLE coefficients AS SELECT * FROM read_parquet('${coefficientsFile}')
       WHERE instance_type NOT LIKE 'method:%' UNION ALL SELECT * FROM ${methods}`,
    );
    // Every row but the cost key's, which are the bill's own (its instance lines' kWh per cost).
    const apart = await connection.runAndReadAll(
      `SELECT COUNT(*) AS n FROM (SELECT * FROM ${methods} WHERE instance_type LIKE 'method:%' AND instance_type <> 'method:cost'
       EXCEPT SELECT * FROM read_parquet('${coefficientsFile}'))`,
    );
    expect(Number(apart.getRowObjects()[0].n)).toBe(0);
    await connection.run(
      `CREATE VIEW billing_export AS SELECT *, ${[...absent, "CAST(NULL AS VARCHAR) AS billing_type_hint"].join(", ")},
         row_number() OVER () AS test_line FROM ${read}`,
    );
    // The small tables as the command wrote them to its tables folder.
    for (const table of ["billing_places", "instance_matches"]) {
      await connection.run(`CREATE TABLE ${table} AS SELECT * FROM ${textCsv(join(tables, `${table}.csv`))}`);
    }
    await connection.run(
      `CREATE TABLE billing_energy AS SELECT provider, instance_type, place,
         CAST(energy_kwh_per_hour AS DOUBLE) AS energy_kwh_per_hour
       FROM ${textCsv(join(tables, "billing_energy.csv"))}`,
    );
    // The registry's tables (units, storage services, GPUs, methods) as the command wrote them.
    for (const { name: table } of REGISTRY_TABLES) {
      await connection.run(
        `CREATE TABLE ${table} AS SELECT * FROM read_parquet('${join(tables, `${table}.parquet`)}')`,
      );
    }
    const columns = billingImpactColumns(coefficientCriteria(context, null), grid !== null);
    await connection.run(`CREATE VIEW billing_lines AS ${sqlQuery(format.linesQuery)}`);
    await connection.run(`CREATE VIEW billing_usage AS ${sqlQuery(format.usageQuery)}`);
    await connection.run(`CREATE VIEW billing_methods AS ${sqlQuery("billing_methods.sql")}`);
    await connection.run(`CREATE VIEW billing_classified AS ${sqlQuery("billing_classified.sql")}`);
    await connection.run("CREATE VIEW billing_line_kinds AS SELECT * FROM billing_classified");
    await connection.run(`CREATE TABLE billing_keys AS ${keysQuery(columns)}`);
    let lines = impactsQuery(columns);
    if (grid !== null) {
      // The series' tables as the command wrote them, the keys given their zones, then the
      // periods, the knots (two joins) and the gwp use with the series.
      for (const [file, table] of GRID_TABLES) {
        await connection.run(`CREATE TABLE ${table} AS SELECT * FROM read_parquet('${join(tables, file)}')`);
      }
      await connection.run(`CREATE TABLE billing_grid_keys AS ${sqlQuery("billing_grid_keys.sql")}`);
      await connection.run("DROP TABLE billing_keys");
      await connection.run("ALTER TABLE billing_grid_keys RENAME TO billing_keys");
      await connection.run(`CREATE VIEW billing_located AS ${sqlQuery("billing_located.sql")}`);
      await connection.run(`CREATE VIEW billing_evaluated AS ${lines}`);
      await connection.run(`CREATE VIEW billing_timed AS ${sqlQuery("billing_periods.sql")}`);
      await connection.run(`CREATE VIEW billing_grid_located AS ${sqlQuery("billing_grid_knots.sql")}`);
      lines = gridQuery(columns);
    } else {
      await connection.run(`CREATE VIEW billing_located AS ${sqlQuery("billing_located.sql")}`);
    }
    // Joins keep no order: the lines in the export's, by a number the test gives them.
    const portable = (
      await connection.runAndReadAll(`SELECT * FROM (${lines}) ORDER BY test_line`)
    ).getRowObjects() as Row[];
    const written = (
      await connection.runAndReadAll(`SELECT * FROM read_csv('${output}', header = true, all_varchar = true)`)
    ).getRowObjects() as Row[];
    return { header, columns, portable, written };
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** Each line's columns from the portable steps equal the command's (numbers to its 10 digits). */
function expectSameLines(both: BothWays, numbers: readonly string[], texts: readonly string[]): void {
  const { header, portable, written } = both;
  expect(portable).toHaveLength(written.length);
  expect(new Set(written.map((row) => row.status))).toContain("evaluated");
  portable.forEach((line, index) => {
    const expected = written[index];
    for (const column of header) expect(line[column]).toBe(expected[column]);
    for (const [column, from] of texts.map((text) => text.split("<-"))) {
      expect(line[from ?? column] ?? null, `${column} of line ${index}`).toBe(expected[column] ?? null);
    }
    for (const [column, from] of numbers.map((number) => number.split("<-"))) {
      const value = line[from ?? column];
      if (expected[column] === null) expect(value, `${column} of line ${index}`).toBeNull();
      // The command writes 10 significant digits.
      else expectClose(Number(value), Number(expected[column]), `${column} of line ${index}`);
    }
  });
}

const TEXTS = ["status", "matched_instance_type", "method", "method_unit"];

describe("the billing SQL as another engine runs it", () => {
  it.each([
    "focus-1.0.csv",
    "focus-1.0-spec-only.csv",
    "focus-whole-bill.csv",
    "focus-1.0-services.csv",
    "cur.csv.gz",
    "cur-managed.csv",
    "cur-whole-bill.csv",
    "azure.csv",
    "azure-ea.csv",
    "azure-whole-bill.csv",
    "registry-azure.csv",
    "registry-cur.csv",
    "registry-focus.csv",
  ])("gives each line of %s the status, method, energy and impacts the command writes", async (fixture) => {
    const both = await bothWays(join(FIXTURES, fixture), null);
    expectSameLines(
      both,
      ["hours", "method_quantity", "energy_kwh", ...both.columns],
      [...TEXTS, "warnings"],
    );
  });

  it.each([
    ["grid/focus.csv", "plain.csv"],
    ["grid/azure.csv", "ember-monthly.csv"],
  ])(
    "gives each line of %s with the series %s the gwp use and warnings the command writes",
    async (fixture, series) => {
      const both = await bothWays(join(FIXTURES, fixture), {
        series: join(GRID_SERIES, series),
        zones: null,
      });
      const use = gridUseColumns(both.columns).map((column) => `${column}<-billing_grid_${column}`);
      const others = both.columns.filter((column) => !gridUseColumns(both.columns).includes(column));
      expectSameLines(
        both,
        ["hours", "energy_kwh", "grid_gco2_per_kwh", ...others, ...use],
        [...TEXTS, "warnings<-billing_grid_warnings"],
      );
      expect(both.written.filter((row) => row.grid_gco2_per_kwh !== null).length).toBeGreaterThan(2);
    },
  );
});
