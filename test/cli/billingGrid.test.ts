/**
 * `impact-service evaluate <billing export> --grid-intensity <series>`, through the command's
 * function (`runMain`: the tests read only what it writes; test/cli/evaluate.test.ts and
 * test/cli/files.test.ts start the bin's process for what a process shows): each
 * evaluated line's gwp use is its energy × the series' intensity over its period (weighted by the
 * hours in each interval) / 1000, the edition's factor (and a warning) where the series does not
 * cover it. One export of each format, each with one shape of series (test/fixtures/grid/: plain
 * hourly, Electricity Maps hourly, Ember monthly). Expected intensities are computed by hand from
 * the fixtures.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { expectClose } from "../billing/support.js";
import { runMain } from "../support/cli.js";

const SLOW = { timeout: 180_000 };
const BILLS = "test/fixtures/billing/grid/";
const SERIES = "test/fixtures/grid/";
const scratch = mkdtempSync(join(tmpdir(), "billing-grid-cli-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Line = Record<string, string>;

async function evaluate(
  bill: string,
  options: readonly string[],
): Promise<{ code: number; lines: Line[]; stderr: string }> {
  return evaluatePath(`${BILLS}${bill}`, options);
}

async function evaluatePath(
  bill: string,
  options: readonly string[],
): Promise<{ code: number; lines: Line[]; stderr: string }> {
  const output = join(scratch, `${basename(bill)}.${options.length}.out.csv`);
  const run = await runMain(["evaluate", bill, "--edition", "2.4.1", "--output", output, ...options]);
  const lines = run.code === 0 ? (parse(readFileSync(output), { columns: true }) as Line[]) : [];
  return { code: run.code, lines, stderr: run.stderr };
}

/** gwp use = energy_kwh × intensity / 1000, and the intensity column says which. */
function expectIntensity(line: Line, intensity: number, what: string): void {
  expectClose(Number(line.grid_gco2_per_kwh), intensity, `${what}: intensity`);
  expectClose(Number(line.gwp_use_kgco2eq), (Number(line.energy_kwh) * intensity) / 1000, `${what}: gwp use`);
}

