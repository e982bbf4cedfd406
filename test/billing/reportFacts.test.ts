/**
 * The facts the report's page filters by (src/billing/report/facts.ts) on bills whose lines each
 * have a day, or a resource, account and tag value, of their own (issue 86): summed from the lines
 * as they stream, at the chart's grain, within their bound, and whole — every evaluated line in
 * them once, whatever the bill's counts.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GroupCube } from "../../src/output/reportParts/model.js";
import { writeManyDaysBill, writeManyNamesBill } from "../support/hostileBills.js";
import { type ReportedData, reportedBill } from "../support/reportedBill.js";

const scratch = mkdtempSync(join(tmpdir(), "report-facts-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const DAYS = 2_000;
const NAMES = 3_000;

/** The facts' lines in all (each row's first sum). */
const linesOf = (cube: GroupCube) =>
  cube.rows.reduce((sum, row) => sum + row[cube.keys ?? cube.columns.length], 0);

let days: ReportedData;
let names: ReportedData;

beforeAll(async () => {
  await writeManyDaysBill(join(scratch, "days.csv"), DAYS);
  await writeManyNamesBill(join(scratch, "names.csv"), NAMES);
  days = await reportedBill(join(scratch, "days.csv"));
  names = await reportedBill(join(scratch, "names.csv"), ["--group-by", "tag:team"]);
}, 240_000);

describe("the facts of a bill whose lines each fall on a day of their own", () => {
  it("are by the chart's step, its steps among the chart's, within the bound", () => {
    const over = days.overTime;
    // 2,000 days are past the chart's 400 steps: by month, and so are the facts
    expect(over?.grain).toBe("month");
    expect(days.cube.step?.grain).toBe("month");
    const steps = days.cube.step?.values ?? [];
    expect(steps.length).toBeGreaterThan(60);
    expect(steps.length).toBeLessThanOrEqual(400);
    for (const step of steps) expect(over?.steps).toContain(step);
    expect(days.cube.rows.length).toBeLessThanOrEqual(20_000);
  });

  it("hold every evaluated line once", () => {
    expect(linesOf(days.cube)).toBeCloseTo(DAYS, 6);
  });
});

describe("the facts of a bill of as many resources, accounts and tag values as lines", () => {
  it("name each dimension's largest values, the rest as one, within the bound", () => {
    const cube = names.cube;
    expect(cube.rows.length).toBeLessThanOrEqual(20_000);
    for (const dimension of ["service", "region", "account", "resource"] as const) {
      const { values, names: named } = cube.dimensions?.[dimension] ?? { values: [], names: [] };
      expect(values.length, dimension).toBeLessThanOrEqual(100);
      expect(named).toHaveLength(values.length);
    }
    expect(cube.dimensions?.resource.values).toHaveLength(100);
    const team = cube.columns.find((column) => column.name === "tag:team");
    expect(team?.values).toHaveLength(100);
    // approx_count_distinct's estimate of the values past those named
    expect(team?.others ?? 0).toBeGreaterThan(NAMES * 0.9 - 100);
    expect(team?.others ?? 0).toBeLessThan(NAMES * 1.1 - 100);
  });

  it("hold every evaluated line once", () => {
    expect(linesOf(names.cube)).toBeCloseTo(NAMES, 6);
  });
});
