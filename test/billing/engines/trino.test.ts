/**
 * The Trino scripts of `impact-service sql --engine trino` run on a Trino server (the release
 * engines/versions.env pins, on Java 25), as a team runs them (docs/billing.md, "Trino, Athena"):
 * one server for the whole file, started here and ready when its /v1/info says `starting: false`.
 * The files are read by the Hive connector over the local file system (a file metastore): each
 * export in a folder of its own as it comes (CSV, every column varchar; CSV.gz; Parquet typed),
 * each small table's Parquet file in its own; the script's tables and views are written to the
 * memory connector (the catalog that writes: Athena's database). Each fixture has schemas of its
 * own in both catalogs and a session of its own, a few fixtures at once. For each: keys.sql, its
 * result saved as CSV as Trino's console saves it, `impact-service tables --keys` on that file,
 * lines.sql, and billing_result compared with the command's lines — paired by the export's
 * columns (line_id is a UUID), names without case (Trino keeps them lower case), an empty cell of
 * a CSV export an empty text (Hive's CSV reader has no NULL).
 */
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { billLayout } from "../../../src/billing/reading/layout.js";
import { METHOD_COEFFICIENTS_FILE, smallTableFiles } from "../../../src/billing/stages/write.js";
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
  writeKeysCsv,
} from "./cases.js";
import { ENGINES, VERSIONS } from "./install.js";
import { filled, TRINO } from "./recipes.js";
import { type EngineSession, sideBySide, startSession } from "./runner.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-trino-"));
/** The Hive catalog's file system: local:///… is this folder. */
const files = join(scratch, "files");
const coefficients = join(scratch, "coefficients.parquet");
let server: ReturnType<typeof spawn> | undefined;
let trino: EngineSession;

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === "object" && address !== null ? address.port : 0));
    });
  });
}

/** A plugin folder holding the server's Hive and memory connectors alone. */
function plugins(): string {
  const folder = join(scratch, "plugin");
  mkdirSync(folder, { recursive: true });
  for (const plugin of ["hive", "memory"])
    symlinkSync(join(ENGINES.trino(), "plugin", plugin), join(folder, plugin));
  return folder;
}

/** The server's configuration: one node, the Hive catalog over `files`, the memory catalog. */
function configure(port: number): string {
  const etc = join(scratch, "etc");
  mkdirSync(join(etc, "catalog"), { recursive: true });
  const temp = join(scratch, "tmp");
  mkdirSync(temp, { recursive: true });
  mkdirSync(join(files, "metastore"), { recursive: true });
  const write = (name: string, lines: readonly string[]) =>
    writeFileSync(join(etc, name), `${lines.join("\n")}\n`);
  write("node.properties", [
    "node.environment=test",
    "node.id=billing-comparisons",
    `node.data-dir=${join(scratch, "data")}`,
  ]);
  write("jvm.config", [
    "-server",
    "-Xmx1G",
    // A server of a few minutes and small tables: the serial collector, no concurrent GC threads
    // (G1's were 9 % of the server's CPU)
    "-XX:+UseSerialGC",
    // Its code and the queries' generated classes compiled once, quickly (C1 only), rather than
    // again by C2 (the CPU a short run spends most on)
    "-XX:TieredStopAtLevel=1",
    // Its classes, its own and the queries' generated ones, defined without the bytecode verifier
    // (a check of the class files' code, not of what they compute): CPU spent at each class loaded
    "-XX:+UnlockDiagnosticVMOptions",
    "-XX:-BytecodeVerificationRemote",
    "-XX:+ExitOnOutOfMemoryError",
    "-Djdk.attach.allowAttachSelf=true",
    // The native libraries its compressors unpack at each start (lz4, snappy, zstd) in this
    // file's folder, removed after it: a server ended with its process group deletes none
    `-Djava.io.tmpdir=${temp}`,
  ]);
  write("config.properties", [
    "coordinator=true",
    "node-scheduler.include-coordinator=true",
    `http-server.http.port=${port}`,
    `discovery.uri=http://127.0.0.1:${port}`,
    "query.max-memory=512MB",
    "query.max-memory-per-node=512MB",
    // A fixture's few dozen lines: one driver per task rather than one per core
    "task.concurrency=1",
    // The two connectors the recipe uses, not every plugin of the server's folder
    `plugin.dir=${plugins()}`,
    // None of these changes what a query answers: no search of join orders by cost (the tables
    // have no statistics to weigh), no dynamic filters built for tables of a few dozen rows, no
    // log line per HTTP request
    "optimizer.join-reordering-strategy=NONE",
    "enable-dynamic-filtering=false",
    "http-server.log.enabled=false",
  ]);
  write("catalog/hive.properties", [
    "connector.name=hive",
    "hive.metastore=file",
    "hive.metastore.catalog.dir=local:///metastore",
    "fs.native-local.enabled=true",
    `local.location=${files}`,
  ]);
  write("catalog/memory.properties", ["connector.name=memory", "memory.max-data-per-node=256MB"]);
  return etc;
}

