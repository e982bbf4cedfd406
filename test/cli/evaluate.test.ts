/**
 * `impact-service evaluate`: the example inventory (every kind of asset) in the default edition,
 * its output fit for analysis (input columns kept, units, status, warnings, one row per input
 * row, sums per group, workbook), options refused before any row, and the command as a process.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable, Writable } from "node:stream";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INVENTORY_KINDS } from "../../src/cli/inventory.js";
import { main } from "../../src/cli/main.js";
import { createProgress } from "../../src/cli/progress.js";
import { EDITION_IDS } from "../../src/editions/index.js";
import { runCli } from "../support/cli.js";
import { ALLOCATING, editionsListing, listedOr } from "../support/editions.js";
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

  it("evaluates the example inventory's every kind in edition 1.2.4: input columns kept, impacts with units, totals", async () => {
    const { code, stdout, stderr } = await evaluate([
      "evaluate",
      INVENTORY,
      "--edition",
      "1.2.4",
      "--format",
      "csv",
      "--ranges",
    ]);
    expect(code).toBe(0);
    const input = readFileSync(INVENTORY, "utf8");
    const inputHeader = input.split("\n")[0];
    const [header] = stdout.split("\n");
    expect(
      header.startsWith(
        `${inputHeader},energy_kwh,gwp_embedded_kgco2eq,gwp_embedded_kgco2eq_min,gwp_embedded_kgco2eq_max,gwp_use_kgco2eq,`,
      ),
    ).toBe(true);
    expect(header.endsWith(",pe_use_mj,pe_use_mj_min,pe_use_mj_max,status,warnings")).toBe(true);
    const rows = csvRows(stdout);
    const inputRows = csvRows(input);
    // Only rows: no sums below them.
    expect(rows).toHaveLength(inputRows.length);
    expect(rows.map((row) => row.status)).toEqual(inputRows.map(() => "evaluated"));
    expect(new Set(rows.map((row) => row.kind)).size).toBeGreaterThanOrEqual(15);
    // Every input cell kept, in order.
    for (const [index, row] of rows.entries()) {
      for (const [column, value] of Object.entries(inputRows[index])) expect(row[column]).toBe(value);
    }
    // No float noise: at most 10 significant digits, in every row and the total.
    for (const value of rows.flatMap((row) => Object.values(row))) {
      if (/^-?[\d.]+(e-?\d+)?$/.test(value))
        expect(value.replace(/^[-0.]+|\.|e.*$/g, "").length).toBeLessThanOrEqual(10);
    }
    // A row is its single route's answer × its quantity: the 40 pro laptops.
    const laptops = rows.find((row) => row.kind === "laptop" && row.type === "pro") as Record<string, string>;
    const single = await send(server.port, {
      path: "/v1/terminal/laptop?verbose=false",
      body: { type: "pro", usage: { usage_location: "FRA", hours_use_time: 8760 } },
    });
    expect(Number(laptops.gwp_use_kgco2eq)).toBeCloseTo(40 * single.json.impacts.gwp.use.value, 6);
    expect(Number(laptops.gwp_use_kgco2eq_max)).toBeCloseTo(40 * single.json.impacts.gwp.use.max, 6);
    // The terminals and peripherals, whose embedded impact 1.2.4 does not allocate, are warned.
    expect(stderr).toMatch(
      /^examples\/inventory\.csv: 19 rows \(19 ok, 0 errors, 11 with warnings\) in [\d.]+ s/m,
    );
  }, 60_000);

  it("keeps failed rows in the output, in input order, with their error; warns of an unknown location", async () => {
    const path = file("mistakes.csv", MISTAKES);
    const { code, stdout, stderr } = await evaluate([
      "evaluate",
      path,
      "--edition",
      "1.2.4",
      "--format",
      "csv",
      "--criteria",
      "gwp",
    ]);
    expect(code).toBe(0);
    const rows = csvRows(stdout);
    expect(rows.map((row) => row.status)).toEqual([
      "evaluated",
      `bad row: 404 n2-standard-8 at gcp not found (exists in edition ${editionsListing("gcp", "n2-standard-8").join(", ")})`,
      'bad row: hours is not a number: "many"',
      expect.stringContaining("bad row: kind is not one of cloud, server, laptop"),
      "evaluated",
    ]);
    expect(rows[0].warnings).toBe(
      'usage_location "France" is not a location of edition 1.2.4 (see /v1/utils/country_code): the default location\'s electricity was used',
    );
    expect(rows[4].warnings).toBe("");
    // The fallback mix costs four times France's.
    expect(Number(rows[0].gwp_use_kgco2eq)).toBeGreaterThan(3 * Number(rows[4].gwp_use_kgco2eq));
    expect(rows[1].gwp_embedded_kgco2eq).toBe("");
    expect([...stderr.matchAll(/^line (\d+): bad row:/gm)].map((match) => Number(match[1]))).toEqual([
      3, 4, 5,
    ]);
    expect(stderr).toContain('line 2: warning: usage_location "France" is not a location of edition 1.2.4');

    const ndjson = await evaluate([
      "evaluate",
      path,
      "--edition",
      "1.2.4",
      "--criteria",
      "gwp",
      "--format",
      "ndjson",
    ]);
    const lines = ndjson.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => line.line ?? "summary")).toEqual([2, 3, 4, 5, 6, "summary"]);
    expect(lines[0].warnings).toHaveLength(1);
    expect(lines[5].summary).toMatchObject({ lines: 5, ok: 2, errors: 3, warnings: 1 });
  }, 60_000);

  it("sums per group of --group-by columns beside the output (<output>.groups.csv), the user's own columns kept", async () => {
    const output = join(dir, "grouped.csv");
    const { code, stderr } = await evaluate([
      "evaluate",
      INVENTORY,
      "--criteria",
      "gwp",
      "--group-by",
      "team,site",
      "-o",
      output,
    ]);
    expect(code).toBe(0);
    const groupsFile = join(dir, "grouped.groups.csv");
    expect(stderr).toContain(`sums per group: ${groupsFile}\n`);
    const groups = csvRows(readFileSync(groupsFile, "utf8"));
    const assets = csvRows(readFileSync(output, "utf8"));
    expect(assets.every((row) => row.status === "evaluated")).toBe(true);
    expect(Object.keys(groups[0])).toEqual([
      "team",
      "site",
      "rows",
      "failed",
      "energy_kwh",
      "gwp_embedded_kgco2eq",
      "gwp_use_kgco2eq",
    ]);
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
    const args = ["evaluate", file("w.csv", MISTAKES), "--group-by", "team"];
    await evaluate([...args, "-o", join(dir, "in-process.csv")]);
    const pooled = await evaluate([...args, "-o", join(dir, "pooled.csv"), "--workers", "2"]);
    expect(pooled.code).toBe(0);
    for (const name of ["", ".groups"]) {
      expect(readFileSync(join(dir, `pooled${name}.csv`), "utf8")).toBe(
        readFileSync(join(dir, `in-process${name}.csv`), "utf8"),
      );
    }
  }, 120_000);

  it("reads CSV on stdin with -", async () => {
    const { code, stdout } = await evaluate(
      ["evaluate", "-", "--format", "csv", "--criteria", "gwp"],
      Readable.from([MISTAKES]),
    );
    expect(code).toBe(0);
    expect(csvRows(stdout).map((row) => row.team)).toEqual(["a", "b", "a", "b", "a"]);
  }, 60_000);

  it("checks the options once, before any row: one line, exit 2, no output", async () => {
    for (const [args, message] of [
      [["--edition", "acme"], `impact-service: --edition is ${listedOr(EDITION_IDS)}, not acme\n`],
      [
        ["--criteria", "gwp,co2"],
        "impact-service: --criteria: co2 is not a criterion of edition 2.5.0 (its criteria: gwp, adp, pe, ",
      ],
      [
        ["--group-by", "team,floor", "--report", join(dir, "never.html")],
        "impact-service: --group-by floor: not a column of the input",
      ],
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

  it("never lets control characters from the input reach the terminal", async () => {
    const path = file("escape.csv", "kind,provider,instance_type\ncloud,aws,\u001b[31mred\u001b]0;x\u0007\n");
    const { stdout, stderr } = await evaluate(["evaluate", path, "--format", "csv"]);
    expect(stderr).toContain("line 2: bad row: 404 \\x1b[31mred\\x1b]0;x\\x07 at aws not found");
    const controls = [...`${stdout}${stderr}`].filter(
      (char) => char !== "\n" && (char < " " || char === "\u007f"),
    );
    expect(controls).toEqual([]);
  }, 60_000);

  it("exits 1 when every row failed", async () => {
    const path = file("failed.csv", "kind,provider,instance_type\ncloud,aws,nope\nphone,,\n");
    const { code, stdout } = await evaluate(["evaluate", path, "--format", "csv"]);
    expect(code).toBe(1);
    expect(csvRows(stdout)).toHaveLength(2);
  }, 60_000);
});

describe("the inventory's kinds", () => {
  it("are every kind the service evaluates (the columns' table: test/docs/generated.test.ts)", () => {
    expect([...INVENTORY_KINDS.keys()]).toEqual(
      expect.arrayContaining(["cloud", "server", "laptop", "vr_headset", "monitor", "iot_device", "ram"]),
    );
  });
});

/** The command as its user runs it: the package's bin, a real process (bundled once, test/support/cli.ts). */
const bin = runCli;

