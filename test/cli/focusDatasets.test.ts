/**
 * FOCUS's versions and datasets as providers ship them: a Cost and Usage file named by the columns
 * its version introduced (1.4's TagDetails, 1.3's ContractApplied), and the supporting datasets
 * (Contract Commitment, 1.3; Billing Period and Invoice Detail, 1.4: the specification's
 * datasets/<name>/dataset.md), which hold no usage: each named and refused in one line, exit 2,
 * nothing written, as CSV and as Parquet. Fixtures: test/fixtures/billing/arrivals (the supporting
 * datasets' files hold one line each, their columns the datasets' mandatory ones).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { evaluatedLines, runMain241 } from "../support/cli.js";

const SLOW = { timeout: 180_000 };
const ARRIVALS = "test/fixtures/billing/arrivals";
const scratch = mkdtempSync(join(tmpdir(), "focus-datasets-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A CSV line of cells each quoted, kept byte for byte. */
const quotedLine = (cells: readonly string[]) =>
  `${cells.map((cell) => `"${cell.replaceAll('"', '""')}"`).join(",")}\n`;

describe("FOCUS 1.4's Cost and Usage dataset", () => {
  it("is named by TagDetails, a column 1.4 introduced, and read as 1.3's lines are", SLOW, async () => {
    // focus-1.3.csv with TagDetails added (the specification's example of a tag set on a resource)
    const [header, ...rows] = parse(readFileSync(join(ARRIVALS, "focus-1.3.csv"))) as string[][];
    const details =
      '{"Default":{"Tags":{"team":{"TagSource":"Resource","TagSourceId":"i-1","TagValue":"web","AncestorTaggedSources":null}},"UntaggedSources":null}}';
    const file = join(scratch, "focus-1.4.csv");
    writeFileSync(
      file,
      [[...header, "TagDetails"], ...rows.map((row) => [...row, details])].map(quotedLine).join(""),
    );
    const newer = await evaluatedLines(file, join(scratch, "focus-1.4.out.csv"));
    const older = await evaluatedLines(join(ARRIVALS, "focus-1.3.csv"), join(scratch, "focus-1.3.out.csv"));
    expect(newer.stderr).toContain("focus-1.4.csv: FOCUS 1.4 (Cost and Usage), edition 2.4.1");
    expect(older.stderr).toContain("focus-1.3.csv: FOCUS 1.3 (Cost and Usage), edition 2.4.1");
    expect(newer.lines.map(({ TagDetails, ...line }) => line)).toEqual(older.lines);
    expect(newer.lines.map((line) => line.status)).toEqual(older.lines.map((line) => line.status));
  });
});

/** Each supporting dataset's fixture, its name and the column telling it. */
const DATASETS = [
  ["focus-1.3-contract-commitment.csv", "Contract Commitment", "1.3", "ContractCommitmentId"],
  ["focus-1.4-billing-period.csv", "Billing Period", "1.4", "BillingPeriodStatus"],
  ["focus-1.4-invoice-detail.csv", "Invoice Detail", "1.4", "InvoiceDetailId"],
] as const;

/** The fixture as Parquet (DuckDB's copy of it, every column as text). */
async function asParquet(fixture: string): Promise<string> {
  const file = join(scratch, fixture.replace(/\.csv$/, ".parquet"));
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  await connection.run(
    `COPY (SELECT * FROM read_csv('${join(ARRIVALS, fixture)}', all_varchar = true)) TO '${file}' (FORMAT parquet)`,
  );
  connection.closeSync();
  instance.closeSync();
  return file;
}

describe("FOCUS's supporting datasets", () => {
  it.each(DATASETS)(
    "%s is named as FOCUS's %s dataset and not evaluated",
    async (fixture, name, version, column) => {
      for (const file of [join(ARRIVALS, fixture), await asParquet(fixture)]) {
        const output = join(scratch, `${fixture}.out.csv`);
        const { code, stdout, stderr } = await runMain241(["evaluate", file, "--output", output]);
        expect(code).toBe(2);
        expect(stdout).toBe("");
        expect(stderr.trim().split("\n")).toHaveLength(1);
        expect(stderr).toContain(
          `is FOCUS's ${name} dataset (FOCUS ${version} and later, told by its ${column} column)`,
        );
        expect(stderr).toContain("no usage to estimate; it is not evaluated");
        expect(existsSync(output)).toBe(false);
      }
    },
    SLOW,
  );

  it("is told by its column under a loader's name too (invoice_detail_id)", SLOW, async () => {
    const [header, ...rows] = parse(
      readFileSync(join(ARRIVALS, "focus-1.4-invoice-detail.csv")),
    ) as string[][];
    const file = join(scratch, "invoice_detail.csv");
    const snake = (name: string) => name.replace(/([a-z])([A-Z])/g, "$1_$2").toLowerCase();
    writeFileSync(file, [header.map(snake), ...rows].map(quotedLine).join(""));
    const { code, stderr } = await runMain241(["evaluate", file, "--output", join(scratch, "snake.out.csv")]);
    expect(code).toBe(2);
    expect(stderr).toContain("is FOCUS's Invoice Detail dataset");
  });
});
