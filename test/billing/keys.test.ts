/**
 * Small tables without the whole export (docs/billing.md, "Beyond one machine"): the keys script
 * of `impact-service sql --keys` run on a fresh DuckDB connection over the export, its result
 * (billing_line_kinds) written as CSV as an engine writes it, and `impact-service tables --keys`
 * (writeTablesFromKeys) build the same files as `evaluate <export> --tables`: every row of every
 * file, texts equal, numbers to a relative 1e-12 (the command sums a kind's costs with fsum, the
 * engines with SUM: the by-cost rate may differ in its last digits).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DuckDBConnection, DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { billingTerms, evaluateBillingExport } from "../../src/billing/bill.js";
import { recognisedFormat } from "../../src/billing/formats/knownFormats.js";
import { DIALECTS } from "../../src/billing/portable/dialects.js";
import { flatExportHeader } from "../../src/billing/portable/header.js";
import { writeTablesFromKeys } from "../../src/billing/portable/kindTables.js";
import { billingScript } from "../../src/billing/portable/script.js";
import { smallTableFiles } from "../../src/billing/stages/write.js";
import { billingFixture } from "../support/publicExports.js";
import { app, billingRequest, editionContext } from "./support.js";

const GRID_SERIES = new URL("../fixtures/grid/", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "billing-keys-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const quoted = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** The keys script on a fresh connection over the export; its result written to keys.csv. */
async function keysOf(fixture: string, keys: string): Promise<void> {
  const copied = keys.endsWith(".parquet") ? "parquet" : "csv, HEADER true";
  const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
  const connection = await instance.connect();
  try {
    await connection.run(
      `CREATE TABLE billing_export AS SELECT *, row_number() OVER () AS line_id
       FROM read_csv(${quoted(fixture)}, header = true, all_varchar = true)`,
    );
    const header = (await connection.runAndReadAll("DESCRIBE billing_export"))
      .getRowObjects()
      .map((row) => String(row.column_name))
      .filter((column) => column !== "line_id");
    const format = recognisedFormat(header);
    if (format === null) throw new Error(`${fixture} is a billing export`);
    const request = {
      dialect: DIALECTS.duckdb,
      format,
      header: flatExportHeader(header),
      impactColumns: [],
      grid: false,
      typeHintColumn: null,
    };
    await connection.run(billingScript(request, true));
    await connection.run(`COPY billing_line_kinds TO ${quoted(keys)} (FORMAT ${copied})`);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** One DuckDB database for the file's reads of the tables written (a query each), opened once. */
let reader: Promise<{ instance: DuckDBInstance; connection: DuckDBConnection }> | undefined;
afterAll(async () => {
  if (reader === undefined) return;
  const { instance, connection } = await reader;
  connection.closeSync();
  instance.closeSync();
});

/** A file of a tables folder, row by row (as written: in order). */
async function rowsOf(file: string): Promise<Record<string, unknown>[]> {
  reader ??= DuckDBInstance.create(":memory:").then(async (instance) => ({
    instance,
    connection: await instance.connect(),
  }));
  const { connection } = await reader;
  const source = file.endsWith(".parquet")
    ? `read_parquet(${quoted(file)})`
    : `read_csv(${quoted(file)}, header = true, all_varchar = true, allow_quoted_nulls = false)`;
  return (await connection.runAndReadAll(`SELECT * FROM ${source}`)).getRowObjectsJson() as Record<
    string,
    unknown
  >[];
}

/**
 * The tables folder `evaluate <export> --tables` writes for a fixture (with a series or not), run
 * once for the file: the cases that write the keys as CSV and as Parquet compare with the same.
 */
const evaluatedTables = new Map<string, Promise<string>>();

function tablesEvaluated(fixture: string, series: string | null): Promise<string> {
  const name = `${fixture.replaceAll("/", "-")}-${series ?? "none"}`;
  let folder = evaluatedTables.get(name);
  if (folder === undefined) {
    folder = (async () => {
      const edition = app.service.editions.get("2.4.1");
      if (edition === undefined) throw new Error("edition 2.4.1 is served");
      const context = editionContext("2.4.1");
      const grid = series === null ? null : { series: join(GRID_SERIES, series), zones: null };
      const evaluated = join(scratch, `${name}.evaluated`);
      await evaluateBillingExport(
        billingTerms(context, edition.data.cloudRegions ?? [], { criteria: null, load: null, ranges: false }),
        billingRequest(billingFixture(fixture), join(scratch, `${name}.parquet`), {
          tablesFolder: evaluated,
        }),
        grid,
      );
      return evaluated;
    })();
    evaluatedTables.set(name, folder);
  }
  return folder;
}

function expectSameRows(
  keyed: Record<string, unknown>[],
  evaluated: Record<string, unknown>[],
  what: string,
): void {
  expect(keyed.length, what).toBe(evaluated.length);
  if (what.endsWith("instance_matches.csv")) expect(evaluated.length, what).toBeGreaterThan(0);
  keyed.forEach((row, index) => {
    for (const [column, wanted] of Object.entries(evaluated[index])) {
      const value = row[column];
      const [a, b] = [Number(value), Number(wanted)];
      if (wanted !== null && wanted !== "" && Number.isFinite(b)) {
        const scale = Math.max(Math.abs(a), Math.abs(b));
        expect(scale === 0 ? 0 : Math.abs(a - b) / scale, `${what}: ${column} of row ${index}`).toBeLessThan(
          1e-12,
        );
      } else expect(value, `${what}: ${column} of row ${index}`).toEqual(wanted);
    }
  });
}

describe("the small tables from the export's kinds of lines", () => {
  it.each([
    ["focus-whole-bill.csv", null, "csv"],
    ["focus-1.0-services.csv", null, "csv"],
    ["focus-1.0-services.csv", null, "parquet"],
    ["focus-1.0-finops-sample.csv", null, "csv"],
    ["cur-whole-bill.csv", null, "csv"],
    ["azure-whole-bill.csv", null, "csv"],
    ["grid/azure.csv", "ember-monthly.csv", "csv"],
  ])(
    "are those evaluate --tables writes for %s (series %s; keys and tables as %s)",
    async (fixture, series, as) => {
      const parquet = as === "parquet";
      const edition = app.service.editions.get("2.4.1");
      if (edition === undefined) throw new Error("edition 2.4.1 is served");
      const context = editionContext("2.4.1");
      const name = `${fixture.replaceAll("/", "-")}-${as}`;
      const grid = series === null ? null : { series: join(GRID_SERIES, series), zones: null };
      const evaluated = await tablesEvaluated(fixture, series);
      const keys = join(scratch, `${name}.keys.${as}`);
      await keysOf(billingFixture(fixture), keys);
      const keyed = join(scratch, `${name}.keyed`);
      await writeTablesFromKeys(context, edition.data.cloudRegions ?? [], {
        keys,
        folder: keyed,
        parquet,
        criteria: null,
        load: null,
        grid,
      });
      const written = smallTableFiles(grid !== null);
      for (const [index, { file, table }] of smallTableFiles(grid !== null, parquet).entries()) {
        expect(table).toBe(written[index].table);
        const from = join(evaluated, written[index].file);
        expectSameRows(await rowsOf(join(keyed, file)), await rowsOf(from), `${fixture} ${file}`);
      }
    },
  );
});
