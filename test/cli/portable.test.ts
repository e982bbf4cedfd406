/**
 * `impact-service sql` and `impact-service tables` as a user runs them (docs/billing.md, "Beyond
 * one machine"): their files, stdout, stderr and exit code. Through the command's function
 * (`runMain`, what the bin awaits, edition 2.4.1 given as `--edition`) where a test reads only what
 * it writes; the bin's process (`runCli`, EDITION=2.4.1 in its environment) for a script on its
 * stdout, and for FIFOs, whose reading would wait for ever in the process that opens them.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { KEY_COLUMNS } from "../../src/billing/portable/kindTables.js";
import { runCli, runMain241 } from "../support/cli.js";

/** Each run starts tsx and loads the editions: seconds each on a busy 2-core machine. */
const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "portable-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The command in a process of its own, edition 2.4.1 (test/support/cli.ts). */
const bin = (args: readonly string[]) => runCli(args, { EDITION: "2.4.1" });
/** The command's function in this process, edition 2.4.1: what the process writes, without one. */
const run = runMain241;

describe("impact-service sql", () => {
  it("writes BigQuery's keys script for a Parquet export's header", SLOW, async () => {
    const { code, stdout, stderr } = await bin([
      "sql",
      "--engine",
      "bigquery",
      "--header",
      "test/fixtures/billing/focus-1.2.parquet",
      "--keys",
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^-- impact-service sql: FOCUS/);
    expect(stdout).toContain("SAFE_CAST(l.BilledCost AS FLOAT64)");
    expect(stdout.trimEnd()).toMatch(/^CREATE OR REPLACE TABLE billing_line_kinds AS[^;]*GROUP BY [^;]*;$/m);
  });

  it(
    "writes the scripts of Google's nested export from its BigQuery schema or its Parquet",
    SLOW,
    async () => {
      const [schema, parquet, delta] = await Promise.all([
        run([
          "sql",
          "--engine",
          "bigquery",
          "--header",
          "engines/bigquery/gcp_billing_export_resource_v1.schema.json",
        ]),
        run(["sql", "--engine", "trino", "--header", "test/fixtures/billing/gcp-bigquery-resource.parquet"]),
        run(["sql", "--engine", "trino", "--header", "test/fixtures/billing/focus-1.0.csv", "--delta"]),
      ]);
      expect([schema.code, parquet.code], schema.stderr + parquet.stderr).toEqual([0, 0]);
      // A record's field read as itself (a deciding text's empty read as none); the record kept
      // whole in billing_result
      expect(schema.stdout).toContain(
        "CASE WHEN TRIM(CAST(e.`service`.`description` AS STRING)) = '' THEN NULL ELSE e.`service`.`description` END AS `service_description`",
      );
      expect(schema.stdout).toContain("e.`resource`.`name` AS `resource_name`");
      expect(schema.stdout).toContain(
        "SELECT line_id,\n  `input_billing_account_id`,\n  `service`,\n  `sku`,",
      );
      expect(parquet.stdout).toContain('e."usage"."amount" AS "usage_amount"');
      expect(delta.code).toBe(2);
      expect(delta.stderr).toContain("--delta is Spark's (--engine spark)");
    },
  );

  it(
    "refuses an unknown engine, a missing header and a header of no billing export: exit 2",
    SLOW,
    async () => {
      const engine = await run(["sql", "--engine", "oracle", "--header", "x.csv"]);
      expect(engine.code).toBe(2);
      expect(engine.stderr.split("\n")[0]).toBe(
        "impact-service: --engine is duckdb, spark, trino or bigquery, not oracle",
      );
      const header = await run(["sql", "--engine", "spark"]);
      expect(header.code).toBe(2);
      expect(header.stderr).toContain("--header <file>");
      const other = await run([
        "sql",
        "--engine",
        "trino",
        "--header",
        "test/fixtures/billing/not-billing.csv",
      ]);
      expect(other.code).toBe(2);
      expect(other.stderr).toContain("the header fits no known billing export");
    },
  );

  it("refuses a header laid out as the scripts cannot read it, naming the layout: exit 2", SLOW, async () => {
    const header = (file: string) =>
      run(["sql", "--engine", "duckdb", "--header", `test/fixtures/billing/${file}`]);
    const [semicolons, preamble, json] = await Promise.all([
      header("azure-ea-german-semicolon.csv"),
      header("azure-ea-portal-preamble.csv"),
      header("gcp-bigquery-resource.json"),
    ]);
    expect([semicolons.code, preamble.code, json.code]).toEqual([2, 2, 2]);
    expect(semicolons.stderr).toContain("its columns are separated by semicolons");
    // The fixture's five report lines: its header is line 6
    expect(preamble.stderr).toContain("its header is line 6, below report lines");
    expect(json.stderr).toContain("newline-delimited JSON; the scripts read CSV or Parquet exports");
    expect(semicolons.stdout + preamble.stdout + json.stdout).toBe("");
  });

  it(
    "refuses a header whose names an engine's table cannot hold: two but for case, or none",
    SLOW,
    async () => {
      // A legacy CUR's tags are case-sensitive (`user:Name` and `user:name` are two), SQL's names are not.
      const file = join(scratch, "tags.csv");
      writeFileSync(file, "lineItem/UsageAmount,resourceTags/user:Name,resourceTags/user:name,\n");
      const refused = await run(["sql", "--engine", "spark", "--header", file]);
      expect([refused.code, refused.stdout]).toEqual([2, ""]);
      expect(refused.stderr).toBe(
        `impact-service: --header ${file}: names an engine's table cannot hold (names ignore case, none may be empty): rename resourceTags/user:name (column 3) as input_resourceTags/user:name; column 4 (no name) as column_4 in the export (evaluate reads it so)\n`,
      );
    },
  );
});

describe("the files sql and tables read by name", () => {
  it(
    "are regular files of a kind read: a FIFO, a ZIP or an image refused in one line, exit 2",
    SLOW,
    async () => {
      // A FIFO nobody writes into: reading its start would wait for ever
      const fifo = join(scratch, "header.fifo");
      execFileSync("mkfifo", [fifo]);
      const zip = join(scratch, "cur.csv.zip");
      writeFileSync(zip, Buffer.from("PK\x03\x04\x14\x00\x00\x00\x08\x00", "latin1"));
      const png = join(scratch, "keys.csv");
      writeFileSync(png, Buffer.from("\x89PNG\r\n\x1a\n", "latin1"));
      const header = (file: string) => bin(["sql", "--engine", "duckdb", "--header", file]);
      const keys = (file: string) => bin(["tables", "--keys", file, "--tables", join(scratch, "never")]);
      const runs = await Promise.all([header(fifo), header(zip), keys(fifo), keys(png)]);
      expect(runs.map((each) => [each.code, each.stderr])).toEqual([
        [2, `impact-service: --header ${fifo}: not a regular file (it is read from a file)\n`],
        [2, `impact-service: --header ${zip} is a ZIP archive: unzip it and give the file it holds\n`],
        [2, `impact-service: --keys ${fifo}: not a regular file (it is read from a file)\n`],
        [2, `impact-service: --keys ${png} is a PNG image, which is not read here: give the data as CSV\n`],
      ]);
    },
  );
});

describe("impact-service tables", () => {
  it("builds the small tables of one kind of lines: m5.large hours in Paris", SLOW, async () => {
    const keys = join(scratch, "keys.csv");
    const kind: Record<string, string> = {
      billing_provider: "aws",
      billing_instance_type: "m5.large",
      billing_region_key: "euwest3",
      billing_line_kind: "compute",
      billing_unit: "Hrs",
      billing_unit_hours: "1",
      billing_region: "eu-west-3",
      billing_method: "instance",
      billing_method_key: "",
      billing_method_factor: "",
      billing_method_unit: "",
      billing_usage_unit: "Hrs",
      billing_service: "AmazonEC2",
      billing_unknown_unit: "",
      billing_method_warning: "",
    };
    const columns = KEY_COLUMNS;
    // Paid as billed (no commitment): the report's cost basis is the bill's
    const values = {
      ...kind,
      billing_quantity: "24",
      billing_line_count: "3",
      billing_cost: "2.3",
      billing_paid_cost: "2.3",
    };
    writeFileSync(
      keys,
      `${columns.join(",")}\n${columns.map((column) => values[column as keyof typeof values]).join(",")}\n`,
    );
    const folder = join(scratch, "tables");
    const { code, stderr } = await run(["tables", "--keys", keys, "--tables", folder, "--criteria", "gwp"]);
    expect(code, stderr).toBe(0);
    const read = (file: string) =>
      parse(readFileSync(join(folder, file), "utf8"), { columns: true }) as Record<string, string>[];
    expect(read("instance_matches.csv")).toEqual([
      {
        provider: "aws",
        billing_instance_type: "m5.large",
        matched_instance_type: "m5.large",
        match_warning: "",
        match_kind: "exact",
      },
    ]);
    expect(read("billing_places.csv")).toContainEqual({
      provider: "aws",
      spelling: "euwest3",
      place: "eu-west-3",
      place_warning: "",
    });
    const energy = read("billing_energy.csv");
    expect(energy).toHaveLength(1);
    expect(energy[0]).toMatchObject({ provider: "aws", instance_type: "m5.large", place: "eu-west-3" });
    expect(Number(energy[0].energy_kwh_per_hour)).toBeGreaterThan(0);
  });

  it("refuses a keys file that is not the keys script's result: exit 2", SLOW, async () => {
    const { code, stderr } = await run([
      "tables",
      "--keys",
      "test/fixtures/billing/not-billing.csv",
      "--tables",
      join(scratch, "none"),
    ]);
    expect(code).toBe(2);
    expect(stderr).toMatch(/not the keys script's result; it lacks billing_provider/);
  });

  it("never writes over a file it reads: the keys file, the header (exit 2, bytes kept)", SLOW, async () => {
    const folder = join(scratch, "own-files");
    rmSync(folder, { recursive: true, force: true });
    const { mkdirSync } = await import("node:fs");
    mkdirSync(folder);
    const keys = join(folder, "billing_places.csv");
    writeFileSync(keys, "provider,spelling\naws,euwest3\n");
    const before = readFileSync(keys);
    const tables = await run(["tables", "--keys", keys, "--tables", folder]);
    expect(tables.code).toBe(2);
    expect(tables.stderr.split("\n")[0]).toMatch(/--tables .*billing_places\.csv is the --keys file/);
    expect(readFileSync(keys)).toEqual(before);
    const header = join(folder, "export.csv");
    writeFileSync(header, readFileSync("test/fixtures/billing/focus-1.0.csv"));
    const exported = readFileSync(header);
    const sql = await run(["sql", "--engine", "duckdb", "--header", header, "-o", header]);
    expect(sql.code).toBe(2);
    expect(sql.stderr.split("\n")[0]).toMatch(/--output .*export\.csv is the --header file/);
    expect(readFileSync(header)).toEqual(exported);
  });
});
