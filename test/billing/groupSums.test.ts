/**
 * `--group-by`'s sums (writeGroupSums, src/billing/stages/write.ts) are exact (src/duckdb/exactSum.ts):
 * the correctly rounded sum of a group's written values, whatever DuckDB's threads, where its SUM
 * (Kahan's) is not.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { writeGroupSums } from "../../src/billing/stages/write.js";
import { registerExactSum } from "../../src/duckdb/exactSum.js";

const scratch = mkdtempSync(join(tmpdir(), "group-sums-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The groups' file written from `written` on a connection of `threads` threads, read back. */
async function groupSums(written: string, threads: string) {
  const instance = await DuckDBInstance.create(":memory:", { threads });
  const connection = await instance.connect();
  // As every billing database is given it (openDatabase)
  registerExactSum(connection);
  try {
    const output = join(scratch, `groups-${threads}.csv`);
    await writeGroupSums(
      connection,
      { file: written, format: "csv" },
      output,
      [{ name: "team", expression: "team" }],
      ["gwp_use_kgco2eq"],
    );
    return readFileSync(output, "utf8");
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe("--group-by's sums", () => {
  it("are the exact sum of a group's lines, where Kahan's summation loses them", async () => {
    // Team a: 1 + 1e20 + 1 - 1e20 = 2 exactly; Kahan's SUM in this order gives 0 (the two 1s lost
    // against 1e20, whose last bit is 16,384). Team b: 0.1 + 0.2, hours 2 + none.
    // The line not evaluated is left out.
    const lines = [
      "team,status,hours,gwp_use_kgco2eq",
      "a,evaluated,1,1",
      "a,evaluated,1,1e20",
      "a,evaluated,1,1",
      "a,evaluated,1,-1e20",
      "b,evaluated,2,0.1",
      "b,evaluated,,0.2",
      "b,not compute,,5",
    ];
    const written = join(scratch, "lines.csv");
    writeFileSync(written, `${lines.join("\n")}\n`);
    const [one, four] = [await groupSums(written, "1"), await groupSums(written, "4")];
    // Written with 10 significant digits, as the groups' CSV is
    expect(one).toBe("team,lines,hours,gwp_use_kgco2eq\na,4,4,2\nb,2,2,0.3\n");
    expect(four).toEqual(one);
  });
});
