/**
 * The Spark scripts of `impact-service sql --engine spark` run on Spark itself (local mode, the
 * version engines/versions.env pins; ANSI mode on, Spark 4's default and Databricks'), as a team
 * runs them (docs/billing.md, "Databricks, Spark SQL"): one Spark for the whole file, a session of
 * it (its own database) for each fixture, a few fixtures at once, and for
 * each fixture the export loaded as it comes (CSV or Parquet), keys.sql run and its result written
 * as Parquet, `impact-service tables --keys` on that file, the tables loaded, lines.sql run, and
 * billing_result compared with the command's lines: every line in line_id's order, every column,
 * numbers to a relative 1e-12. The Unity Catalog case: one fixture's `--delta` stores billing_result as Delta.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { smallTableFiles } from "../../../src/billing/stages/write.js";
import { ensured, INSTALL_MS } from "../../support/testTools.js";
import {
  caseFolder,
  caseName,
  commandLines,
  ENGINE_CASES,
  type EngineCase,
  expectSameLines,
  FIXTURES,
  readCommandLines,
  sqlScript,
  tablesFromKeys,
  writeCoefficients,
} from "./cases.js";
import { ENGINES, VERSIONS } from "./install.js";
import { filled, SPARK } from "./recipes.js";
import { type EngineSession, sideBySide, startSession } from "./runner.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-spark-"));
const coefficients = join(scratch, "coefficients.parquet");
const temp = join(scratch, "tmp");
mkdirSync(temp);
let spark: EngineSession;

// The engines installed (npm test installs them while the unit files run), within the install's bound
beforeAll(() => ensured("ensure-engines.sh"), INSTALL_MS);

beforeAll(async () => {
  await writeCoefficients(coefficients);
  spark = await startSession(
    ENGINES.python(),
    [
      ENGINES.runner,
      "spark",
      "--warehouse",
      join(scratch, "warehouse"),
      "--delta-jars",
      ENGINES.deltaJars().join(","),
    ],
    // Spark's and its JVM's scratch files in this file's folder, removed after it (engines/runner.py)
    { ...process.env, PYSPARK_PYTHON: ENGINES.python(), SPARK_LOCAL_IP: "127.0.0.1", TMPDIR: temp },
  );
}, 300_000);

afterAll(() => {
  spark?.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** The recipe's statements, filled, as one script. */
const statements = (...parts: readonly string[]) => parts.map((part) => `${part};`).join("\n");

/** Fixtures planned at once: Spark plans a statement on one core, and the machine has two. */
const planned = sideBySide(3);

/**
 * The CSV fixture read with `multiLine 'true'` (the recipe for cells that may hold a line break),
 * the others split as a large bill's CSV is: a gzip file is one task either way, so the option
 * costs nothing there; no fixture has such a cell, and both read the same lines of the others.
 */
const MULTILINE_FIXTURE = "gcp-bigquery-standard.csv.gz";

/** The recipe's statement that reads the case's export. */
const exportView = (of: EngineCase) =>
  of.fixture.endsWith(".parquet")
    ? SPARK.exportParquet
    : of.fixture === MULTILINE_FIXTURE
      ? SPARK.exportCsvMultiLine
      : SPARK.exportCsv;

/**
 * A fixture through the recipe in the session `session`: the lines script's billing_result, and
 * the command's lines.
 */
async function onSpark(session: string, of: EngineCase, more: readonly string[] = []) {
  const folder = caseFolder(scratch, of, session);
  const path = join(FIXTURES, of.fixture);
  const command = await commandLines(of);
  const places = {
    export: path,
    keys: join(folder, "keys"),
    coefficients,
    tables: join(folder, "tables"),
  };
  await spark.run(
    session,
    statements(
      filled(exportView(of), places),
      filled(SPARK.numbered, places),
      await sqlScript("spark", path, of, { keys: true }),
      filled(SPARK.keys, places),
    ),
  );
  const [keys] = readdirSync(places.keys).filter((file) => file.endsWith(".parquet"));
  await tablesFromKeys(of, join(places.keys, keys), places.tables);
  const tables = smallTableFiles(of.series !== null, true)
    .filter(({ table }) => table !== "coefficients")
    .map(({ table }) => filled(SPARK.table, { ...places, table }));
  const result = await spark.run(
    session,
    statements(filled(SPARK.coefficients, places), ...tables, await sqlScript("spark", path, of, { more })),
    { sql: SPARK.read, out: join(folder, "result.json") },
  );
  if (result === null) throw new Error("billing_result was read");
  return { result, command: await readCommandLines(command) };
}

const inputColumns = (columns: readonly string[]) =>
  columns.slice(0, columns.indexOf("matched_instance_type"));

/**
 * The Unity Catalog case (`--delta`: billing_result a managed Delta table) is one of the nine rather
 * than a tenth run of a fixture: a case costs Spark its planning whatever its fixture.
 */
const DELTA_FIXTURE = "oci-cost-report.csv";

const isDelta = (of: EngineCase) => of.fixture === DELTA_FIXTURE && of.series === null;

describe(`the Spark scripts on Spark ${VERSIONS.SPARK_VERSION} (local mode)`, () => {
  it("store one case's billing_result as Delta, and read one CSV with multiLine", () => {
    expect(ENGINE_CASES.filter(isDelta)).toHaveLength(1);
    expect(ENGINE_CASES.filter((of) => exportView(of) === SPARK.exportCsvMultiLine)).toHaveLength(1);
  });

  it.concurrent.each(
    ENGINE_CASES.map((of, index) => {
      const delta = isDelta(of);
      return [`${caseName(of)}${delta ? " (stored as Delta with --delta)" : ""}`, of, index, delta] as const;
    }),
  )(
    "give every line of %s as the command writes it",
    async (_name, of, index, delta) => {
      const session = `c${index}`;
      const { result, command } = await planned(() => onSpark(session, of, delta ? ["--delta"] : []));
      // The export's columns that tell a line's kind are read, and so written, with an empty text
      // as none (a Parquet export's; Spark's CSV reader gives an empty cell as NULL already)
      expectSameLines(result, command, inputColumns(command.columns), { emptyIsNull: true });
      if (delta) {
        const described = await spark.run(session, "", {
          sql: "DESCRIBE DETAIL billing_result",
          out: join(scratch, "delta-detail.json"),
        });
        expect(described?.rows[0][described.columns.indexOf("format")]).toBe("delta");
      }
    },
    600_000,
  );
});
