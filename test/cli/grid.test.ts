/**
 * `impact-service evaluate inventory.csv --grid-intensity FILE`: each row's gwp use from the grid
 * series over its period (energy × the time-weighted intensity ÷ 1000), hand-computed from the
 * fixtures of test/fixtures/grid (one per shape of file); the edition's factor and a warning where
 * the series lacks the zone or the period; bad series files refused in one line (exit 2).
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { runCli, runMain, sink } from "../support/cli.js";
import { gridSeriesGzip } from "../support/hostileFiles.js";

const FIXTURES = "test/fixtures/grid";
const ELECTRICITY_MAPS = `${FIXTURES}/electricity-maps-hourly.csv`;
const EMBER = `${FIXTURES}/ember-monthly.csv`;
const dir = mkdtempSync(join(tmpdir(), "impact-grid-"));

function file(name: string, text: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

/** The command line in this process: exit code, CSV rows, stderr. */
async function evaluate(inventory: string, ...options: string[]) {
  const stdout = sink();
  const stderr = sink();
  const code = await main(
    [
      "evaluate",
      file("inventory.csv", inventory),
      "--edition",
      "2.4.1",
      "--criteria",
      "gwp",
      "--format",
      "csv",
      ...options,
    ],
    { stdin: process.stdin, stdout: stdout.stream, stderr: stderr.stream },
  );
  const rows = code === 2 ? [] : (parse(stdout.text(), { columns: true }) as Record<string, string>[]);
  return { code, rows, stderr: stderr.text() };
}

const number = (text: string | undefined) => Number(text);

/** Equal within the output's 10 significant digits. */
function expectClose(actual: number, expected: number): void {
  expect(Math.abs(actual - expected) / Math.abs(expected)).toBeLessThan(1e-9);
}

/** The significant figures a number is written with (trailing zeros of an integer not counted). */
function figuresOf(text: string): number {
  const digits = text.replace(/^-/, "").replace(/e.*$/i, "");
  const significant = digits.includes(".") ? digits.replace(".", "") : digits.replace(/0+$/, "");
  return significant.replace(/^0+/, "").length;
}

/**
 * gwp_use = energy_kwh × intensity ÷ 1000, the intensity in the grid column, rounded as the
 * edition rounds the route's impacts: the value written is the product to the figures it shows.
 */
function expectUse(row: Record<string, string> | undefined, gco2PerKwh: number): void {
  expectClose(number(row?.grid_gco2_per_kwh), gco2PerKwh);
  const written = row?.gwp_use_kgco2eq ?? "";
  const product = (number(row?.energy_kwh) * gco2PerKwh) / 1000;
  expect(figuresOf(written)).toBeLessThanOrEqual(4);
  expect(number(written)).toBe(Number(product.toPrecision(figuresOf(written))));
}

const HEADER = "kind,provider,instance_type,region,usage_location,hours,period_start,period_end";