/** Until /v1/info says the server has started (its own signal), or the bound. */
async function started(port: number, bound: number): Promise<void> {
  const until = Date.now() + bound;
  for (;;) {
    const exit = server?.exitCode;
    if (exit !== null && exit !== undefined) throw new Error(`Trino's server ended (${exit})`);
    try {
      const info = (await (await fetch(`http://127.0.0.1:${port}/v1/info`)).json()) as { starting?: boolean };
      if (info.starting === false) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > until) throw new Error(`Trino's server did not start within ${bound / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

// The engines installed (npm test installs them while the unit files run), within the install's bound
beforeAll(() => ensured("ensure-engines.sh"), INSTALL_MS);

beforeAll(async () => {
  await writeCoefficients(coefficients);
  const port = await freePort();
  const etc = configure(port);
  const java = ENGINES.javaForTrino;
  server = spawn(
    join(ENGINES.trino(), "bin/launcher"),
    ["run", `--etc-dir=${etc}`, `--data-dir=${join(scratch, "data")}`],
    {
      env: { ...process.env, JAVA_HOME: java, PATH: `${java}/bin:${process.env.PATH ?? ""}` },
      stdio: "ignore",
      detached: true,
    },
  );
  await started(port, 240_000);
  trino = await startSession(
    ENGINES.python(),
    [ENGINES.runner, "trino", "--port", String(port)],
    process.env,
  );
}, 300_000);

afterAll(() => {
  trino?.close();
  if (server?.pid !== undefined && server.exitCode === null) process.kill(-server.pid, "SIGKILL");
  rmSync(scratch, { recursive: true, force: true });
});

/** A DuckDB type as Trino's Hive connector names it. */
function trinoType(type: string): string {
  const list = /^(.*)\[\]$/.exec(type);
  if (list !== null) return `array(${trinoType(list[1])})`;
  const record = /^STRUCT\((.*)\)$/.exec(type);
  if (record !== null)
    return `row(${fields(record[1])
      .map(([name, of]) => `${name} ${trinoType(of)}`)
      .join(", ")})`;
  if (type.startsWith("TIMESTAMP")) return "timestamp(3)";
  const simple: Record<string, string> = {
    VARCHAR: "varchar",
    DOUBLE: "double",
    FLOAT: "real",
    BIGINT: "bigint",
    INTEGER: "integer",
    BOOLEAN: "boolean",
    DATE: "date",
  };
  return simple[type] ?? type.toLowerCase();
}

/** A STRUCT's fields (`name TYPE, …`, a type holding parentheses of its own). */
function fields(text: string): [string, string][] {
  const found: [string, string][] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index <= text.length; index++) {
    const character = text[index];
    if (character === "(") depth++;
    else if (character === ")") depth--;
    else if ((character === "," && depth === 0) || index === text.length) {
      const field = text.slice(start, index).trim();
      const space = field.indexOf(" ");
      found.push([field.slice(0, space), field.slice(space + 1)]);
      start = index + 1;
    }
  }
  return found;
}

/** A Parquet file's columns as a Trino table declares them. */
async function parquetColumns(file: string): Promise<string> {
  const instance = await DuckDBInstance.create(":memory:", { threads: "1" });
  const connection = await instance.connect();
  try {
    const described = await connection.runAndReadAll(
      `DESCRIBE SELECT * FROM read_parquet('${file.replaceAll("'", "''")}')`,
    );
    return described
      .getRowObjects()
      .map(
        (row) => `"${String(row.column_name).replaceAll('"', '""')}" ${trinoType(String(row.column_type))}`,
      )
      .join(", ");
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

/** A folder under the Hive catalog's file system holding these files; its local:/// location. */
function folderOf(name: string, paths: readonly string[]): string {
  const folder = join(files, name);
  mkdirSync(folder, { recursive: true });
  for (const path of paths) copyFileSync(path, join(folder, basename(path)));
  return `local:///${name}`;
}

/**
 * A session's schemas: of its files (Hive over local files), of the script (memory: the runner's
 * session names its tables unqualified there).
 */
const placesOf = (session: string) => ({ files: `hive.${session}`, work: `memory.${session}` });

/** Fixtures planned at once: the one server plans a query on one core, and the machine has two. */
const planned = sideBySide(3);

const statements = (...parts: readonly string[]) => parts.map((part) => `${part};`).join("\n");

/** A fixture through the recipe in the session `session` (its schemas created here). */
async function onTrino(session: string, of: EngineCase) {
  const PLACES = placesOf(session);
  await trino.run(
    "default",
    `CREATE SCHEMA IF NOT EXISTS ${PLACES.files}; CREATE SCHEMA IF NOT EXISTS ${PLACES.work}`,
  );
  const folder = caseFolder(scratch, of);
  const path = join(FIXTURES, of.fixture);
  const command = await commandLines(of);
  const id = basename(folder);
  const parquet = path.endsWith(".parquet");
  const layout = billLayout(path);
  const columns = parquet
    ? await parquetColumns(path)
    : (layout?.kind === "csv" ? layout.header : [])
        .map((name) => `"${name.replaceAll('"', '""')}" varchar`)
        .join(", ");
  const rows = await trino.run(
    session,
    statements(
      filled(parquet ? TRINO.exportParquet : TRINO.exportCsv, {
        ...PLACES,
        columns,
        export: folderOf(`exports/${id}`, [path]),
      }),
      filled(TRINO.numbered, PLACES),
      await sqlScript("trino", path, of, { keys: true }),
    ),
    { sql: filled(TRINO.keys, PLACES), out: join(folder, "keys.json") },
  );
  if (rows === null) throw new Error("billing_line_kinds was read");
  const keys = join(folder, "keys.csv");
  writeKeysCsv(rows, keys);
  const tables = join(folder, "tables");
  await tablesFromKeys(of, keys, tables);
  const loads: string[] = [];
  for (const { table, file } of smallTableFiles(of.series !== null, true)) {
    const paths =
      table === "coefficients"
        ? [coefficients, join(tables, METHOD_COEFFICIENTS_FILE)]
        : [join(tables, file)];
    loads.push(
      filled(TRINO.table, {
        ...PLACES,
        table,
        columns: await parquetColumns(paths[0]),
        folder: folderOf(`tables/${id}/${table}`, paths),
      }),
      filled(TRINO.named, { ...PLACES, table }),
    );
  }
  const result = await trino.run(session, statements(...loads, await sqlScript("trino", path, of)), {
    sql: filled(TRINO.read, PLACES),
    out: join(folder, "result.json"),
  });
  if (result === null) throw new Error("billing_result was read");
  return { result, command: await readCommandLines(command) };
}

const inputColumns = (columns: readonly string[]) =>
  columns.slice(0, columns.indexOf("matched_instance_type"));

describe(`the Trino scripts on Trino ${VERSIONS.TRINO_VERSION}`, () => {
  it.concurrent.each(ENGINE_CASES.map((of, index) => [caseName(of), of, index] as const))(
    "give every line of %s as the command writes it",
    async (_name, of, index) => {
      const { result, command } = await planned(() => onTrino(`c${index}`, of));
      expectSameLines(result, command, inputColumns(command.columns), {
        foldedNames: true,
        unordered: true,
        // Hive's CSV reader has no NULL; and the export's columns that tell a line's kind are
        // read, and so written, with an empty text as none (docs/billing.md, "Trino, Athena")
        emptyIsNull: true,
      });
      expect(new Set(result.rows.map((row) => row[0])).size).toBe(result.rows.length);
    },
    600_000,
  );
});
