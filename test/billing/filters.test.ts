/**
 * Filters that combine (src/billing/stages/filters.ts, src/billing/report/facts.ts): the command's
 * `--filter` (two services and one region of the FinOps Foundation's FOCUS sample) and the facts
 * the report's page filters in the browser give the same sums — the groups' file, the summary's
 * line and the facts' rows the filter keeps — and every table of the facts is the sum of its
 * lines: the facts by a column are the command's `--group-by` of that column, their whole the
 * evaluated lines'. Every column and tag of a legacy CUR is offered.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GroupCube } from "../../src/output/reportParts/model.js";
import { runMain } from "../support/cli.js";
import { publicExport } from "../support/publicExports.js";
import { expectClose } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "filters-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, string>;
const SAMPLE = publicExport("focus-1.0-finops-sample.csv");
const SERVICES = ["Amazon Elastic Compute Cloud", "Elastic Load Balancing"];
const REGION = "us-east-1";

/** The page's data of a report (its `#report-data` script). */
function reportData(file: string): { cube: GroupCube; filters: { column: string; values: string[] }[] } {
  const html = readFileSync(file, "utf8");
  const json = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (json === undefined) throw new Error(`${file}: no report data`);
  return JSON.parse(json);
}

/** The facts' rows kept by the filter (each column's index among its values), summed: lines, cost, kWh, gwp embedded and use. */
function filtered(cube: GroupCube, filters: Record<string, readonly string[]>): number[] {
  const keys = cube.keys ?? cube.columns.length;
  const wanted = Object.entries(filters).map(([name, values]) => {
    const at = cube.columns.findIndex((column) => column.name === name);
    return { at, values: new Set(values.map((value) => cube.columns[at].values.indexOf(value))) };
  });
  const sums = [0, 0, 0, 0, 0];
  for (const row of cube.rows) {
    if (!wanted.every(({ at, values }) => values.has(row[at]))) continue;
    for (let i = 0; i < sums.length; i++) sums[i] += row[keys + i];
  }
  return sums;
}

let stderr = "";
let groups: Row[] = [];
let whole: Row[] = [];
let data: ReturnType<typeof reportData>;

beforeAll(async () => {
  const at = (name: string) => join(scratch, name);
  const run = await runMain([
    "evaluate",
    SAMPLE,
    "--edition",
    "2.5.0",
    "-o",
    at("lines.csv"),
    "--report",
    at("report.html"),
    "--group-by",
    "RegionId",
    ...SERVICES.flatMap((service) => ["--filter", `ServiceName=${service}`]),
    "--filter",
    `RegionId=${REGION}`,
  ]);
  if (run.code !== 0) throw new Error(run.stderr);
  stderr = run.stderr;
  groups = parse(readFileSync(at("lines.groups.csv"), "utf8"), { columns: true }) as Row[];
  data = reportData(at("report.html"));
  const all = await runMain([
    "evaluate",
    SAMPLE,
    "--edition",
    "2.5.0",
    "-o",
    at("all.csv"),
    "--group-by",
    "ServiceName",
  ]);
  if (all.code !== 0) throw new Error(all.stderr);
  whole = parse(readFileSync(at("all.groups.csv"), "utf8"), { columns: true }) as Row[];
}, 240_000);

describe("--filter on the FOCUS sample", () => {
  it("sums the lines of either service in the region, as the page's facts filtered so", () => {
    expect(groups).toHaveLength(1);
    const [group] = groups;
    expect(group.RegionId).toBe(REGION);
    const [lines, cost, energy, embedded, use] = filtered(data.cube, {
      ServiceName: SERVICES,
      RegionId: [REGION],
    });
    expect(Number(group.lines)).toBe(lines);
    expect(lines).toBe(252);
    expectClose(Number(group.cost), cost, "the filter's cost");
    expectClose(Number(group.energy_kwh), energy, "the filter's kWh");
    expectClose(Number(group.gwp_embedded_kgco2eq), embedded, "the filter's gwp embedded");
    expectClose(Number(group.gwp_use_kgco2eq), use, "the filter's gwp use");
  });

  it("says the filter's sums in the summary, and the report opens with the filter set", () => {
    expect(stderr).toMatch(
      /\nthe lines of --filter \(ServiceName is Amazon Elastic Compute Cloud or Elastic Load Balancing, and RegionId is us-east-1\): 252 of 820 evaluated, cost 16 USD, energy 1\.104 kWh\n {2}gwp: 494\.7 gCO2eq \(embedded 86\.36 gCO2eq, use 408\.3 gCO2eq\)\n/,
    );
    expect(data.filters).toEqual([
      { column: "ServiceName", values: SERVICES },
      { column: "RegionId", values: [REGION] },
    ]);
  });

  it("refuses a filter that is no COLUMN=VALUE, or names no column of the file", async () => {
    const bad = await runMain([
      "evaluate",
      SAMPLE,
      "-o",
      join(scratch, "bad.csv"),
      "--filter",
      "ServiceName",
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("--filter is COLUMN=VALUE");
    const none = await runMain(["evaluate", SAMPLE, "-o", join(scratch, "none.csv"), "--filter", "Nope=1"]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain("--filter: the file has no column Nope");
  });
});

describe("the facts the page filters", () => {
  it("are, by a column, the command's --group-by of it, and whole the evaluated lines", () => {
    const keys = data.cube.keys ?? data.cube.columns.length;
    const at = data.cube.columns.findIndex((column) => column.name === "ServiceName");
    expect(data.cube.columns[at].others ?? 0).toBe(0);
    for (const group of whole) {
      const value = data.cube.columns[at].values.indexOf(group.ServiceName);
      const rows = data.cube.rows.filter((row) => row[at] === value);
      const sum = (i: number) => rows.reduce((total, row) => total + row[keys + i], 0);
      expect(sum(0), group.ServiceName).toBeCloseTo(Number(group.lines), 9);
      expectClose(sum(1), Number(group.cost), `${group.ServiceName}'s cost`);
      expectClose(sum(3), Number(group.gwp_embedded_kgco2eq), `${group.ServiceName}'s gwp embedded`);
    }
    const lines = data.cube.rows.reduce((total, row) => total + row[keys], 0);
    expect(lines).toBeCloseTo(820, 9);
  });

  it("are within their bound, each dimension and step in every row", () => {
    const cube = data.cube;
    expect(cube.rows.length).toBeLessThanOrEqual(20_000);
    expect(cube.step?.grain).toBe("day");
    expect(cube.step?.values).toHaveLength(30);
    expect(Object.keys(cube.dimensions ?? {})).toEqual(["service", "region", "account", "resource"]);
    for (const row of cube.rows) expect(row).toHaveLength((cube.keys ?? 0) + 3 + 2 * 3);
  });
});

describe("the columns offered", () => {
  it("are every column and tag of a legacy CUR with two values or more, ids and usage types included", async () => {
    const report = join(scratch, "legacy.html");
    const run = await runMain([
      "evaluate",
      "test/fixtures/billing/cur-1.0-legacy.csv",
      "-o",
      join(scratch, "legacy.csv"),
      "--report",
      report,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const names = reportData(report).cube.columns.map((column) => column.name);
    for (const name of [
      "resourceTags/user:team",
      "product/instanceType",
      "lineItem/ResourceId",
      "lineItem/UsageType",
      "identity/LineItemId",
      "method",
    ])
      expect(names).toContain(name);
    expect(names.length).toBeGreaterThan(16);
  });
});