describe("an inventory with a grid series", () => {
  it("takes an Electricity Maps hour's intensity, and weighs the hours a period spans", async () => {
    const { code, rows, stderr } = await evaluate(
      `${HEADER}
cloud,aws,m5.xlarge,eu-west-3,,,2024-01-01T01:15Z,2024-01-01T01:45Z
cloud,aws,m5.xlarge,eu-west-3,,,2024-01-01T00:30Z,2024-01-01T03:00Z
server,,,,FRA,,2024-01-01T02:00:00+01:00,2024-01-01T03:00:00+01:00
`,
      "--grid-intensity",
      ELECTRICITY_MAPS,
      "--ranges",
    );
    expect(code).toBe(0);
    // eu-west-3 is in France (the reference data's regions), FR in the export is FRA.
    expectUse(rows[0], 50);
    // 0.5 h × 40 + 1 h × 50 + 1 h × 60 over 2.5 h.
    expectUse(rows[1], 52);
    // 01:00 to 02:00 UTC.
    expectUse(rows[2], 50);
    // Without hours, the hours evaluated are the period's: half an hour, then two and a half.
    expectClose(number(rows[1]?.energy_kwh) / number(rows[0]?.energy_kwh), 5);
    // The energy's margin kept, the series exact: min and max scale as the value does (98 g/kWh in France).
    const min = number(rows[0]?.gwp_use_kgco2eq_min);
    expect(min).toBeGreaterThan(0);
    expect(min).toBeLessThan(number(rows[0]?.gwp_use_kgco2eq));
    expect(rows.every((row) => row.warnings === "")).toBe(true);
    expect(stderr).toContain(`grid series ${ELECTRICITY_MAPS} (electricity-maps, 2 zones, 6 intervals`);
    expect(stderr).toContain("3 of 3 rows' gwp use from the series; nothing missing");
  });

  it("weighs a monthly series (Ember) by the days of each month a period spans", async () => {
    const { rows } = await evaluate(
      `${HEADER}\nserver,,,,FRA,,2024-01-15,2024-02-15\nserver,,,,DEU,,2024-01-10,2024-01-11\n`,
      "--grid-intensity",
      EMBER,
    );
    // 17 days of January at 31, 14 of February at 29.
    expectUse(rows[0], (17 * 31 + 14 * 29) / 31);
    expectUse(rows[1], 390);
  });

  it("keeps the edition's factor where the series lacks the zone or part of the period, and says so", async () => {
    const { rows, stderr } = await evaluate(
      `${HEADER}
server,,,,USA,,2024-01-01T00:00Z,2024-01-01T01:00Z
server,,,,FRA,,2024-01-01T03:00Z,2024-01-01T05:00Z
server,,,,FRA,10,,
`,
      "--grid-intensity",
      ELECTRICITY_MAPS,
    );
    // The United States' factor of edition 2.4.1 (no USA zone in the series: only US-CAL-CISO).
    const usa = number(rows[0]?.grid_gco2_per_kwh);
    expect(usa).toBeGreaterThan(300);
    expectUse(rows[0], usa);
    expect(rows[0]?.warnings).toBe(
      "grid series: no interval of USA 2024-01-01T00:00:00Z to 2024-01-01T01:00:00Z: the edition's factor",
    );
    // One hour at 70 from the series, one at France's 98 g/kWh.
    expectUse(rows[1], (70 + 98) / 2);
    expect(rows[1]?.warnings).toContain(
      "FRA covers 1 of the period's 2 h: the edition's factor for the rest",
    );
    // No period: the zone's mean over the series, (40 + 50 + 60 + 70) / 4.
    expectUse(rows[2], 55);
    expect(rows[2]?.warnings).toContain("no period: the mean grid intensity of FRA over the whole series");
    expect(stderr).toContain("2 of 3 rows' gwp use from the series (1 without a period: their zone's mean)");
    expect(stderr).toContain(
      "missing: USA 2024-01-01T00:00:00Z to 2024-01-01T01:00:00Z (1 row), FRA 2024-01-01T03:00:00Z to 2024-01-01T05:00:00Z, partly (1 row)",
    );
  });

  it("maps a cloud region to the zone --grid-zones names, and reads a plain gzipped series", async () => {
    const series = file(
      "plain.csv.gz",
      gzipSync(
        "zone,start,gco2_per_kwh\nUS-CAL-CISO,2024-01-01T00:00Z,200\nUS-CAL-CISO,2024-01-01T01:00Z,300\nFRA,2024-01-01T00:00Z,40\n",
      ),
    );
    const zones = file("zones.csv", "provider,place,zone\naws,us-west-1,US-CAL-CISO\n");
    const inventory = `${HEADER}\ncloud,aws,m5.xlarge,us-west-1,,,2024-01-01T00:30Z,2024-01-01T02:00Z\n`;
    const { rows } = await evaluate(inventory, "--grid-intensity", series, "--grid-zones", zones);
    // 0.5 h × 200 + 1 h × 300 over 1.5 h.
    expectUse(rows[0], 400 / 1.5);
    // Without the zones file, us-west-1 is the United States: not in this series.
    const { rows: country } = await evaluate(inventory, "--grid-intensity", series);
    expect(country[0]?.warnings).toContain("no interval of USA");
  });

  it("refuses a bad series or zones file before any row: one line, exit 2", async () => {
    const inventory = `${HEADER}\nserver,,,,FRA,1,,\n`;
    const other = file("other.csv", "time,zone,value\n2024-01-01,FR,3\n");
    const negative = file("negative.csv", "zone,start,gco2_per_kwh\nFR,2024-01-01,40\nFR,2024-01-02,-1\n");
    const zones = file("zones-bad.csv", "region,zone\nus-west-1,X\n");
    for (const [options, message] of [
      [
        ["--grid-intensity", other],
        `${other}: not a grid intensity series; expected an Electricity Maps export`,
      ],
      [
        ["--grid-intensity", negative],
        `${negative}: line 3, column "gco2_per_kwh": -1 is a negative intensity`,
      ],
      [
        ["--grid-intensity", EMBER, "--grid-zones", zones],
        `${zones}: line 1: the grid zones file's header must be`,
      ],
      [["--grid-zones", zones], "--grid-zones needs --grid-intensity <file>"],
    ] as const) {
      const { code, rows, stderr } = await evaluate(inventory, ...options);
      expect(code).toBe(2);
      expect(rows).toEqual([]);
      expect(stderr.trim().split("\n")[0]).toContain(`impact-service: ${message}`);
      if (options[0] === "--grid-intensity") expect(stderr.trim().split("\n")).toHaveLength(1);
    }
  });

  it("runs through the process: the series' rows in NDJSON, a bad file one line and exit 2", async () => {
    const inventory = file("process.csv", `${HEADER}\nserver,,,,FRA,,2024-01-01T00:00Z,2024-01-01T01:00Z\n`);
    const ok = await runCli([
      "evaluate",
      inventory,
      "--criteria",
      "gwp",
      "--format",
      "ndjson",
      "--grid-intensity",
      ELECTRICITY_MAPS,
    ]);
    expect(ok.code).toBe(0);
    const row = JSON.parse(ok.stdout.split("\n")[0] ?? "") as {
      energy_kwh: number;
      grid_gco2_per_kwh: number;
      body: { impacts: { gwp: { use: { value: number } } } };
    };
    expect(row.grid_gco2_per_kwh).toBe(40);
    const use = row.body.impacts.gwp.use.value;
    expect(use).toBe(Number(((row.energy_kwh * 40) / 1000).toPrecision(figuresOf(String(use)))));
    const bad = await runCli(["evaluate", inventory, "--grid-intensity", file("bad.csv", "a,b\n1,2\n")]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe("");
    expect(bad.stderr.trim().split("\n")).toHaveLength(1);
  });
});

/** The data a report embeds for its charts (its script element `report-data`). */
function reportData(path: string): {
  grid?: { unit: string; byHour: number[]; byMonth: [string, number][] };
} {
  const html = readFileSync(path, "utf8");
  const json = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)?.[1];
  return JSON.parse(json ?? "null");
}

