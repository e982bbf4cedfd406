/**
 * The longest time the thread running a test held its event loop while some work ran: a 1 ms
 * timer re-armed at each turn sees every stretch between two turns, and each is measured in the
 * CPU time of this thread (Linux's /proc/thread-self/schedstat: its own time on a core, not the
 * other threads' nor the machine's load), the pauses of the whole heap's collection in it aside
 * (scavenges, which grow with what the stretch allocates, counted). Those pauses are the heap's: an 8 MB list of 2.8 million `{}` is 150 MB of heap whoever parses it, and V8's
 * pauses to compact it (36–158 ms at load 12) come with any parser (bench/README.md measures the
 * service with them). A figure of the work's own stretches, read whatever the machine's load.
 */
import { readFileSync } from "node:fs";
import { constants, PerformanceObserver } from "node:perf_hooks";

/** The pauses of the whole heap's collection (marking and compacting), not a young generation's scavenge. */
const HEAP_PAUSES = new Set([constants.NODE_PERFORMANCE_GC_MAJOR, constants.NODE_PERFORMANCE_GC_INCREMENTAL]);

/**
 * A stretch is measured once per attempt, on a thread the test runner shares: a test asserting one
 * takes STRETCH_ATTEMPTS (vitest's `retry`), so that a regression fails every attempt and one pause
 * of the runner's own (68 ms once in a CI run of 2,437 tests, 4–9 ms when measured again) does not.
 */
export const STRETCH_ATTEMPTS = { retry: 2 } as const;

/** CPU time of the calling thread so far, in ms. */
export function threadCpuMs(): number {
  return Number(readFileSync("/proc/thread-self/schedstat", "utf8").split(" ")[0]) / 1e6;
}

interface Stretch {
  readonly start: number;
  readonly end: number;
  readonly cpuMs: number;
}

/** `run`'s value, and the longest stretch of this thread's CPU between two turns while it ran (ms). */
export async function longestStretchOf<T>(run: () => Promise<T>): Promise<{ value: T; longestMs: number }> {
  const collections: { start: number; duration: number }[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      // Scavenges are the work's own: they grow with what a stretch allocates
      if (HEAP_PAUSES.has((entry as { detail?: { kind?: number } }).detail?.kind ?? 0)) {
        collections.push({ start: entry.startTime, duration: entry.duration });
      }
    }
  });
  observer.observe({ entryTypes: ["gc"] });
  const stretches: Stretch[] = [];
  let since = { at: performance.now(), cpuMs: threadCpuMs() };
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    const now = { at: performance.now(), cpuMs: threadCpuMs() };
    stretches.push({ start: since.at, end: now.at, cpuMs: now.cpuMs - since.cpuMs });
    since = now;
    timer = setTimeout(tick, 1);
  };
  timer = setTimeout(tick, 1);
  try {
    const value = await run();
    tick();
    // The observer's entries come in a later turn
    await new Promise((resolve) => setTimeout(resolve, 5));
    const collected = (stretch: Stretch) =>
      collections
        .filter((pause) => pause.start >= stretch.start && pause.start < stretch.end)
        .reduce((sum, pause) => sum + pause.duration, 0);
    return {
      value,
      longestMs: Math.max(0, ...stretches.map((stretch) => stretch.cpuMs - collected(stretch))),
    };
  } finally {
    clearTimeout(timer);
    observer.disconnect();
  }
}
