/**
 * BigQuery's scripts against Google's native billing export (docs/billing.md, "BigQuery"): the
 * script `impact-service sql --engine bigquery --header <schema>` writes from the table's schema as
 * `bq show --schema` prints it (engines/bigquery/: the standard and the resource-level tables, their
 * RECORD and REPEATED columns as Google's "Structure of Standard data export" and "Detailed usage
 * cost data" document them), read with BigQuery's grammar by sqlglot (engines/bigquery/check.py:
 * a statement it cannot parse fails the test), written in DuckDB's dialect and run over a table of
 * that nested schema holding the lines of the fixture's export (`bq extract`'s JSON), with the
 * recipe's line identity (GENERATE_UUID: no window over the whole bill). keys.sql first, its result
 * through `impact-service tables --keys`, then lines.sql: billing_result against the command's
 * lines on the same export, paired by the export's columns, numbers to a relative 1e-12.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { METHOD_COEFFICIENTS_FILE, smallTableFiles } from "../../../src/billing/stages/write.js";
import { ensured, INSTALL_MS } from "../../support/testTools.js";
import {
  caseFolder,
  commandLines,
  expectSameLines,
  FIXTURES,
  readCommandLines,
  sqlScript,
  tablesFromKeys,
  writeCoefficients,
} from "./cases.js";
import { ENGINES, VERSIONS } from "./install.js";
import { BIGQUERY, filled } from "./recipes.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-bigquery-"));
const coefficients = join(scratch, "coefficients.parquet");
// The engines installed (npm test installs them while the unit files run), within the install's bound
beforeAll(() => ensured("ensure-engines.sh"), INSTALL_MS);

beforeAll(() => writeCoefficients(coefficients));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** A GoogleSQL script as DuckDB statements (sqlglot: a statement BigQuery's grammar refuses fails). */
function checked(script: string): string[] {
  const ran = spawnSync(ENGINES.python(), [ENGINES.bigQueryCheck], {
    input: script,
    encoding: "utf8",
    maxBuffer: 1 << 26,
    timeout: 120_000,
  });
  if (ran.status !== 0) throw new Error(`check.py: ${ran.stderr}`);
  const answer = JSON.parse(ran.stdout) as { statements?: string[]; error?: string };
  if (answer.error !== undefined) throw new Error(answer.error);
  return answer.statements ?? [];
}

interface SchemaField {
  readonly name: string;
  readonly type: string;
  readonly mode?: string;
  readonly fields?: readonly SchemaField[];
}

/** A field of BigQuery's schema as DuckDB types it (a TIMESTAMP an instant, a NUMERIC BigQuery's 38, 9). */
function duckType(field: SchemaField): string {
  const types: Record<string, string> = {
    STRING: "VARCHAR",
    FLOAT: "DOUBLE",
    FLOAT64: "DOUBLE",
    INTEGER: "BIGINT",
    INT64: "BIGINT",
    BOOLEAN: "BOOLEAN",
    BOOL: "BOOLEAN",
    NUMERIC: "DECIMAL(38, 9)",
    TIMESTAMP: "TIMESTAMPTZ",
    DATE: "DATE",
  };
  const own =
    field.type === "RECORD" || field.type === "STRUCT"
      ? `STRUCT(${(field.fields ?? []).map((inner) => `"${inner.name}" ${duckType(inner)}`).join(", ")})`
      : (types[field.type] ?? field.type);
  return field.mode === "REPEATED" ? `${own}[]` : own;
}

/** The export's table: the schema's columns, the lines of `bq extract`'s JSON (a field absent NULL). */
async function loadExport(connection: DuckDBConnection, schema: string, lines: string): Promise<void> {
  const fields = JSON.parse(readFileSync(schema, "utf8")) as SchemaField[];
  const columns = fields.map((field) => `${quoted(field.name)}: ${quoted(duckType(field))}`).join(", ");
  await connection.run(
    `CREATE TABLE gcp_billing_export AS SELECT * FROM read_json(${quoted(lines)}, format = 'newline_delimited', columns = {${columns}})`,
  );
}

