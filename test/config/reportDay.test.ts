/**
 * The day a report says it was written: SOURCE_DATE_EPOCH's when set (reproducible-builds.org's
 * convention: the same bill gives the same report bytes whatever the day of the run), else the
 * run's own day, in UTC. Through the command for an inventory and a bill, both of whose reports
 * print the day.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { ConfigError, loadConfig, reportDayOf } from "../../src/config/serviceConfig.js";
import { runMain } from "../support/cli.js";

const dir = mkdtempSync(join(tmpdir(), "impact-report-day-"));
const FOCUS = new URL("../fixtures/billing/focus-whole-bill.csv", import.meta.url).pathname;

afterEach(() => vi.unstubAllEnvs());
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the day a report is dated", () => {
  it("is SOURCE_DATE_EPOCH's day in UTC, to the second either side of midnight", () => {
    expect(reportDayOf(loadConfig({ SOURCE_DATE_EPOCH: "0" }))).toBe("1970-01-01");
    // 2026-01-01T00:00:00Z is 1,767,225,600 s: 20,454 days of 86,400 s
    expect(reportDayOf(loadConfig({ SOURCE_DATE_EPOCH: "1767225600" }))).toBe("2026-01-01");
    expect(reportDayOf(loadConfig({ SOURCE_DATE_EPOCH: "1767225599" }))).toBe("2025-12-31");
  });

  it("is the run's own day when unset", () => {
    const before = new Date().toISOString().slice(0, 10);
    const day = reportDayOf(loadConfig({}));
    const after = new Date().toISOString().slice(0, 10);
    expect([before, after]).toContain(day);
  });

  it("refuses what is not a whole number of seconds, naming the variable", () => {
    for (const value of ["-1", "1.5", "tomorrow", "253402300800"]) {
      expect(() => loadConfig({ SOURCE_DATE_EPOCH: value })).toThrow(ConfigError);
      expect(() => loadConfig({ SOURCE_DATE_EPOCH: value })).toThrow(/SOURCE_DATE_EPOCH/);
    }
  });

  it("dates an inventory's report and a bill's report alike", async () => {
    vi.stubEnv("SOURCE_DATE_EPOCH", "1767225600");
    const inventory = join(dir, "inventory.csv");
    writeFileSync(inventory, "kind,quantity\nserver,1\n");
    const inventoryRun = await runMain([
      "evaluate",
      inventory,
      "-o",
      join(dir, "inventory-out.csv"),
      "--report",
      join(dir, "inventory.html"),
    ]);
    expect(inventoryRun.code).toBe(0);
    expect(readFileSync(join(dir, "inventory.html"), "utf8")).toContain("2026-01-01");
    const billRun = await runMain([
      "evaluate",
      FOCUS,
      "--edition",
      "2.4.1",
      "-o",
      join(dir, "bill-out.csv"),
      "--report",
      join(dir, "bill.html"),
    ]);
    expect(billRun.code).toBe(0);
    const bill = readFileSync(join(dir, "bill.html"), "utf8");
    expect(bill).toContain("2026-01-01");
    expect(bill).not.toContain(new Date().toISOString().slice(0, 10));
  });
});
