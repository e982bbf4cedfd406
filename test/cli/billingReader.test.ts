/**
 * The billing reader against inputs that are not what a provider writes, through the command line
 * (its function, `main`): columns named like the run's own, column types it cannot read, headers that
 * never end, too many columns, row groups of a size the ordered writer would hold whole, a header
 * nearly a format's. Each either answers or stops with one line on stderr and its exit code.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REGISTRY_TABLES } from "../../src/billing/registry/sqlTables.js";
import { runMain } from "../support/cli.js";

const FOCUS = "test/fixtures/billing/focus-1.0.csv";
const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-reader-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Exit {
  readonly code: number | null;
  readonly stderr: string;
}

/**
 * `impact-service <args>` in edition 2.4.1, through the command's function (`main`, what the bin
 * awaits): the tests read only its exit code, its stderr and the files it writes.
 */
async function cli(args: readonly string[]): Promise<Exit> {
  const { code, stderr } = await runMain([...args, "--edition", "2.4.1"]);
  return { code, stderr };
}

/** A refusal: the exit code and one line on stderr matching `message`, no stack trace. */
function expectOneLine(exit: Exit, code: number, message: RegExp): void {
  expect(exit.code, exit.stderr).toBe(code);
  expect(exit.stderr.trimEnd().split("\n"), exit.stderr).toHaveLength(1);
  expect(exit.stderr.trimEnd()).toMatch(message);
}

type Row = Record<string, string>;
const csvRows = (file: string) => parse(readFileSync(file), { columns: true }) as Row[];

/** Runs SQL on a DuckDB of its own (to write the Parquet inputs). */
async function duck(...statements: string[]): Promise<void> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    for (const statement of statements) await connection.run(statement);
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const focusSource = `read_csv('${FOCUS}', header = true, all_varchar = true)`;

describe("input columns named like the run's own", () => {
  /** The file's own columns that meet the run's (written, working), with values that would mislead. */
  const clashing: Record<string, string> = {
    status: "evaluated",
    Warnings: "none",
    matched_instance_type: "m5.24xlarge",
    hours: "1e9",
    method: "instance",
    Energy_kWh: "9",
    gwp_use_kgco2eq: "123",
    input_status: "mine",
    billing_provider: "gcp",
    billing_line_kind: "compute",
    billing_problem: "bad row: x",
    billing_quantity: "-1",
    billing_key_index: "7",
    key_region: "xx",
    gwp_use_kgco2eq_per_hour: "5",
  };
  let plain: Row[];

  beforeAll(async () => {
    const output = join(scratch, "plain.csv");
    expect((await cli(["evaluate", FOCUS, "-o", output, "--criteria", "gwp"])).code).toBe(0);
    plain = csvRows(output);
  }, 180_000);

  const tool = [
    "matched_instance_type",
    "hours",
    "method",
    "method_quantity",
    "method_unit",
    "energy_kwh",
    "gwp_embedded_kgco2eq",
    "gwp_use_kgco2eq",
    "status",
    "warnings",
  ];

  it.each(["csv", "parquet"])(
    "keeps them as input_<name>, the run's columns unchanged (%s)",
    SLOW,
    async (kind) => {
      const columns = Object.entries(clashing)
        .map(([name, value]) => `'${value}' AS "${name}"`)
        .join(", ");
      const input = join(scratch, `clash.${kind}`);
      await duck(`COPY (SELECT *, ${columns} FROM ${focusSource}) TO '${input}' (FORMAT ${kind})`);
      const output = join(scratch, `clash.${kind}.out.csv`);
      const exit = await cli(["evaluate", input, "-o", output, "--criteria", "gwp", "--input", "focus"]);
      expect(exit.code, exit.stderr).toBe(0);
      const rows = csvRows(output);
      expect(rows).toHaveLength(plain.length);
      const header = Object.keys(rows[0]);
      expect(header.slice(-tool.length)).toEqual(tool);
      for (const name of Object.keys(clashing)) {
        const kept =
          name === "status" ? "input_input_status" : name === "input_status" ? name : `input_${name}`;
        expect(header, name).toContain(kept);
        expect(
          rows.every((row) => row[kept] === clashing[name]),
          kept,
        ).toBe(true);
      }
      rows.forEach((row, index) => {
        for (const column of tool)
          expect(row[column], `${column} of line ${index}`).toBe(plain[index][column]);
      });
      expect(rows.filter((row) => row.status === "evaluated").length).toBeGreaterThan(10);
    },
  );
});