describe("evaluate <billing export> --grid-intensity", () => {
  it(
    "weights a FOCUS line's hours by a plain hourly series; an uncovered zone keeps the edition's factor",
    SLOW,
    async () => {
      const withSeries = await evaluate("focus.csv", ["--ranges", "--grid-intensity", `${SERIES}plain.csv`]);
      const without = await evaluate("focus.csv", ["--ranges"]);
      expect(withSeries.code, withSeries.stderr).toBe(0);
      const [inside, spanning, uncovered, germany, months, tax] = withSeries.lines;
      // plain.csv: FRA 00:00 40, 01:00 50 (an hour each); DEU 00:00 380.
      expectIntensity(inside, 50, "01:00–02:00 in FRA");
      // 00:30–02:00 UTC (written +01:00): half an hour at 40, an hour at 50.
      expectIntensity(spanning, (0.5 * 40 + 1 * 50) / 1.5, "00:30–02:00 in FRA");
      expectIntensity(germany, 380, "00:00–01:00 in DEU");
      for (const line of [inside, spanning, germany]) expect(line.warnings).toBe("");
      // us-east-1 is USA, which the series lacks: the edition's gwp use, a warning.
      expect(uncovered.gwp_use_kgco2eq).toBe(without.lines[2].gwp_use_kgco2eq);
      expect(uncovered.warnings).toBe("grid series: no zone USA in the series, the edition's factor");
      expect(months.gwp_use_kgco2eq).toBe(without.lines[4].gwp_use_kgco2eq);
      expect(months.warnings).toContain("grid series: period not covered in zone FRA");
      // min and max follow the value's ratio; embedded impacts do not move.
      expectClose(
        Number(spanning.gwp_use_kgco2eq_max) / Number(spanning.gwp_use_kgco2eq),
        Number(without.lines[1].gwp_use_kgco2eq_max) / Number(without.lines[1].gwp_use_kgco2eq),
        "max / value",
      );
      expect(spanning.gwp_embedded_kgco2eq).toBe(without.lines[1].gwp_embedded_kgco2eq);
      expect(tax.status).toBe("not compute");
      expect(tax.grid_gco2_per_kwh).toBe("");
      expect(withSeries.stderr).toContain(
        "grid series test/fixtures/grid/plain.csv: plain, 2 zones, 3 intervals, 2024-01-01T00:00:00Z to 2024-01-01T02:00:00Z",
      );
      expect(withSeries.stderr).toContain("  lines with the series: 3 of 5 evaluated in DEU, FRA\n");
      expect(withSeries.stderr).toContain(
        "  missing: zone USA not in the series: 1 row, the edition's factor\n",
      );
      expect(withSeries.stderr).toContain(
        "  missing: zone FRA not covered, lines from 2024-01-31T00:00:00Z to 2024-02-02T00:00:00Z: 1 row",
      );
    },
  );

  it(
    "weights a FOCUS line over two months by Ember's monthly series; the report shows the use by month",
    SLOW,
    async () => {
      const report = join(scratch, "bill.html");
      const { code, lines, stderr } = await evaluate("focus.csv", [
        "--grid-intensity",
        `${SERIES}ember-monthly.csv`,
        "--report",
        report,
      ]);
      expect(code, stderr).toBe(0);
      const html = readFileSync(report, "utf8");
      expect(html).toContain('<div id="chart-grid-month" class="chart">');
      // The lines that used the series start in January (the one over two months on 31 January).
      expect(html).toMatch(/"chart-grid-month":\[\{"name":"2024-01","lines":4,/);
      // ember-monthly.csv: FRA January 31, February 29 gCO2/kWh; 24 h of each.
      expectIntensity(lines[4], (24 * 31 + 24 * 29) / 48, "31 January – 2 February in FRA");
      expectIntensity(lines[0], 31, "an hour of January in FRA");
    },
  );

  it("reads the period spellings of the exports (offsets, fractions, no seconds)", SLOW, async () => {
    const { code, lines, stderr } = await evaluate("focus-spellings.csv", [
      "--grid-intensity",
      `${SERIES}plain.csv`,
    ]);
    expect(code, stderr).toBe(0);
    // Each line is 01:00–02:00 UTC, as written: FRA's 50.
    expect(lines).toHaveLength(6);
    for (const line of lines) expectIntensity(line, 50, line.ChargePeriodStart);
  });

  it("reads a Parquet export's TIMESTAMP periods", SLOW, async () => {
    // October 2026 at 123 gCO2eq/kWh in each zone of the fixture's regions.
    const zones = ["AUS", "BEL", "BRA", "CHN", "DEU", "FRA", "HKG", "IND", "IRL", "ITA", "JPN", "KOR"];
    const more = ["NZL", "SGP", "SWE", "TWN", "USA", "ZAF"];
    const series = join(scratch, "october.csv");
    const rows = [...zones, ...more].flatMap((zone) => [
      `${zone},2026-10-01T00:00:00Z,123`,
      `${zone},2026-11-01T00:00:00Z,456`,
    ]);
    writeFileSync(series, `zone,start,gco2_per_kwh\n${rows.join("\n")}\n`);
    const output = join(scratch, "parquet-periods.csv");
    const { code, stderr } = await runMain([
      "evaluate",
      "test/fixtures/billing/focus-1.2.parquet",
      "--edition",
      "2.4.1",
      "--output",
      output,
      "--grid-intensity",
      series,
    ]);
    expect(code, stderr).toBe(0);
    const lines = (parse(readFileSync(output), { columns: true }) as Line[]).filter(
      (line) => line.status === "evaluated",
    );
    expect(lines.length, stderr).toBeGreaterThan(10);
    for (const line of lines) expectIntensity(line, 123, line.ChargePeriodStart);
  });

  it("reads a CUR's usage dates with an Electricity Maps series and a --grid-zones table", SLOW, async () => {
    const { code, lines, stderr } = await evaluate("cur.csv", [
      "--grid-intensity",
      `${SERIES}electricity-maps-hourly.csv`,
      "--grid-zones",
      `${BILLS}zones.csv`,
    ]);
    expect(code, stderr).toBe(0);
    // FR 02:00 60, 03:00 70 (life-cycle column); us-west-1 → US-CAL-CISO 00:00 250.
    expectIntensity(lines[0], (60 + 70) / 2, "02:00–04:00 in FR");
    expectIntensity(lines[1], 250, "00:00–01:00 in US-CAL-CISO");
  });

  it("reads an Azure export's Date as a day, month first or ISO, with Ember's series", SLOW, async () => {
    const { code, lines, stderr } = await evaluate("azure.csv", [
      "--grid-intensity",
      `${SERIES}ember-monthly.csv`,
    ]);
    expect(code, stderr).toBe(0);
    expectIntensity(lines[0], 31, "01/31/2024 in France Central");
    expectIntensity(lines[1], 29, "2024-02-10 in France Central");
    expectIntensity(lines[2], 390, "01/15/2024 in Germany West Central");
  });

  it("refuses a series whose steps would be too many (exit 2, one line)", SLOW, async () => {
    // Two starts a second apart and ten years later: steps of a second over ten years.
    const series = join(scratch, "fine.csv");
    writeFileSync(
      series,
      "zone,start,gco2_per_kwh\nFRA,2024-01-01T00:00:00Z,50\nFRA,2034-01-01T00:00:01Z,60\n",
    );
    const { code, stderr } = await evaluate("focus.csv", ["--grid-intensity", series]);
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /^impact-service: --grid-intensity: the series makes \d+ steps of 1 s .*at most 4000000/,
    );
    expect(stderr.trim().split("\n")).toHaveLength(1);
  });

  it("refuses a series without the gwp criterion, and --grid-zones alone (exit 2)", SLOW, async () => {
    const noGwp = await evaluate("focus.csv", ["--criteria", "pe", "--grid-intensity", `${SERIES}plain.csv`]);
    expect(noGwp.code).toBe(2);
    expect(noGwp.stderr).toContain("--grid-intensity changes the gwp use: ask for the gwp criterion");
    const zonesAlone = await evaluate("focus.csv", ["--grid-zones", `${BILLS}zones.csv`]);
    expect(zonesAlone.code).toBe(2);
    expect(zonesAlone.stderr).toContain("--grid-zones needs --grid-intensity");
  });
});

/** Electricity Maps' export header since 2024, and a day's row of it (its life-cycle intensity cell). */
const EM_HEADER =
  "Datetime (UTC),Country,Zone name,Zone id,Carbon intensity gCO₂eq/kWh (direct),Carbon intensity gCO₂eq/kWh (Life cycle),Carbon-free energy percentage (CFE%),Renewable energy percentage (RE%),Data source,Data estimated,Data estimation method";
const em = (day: string, zone: string, lifeCycle: string) =>
  `${day} 00:00:00,Country,Zone,${zone},1,${lifeCycle},90,30,source,false,`;

/** A FOCUS export of an m5.xlarge hour (or longer) per line: region and period. */
function focusBill(name: string, lines: readonly (readonly [string, string, string])[]): string {
  const header =
    "BilledCost,ChargeCategory,ConsumedQuantity,ConsumedUnit,ProviderName,RegionId,ServiceName,SubAccountId,x_ServiceCode,x_Operation,x_UsageType,ChargePeriodStart,ChargePeriodEnd";
  const rows = lines.map(
    ([region, start, end]) =>
      `0.2,Usage,1,Hrs,AWS,${region},Amazon Elastic Compute Cloud,sub-1,AmazonEC2,RunInstances,BoxUsage:m5.xlarge,${start},${end}`,
  );
  const file = join(scratch, name);
  writeFileSync(file, `${header}\n${rows.join("\n")}\n`);
  return file;
}

describe("evaluate <billing export> --grid-intensity, a series as published", () => {
  it(
    "applies unpublished and missing days as gaps, reads exports concatenated, each zone to its own end",
    SLOW,
    async () => {
      const daily = [
        EM_HEADER,
        em("2024-01-01", "FR", "40"),
        em("2024-01-02", "FR", ""),
        "2024-01-03 00:00:00,France,France,FR,,Data is not complete enough to be published,,,,,",
        em("2024-01-04", "FR", "70"),
        em("2024-01-06", "FR", "90"),
      ].join("\r\n");
      const monthly = [EM_HEADER, em("2024-01-01", "DE", "380"), em("2024-02-01", "DE", "370")].join("\n");
      const series = join(scratch, "published.csv");
      writeFileSync(series, `${daily}\r\n${monthly}\n`);
      const zones = join(scratch, "escape-zones.csv");
      writeFileSync(zones, "provider,place,zone\naws,eu-west-1,\u001b[2J\u009b31m\n");
      const bill = focusBill("published-focus.csv", [
        ["eu-west-3", "2024-01-01T00:00:00Z", "2024-01-01T01:00:00Z"],
        ["eu-west-3", "2024-01-02T06:00:00Z", "2024-01-02T07:00:00Z"],
        ["eu-west-3", "2024-01-01T12:00:00Z", "2024-01-02T12:00:00Z"],
        ["eu-west-3", "2024-01-05T00:00:00Z", "2024-01-05T01:00:00Z"],
        ["eu-central-1", "2024-02-28T00:00:00Z", "2024-03-01T00:00:00Z"],
        ["eu-west-1", "2024-01-01T00:00:00Z", "2024-01-01T01:00:00Z"],
      ]);
      const withSeries = await evaluatePath(bill, ["--grid-intensity", series, "--grid-zones", zones]);
      const without = await evaluatePath(bill, []);
      expect(withSeries.code, withSeries.stderr).toBe(0);
      const [published, unpublished, half, missing, monthEnd, escaped] = withSeries.lines;
      expectIntensity(published, 40, "1 January in FRA");
      // An unpublished day and a day left out: the edition's gwp use, never the day before's.
      for (const [line, index] of [
        [unpublished, 1],
        [missing, 3],
      ] as const) {
        expect(line.gwp_use_kgco2eq).toBe(without.lines[index].gwp_use_kgco2eq);
        expect(line.warnings).toBe("grid series: period not covered in zone FRA, the edition's factor");
      }
      const france = Number(unpublished.grid_gco2_per_kwh);
      expect(france).toBeCloseTo(98, 6);
      // Half a day at 40, half of an unpublished one at France's factor.
      expectIntensity(half, (40 + france) / 2, "1 to 2 January in FRA");
      expect(half.warnings).toContain("grid series: period partly covered in zone FRA");
      // Germany's monthly zone lasts to 1 March (February whole), not a day past its last start.
      expectIntensity(monthEnd, 370, "28 February to 1 March in DEU");
      expect(escaped.warnings).toContain("grid series: no zone \u001b[2J\u009b31m in the series");
      expect(withSeries.stderr).toContain(
        "  gaps in the series: FRA 3 intervals (72 h) from 2024-01-02T00:00:00Z to 2024-01-06T00:00:00Z, the edition's factor\n",
      );
      expect(withSeries.stderr).toContain("  missing: zone \\x1b[2J\\x9b31m not in the series: 1 row");
      const controls = [...withSeries.stderr].filter((char) => /\p{Cc}/u.test(char) && char !== "\n");
      expect(controls).toEqual([]);
    },
  );

  it(
    "refuses an intensity of 1e308 and a zones file that is a FIFO or a device (exit 2, one line)",
    SLOW,
    async () => {
      const huge = join(scratch, "huge.csv");
      writeFileSync(huge, "zone,start,gco2_per_kwh\nFRA,2024-01-01T00:00Z,50\nFRA,2024-01-01T01:00Z,1e308\n");
      const refused = await evaluate("focus.csv", ["--grid-intensity", huge]);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `impact-service: ${huge}: line 3, column "gco2_per_kwh": 1e308 is above 10000 gCO2eq/kWh, the most an intensity may be\n`,
      );
      const fifo = join(scratch, "zones.fifo");
      execFileSync("mkfifo", [fifo]);
      const writer = spawn("sh", ["-c", `exec yes provider,place,zone > '${fifo}'`], { stdio: "ignore" });
      const device = join(scratch, "zones-device");
      execFileSync("mknod", [device, "c", "1", "5"]);
      try {
        for (const zones of [fifo, device]) {
          const run = await evaluate("focus.csv", [
            "--grid-intensity",
            `${SERIES}plain.csv`,
            "--grid-zones",
            zones,
          ]);
          expect(run.code).toBe(2);
          expect(run.stderr).toBe(
            `impact-service: ${zones}: the grid zones file is not a regular file (a FIFO, a device or a folder)\n`,
          );
        }
      } finally {
        writer.kill();
      }
    },
  );
});