describe("the report of an inventory with a grid series", () => {
  it("embeds the rows' gwp use by hour of day and by month, each interval at its intensity", async () => {
    const series = file(
      "month-end.csv",
      "zone,start,gco2_per_kwh\nFRA,2024-01-31T22:00Z,100\nFRA,2024-01-31T23:00Z,200\nFRA,2024-02-01T00:00Z,300\nFRA,2024-02-01T01:00Z,400\n",
    );
    const report = join(dir, "grid-report.html");
    const { code, rows } = await evaluate(
      `${HEADER}
server,,,,FRA,,2024-01-31T22:30Z,2024-02-01T01:30Z
server,,,,DEU,,2024-01-31T22:00Z,2024-02-01T00:00Z
server,,,,FRA,,2024-02-01T01:00Z,2024-02-01T03:00Z
server,,,,FRA,2,,
`,
      "--grid-intensity",
      series,
      "--report",
      report,
    );
    expect(code).toBe(0);
    // The first row's 3 hours: E/3 kWh an hour; the third's 2: E/2, its 02:00 past the series at
    // France's 98; the fourth, without a period, over the series' 4 hours: E/4.
    const [first, third, fourth] = [
      number(rows[0]?.energy_kwh) / 3,
      number(rows[2]?.energy_kwh) / 2,
      number(rows[3]?.energy_kwh) / 4,
    ];
    const grid = reportData(report).grid;
    expect(grid?.unit).toBe("kgCO2eq");
    const expected = new Array<number>(24).fill(0);
    expected[22] = ((first * 0.5 + fourth) * 100) / 1000;
    expected[23] = ((first + fourth) * 200) / 1000;
    expected[0] = ((first + fourth) * 300) / 1000;
    expected[1] = ((first * 0.5 + third + fourth) * 400) / 1000;
    expected[2] = (third * 98) / 1000;
    expect(grid?.byHour).toHaveLength(24);
    grid?.byHour.forEach((kg, hour) => {
      expect(kg).toBeCloseTo(expected[hour] ?? 0, 12);
    });
    // January: 22:30 to midnight of the first row; February the rest. DEU, not in the series, is not charted.
    expect(grid?.byMonth.map(([month]) => month)).toEqual(["2024-01", "2024-02"]);
    expect(grid?.byMonth[0]?.[1]).toBeCloseTo((first * (50 + 200) + fourth * (100 + 200)) / 1000, 12);
    expect(grid?.byMonth[1]?.[1]).toBeCloseTo(
      (first * (300 + 200) + third * (400 + 98) + fourth * (300 + 400)) / 1000,
      12,
    );
    // The months, and the hours, sum to the rows' gwp use before rounding: energy × the grid column ÷ 1000.
    const use = [rows[0], rows[2], rows[3]].reduce(
      (sum, row) => sum + (number(row?.energy_kwh) * number(row?.grid_gco2_per_kwh)) / 1000,
      0,
    );
    for (const buckets of [grid?.byHour ?? [], (grid?.byMonth ?? []).map(([, kg]) => kg)])
      expectClose(
        buckets.reduce((sum, kg) => sum + kg, 0),
        use,
      );
    const text = readFileSync(report, "utf8");
    expect(text).toContain(
      '<div id="chart-grid-hours" class="chart"></div><div id="chart-grid-months" class="chart"></div>',
    );
    // What the charts show, in the page's number format.
    const total = use.toLocaleString("en-US", { maximumSignificantDigits: 4 });
    expect(text).toContain(
      `by hour of day (UTC) and by month: 3 of 4 rows (75 %), zone FRA, ${total} kgCO2eq before each row's rounding.`,
    );
  });

  it("charts a row without a period over its zone's series, a gap at the zone's mean it takes", async () => {
    const series = file(
      "report-gap.csv",
      "zone,start,gco2_per_kwh\nFRA,2024-01-01T00:00Z,100\nFRA,2024-01-01T01:00Z,\nFRA,2024-01-01T02:00Z,300\n",
    );
    const report = join(dir, "gap-report.html");
    const { code, rows } = await evaluate(
      `${HEADER}\nserver,,,,FRA,2,,\n`,
      "--grid-intensity",
      series,
      "--report",
      report,
    );
    expect(code).toBe(0);
    // The mean of the hours published: (100 + 300) / 2.
    expectUse(rows[0], 200);
    const third = number(rows[0]?.energy_kwh) / 3;
    const byHour = reportData(report).grid?.byHour ?? [];
    [100, 200, 300].forEach((gco2, hour) => {
      expect(byHour[hour]).toBeCloseTo((third * gco2) / 1000, 12);
    });
  });

  it("has no grid section without a row that used the series", async () => {
    const report = join(dir, "no-grid-report.html");
    const { code } = await evaluate(
      `${HEADER}\nserver,,,,DEU,,2024-01-01T00:00Z,2024-01-01T01:00Z\n`,
      "--grid-intensity",
      ELECTRICITY_MAPS,
      "--report",
      report,
    );
    expect(code).toBe(0);
    expect(reportData(report).grid).toBeUndefined();
    expect(readFileSync(report, "utf8")).not.toContain("chart-grid");
  });
});