describe("refused in one line", () => {
  it("a Parquet column of a type the format's query cannot read (exit 2)", SLOW, async () => {
    const cases: [string, string, RegExp][] = [
      [
        "TIMESTAMP '2026-10-01' AS ConsumedUnit",
        "timestamp",
        /column ConsumedUnit is TIMESTAMP; .* text \(VARCHAR\)/,
      ],
      [
        "MAP {'a': x_UsageType} AS x_UsageType",
        "map",
        /column x_UsageType is MAP\(VARCHAR, VARCHAR\); .*VARCHAR/,
      ],
      ["[1] AS ConsumedQuantity", "list", /column ConsumedQuantity is INTEGER\[\]; .*a number or text/],
      ["DATE '2026-10-01' AS BilledCost", "date", /column BilledCost is DATE; .*a number or text/],
    ];
    for (const [replace, name, message] of cases) {
      const input = join(scratch, `${name}.parquet`);
      await duck(`COPY (SELECT * REPLACE (${replace}) FROM ${focusSource}) TO '${input}'`);
      expectOneLine(await cli(["evaluate", input, "-o", join(scratch, `${name}.csv`)]), 2, message);
    }
  });

  it("more columns than a run reads, CSV and Parquet (exit 2)", SLOW, async () => {
    const names = Array.from({ length: 10_000 }, (_, index) => `c${index}`);
    const wide = join(scratch, "wide.csv");
    const line = names.map(() => "x").join(",");
    writeFileSync(wide, `ProviderName,ChargeCategory,${names.join(",")}\n${line}\n${line}\n${line}\n`);
    expectOneLine(
      await cli(["evaluate", wide, "--input", "focus", "-o", join(scratch, "wide.out.csv")]),
      2,
      /10002 columns; a billing export is read with 500 columns at most/,
    );
    const parquet = join(scratch, "wide.parquet");
    await duck(
      `COPY (SELECT ${names
        .slice(0, 3000)
        .map((name) => `1 AS ${name}`)
        .join(", ")}) TO '${parquet}'`,
    );
    expectOneLine(
      await cli(["evaluate", parquet, "-o", join(scratch, "wide.out.csv")]),
      2,
      /3000 columns; a billing export is read with 500 columns at most/,
    );
  });

  it("a gzipped header that never ends, without inflating it (exit 1)", SLOW, async () => {
    const input = join(scratch, "endless.csv.gz");
    writeFileSync(input, gzipSync(Buffer.concat([Buffer.from("ProviderName,"), Buffer.alloc(64 << 20, 97)])));
    expectOneLine(
      await cli(["evaluate", input, "--input", "focus", "-o", join(scratch, "endless.csv")]),
      1,
      /line 1: no header .*longer than 1048576 bytes\); nothing written$/,
    );
  });

  it(
    "a header that nearly fits FOCUS names what it lacks, not the inventory reader (exit 2)",
    SLOW,
    async () => {
      const input = join(scratch, "near.csv");
      const [header, ...lines] = readFileSync(FOCUS, "utf8").split("\n");
      const drop = header.split(",").indexOf("ConsumedUnit");
      const without = (line: string) =>
        line === ""
          ? line
          : parse(line)[0]
              .filter((_: string, index: number) => index !== drop)
              .join(",");
      writeFileSync(input, [header, ...lines.slice(0, 5)].map(without).join("\n"));
      expectOneLine(
        await cli(["evaluate", input, "-o", join(scratch, "near.out.csv")]),
        2,
        /the header is nearly a FOCUS 1\.0–1\.2 export's \(--input focus\) but lacks ConsumedUnit$/,
      );
    },
  );
});

describe("what the engine would hold whole", () => {
  it("evaluates a Parquet row group larger than a thread's share, every line in order", SLOW, async () => {
    const input = join(scratch, "rowgroup.parquet");
    await duck(
      `COPY (SELECT s.* REPLACE (CAST(r.range AS VARCHAR) AS SkuId) FROM range(300000) r,
         (SELECT * FROM ${focusSource} LIMIT 1) s ORDER BY r.range)
       TO '${input}' (ROW_GROUP_SIZE 300000)`,
    );
    const output = join(scratch, "rowgroup.out.parquet");
    const exit = await cli(["evaluate", input, "-o", output, "--criteria", "gwp"]);
    expect(exit.code, exit.stderr).toBe(0);
    expect(exit.stderr).toContain("evaluated: 300,000 ");
    const checked = join(scratch, "rowgroup.check.csv");
    await duck(
      `COPY (SELECT COUNT(*) AS lines, COUNT(*) FILTER (WHERE CAST(SkuId AS BIGINT) <> n - 1) AS misplaced
         FROM (SELECT SkuId, row_number() OVER () AS n FROM read_parquet('${output}')))
       TO '${checked}' (HEADER true)`,
    );
    expect(csvRows(checked)).toEqual([{ lines: "300000", misplaced: "0" }]);
  });

  it(
    "writes map columns of a Parquet export as JSON in CSV, and groups by one of their keys",
    SLOW,
    async () => {
      const input = join(scratch, "tags.parquet");
      await duck(
        `COPY (SELECT * REPLACE (MAP {'team': CASE WHEN SkuId < 'sku-3' THEN 'web' ELSE 'data' END} AS Tags) FROM ${focusSource}) TO '${input}'`,
      );
      const output = join(scratch, "tags.csv");
      const args = ["evaluate", input, "-o", output, "--criteria", "gwp", "--group-by", "tag:team"];
      expect((await cli(args)).code).toBe(0);
      const rows = csvRows(output);
      expect(new Set(rows.map((row) => row.Tags))).toEqual(new Set(['{"team":"web"}', '{"team":"data"}']));
      const groups = csvRows(join(scratch, "tags.groups.csv"));
      expect(groups.map((group) => group["tag:team"])).toEqual(["data", "web"]);
      const evaluated = rows.filter((row) => row.status === "evaluated");
      expect(groups.map((group) => Number(group.lines))).toEqual(
        ["data", "web"].map((team) => evaluated.filter((row) => row.Tags === `{"team":"${team}"}`).length),
      );
    },
  );
});