describe("impact-service as a process", () => {
  it("runs from the package's bin (what npx impact-service runs)", async () => {
    const { code, stdout } = await bin(["evaluate", INVENTORY, "--criteria", "gwp", "--format", "csv"]);
    expect(code).toBe(0);
    expect(stdout.split("\n")[0]).toContain(",gwp_embedded_kgco2eq,gwp_use_kgco2eq,status,warnings");
  }, 60_000);

  it("writes a workbook to a pipe", async () => {
    const { code, stdout } = await bin(["evaluate", INVENTORY, "--format", "xlsx"]);
    expect(code).toBe(0);
    expect(stdout.startsWith("PK")).toBe(true);
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
    expect(stderr).toContain("line 2: bad row: the row exceeds 16384 bytes (MAX_BODY_BYTES)");
    expect(csvRows(stdout).map((row) => row.status)).toEqual([
      "bad row: the row exceeds 16384 bytes (MAX_BODY_BYTES)",
      "evaluated",
    ]);
  }, 60_000);
});

describe("progress", () => {
  it("draws a bar with the share read, rows/s and the time left on a terminal", () => {
    let now = 0;
    const out = sink(true);
    const progress = createProgress(out.stream, "fleet.csv", () => now);
    now = 2000;
    progress.update({ rows: 500, ok: 500, errors: 0, warned: 0, bytesRead: 250, totalBytes: 1000 });
    // Redrawn at most every 100 ms.
    now = 2050;
    progress.update({ rows: 510, ok: 510, errors: 0, warned: 0, bytesRead: 255, totalBytes: 1000 });
    now = 4000;
    progress.done({ rows: 1000, ok: 999, errors: 1, warned: 2, bytesRead: 1000, totalBytes: 1000 });
    expect(out.text()).toBe(
      `\rfleet.csv [######                  ] 25% 500 rows, 250 rows/s, ETA 6 s\u001b[K` +
        "\r\u001b[Kfleet.csv: 1,000 rows (999 ok, 1 errors, 2 with warnings) in 4.0 s, 250 rows/s\n",
    );
  });
});