/** Electricity Maps' export header since 2024, and a row of it (its life-cycle intensity cell). */
const EM_HEADER =
  "Datetime (UTC),Country,Zone name,Zone id,Carbon intensity gCO₂eq/kWh (direct),Carbon intensity gCO₂eq/kWh (Life cycle),Carbon-free energy percentage (CFE%),Renewable energy percentage (RE%),Data source,Data estimated,Data estimation method";
const em = (day: string, zone: string, lifeCycle: string) =>
  `${day} 00:00:00,Country,Zone,${zone},1,${lifeCycle},90,30,source,false,`;

describe("a series as Electricity Maps publishes it", () => {
  it("applies an unpublished or missing day as a gap: the edition's factor, a warning, listed in the summary", async () => {
    const series = file(
      "daily-gaps.csv",
      [
        EM_HEADER,
        em("2024-01-01", "FR", "40"),
        em("2024-01-02", "FR", ""),
        `2024-01-03 00:00:00,France,France,FR,,Data is not complete enough to be published,,,,,`,
        em("2024-01-04", "FR", "70"),
        em("2024-01-06", "FR", "90"),
        "",
      ].join("\n"),
    );
    const { code, rows, stderr } = await evaluate(
      `${HEADER}
server,,,,FRA,,2024-01-02T06:00Z,2024-01-02T18:00Z
server,,,,FRA,,2024-01-01,2024-01-03
server,,,,FRA,,2024-01-04T12:00Z,2024-01-05T12:00Z
`,
      "--grid-intensity",
      series,
    );
    expect(code).toBe(0);
    // An unpublished day: France's 98 g/kWh of edition 2.4.1, never the 1st's 40.
    expectUse(rows[0], 98);
    expect(rows[0]?.warnings).toBe(
      "grid series: no interval of FRA 2024-01-02T06:00:00Z to 2024-01-02T18:00:00Z: the edition's factor",
    );
    // A day at 40, a day unpublished at 98.
    expectUse(rows[1], (40 + 98) / 2);
    expect(rows[1]?.warnings).toContain(
      "FRA covers 24 of the period's 48 h: the edition's factor for the rest",
    );
    // Half a day at 70, half of the 5th (left out of the export) at 98, never the 4th's 70.
    expectUse(rows[2], (70 + 98) / 2);
    expect(stderr).toContain("grid series");
    expect(stderr).toContain(
      "; gaps in the series (the edition's factor): FRA 3 intervals (72 h) from 2024-01-02T00:00:00Z to 2024-01-06T00:00:00Z",
    );
  });

  it("reads exports concatenated (CRLF then LF, the header again), each zone to its own step's end", async () => {
    const daily = [EM_HEADER, em("2024-01-30", "FR", "40"), em("2024-01-31", "FR", "50")].join("\r\n");
    const monthly = [EM_HEADER, em("2024-01-01", "DE", "380"), em("2024-02-01", "DE", "370")].join("\n");
    const series = file("concatenated.csv", `${daily}\r\n${monthly}\n`);
    const { code, rows, stderr } = await evaluate(
      `${HEADER}
server,,,,FRA,,2024-01-31T12:00Z,2024-02-01T00:00Z
server,,,,DEU,,2024-02-28,2024-03-01
server,,,,DEU,,2024-01-31,2024-02-02
`,
      "--grid-intensity",
      series,
    );
    expect(code, stderr).toBe(0);
    expectUse(rows[0], 50);
    // February's last days: the monthly zone's last month lasts to 1 March, not a day.
    expectUse(rows[1], 370);
    expectUse(rows[2], (380 + 370) / 2);
    expect(rows.every((row) => row.warnings === "")).toBe(true);
    expect(stderr).toContain(
      "(electricity-maps, 2 zones, 4 intervals, 2024-01-01T00:00:00Z to 2024-03-01T00:00:00Z): 3 of 3 rows' gwp use from the series; nothing missing",
    );
  });

  it("covers a yearly export's year with its row", async () => {
    const series = file("yearly.csv", `${EM_HEADER}\n${em("2023-01-01", "FR", "56")}\n`);
    const { rows, stderr } = await evaluate(
      `${HEADER}\nserver,,,,FRA,,2023-07-01,2023-07-02\nserver,,,,FRA,,2023-12-31T12:00Z,2024-01-01T12:00Z\n`,
      "--grid-intensity",
      series,
    );
    expectUse(rows[0], 56);
    // Half a day in 2023, half past the export's year at France's 98.
    expectUse(rows[1], (56 + 98) / 2);
    expect(stderr).toContain("1 interval, 2023-01-01T00:00:00Z to 2024-01-01T00:00:00Z)");
  });

  it("reads a row's period with an offset within ±14:00, a wider one is a bad row", async () => {
    const { rows } = await evaluate(
      `${HEADER}\nserver,,,,FRA,,2024-01-01T13:00+12:00,2024-01-01T16:00+14:00\nserver,,,,FRA,,2024-01-01T01:00+99:99,2024-01-01T02:00Z\n`,
      "--grid-intensity",
      ELECTRICITY_MAPS,
    );
    // 01:00 to 02:00 UTC: 50.
    expectUse(rows[0], 50);
    expect(rows[1]?.status).toMatch(/^bad row/);
  });
});