describe("--tables <folder>", () => {
  const rowsOf = async (query: string) => {
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    try {
      return (await connection.runAndReadAll(query)).getRowObjects();
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  };

  it("writes the small tables of the run's SQL into the folder, created if absent", SLOW, async () => {
    const tables = join(scratch, "tables", "azure-ea");
    const exit = await cli([
      "evaluate",
      "test/fixtures/billing/azure-ea.csv",
      "-o",
      join(scratch, "ea.csv"),
      "--tables",
      tables,
    ]);
    expect(exit.code, exit.stderr).toBe(0);
    const matches = csvRows(join(tables, "instance_matches.csv"));
    expect(matches).toContainEqual({
      provider: "azure",
      billing_instance_type: "Standard_D2s_v3",
      matched_instance_type: "d2s_v3",
      match_warning: "",
      match_kind: "exact",
    });
    expect(csvRows(join(tables, "billing_places.csv"))).toContainEqual({
      provider: "azure",
      spelling: "euwest",
      place: "westeurope",
      place_warning: "",
    });
    // The registry's tables, as Parquet
    for (const { name } of REGISTRY_TABLES)
      expect(existsSync(join(tables, `${name}.parquet`)), name).toBe(true);
    const energy = csvRows(join(tables, "billing_energy.csv"));
    expect(energy.find((row) => row.instance_type === "d2s_v3" && row.place === "westeurope")).toBeDefined();
    expect(energy.every((row) => Number(row.energy_kwh_per_hour) > 0)).toBe(true);
    const methods = await rowsOf(
      `SELECT DISTINCT provider, instance_type FROM read_parquet('${join(tables, "method_coefficients.parquet")}')`,
    );
    expect(methods).toContainEqual({ provider: "azure", instance_type: "method:ssd-gb-hour" });
    // The methods' rows, and instance rows only at a country (a region the edition lacks)
    expect(methods.some((row) => String(row.instance_type).startsWith("method:"))).toBe(true);
  });

  it("refuses a file as the folder, and an inventory (exit 2)", SLOW, async () => {
    const file = join(scratch, "not-a-folder");
    writeFileSync(file, "");
    const output = join(scratch, "refused.csv");
    expectOneLine(
      await cli(["evaluate", FOCUS, "-o", output, "--tables", file]),
      2,
      /--tables .*: not a folder/,
    );
    const inventory = join(scratch, "inventory.csv");
    writeFileSync(inventory, "kind,quantity,provider,instance_type\ncloud,1,aws,m5.large\n");
    // A misused option: its line, then the usage.
    const misused = await cli(["evaluate", inventory, "--tables", scratch]);
    expect(misused.code).toBe(2);
    expect(misused.stderr.split("\n")[0]).toMatch(/--tables is for a billing export/);
  });
});

describe("the services left unestimated", () => {
  it("say the status of most of their cost, the registry's view only for lines no method reads", async () => {
    const exit = await cli(["evaluate", FOCUS, "-o", join(scratch, "left.csv")]);
    expect(exit.code, exit.stderr).toBe(0);
    const largest = exit.stderr.split("largest unestimated services by cost:\n")[1]?.split("\n") ?? [];
    // Compute Engine is unknown to the registry, but its 3 lines say more: cores and memory billed
    expect(largest[0]).toBe(
      "  Compute Engine: 21.94 USD (10.0 %), 3 rows (not evaluated: Google Cloud bills cores and memory, not machine types)",
    );
    // Its 6 lines left, each said by its own why: 3 of unknown types, 3 taxes (`Tax`, 0.05 each)
    expect(largest[1]).toBe(
      "  Amazon Elastic Compute Cloud: 12.08 USD (5.5 %), 3 rows (unknown instance type); 3 rows (a tax)",
    );
  });
});
