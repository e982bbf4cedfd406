/** The machine's load averages (1, 5, 15 minutes) as a bench prints them before each run. */
import { loadavg } from "node:os";

export function loadAverage(): string {
  return loadavg()
    .map((load) => load.toFixed(1))
    .join(" ");
}
