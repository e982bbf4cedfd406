/**
 * `npx impact-service evaluate <billing export>` and `impact-service coefficients` as a user runs
 * them: the command line in a process of its own where the process is what is read (EDITION=2.4.1
 * in its environment, read at its start; a bill's lines and a whole table on its stdout, a pipe),
 * else the command's function (`runMain`, edition 2.4.1 given as `--edition`): its output files,
 * its stderr and exit code, the same without a process.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { UNIT_KEY_NAMES } from "../../src/billing/stages/methodRows.js";
import { KEY_COLUMNS } from "../../src/service/coefficients.js";
import { runCli, runMain, runMain241 } from "../support/cli.js";

/** Each run starts tsx and loads the editions: seconds each on a busy 2-core machine. */
const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-cli-"));

/** The command in a process of its own, edition 2.4.1 (test/support/cli.ts). */
const run = (args: readonly string[]) => runCli(args, { EDITION: "2.4.1" });

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe("impact-service evaluate <billing export>", () => {
  it("writes the FOCUS Parquet fixture's lines, their group sums and the summary", SLOW, async () => {
    const output = join(scratch, "lines.csv");
    const { code, stderr } = await runMain241([
      "evaluate",
      "test/fixtures/billing/focus-1.2.parquet",
      "--output",
      output,
      "--group-by",
      "SubAccountId,ServiceName",
      "--ranges",
    ]);
    expect(code, stderr).toBe(0);
    const lines = parse(readFileSync(output), { columns: true }) as Record<string, string>[];
    expect(lines).toHaveLength(60);
    expect(Object.keys(lines[0])).toContain("gwp_use_kgco2eq_max");
    const groups = parse(readFileSync(join(scratch, "lines.groups.csv")), { columns: true }) as Record<
      string,
      string
    >[];
    const evaluated = lines.filter((line) => line.status === "evaluated");
    expect(groups.reduce((sum, group) => sum + Number(group.lines), 0)).toBe(evaluated.length);
    expect(stderr).toMatch(/billing export .*focus-1\.2\.parquet: FOCUS 1\.0–1\.2, edition 2\.4\.1/);
    expect(stderr).toContain("  rows read: 60\n");
    expect(stderr).toMatch(/unknown instance types:\n {2}aws (z9\.mega|m99\.huge): \d+ rows?, [\d.]+ h/);
    expect(stderr).toMatch(/gwp use: [\d.e-]+ kgCO2eq \(min/);
  });

  it("recognises CUR (gzipped) and Azure CSV by their header and writes CSV on stdout", SLOW, async () => {
    // The gzipped CUR through the process (its stdout a pipe, its edition EDITION's, read at its
    // start); Azure's CSV through the function (its edition --edition's).
    for (const [fixture, format, runOf] of [
      ["cur.csv.gz", "AWS CUR 2.0", run],
      ["azure.csv", "Azure cost export", runMain241],
    ] as const) {
      const { code, stdout, stderr } = await runOf([
        "evaluate",
        `test/fixtures/billing/${fixture}`,
        "--criteria",
        "gwp",
      ]);
      expect(code, stderr).toBe(0);
      const lines = parse(stdout, { columns: true }) as Record<string, string>[];
      expect(lines).toHaveLength(60);
      expect(lines.some((line) => line.status === "evaluated" && Number(line.gwp_use_kgco2eq) > 0)).toBe(
        true,
      );
      expect(stderr).toContain(format);
      expect(stderr).toContain(", edition 2.4.1\n");
    }
  });

  it(
    "exits 2 on a header of no known format, 1 with --strict on a bad row, writing nothing to -o or --tables",
    SLOW,
    async () => {
      // Exit codes as the function returns them (through the process: test/cli/grid.test.ts and
      // test/cli/portable.test.ts exit 2, test/cli/droppedLine.test.ts exit 1 with --strict)
      const unknown = await runMain241(["evaluate", "test/fixtures/billing/unknown-header.parquet"]);
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toMatch(
        /lacks .*Known formats: FOCUS 1\.0–1\.2, AWS CUR 2\.0, Azure cost export/,
      );
      const output = join(scratch, "strict.csv");
      const strict = await runMain241([
        "evaluate",
        "test/fixtures/billing/focus-bad-rows.csv",
        "--strict",
        "-o",
        output,
        "--tables",
        join(scratch, "strict-tables"),
      ]);
      expect(strict.code).toBe(1);
      expect(strict.stderr).toContain("--strict: 3 bad row(s)");
      expect(existsSync(output)).toBe(false);
      // The tables' folder is made once the run has succeeded, not before.
      expect(existsSync(join(scratch, "strict-tables"))).toBe(false);
    },
  );
});

describe("impact-service coefficients", () => {
  it("writes one provider's table as CSV, every instance type at every place", SLOW, async () => {
    const { code, stdout, stderr } = await run([
      "coefficients",
      "--provider",
      "azure",
      "--criteria",
      "gwp",
      "--load",
      "50",
    ]);
    expect(code, stderr).toBe(0);
    const rows = parse(stdout, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0]).slice(0, 7)).toEqual([...KEY_COLUMNS, "gwp_embedded_kgco2eq_per_hour"]);
    expect(new Set(rows.map((row) => row.provider))).toEqual(new Set(["azure"]));
    expect(rows.every((row) => row.load === "50")).toBe(true);
    expect(new Set(rows.map((row) => row.instance_type)).size).toBeGreaterThan(300);
  });

  it("with --methods, adds the methods' rows of each place after the instance types'", SLOW, async () => {
    const { code, stdout, stderr } = await runMain([
      "coefficients",
      "--edition",
      "2.4.1",
      "--provider",
      "aws",
      "--criteria",
      "gwp",
      "--methods",
    ]);
    expect(code, stderr).toBe(0);
    const rows = parse(stdout, { columns: true }) as Record<string, string>[];
    const methods = rows.filter((row) => row.instance_type.startsWith("method:"));
    expect(rows.slice(-methods.length)).toEqual(methods);
    const places = rows.filter((row) => row.instance_type === "m5.large").map((row) => row.region);
    const byKey = (key: string) => methods.filter((row) => row.instance_type === key);
    expect(new Set(methods.map((row) => row.instance_type))).toEqual(new Set(UNIT_KEY_NAMES));
    // The places of the instance types, then the countries of the regions the edition lacks
    // (src/billing/registry/regions.ts): eu-central-2 is in Switzerland, eu-south-2 in Spain
    for (const key of UNIT_KEY_NAMES) {
      const rows = byKey(key);
      expect(rows.slice(0, places.length).map((row) => row.region)).toEqual(places);
      const countries = rows.slice(places.length);
      expect(countries.every((row) => row.region === "")).toBe(true);
      expect(countries.map((row) => row.usage_location)).toEqual(
        expect.arrayContaining(["CHE", "ESP", "IDN"]),
      );
    }
    // At one place, PUE and factor alike: an SSD GB-hour uses 1.2 Wh per TB-hour, a GB moved 1 kWh per TB.
    byKey("method:ssd-gb-hour").forEach((ssd, index) => {
      const network = byKey("method:network-gb")[index];
      expect(Number(ssd.gwp_use_kgco2eq_per_hour) / Number(network.gwp_use_kgco2eq_per_hour)).toBeCloseTo(
        1.2e-6 / 0.001,
        12,
      );
      expect(Number(network.gwp_embedded_kgco2eq_per_hour)).toBe(0);
    });
  });
});