/**
 * The analyst's inventory of issue 41, through the process: the example's 19 assets and 12 more
 * rows — five that fail, a location the edition does not know, a laptop evaluated over its whole
 * lifetime (no hours) and a spreadsheet's cleared rows (only commas).
 */
const ANALYST = `${readFileSync(INVENTORY, "utf8")}sales,Paris,cloud,1,aws,no-such-type,,,FRA,8760,,,,,,,
sales,Lyon,laptop,3,,,,pro,France,8760,,,,,,,
,,,,,,,,,,,,,,,,
data,Lyon,phone,1,,,,,FRA,8760,,,,,,,
data,Lyon,laptop,1,,,,pro,FRA,,,,,,,,
data,Lyon,server,1,,,,,FRA,lots,,,,,,,
 , ,,,,,,,,,,,,,,,
platform,Paris,cloud,1,aws,,,,FRA,8760,,,,,,,
platform,Paris,cloud,0,aws,m5.xlarge,,,FRA,8760,,,,,,,
platform,Paris,cloud,1,aws,m5.large,,,FRA,8760,,,,,,,
platform,Paris,server,1,,,dellR740,,FRA,8760,,,,,,,
sales,Lyon,smartphone,10,,,,,FRA,,,,,,,,
`;

/**
 * What the command writes for an analyst's inventory, through its function (`main`): the rows,
 * warnings, groups and exit codes are main's, the same in the bin's process (the describe
 * "impact-service as a process" above runs the bin itself), without a process started per run.
 */
