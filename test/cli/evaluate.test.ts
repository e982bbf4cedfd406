/**
 * `impact-service evaluate`: the example inventory (every kind of asset) in the default edition,
 * its output fit for analysis (input columns kept, units, status, warnings, one row per input
 * row, sums per group, workbook), options refused before any row, and the command as a process.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { promisify } from "node:util";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVENTORY_KINDS } from "../../src/cli/inventory.js";
import { main } from "../../src/cli/main.js";
import { createProgress } from "../../src/cli/progress.js";
import { send } from "../support/http.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

const INVENTORY = "examples/inventory.csv";
const dir = mkdtempSync(join(tmpdir(), "impact-cli-"));

/** A stream that keeps what is written (stderr may claim to be a terminal). */
function sink(isTTY = false) {
  const chunks: Buffer[] = [];
  const stream = Object.assign(
    new Writable({
      write(chunk, _encoding, done) {
        chunks.push(Buffer.from(chunk));
        done();
      },
    }),
    { isTTY },
  ) as unknown as NodeJS.WriteStream;
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

async function evaluate(args: string[], stdin: NodeJS.ReadableStream = process.stdin) {
  const stdout = sink();
  const stderr = sink();
  const code = await main(args, { stdin, stdout: stdout.stream, stderr: stderr.stream });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const csvRows = (text: string) => parse(text, { columns: true }) as Record<string, string>[];

/** Rows with a typo'd location, an instance of 2.4.1 only, a broken number and a bad kind. */
const MISTAKES = `team,kind,provider,instance_type,usage_location,hours
a,cloud,aws,m5.xlarge,France,8760
b,cloud,gcp,n2-standard-8,FRA,8760
a,cloud,aws,r5.large,BEL,many
b,smartwatch,,,FRA,8760
a,cloud,aws,m5.xlarge,FRA,8760
`;

describe("impact-service evaluate", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "warn" });
  });
  afterAll(() => server.close());

  it("evaluates the example inventory's every kind in the default edition: input columns kept, impacts with units, totals", async () => {
    const { code, stdout, stderr } = await evaluate(["evaluate", INVENTORY, "--format", "csv", "--ranges"]);
    expect(code).toBe(0);
    const input = readFileSync(INVENTORY, "utf8");
    const inputHeader = input.split("\n")[0];
    const [header] = stdout.split("\n");
    expect(
      header.startsWith(
        `${inputHeader},gwp_embedded_kgco2eq,gwp_embedded_kgco2eq_min,gwp_embedded_kgco2eq_max,gwp_use_kgco2eq,`,
      ),
    ).toBe(true);
    expect(header.endsWith(",pe_use_mj,pe_use_mj_min,pe_use_mj_max,warnings,status")).toBe(true);
    const rows = csvRows(stdout);
    const total = rows.pop() as Record<string, string>;
    const inputRows = csvRows(input);
    expect(rows).toHaveLength(inputRows.length);
    expect(rows.map((row) => row.status)).toEqual(inputRows.map(() => "ok"));
    expect(new Set(rows.map((row) => row.kind)).size).toBeGreaterThanOrEqual(15);
    // Every input cell kept, in order.
    for (const [index, row] of rows.entries()) {
      for (const [column, value] of Object.entries(inputRows[index])) expect(row[column]).toBe(value);
    }
    // No float noise: at most 10 significant digits, in every row and the total.
    for (const value of [...rows, total].flatMap((row) => Object.values(row))) {
      if (/^-?[\d.]+(e-?\d+)?$/.test(value))
        expect(value.replace(/^[-0.]+|\.|e.*$/g, "").length).toBeLessThanOrEqual(10);
    }
    const sum = rows.reduce((acc, row) => acc + Number(row.gwp_embedded_kgco2eq), 0);
    expect(Number(total.gwp_embedded_kgco2eq)).toBeCloseTo(sum, 4);
    expect(total.status).toBe(`total: ${rows.length} rows, ${rows.length} ok, 0 failed, 0 with warnings`);
    // A row is its single route's answer × its quantity: the 40 pro laptops.
    const laptops = rows.find((row) => row.kind === "laptop" && row.type === "pro") as Record<string, string>;
    const single = await send(server.port, {
      path: "/v1/terminal/laptop?verbose=false",
      body: { type: "pro", usage: { usage_location: "FRA", hours_use_time: 8760 } },
    });
    expect(Number(laptops.gwp_use_kgco2eq)).toBeCloseTo(40 * single.json.impacts.gwp.use.value, 6);
    expect(Number(laptops.gwp_use_kgco2eq_max)).toBeCloseTo(40 * single.json.impacts.gwp.use.max, 6);
    expect(stderr).toMatch(/^examples\/inventory\.csv: 19 rows \(19 ok, 0 errors\) in [\d.]+ s/m);
  }, 60_000);

  it("keeps failed rows in the output, in input order, with their error; warns of an unknown location", async () => {
    const path = file("mistakes.csv", MISTAKES);
    const { code, stdout, stderr } = await evaluate([
      "evaluate",
      path,
      "--format",
      "csv",
      "--criteria",
      "gwp",
    ]);
    expect(code).toBe(0);
    const rows = csvRows(stdout);
    expect(rows.map((row) => row.status)).toEqual([
      "ok",
      "404 n2-standard-8 at gcp not found (exists in edition 2.4.1)",
      'hours is not a number: "many"',
      expect.stringContaining("kind is not one of cloud, server, laptop"),
      "ok",
      "total: 5 rows, 2 ok, 3 failed, 1 with warnings",
    ]);
    expect(rows[0].warnings).toBe(
      'usage_location "France" is not a location of edition 1.2.4 (see /v1/utils/country_code): the default location\'s electricity was used',
    );
    expect(rows[4].warnings).toBe("");
    // The fallback mix costs four times France's.
    expect(Number(rows[0].gwp_use_kgco2eq)).toBeGreaterThan(3 * Number(rows[4].gwp_use_kgco2eq));
    expect(rows[1].gwp_embedded_kgco2eq).toBe("");
    expect([...stderr.matchAll(/^line (\d+):/gm)].map((match) => Number(match[1]))).toEqual([3, 4, 5]);

    const ndjson = await evaluate(["evaluate", path, "--criteria", "gwp"]);
    const lines = ndjson.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.line ?? "summary")).toEqual([2, 3, 4, 5, 6, "summary"]);
    expect(lines[0].warnings).toHaveLength(1);
    expect(lines[5].summary).toMatchObject({ lines: 5, ok: 2, errors: 3, warnings: 1 });
  }, 60_000);

  it("sums per group of --group-by columns, the user's own columns kept", async () => {
    const { code, stdout } = await evaluate([
      "evaluate",
      INVENTORY,
      "--format",
      "csv",
      "--criteria",
      "gwp",
      "--group-by",
      "team,site",
    ]);
    expect(code).toBe(0);
    const rows = csvRows(stdout);
    const groups = rows.filter((row) => row.status.startsWith("group: "));
    const assets = rows.filter((row) => row.status === "ok");
    const expected = new Map<string, number>();
    for (const row of assets) {
      const key = `${row.team}/${row.site}`;
      expected.set(key, (expected.get(key) ?? 0) + Number(row.gwp_use_kgco2eq));
    }
    expect(groups.map((group) => `${group.team}/${group.site}`)).toEqual([...expected.keys()]);
    for (const group of groups) {
      expect(Number(group.gwp_use_kgco2eq)).toBeCloseTo(
        expected.get(`${group.team}/${group.site}`) as number,
        6,
      );
    }
  }, 60_000);

  it("writes a workbook with the rows, the groups and a summary (--format xlsx)", async () => {
    const output = join(dir, "r.xlsx");
    const { code } = await evaluate([
      "evaluate",
      INVENTORY,
      "--format",
      "xlsx",
      "-o",
      output,
      "--group-by",
      "team",
    ]);
    expect(code).toBe(0);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(output);
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(["rows", "groups", "summary"]);
    const rows = workbook.getWorksheet("rows") as ExcelJS.Worksheet;
    expect(rows.rowCount).toBe(20);
    expect(rows.getRow(1).getCell(1).value).toBe("team");
    // Input numbers as numbers (quantity), input text as text.
    expect(rows.getRow(2).getCell(4).value).toBe(4);
    expect(rows.getRow(2).getCell(6).value).toBe("m5.xlarge");
    expect(typeof rows.getRow(2).getCell(18).value).toBe("number");
    expect((workbook.getWorksheet("groups") as ExcelJS.Worksheet).rowCount).toBe(4);
    const summary = workbook.getWorksheet("summary") as ExcelJS.Worksheet;
    expect(summary.getRow(1).values).toEqual([undefined, "rows", 19]);
  }, 60_000);

  it("gives the same output on worker threads", async () => {
    const args = ["evaluate", file("w.csv", MISTAKES), "--format", "csv", "--group-by", "team"];
    const inProcess = await evaluate(args);
    const pooled = await evaluate([...args, "--workers", "2"]);
    expect(pooled.code).toBe(0);
    expect(pooled.stdout).toBe(inProcess.stdout);
  }, 120_000);

  it("reads CSV on stdin with -", async () => {
    const { code, stdout } = await evaluate(
      ["evaluate", "-", "--format", "csv", "--criteria", "gwp"],
      Readable.from([MISTAKES]),
    );
    expect(code).toBe(0);
    expect(csvRows(stdout).map((row) => row.team)).toEqual(["a", "b", "a", "b", "a", ""]);
  }, 60_000);

  it("checks the options once, before any row: one line, exit 2, no output", async () => {
    for (const [args, message] of [
      [
        ["--edition", "acme"],
        "impact-service: --edition acme: value is not a valid enumeration member; permitted: '1.2.4', '2.4.1'\n",
      ],
      [["--criteria", "gwp,co2"], "impact-service: --criteria: unknown criterion co2\n"],
      [["--group-by", "team,floor"], "impact-service: --group-by floor: not a column of the input"],
    ] as const) {
      const { code, stdout, stderr } = await evaluate(["evaluate", file("m.csv", MISTAKES), ...args]);
      expect(code).toBe(2);
      expect(stdout).toBe("");
      expect(stderr.startsWith(message)).toBe(true);
      expect(stderr.split("\n")).toHaveLength(2);
    }
    const format = await evaluate(["evaluate", INVENTORY, "--format", "xml"]);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain("--format is ndjson, csv or xlsx");
    const missing = await evaluate(["evaluate", "no/such/file.csv"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("no such file");
  }, 60_000);

  it("exits 1 when every row failed", async () => {
    const path = file("failed.csv", "kind,provider,instance_type\ncloud,aws,nope\nphone,,\n");
    const { code, stdout } = await evaluate(["evaluate", path, "--format", "csv"]);
    expect(code).toBe(1);
    expect(csvRows(stdout)).toHaveLength(3);
  }, 60_000);
});

