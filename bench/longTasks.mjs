/**
 * Preloaded into the service by bench/fleetProbes.ts (`node --import ./bench/longTasks.mjs`, with
 * BENCH_LONG_TASKS=<file>): the times the event loop did not come back for BENCH_LONG_MS or more,
 * seen by a 1 ms timer that could not run — each with its start and end on the monotonic clock (µs,
 * the clock of --cpu-prof's samples) and the main thread's CPU time in it (process.threadCpuUsage:
 * the work itself, whatever else the machine runs; on a quiet machine the wait is that long) —
 * written to the file when the process exits. Plain JavaScript: node loads it before the bundle.
 */
import { writeFileSync } from "node:fs";

const LONG_MS = Number(process.env.BENCH_LONG_MS ?? 20);
const file = process.env.BENCH_LONG_TASKS;
const now = () => Number(process.hrtime.bigint() / 1000n);
const cpu = () => {
  const { user, system } = process.threadCpuUsage();
  return user + system;
};

if (file) {
  const gaps = [];
  let last = now();
  let lastCpu = cpu();
  const tick = () => {
    const at = now();
    const used = cpu();
    const cpuMs = (used - lastCpu) / 1000;
    if (at - last >= LONG_MS * 1000 || cpuMs >= LONG_MS / 2) gaps.push({ start: last, end: at, cpuMs });
    last = at;
    lastCpu = used;
    setTimeout(tick, 1).unref();
  };
  setTimeout(tick, 1).unref();
  process.once("exit", () => writeFileSync(file, JSON.stringify(gaps)));
}