describe("an analyst's inventory", () => {
  const inventory = file("analyst.csv", ANALYST);
  const laptopNote = `embedded not allocated: edition 1.2.4 counts the whole manufacturing impact of each laptop whatever the hours (8760 h here); editions ${ALLOCATING} allocate it over the lifetime`;

  it("says on each terminal and peripheral row that edition 1.2.4 does not allocate its embedded impact, and which edition does", async () => {
    const runs = await Promise.all(
      ["1.2.4", "2.4.1"].map((edition) =>
        evaluate(["evaluate", inventory, "--edition", edition, "--criteria", "gwp"]).then(({ stdout }) =>
          csvRows(stdout),
        ),
      ),
    );
    const [old, current] = runs;
    const proLaptops = (rows: Record<string, string>[]) =>
      rows.find((row) => row.kind === "laptop" && row.quantity === "40") as Record<string, string>;
    // One laptop over a year: its whole 181 kg in 1.2.4, a quarter of it (a 4-year life) in 2.4.1.
    expect(Number(proLaptops(old).gwp_embedded_kgco2eq)).toBe(40 * 181);
    expect(Number(proLaptops(current).gwp_embedded_kgco2eq)).toBe(40 * 45.25);
    expect(proLaptops(old).warnings).toBe(laptopNote);
    expect(proLaptops(current).warnings).toBe("");
    const noted = old.filter((row) => row.warnings.includes("embedded not allocated"));
    // Every terminal and peripheral given hours; not servers, cloud, IoT or components, not a
    // laptop without hours (its whole lifetime: allocated and whole agree), not a failed row.
    expect(noted.map((row) => row.kind).sort()).toEqual(
      [
        "box",
        "desktop",
        "external_hdd",
        "external_ssd",
        "laptop",
        "laptop",
        "laptop",
        "monitor",
        "smartphone",
        "tablet",
        "television",
        "usb_stick",
      ].sort(),
    );
    expect(current.filter((row) => row.warnings.includes("embedded not allocated"))).toEqual([]);
  }, 120_000);

  it("counts and lists the rows with warnings on stderr, as it lists bad rows", async () => {
    const { code, stderr } = await evaluate([
      "evaluate",
      inventory,
      "--edition",
      "1.2.4",
      "-o",
      join(dir, "analyst.csv.out"),
    ]);
    expect(code).toBe(0);
    // 31 rows, of which two only commas: 29 rows, 5 bad, 12 with warnings (one with two).
    expect(stderr).toMatch(/: 29 rows \(24 ok, 5 errors, 12 with warnings\) in [\d.]+ s/);
    expect([...stderr.matchAll(/^line (\d+): bad row: /gm)].map((match) => Number(match[1]))).toEqual([
      21, 24, 26, 28, 29,
    ]);
    const warned = [...stderr.matchAll(/^line (\d+): warning: (.*)$/gm)];
    expect(warned.map((match) => Number(match[1]))).toEqual([7, 8, 9, 10, 11]);
    expect(warned[0][2]).toBe(laptopNote);
    expect(stderr).toContain("\n7 more rows with warnings (the output's warnings column)\n");
  }, 60_000);

  it("writes rows only, status then warnings in billing's words, the groups beside the output", async () => {
    const output = join(dir, "analyst-out.csv");
    const { code, stderr } = await evaluate([
      "evaluate",
      inventory,
      "--criteria",
      "gwp",
      "--group-by",
      "team",
      "-o",
      output,
    ]);
    expect(code).toBe(0);
    const text = readFileSync(output, "utf8");
    expect(text.split("\n")[0]).toMatch(/,gwp_embedded_kgco2eq,gwp_use_kgco2eq,status,warnings$/);
    const rows = csvRows(text);
    expect(rows).toHaveLength(29);
    expect(new Set(rows.map((row) => row.status.replace(/:.*/, "")))).toEqual(
      new Set(["evaluated", "bad row"]),
    );
    expect(rows[19].status).toBe("bad row: 404 no-such-type at aws not found");
    // The groups file is the one the README names: impacts.csv → impacts.groups.csv.
    const groupsFile = join(dir, "analyst-out.groups.csv");
    expect(stderr).toContain(`sums per group: ${groupsFile}`);
    const groups = csvRows(readFileSync(groupsFile, "utf8"));
    expect(groups.map((group) => group.team)).toEqual(["platform", "data", "sales"]);
    // A spreadsheet's SUM of a column is the total: no sum row among the rows.
    const column = (list: Record<string, string>[], name: string) =>
      list.reduce((sum, row) => sum + Number(row[name] || 0), 0);
    expect(column(groups, "gwp_use_kgco2eq")).toBeCloseTo(column(rows, "gwp_use_kgco2eq"), 6);
    expect(column(groups, "rows")).toBe(29);
    expect(column(groups, "failed")).toBe(5);
  }, 60_000);

  it("refuses sums per group that would go nowhere, or whose file is a folder, in one line", async () => {
    const nowhere = await evaluate(["evaluate", inventory, "--group-by", "team"]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stdout).toBe("");
    expect(nowhere.stderr).toBe(
      "impact-service: --group-by writes the sums per group beside the output: give -o <file> (or --report, or --format xlsx)\n",
    );
    mkdirSync(join(dir, "blocked.groups.csv"));
    const blocked = await evaluate([
      "evaluate",
      inventory,
      "--group-by",
      "team",
      "-o",
      join(dir, "blocked.csv"),
    ]);
    // A groups file that names a folder is refused before any row, as -o's is.
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(
      /^impact-service: --group-by's file [^\n]*blocked\.groups\.csv: a folder, not a file\n$/,
    );
    expect(blocked.stderr).not.toContain("    at ");
  }, 60_000);

  it("writes NDJSON rows with the row's own columns and group lines with min and max (--ranges)", async () => {
    const output = join(dir, "analyst.ndjson");
    const { code } = await evaluate([
      "evaluate",
      inventory,
      "--edition",
      "1.2.4",
      "--criteria",
      "gwp",
      "--group-by",
      "team,site",
      "--ranges",
      "-o",
      output,
    ]);
    expect(code).toBe(0);
    const lines = readFileSync(output, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(lines).toHaveLength(30);
    expect(lines[0]).toMatchObject({
      line: 2,
      columns: { team: "platform", site: "Paris", kind: "cloud", quantity: "4", instance_type: "m5.xlarge" },
      quantity: 4,
      status: 200,
    });
    expect(lines[29].summary).toMatchObject({ lines: 29, ok: 24, errors: 5, warnings: 12 });
    const groups = readFileSync(join(dir, "analyst.groups.ndjson"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const paris = groups.find((group) => group.group.team === "platform" && group.group.site === "Paris");
    const { value, min, max } = paris.total.gwp.embedded;
    expect(min).toBeLessThan(value);
    expect(max).toBeGreaterThan(value);
    const parisRows = lines.filter(
      (line) => line.columns?.team === "platform" && line.columns?.site === "Paris" && line.status === 200,
    );
    expect(paris.rows).toBe(parisRows.length + 2);
    expect(value).toBeCloseTo(
      parisRows.reduce((sum, line) => sum + (line.quantity ?? 1) * line.body.impacts.gwp.embedded.value, 0),
      6,
    );
  }, 60_000);

  it("writes a workbook whose sheets have column widths and an autofilter", async () => {
    const output = join(dir, "analyst.xlsx");
    expect((await evaluate(["evaluate", inventory, "--group-by", "team", "-o", output])).code).toBe(0);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.readFile(output);
    const rows = workbook.getWorksheet("rows") as ExcelJS.Worksheet;
    const groups = workbook.getWorksheet("groups") as ExcelJS.Worksheet;
    expect(rows.rowCount).toBe(30);
    expect(rows.autoFilter).toEqual("A1:Z1");
    expect(groups.autoFilter).toEqual("A1:J1");
    expect(rows.getColumn(1).width).toBe(8);
    expect(rows.getColumn(19).width).toBe(22); // gwp_embedded_kgco2eq
    expect(rows.getRow(1).getCell(25).value).toBe("status");
  }, 60_000);

  it("skips rows of only commas as blank lines", async () => {
    const { stdout, stderr } = await evaluate(["evaluate", inventory, "--criteria", "gwp"]);
    const rows = csvRows(stdout);
    expect(rows.some((row) => row.team.trim() === "" && row.kind === "")).toBe(false);
    expect(stderr).not.toMatch(/^line (23|27): /m);
  }, 60_000);
});

describe("the energy of each row (energy_kwh)", () => {
  /** Rows of several kinds and places; quantities multiply the energy as they multiply the impacts. */
  const KINDS = `asset,kind,provider,instance_type,usage_location,hours,quantity,cpu_units,avg_power
vm,cloud,aws,m5.xlarge,FRA,8760,,,
rack1,server,,,FRA,8760,,,
rack2,server,,,FRA,8760,2,,
pc,laptop,,,DEU,8760,3,,
screen,monitor,,,BEL,8760,,,
disk,ssd,,,FRA,8760,2,,10
chip,cpu,,,FRA,8760,,2,
sensor,iot_device,,,FRA,8760,,,
`;
  /** The gwp factors of electrical_mix.csv (kgCO2eq/kWh), the same in both editions. */
  const GWP_FACTOR: Readonly<Record<string, number>> = { FRA: 0.098, DEU: 0.422, BEL: 0.23 };
  const inventory = file("kinds.csv", KINDS);

  /** Half a unit of the last significant digit a written number shows (`22.3` → 0.05, `1000` → 500). */
  function halfLastDigit(text: string): number {
    const [whole, fraction = ""] = text.split(".");
    if (fraction !== "") return 0.5 * 10 ** -fraction.length;
    return 0.5 * 10 ** (whole.length - whole.replace(/0+$/, "").length);
  }

  it.each(["1.2.4", "2.4.1"])(
    "edition %s: gwp_use ÷ energy_kwh is the location's factor within the impact's rounding, every kind with a use",
    async (edition) => {
      const { code, stdout } = await evaluate([
        "evaluate",
        inventory,
        "--edition",
        edition,
        "--criteria",
        "gwp",
      ]);
      expect(code).toBe(0);
      const rows = new Map(csvRows(stdout).map((row) => [row.asset, row]));
      for (const asset of ["vm", "rack1", "rack2", "pc", "screen", "disk", "chip"]) {
        const row = rows.get(asset) as Record<string, string>;
        const energy = Number(row.energy_kwh);
        expect(energy, asset).toBeGreaterThan(0);
        // 1.2.4 counts a modelled CPU's units twice in its use (docs/methodology.md §5.7, Appendix D.1).
        const units = edition === "1.2.4" && asset === "chip" ? 2 : 1;
        const factor = GWP_FACTOR[row.usage_location] * units;
        const use = Number(row.gwp_use_kgco2eq);
        // The route rounds one unit's impact; the row is that × its quantity.
        const quantity = Number(row.quantity || 1);
        const rounding = quantity * halfLastDigit(String(use / quantity));
        expect(Math.abs(use - factor * energy), asset).toBeLessThanOrEqual(rounding);
      }
      // Hand values: the laptop archetype's 75 W × 30 % of 8,760 h, three of them; 10 W × 8,760 h, two SSDs.
      expect(Number(rows.get("pc")?.energy_kwh)).toBeCloseTo(3 * 75 * 0.3 * 8.76, 6);
      expect(Number(rows.get("disk")?.energy_kwh)).toBeCloseTo(2 * 10 * 8.76, 6);
      expect(Number(rows.get("rack2")?.energy_kwh)).toBeCloseTo(2 * Number(rows.get("rack1")?.energy_kwh), 4);
      // No use impact (an IoT device without power): no energy either.
      expect(rows.get("sensor")?.gwp_use_kgco2eq).toBe("");
      expect(rows.get("sensor")?.energy_kwh).toBe("");
    },
    60_000,
  );

  it("sums the energy per group and in NDJSON's rows and summary, without the verbose it was read from", async () => {
    const groupsOutput = join(dir, "kinds.ndjson");
    const { code } = await evaluate([
      "evaluate",
      inventory,
      "--format",
      "ndjson",
      "--group-by",
      "kind",
      "-o",
      groupsOutput,
    ]);
    expect(code).toBe(0);
    const lines = readFileSync(groupsOutput, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const rows = lines.filter((line) => "line" in line);
    const energies = rows.map((line) => line.energy_kwh ?? 0);
    expect(rows.every((line) => !("verbose" in line.body))).toBe(true);
    expect(rows.find((line) => line.columns.asset === "vm").energy_kwh).toBeGreaterThan(0);
    const summary = lines.at(-1).summary;
    expect(summary.energy_kwh).toBeCloseTo(
      energies.reduce((sum: number, energy: number) => sum + energy, 0),
      3,
    );
    const groups = readFileSync(join(dir, "kinds.groups.ndjson"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const servers = groups.find((group) => group.group.kind === "server");
    const serverRows = rows.filter((line) => line.columns.kind === "server");
    expect(servers.energy_kwh).toBeCloseTo(serverRows[0].energy_kwh + serverRows[1].energy_kwh, 3);
  }, 60_000);
});
