/**
 * `--group-by`'s rows carry the cost and the energy the report's group table shows (the coverage's
 * cost, billing_paid_cost, and `energy_kwh`), and the summary gives the evaluated lines' energy:
 * every group is the sum of its lines, the groups sum to the summary, on the multi-provider FOCUS
 * fixture (EffectiveCost, the cost FOCUS is read at).
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runMain } from "../support/cli.js";
import { expectClose } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "group-costs-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, string>;
let lines: Row[] = [];
let groups: Row[] = [];
let stderr = "";

beforeAll(async () => {
  const run = await runMain([
    "evaluate",
    "test/fixtures/billing/focus-whole-bill.csv",
    "--edition",
    "2.5.0",
    "-o",
    join(scratch, "lines.csv"),
    "--group-by",
    "ServiceName,ProviderName",
  ]);
  if (run.code !== 0) throw new Error(run.stderr);
  stderr = run.stderr;
  lines = parse(readFileSync(join(scratch, "lines.csv"), "utf8"), { columns: true }) as Row[];
  groups = parse(readFileSync(join(scratch, "lines.groups.csv"), "utf8"), { columns: true }) as Row[];
}, 180_000);

const positive = (text: string) => Math.max(0, Number(text) || 0);

describe("--group-by's rows", () => {
  it("have the cost and the kWh columns, beside the lines, hours and impacts", () => {
    expect(Object.keys(groups[0]).slice(0, 6)).toEqual([
      "ServiceName",
      "ProviderName",
      "lines",
      "cost",
      "hours",
      "energy_kwh",
    ]);
  });

  it("are each the sum of their evaluated lines: positive EffectiveCost, energy_kwh", () => {
    for (const group of groups) {
      const own = lines.filter(
        (line) =>
          line.status === "evaluated" &&
          line.ServiceName === group.ServiceName &&
          line.ProviderName === group.ProviderName,
      );
      expect(own.length, group.ServiceName).toBe(Number(group.lines));
      const cost = own.reduce((sum, line) => sum + positive(line.EffectiveCost), 0);
      expectClose(Number(group.cost), cost, `${group.ServiceName}'s cost`);
      const energy = own.reduce((sum, line) => sum + Number(line.energy_kwh), 0);
      expectClose(Number(group.energy_kwh), energy, `${group.ServiceName}'s kWh`);
    }
  });

  it("sum to the summary's estimated cost and its energy", () => {
    const cost = groups.reduce((sum, group) => sum + Number(group.cost), 0);
    const estimated = /coverage: [\d,]+ of [\d,]+ lines estimated; ([\d,.]+) of/.exec(stderr)?.[1] ?? "";
    expect(Number(estimated.replaceAll(",", ""))).toBe(Number(cost.toPrecision(4)));
    const energy = groups.reduce((sum, group) => sum + Number(group.energy_kwh), 0);
    const said =
      /\n {2}energy: ([\d,.]+) kWh \(behind the use impacts, PUE included\)\n/.exec(stderr)?.[1] ?? "";
    expect(Number(said.replaceAll(",", ""))).toBe(Number(energy.toPrecision(4)));
  });
});