describe("the inventory's kinds", () => {
  it("are every kind the service evaluates (the columns' table: test/docs/generated.test.ts)", () => {
    expect([...INVENTORY_KINDS.keys()]).toEqual(
      expect.arrayContaining(["cloud", "server", "laptop", "vr_headset", "monitor", "iot_device", "ram"]),
    );
  });
});

/** The command as its user runs it: the package's bin, a real process. */
function bin(args: string[], env: Record<string, string> = {}) {
  return promisify(execFile)(process.execPath, ["bin/impact-service.mjs", ...args], {
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}

describe("impact-service as a process", () => {
  it("runs from the package's bin (what npx impact-service runs)", async () => {
    const { code, stdout } = await bin(["evaluate", INVENTORY, "--criteria", "gwp", "--format", "csv"]);
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toContain(",gwp_embedded_kgco2eq,gwp_use_kgco2eq,warnings,status");
  }, 60_000);

  it("writes a workbook to a pipe", async () => {
    const { code, stdout } = await bin(["evaluate", INVENTORY, "--format", "xlsx"]);
    expect(code).toBe(0);
    expect(stdout.startsWith("PK")).toBe(true);
  }, 60_000);

  it("never lets control characters from the input reach the terminal", async () => {
    const path = file("escape.csv", "kind,provider,instance_type\ncloud,aws,\u001b[31mred\u001b]0;x\u0007\n");
    const { stdout, stderr } = await bin(["evaluate", path, "--format", "csv"]);
    expect(stderr).toContain("line 2: 404 \\x1b[31mred\\x1b]0;x\\x07 at aws not found");
    const controls = [...`${stdout}${stderr}`].filter(
      (char) => char !== "\n" && (char < " " || char === "\u007f"),
    );
    expect(controls).toEqual([]);
  }, 60_000);

  it("reports an over-long field once for its row and reads the next rows", async () => {
    const path = file(
      "long.csv",
      `kind,provider,instance_type\ncloud,aws,"${"x\n".repeat(40_000)}"\ncloud,aws,m5.xlarge\n`,
    );
    const { code, stdout, stderr } = await bin(["evaluate", path, "--format", "csv"], {
      MAX_BODY_BYTES: "16384",
    });
    expect(code).toBe(0);
    expect(stderr.match(/^line /gm)).toEqual(["line "]);
    expect(stderr).toContain("line 2: the row exceeds 16384 bytes (MAX_BODY_BYTES)");
    expect(csvRows(stdout).map((row) => row.status)).toEqual([
      "the row exceeds 16384 bytes (MAX_BODY_BYTES)",
      "ok",
      "total: 2 rows, 1 ok, 1 failed, 0 with warnings",
    ]);
  }, 60_000);
});

describe("progress", () => {
  it("draws a bar with the share read, rows/s and the time left on a terminal", () => {
    let now = 0;
    const out = sink(true);
    const progress = createProgress(out.stream, "fleet.csv", () => now);
    now = 2000;
    progress.update({ rows: 500, ok: 500, errors: 0, bytesRead: 250, totalBytes: 1000 });
    // Redrawn at most every 100 ms.
    now = 2050;
    progress.update({ rows: 510, ok: 510, errors: 0, bytesRead: 255, totalBytes: 1000 });
    now = 4000;
    progress.done({ rows: 1000, ok: 999, errors: 1, bytesRead: 1000, totalBytes: 1000 });
    expect(out.text()).toBe(
      `\rfleet.csv [######                  ] 25% 500 rows, 250 rows/s, ETA 6 s\u001b[K` +
        "\r\u001b[Kfleet.csv: 1,000 rows (999 ok, 1 errors) in 4.0 s, 250 rows/s\n",
    );
  });
});
