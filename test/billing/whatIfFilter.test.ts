/**
 * What to act on follows the run's filter and says how it relates to its groups: a CUR 2.0 of
 * three regions (test/fixtures/billing/regions/cur-regions.csv), whose whole bill ranks c5.large in
 * us-east-1 first, filtered to eu-west-2 by the plain name `region` and by the file's own
 * `product_region_code`: only eu-west-2's actions, in `--what-if`'s CSV, the report's "What to act
 * on" and the data the report tells the /evaluate page's "Try a change" alike. Under `--group-by`
 * the actions are not split by group, and the command says so.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain } from "../support/cli.js";

const FIXTURE = new URL("../fixtures/billing/regions/cur-regions.csv", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "what-if-filter-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, string>;

interface Run {
  readonly actions: Row[];
  readonly stderr: string;
  readonly report: string;
}

async function run(name: string, extra: readonly string[]): Promise<Run> {
  const done = await runMain([
    "evaluate",
    FIXTURE,
    "--edition",
    "2.5.0",
    "-o",
    join(scratch, `${name}.csv`),
    "--what-if",
    join(scratch, `${name}-what-if.csv`),
    "--report",
    join(scratch, `${name}.html`),
    ...extra,
  ]);
  if (done.code !== 0) throw new Error(`exit ${done.code}: ${done.stderr}`);
  return {
    actions: parse(readFileSync(join(scratch, `${name}-what-if.csv`), "utf8"), { columns: true }) as Row[],
    stderr: done.stderr,
    report: readFileSync(join(scratch, `${name}.html`), "utf8"),
  };
}

/** The report's "What to act on": each row's usage place, from its name's hover. */
function reportPlaces(report: string): string[] {
  const start = report.indexOf('id="what-if"');
  const table = report.slice(start, report.indexOf("</table>", start));
  return [...table.matchAll(/<td class="name" title="aws [^"]* at ([^"]+)">/g)].map((match) => match[1]);
}

/** The rows the report tells the /evaluate page's "Try a change" (its data's `whatIf`). */
function triedRows(report: string): { place: string; instanceType: string; gwp: number; change: string }[] {
  const data = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(report);
  if (data === null) throw new Error("the report has no data");
  return JSON.parse(data[1]).whatIf.rows;
}

describe("the actions of a bill filtered to one region", () => {
  let whole: Run;
  let byPlainName: Run;
  let byOwnColumn: Run;
  let grouped: Run;

  beforeAll(async () => {
    whole = await run("whole", []);
    byPlainName = await run("region", ["--filter", "region=eu-west-2"]);
    byOwnColumn = await run("own", ["--filter", "product_region_code=eu-west-2"]);
    grouped = await run("grouped", [
      "--filter",
      "region=eu-west-2",
      "--filter",
      "month=2026-04",
      "--group-by",
      "account,month",
    ]);
  }, 360_000);

  it("the whole bill ranks c5.large in us-east-1 first, among three regions", () => {
    expect([whole.actions[0].instance_type, whole.actions[0].place]).toEqual(["c5.large", "us-east-1"]);
    expect(new Set(whole.actions.map((row) => row.place))).toEqual(
      new Set(["us-east-1", "eu-west-2", "ap-southeast-2"]),
    );
  });

  it("--what-if's CSV: only eu-west-2's usages, the same by `region` and by product_region_code", () => {
    const { actions } = byPlainName;
    expect(actions.length).toBeGreaterThan(0);
    expect(new Set(actions.map((row) => row.place))).toEqual(new Set(["eu-west-2"]));
    expect(new Set(actions.map((row) => row.instance_type))).toEqual(new Set(["m5.xlarge", "c5.large"]));
    expect(byOwnColumn.actions).toEqual(actions);
    // Each usage's figures are the whole bill's for the same usage: the filter chooses, never rescales
    for (const row of actions) {
      const same = whole.actions.find(
        (other) =>
          other.instance_type === row.instance_type &&
          other.place === row.place &&
          other.change === row.change &&
          other.to_instance_type === row.to_instance_type,
      );
      expect(same?.gwp_kgco2eq, `${row.instance_type} ${row.change}`).toBe(row.gwp_kgco2eq);
      expect(same?.hours).toBe(row.hours);
    }
  });

  it("the report's What to act on and the Try panel's data are the CSV's rows", () => {
    for (const { report, actions } of [byPlainName, byOwnColumn]) {
      expect(reportPlaces(report)).toEqual(actions.map((row) => row.place));
      const tried = triedRows(report);
      expect(tried.map((row) => [row.instanceType, row.place, row.change])).toEqual(
        actions.map((row) => [row.instance_type, row.place, row.change]),
      );
      for (const [index, row] of tried.entries())
        expect(row.gwp).toBeCloseTo(Number(actions[index].gwp_kgco2eq), 6);
    }
    // The whole bill's report tells the page us-east-1's first
    expect(triedRows(whole.report)[0]).toMatchObject({ instanceType: "c5.large", place: "us-east-1" });
  });

  it("the report opens filtered by the plain name's column; a filter it cannot open is said", async () => {
    const told = (report: string) => {
      const data = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(report);
      return JSON.parse(data?.[1] ?? "{}").filters;
    };
    expect(told(byPlainName.report)).toEqual([{ column: "product_region_code", values: ["eu-west-2"] }]);
    expect(byPlainName.report).toContain(
      `<p class="sub filtered-only">What to act on is the run's: the lines of its --filter (region=eu-west-2), whatever the filter set here.</p>`,
    );
    // `month` is no column of the page's filter: its figures stay the whole bill's, and it says so
    expect(grouped.report).toContain(
      "This page's figures are the whole bill's: its filter has no month to open with.",
    );
  });

  it("under --group-by the actions are the filter's, not split by group, and the command says so", () => {
    expect(grouped.actions).toEqual(byPlainName.actions);
    expect(grouped.stderr).toContain(
      "what to act on: the usages of the lines of --filter (region=eu-west-2, month=2026-04), not each group's of --group-by account,month",
    );
    expect(grouped.stderr).toContain("one group's: --filter account=VALUE");
    expect(byPlainName.stderr).not.toContain("what to act on:");
  });
});
