/**
 * The billing SQL as another engine runs it (docs/billing.md, "The same SQL elsewhere"): the exported
 * coefficient table, the export as a view, the tables billing_places and instance_matches, then the
 * queries of sql/ in order, joins included. Each line's status, matched type and impacts equal those
 * `impact-service evaluate` writes, which reads the lookup table by position instead.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { loadCoefficients, writeCoefficientParquet } from "../../src/billing/coefficientParquet.js";
import { createTable, identifier } from "../../src/billing/duckdb.js";
import {
  billingImpactColumns,
  evaluateBillingExport,
  placeUnknownProviders,
} from "../../src/billing/evaluate.js";
import { absentColumns, BILLING_FORMATS } from "../../src/billing/formats.js";
import { methodRows } from "../../src/billing/methods.js";
import { billingPlaces } from "../../src/billing/places.js";
import { impactsQuery, keysQuery, sqlQuery } from "../../src/billing/queries.js";
import { createMatchTable, createPlaceTable } from "../../src/billing/smallTables.js";
import { coefficientCriteria, coefficientPlaces, coefficientTable } from "../../src/service/coefficients.js";
import { app, editionContext, expectClose } from "./support.js";

const fixture = (name: string) => new URL(`../fixtures/billing/${name}`, import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "billing-portable-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, unknown>;

/** The methods' rows of each provider (src/billing/methods.ts) added to the coefficient table. */
async function addMethodRows(
  connection: Awaited<ReturnType<DuckDBInstance["connect"]>>,
  context: ReturnType<typeof editionContext>,
): Promise<void> {
  const criteria = coefficientCriteria(context, null);
  const rows = [];
  const energy: [string, string, string, number][] = [];
  for (const provider of ["aws", "azure", "gcp", ""]) {
    for (const method of await methodRows(
      context,
      provider,
      coefficientPlaces(context, provider),
      criteria,
    )) {
      rows.push(method.row);
      const { row } = method;
      energy.push([row.provider, row.instanceType, row.region ?? row.usageLocation ?? "", method.energyKwh]);
    }
  }
  await connection.run("ALTER TABLE coefficients RENAME TO instance_coefficients");
  await loadCoefficients(connection, "2.4.1", null, criteria, rows);
  await connection.run("INSERT INTO coefficients SELECT * FROM instance_coefficients");
  await createTable(
    connection,
    "billing_energy",
    [
      ["provider", "VARCHAR"],
      ["instance_type", "VARCHAR"],
      ["place", "VARCHAR"],
      ["energy_kwh_per_hour", "DOUBLE"],
    ],
    energy,
  );
}

describe("the billing SQL as another engine runs it", () => {
  it.each(["focus-1.0.csv", "focus-whole-bill.csv"])(
    "gives each line of %s the status, matched type and impacts the command writes",
    async (name) => {
      const FIXTURE = fixture(name);
      const edition = app.service.editions.get("2.4.1");
      if (edition === undefined) throw new Error("edition 2.4.1 is served");
      const context = editionContext("2.4.1");
      const output = join(scratch, `evaluated-${name}`);
      const summary = await evaluateBillingExport(context, edition.data.cloudRegions ?? [], {
        file: FIXTURE,
        input: null,
        output,
        format: "csv",
        criteria: null,
        ranges: false,
        groupBy: [],
        groupsOutput: null,
        instanceTypeColumn: null,
        load: null,
        strict: false,
      });
      const coefficientsFile = join(scratch, "coefficients.parquet");
      await writeCoefficientParquet(
        coefficientTable(context, { provider: null, load: null, criteria: null }),
        coefficientsFile,
      );

      const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
      const connection = await instance.connect();
      try {
        const read = `read_csv('${FIXTURE}', header = true, all_varchar = true)`;
        const header = (await connection.runAndReadAll(`DESCRIBE SELECT * FROM ${read}`))
          .getRowObjects()
          .map((row) => String(row.column_name));
        const absent = absentColumns(BILLING_FORMATS.focus, header).map(
          (name) => `CAST(NULL AS VARCHAR) AS ${identifier(name)}`,
        );
        await connection.run(
          `CREATE TABLE coefficients AS SELECT * FROM read_parquet('${coefficientsFile}')`,
        );
        await addMethodRows(connection, context);
        await connection.run(
          `CREATE VIEW billing_export AS SELECT *, ${[...absent, "CAST(NULL AS VARCHAR) AS billing_type_hint"].join(", ")} FROM ${read}`,
        );
        await createPlaceTable(
          connection,
          billingPlaces(edition.data.cloudRegions, edition.data.cloudRegions ?? []),
        );
        await createMatchTable(connection, summary.matches);
        const columns = billingImpactColumns(coefficientCriteria(context, null), false);
        await connection.run(`CREATE VIEW billing_lines AS ${sqlQuery("billing_lines_focus.sql")}`);
        await connection.run(`CREATE VIEW billing_usage AS ${sqlQuery("billing_usage_focus.sql")}`);
        await connection.run(`CREATE VIEW billing_methods AS ${sqlQuery("billing_methods.sql")}`);
        await connection.run(`CREATE VIEW billing_classified AS ${sqlQuery("billing_classified.sql")}`);
        await connection.run("CREATE VIEW billing_line_kinds AS SELECT * FROM billing_classified");
        await placeUnknownProviders(connection);
        await connection.run(`CREATE TABLE billing_keys AS ${keysQuery(columns)}`);
        await connection.run(`CREATE VIEW billing_located AS ${sqlQuery("billing_located.sql")}`);
        const portable = (await connection.runAndReadAll(impactsQuery(columns))).getRowObjects() as Row[];
        const written = (
          await connection.runAndReadAll(
            `SELECT * FROM read_csv('${output}', header = true, all_varchar = true)`,
          )
        ).getRowObjects() as Row[];

        expect(portable).toHaveLength(written.length);
        expect(new Set(written.map((row) => row.status))).toContain("evaluated");
        portable.forEach((line, index) => {
          const expected = written[index];
          for (const column of header) expect(line[column]).toBe(expected[column]);
          expect(line.status).toBe(expected.status);
          expect(line.matched_instance_type ?? null).toBe(expected.matched_instance_type ?? null);
          expect(line.warnings ?? null).toBe(expected.warnings ?? null);
          expect(line.method ?? null).toBe(expected.method ?? null);
          expect(line.method_unit ?? null).toBe(expected.method_unit ?? null);
          // billing_energy holds the methods' rows here: an instance's is its use ÷ its place's factor.
          const energy = line.method === "instance" ? [] : ["energy_kwh"];
          for (const column of ["hours", "method_quantity", ...energy, ...columns]) {
            if (expected[column] === null) expect(line[column]).toBeNull();
            // The command writes 10 significant digits.
            else expectClose(Number(line[column]), Number(expected[column]), `${column} of line ${index}`);
          }
        });
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    },
  );
});
