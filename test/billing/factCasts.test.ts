/**
 * The report's facts leave out a column whose every cell is a time, and a rank's column whose every
 * cell is a number of many values (src/billing/report/facts.ts). The cells are first cast on a
 * sample of the lines (castsFailedIn): a failure there settles that a column is not all times
 * (numbers), but a sample without one settles nothing. Here columns whose cells are times (numbers
 * of many values) on every line but the last hundred, past the sample, are offered; a column of
 * times on every line is left out as times.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GroupCube } from "../../src/output/reportParts/model.js";
import { writeManyDaysBill } from "../support/hostileBills.js";
import { reportedBill } from "../support/reportedBill.js";

const scratch = mkdtempSync(join(tmpdir(), "fact-casts-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const LINES = 3_000;
/** Lines whose cells are no longer times or numbers: the last ones, well past the sample's 2,048. */
const LAST = 100;

let cube: GroupCube;

beforeAll(async () => {
  const bill = join(scratch, "bill.csv");
  await writeManyDaysBill(bill, LINES);
  const [header, ...rows] = readFileSync(bill, "utf8").trimEnd().split("\n");
  const day = (index: number) => `2026-10-0${1 + (index % 5)} 00:00:00`;
  const added = rows.map((row, index) => {
    const late = index >= rows.length - LAST;
    return `${row},${day(index)},${late ? "see contract" : day(index)},${late ? "n/a" : index}`;
  });
  writeFileSync(bill, `${[`${header},x_Stamped,x_Noted,x_Counted`, ...added].join("\n")}\n`);
  cube = (await reportedBill(bill)).cube;
});

describe("a column's cells cast on a sample first", () => {
  it("leaves out a column of times on every line", () => {
    expect(cube.left).toContain("x_Stamped (times)");
    expect(cube.columns.map((column) => column.name)).not.toContain("x_Stamped");
  });

  it("offers a column whose cells are times but on its last lines, past the sample", () => {
    expect(cube.left.filter((reason) => reason.startsWith("x_Noted"))).toEqual([]);
    const noted = cube.columns.find((column) => column.name === "x_Noted");
    expect(noted?.values).toContain("see contract");
  });

  it("offers a column of many numbers whose last cells are a text, past the sample", () => {
    expect(cube.left.filter((reason) => reason.startsWith("x_Counted"))).toEqual([]);
    expect(cube.columns.map((column) => column.name)).toContain("x_Counted");
  });
});