describe("what the grid's inputs may be (the command's function: only its output is read)", () => {
  const inventory = () =>
    file("bounds.csv", `${HEADER}\nserver,,,,FRA,,2024-01-01T00:00Z,2024-01-01T01:00Z\n`);

  it.each([
    [
      "an intensity of 1e308",
      "zone,start,gco2_per_kwh\nFR,2024-01-01T00:00Z,1e308\n",
      'line 2, column "gco2_per_kwh": 1e308 is above 10000 gCO2eq/kWh',
    ],
    [
      "an hour of 1e17",
      "zone,start,gco2_per_kwh\nFR,2024-01-01T00:00Z,50\nFR,2024-01-01T01:00Z,1e17\nFR,2024-01-01T02:00Z,50\n",
      'line 3, column "gco2_per_kwh": 1e17 is above',
    ],
    [
      "a start at infinity",
      "zone,start,gco2_per_kwh\nFR,infinity,50\n",
      'line 2, column "start": "infinity" is not a date or time',
    ],
    [
      "an offset of +99:99",
      "zone,start,gco2_per_kwh\nFR,2024-01-01T00:00+99:99,50\n",
      'line 2, column "start": "2024-01-01T00:00+99:99" is not a date',
    ],
  ])("refuses %s: exit 2, one line naming the file and line", async (_, text, expected) => {
    const series = file("refused.csv", text);
    const run = await runMain(["evaluate", inventory(), "--criteria", "gwp", "--grid-intensity", series]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr.trim().split("\n")).toEqual([
      expect.stringContaining(`impact-service: ${series}: ${expected}`),
    ]);
  });

  it("refuses 10^8 intervals at the bound, reading no further (a gzip of a few MB)", async () => {
    const series = file("huge.csv.gz", gridSeriesGzip(100_000_000));
    expect(readFileSync(series).length).toBeLessThan(16 * 1024 * 1024);
    const run = await runMain(["evaluate", inventory(), "--criteria", "gwp", "--grid-intensity", series]);
    expect([run.code, run.stdout]).toEqual([2, ""]);
    expect(run.stderr).toBe(
      `impact-service: ${series}: a grid intensity series holds at most 2000000 intervals; it holds more (read up to the bound)\n`,
    );
  }, 180_000);

  it("reads a header whose cell holds a line break (quoted) as one record: the lines after it numbered as the file's", async () => {
    const series = join(dir, "quoted.csv");
    const text =
      'zone,start,gco2_per_kwh,"note\n(free)"\nFR,2024-01-01T00:00Z,50,a\nFR,2024-01-01T01:00Z,1e17,b\n';
    writeFileSync(series, text);
    const run = await runMain(["evaluate", inventory(), "--criteria", "gwp", "--grid-intensity", series]);
    expect(run.code).toBe(2);
    // Line 4 of the file: the header spans lines 1 and 2.
    expect(run.stderr).toContain(`${series}: line 4, column "gco2_per_kwh": 1e17 is above`);
  });

  it("refuses a zones file that is a FIFO fed without end or a device: exit 2, one line, unread", async () => {
    const fifo = join(dir, "zones.fifo");
    execFileSync("mkfifo", [fifo]);
    const writer = spawn("sh", ["-c", `exec yes provider,place,zone > '${fifo}'`], { stdio: "ignore" });
    const device = join(dir, "zones-device");
    execFileSync("mknod", [device, "c", "1", "5"]);
    try {
      for (const zones of [fifo, device]) {
        const run = await runMain([
          "evaluate",
          inventory(),
          "--grid-intensity",
          ELECTRICITY_MAPS,
          "--grid-zones",
          zones,
        ]);
        expect(run.code).toBe(2);
        expect(run.stdout).toBe("");
        expect(run.stderr).toBe(
          `impact-service: ${zones}: the grid zones file is not a regular file (a FIFO, a device or a folder)\n`,
        );
      }
    } finally {
      writer.kill();
    }
  });

  it("writes a zone's escape sequences visibly in the summary, never to the terminal", async () => {
    const zones = file(
      "zones-escapes.csv",
      "provider,place,zone\n,FRA,\u001b[2J\u001b]0;owned\u0007\u009b31m\n",
    );
    const run = await runMain([
      "evaluate",
      inventory(),
      "--criteria",
      "gwp",
      "--grid-intensity",
      ELECTRICITY_MAPS,
      "--grid-zones",
      zones,
    ]);
    expect(run.code).toBe(0);
    // No control character but the lines' ends.
    const controls = [...run.stderr].filter((char) => /\p{Cc}/u.test(char) && char !== "\n");
    expect(controls).toEqual([]);
    expect(run.stderr).toContain(
      "missing: \\x1b[2J\\x1b]0;owned\\x07\\x9b31m 2024-01-01T00:00:00Z to 2024-01-01T01:00:00Z (1 row)",
    );
  });
});
