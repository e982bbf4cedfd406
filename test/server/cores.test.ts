/**
 * src/config/cores.ts: the cores `WORKERS=auto` starts workers for, from the processors and the
 * control group's CPU quota (cgroup v2's cpu.max, v1's CFS files).
 */
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { quotaOfCfs, quotaOfCpuMax, usableCores } from "../../src/config/cores.js";

describe("usableCores", () => {
  it("reads a quota from cgroup v2's cpu.max, none when unbounded", () => {
    expect(quotaOfCpuMax("max 100000\n")).toBeNull();
    expect(quotaOfCpuMax("150000 100000\n")).toBe(1.5);
    expect(quotaOfCpuMax("400000 100000")).toBe(4);
    expect(quotaOfCpuMax("")).toBeNull();
  });

  it("reads a quota from cgroup v1's CFS files, none for -1", () => {
    expect(quotaOfCfs("-1\n", "100000\n")).toBeNull();
    expect(quotaOfCfs("250000\n", "100000\n")).toBe(2.5);
  });

  it("is the processors at most the quota rounded down, at least one", () => {
    expect(usableCores(8, null)).toBe(8);
    expect(usableCores(8, 2.5)).toBe(2);
    expect(usableCores(2, 4)).toBe(2);
    expect(usableCores(8, 0.25)).toBe(1);
    expect(usableCores(1, null)).toBe(1);
  });

  it("on this machine: between one and its processors", () => {
    const cores = usableCores();
    expect(cores).toBeGreaterThanOrEqual(1);
    expect(cores).toBeLessThanOrEqual(availableParallelism());
  });
});
