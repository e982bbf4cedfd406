/**
 * The reference beside the service: a boaviztapi (Python, FastAPI under uvicorn) of each edition,
 * run by whoever benches, named by its URL (`BENCH_REFERENCE_1_2_4=http://127.0.0.1:5124`,
 * `BENCH_REFERENCE_2_4_1=…`) and, for its CPU time per request, its process id
 * (`BENCH_REFERENCE_1_2_4_PID=…`). bench/run.ts drives it with the REST scenarios of its edition,
 * same paths and same body generators as the service (bench/README.md, "Against the reference").
 * Nothing of the reference is in this repository: only its address.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import type { Scenario } from "./scenarios.js";

export interface Reference {
  readonly edition: "1.2.4" | "2.4.1";
  readonly url: string;
  readonly pid: number | null;
}

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** The references the environment names, by edition. */
export function configuredReferences(): ReadonlyMap<string, Reference> {
  const references = new Map<string, Reference>();
  for (const edition of ["1.2.4", "2.4.1"] as const) {
    const key = `BENCH_REFERENCE_${edition.replaceAll(".", "_")}`;
    const url = process.env[key];
    if (!url) continue;
    const pid = Number(process.env[`${key}_PID`]);
    references.set(edition, { edition, url: url.replace(/\/$/, ""), pid: pid > 0 ? pid : null });
  }
  return references;
}

/**
 * The reference a scenario is measured against: REST scenarios only (the reference has no
 * GraphQL), the 2.4.1 ones (named "2.4.1: …") against the 2.4.1 reference, the others 1.2.4.
 */
export function referenceOf(
  scenario: Scenario,
  references: ReadonlyMap<string, Reference>,
): Reference | undefined {
  if (scenario.target !== "service" || !scenario.path.startsWith("/v1/")) return undefined;
  return references.get(scenario.name.startsWith("2.4.1:") ? "2.4.1" : "1.2.4");
}

/**
 * CPU time (user + system, µs) of a whole process so far, every thread counted: the reference's
 * numerical libraries may compute on threads of their own.
 */
export function processCpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}