async function run(connection: DuckDBConnection, statements: readonly string[]): Promise<void> {
  for (const statement of statements) await connection.run(statement);
}

const CASES = [
  { schema: "gcp_billing_export_v1.schema.json", fixture: "gcp-bigquery-standard.json.gz" },
  { schema: "gcp_billing_export_resource_v1.schema.json", fixture: "gcp-bigquery-resource.json" },
];

describe(`the BigQuery scripts, read as GoogleSQL by sqlglot ${VERSIONS.SQLGLOT_VERSION}, over the native export's schema`, () => {
  it.each(CASES)(
    "give every line of $fixture as the command writes it, from the schema $schema",
    async ({ schema, fixture }) => {
      const of = { fixture, series: null };
      const folder = caseFolder(scratch, of);
      const schemaFile = join(ENGINES.root, "engines/bigquery", schema);
      const command = await readCommandLines(await commandLines(of));
      const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
      const connection = await instance.connect();
      try {
        await connection.run("SET TimeZone = 'UTC'");
        await loadExport(connection, schemaFile, join(FIXTURES, fixture));
        await run(connection, checked(`${filled(BIGQUERY.numbered, { table: "gcp_billing_export" })};`));
        await run(connection, checked(await sqlScript("bigquery", schemaFile, of, { keys: true })));
        const keys = join(folder, "keys.parquet");
        await connection.run(`COPY billing_line_kinds TO ${quoted(keys)} (FORMAT parquet)`);
        const tables = join(folder, "tables");
        await tablesFromKeys(of, keys, tables);
        // bq load of each file under its name, the methods' rows appended to the coefficients
        await connection.run(
          `CREATE TABLE coefficients AS SELECT * FROM read_parquet([${quoted(coefficients)}, ${quoted(join(tables, METHOD_COEFFICIENTS_FILE))}])`,
        );
        for (const { table, file } of smallTableFiles(false, true)) {
          if (table !== "coefficients")
            await connection.run(
              `CREATE TABLE ${table} AS SELECT * FROM read_parquet(${quoted(join(tables, file))})`,
            );
        }
        await run(connection, checked(await sqlScript("bigquery", schemaFile, of)));
        const result = await connection.runAndReadAll("SELECT * FROM billing_result");
        const names = result.columnNames();
        // The table has every column of the schema; the export's lines fill those the command read
        const extra = names.filter(
          (name) =>
            name !== "line_id" &&
            !command.columns.some((column) => column === name || column.startsWith(`${name}.`)),
        );
        const rows = result.getRowsJson();
        for (const name of extra)
          expect(
            rows.every((row) => row[names.indexOf(name)] === null),
            name,
          ).toBe(true);
        const kept = names
          .map((name, index) => [name, index] as const)
          .filter(([name]) => !extra.includes(name));
        // A record's fields the export's lines leave out (project.ancestors…): NULL, and not compared
        const fieldsRead = (name: string, value: unknown) => {
          if (value === null || typeof value !== "object" || Array.isArray(value)) return value;
          const entries = Object.entries(value);
          for (const [field, item] of entries)
            if (!command.columns.includes(`${name}.${field}`)) expect(item, `${name}.${field}`).toBeNull();
          return Object.fromEntries(
            entries.filter(([field]) => command.columns.includes(`${name}.${field}`)),
          );
        };
        const columns = command.columns;
        expectSameLines(
          {
            columns: kept.map(([name]) => name),
            rows: rows.map((row) => kept.map(([name, index]) => fieldsRead(name, row[index]))),
          },
          command,
          columns.slice(0, columns.indexOf("matched_instance_type")),
          // The export's columns that tell a line's kind: an empty text read, and written, as none
          { unordered: true, emptyIsNull: true },
        );
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    },
    180_000,
  );

  it("refuses a script BigQuery's grammar does not read", () => {
    expect(() => checked("SELECT a FROM t WHERE")).toThrow(/not GoogleSQL/);
  });
});
