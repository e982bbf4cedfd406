/**
 * Issue 86's round of legal bodies at once (`npm run build && npx tsx bench/bodiesAtOnce.ts`, as
 * root): the built service with `npm start`'s node flags and deploy/deployment.yaml's environment,
 * in a memory cgroup of compose.yaml's 1 GiB with its `TMPDIR` on a 1 GiB tmpfs (the container's
 * limits, applied by test/support/containerLimits.ts), receives each phase of
 * test/support/bodiesAtOnce.ts — eight 8.37 MB REST bodies and four batches beside them, the same
 * bodies in GraphQL, legal bodies whose parse builds 700,000 records, those beside the largest
 * legal fleet and four batches (the worst legal mix of the budgets), bodies that are not JSON —
 * while one client asks light requests back to back. Per phase: the answers by status (a batch by
 * its lines'), the light requests answered and the slowest, the service's peak resident memory
 * (VmRSS sampled every 20 ms) and heap in use (/metrics, asked back to back); then the cgroup's
 * peak and its processes killed for memory.
 *
 * `BENCH_BODIES_ROOT` names another checkout's folder whose built service is run instead (its
 * `dist/bundle`, its data): an earlier commit measured the same way.
 *
 * Not a test (test/server/bodiesAtOnce.test.ts asserts the same round): bench/README.md records
 * its figures.
 */
import { firePhase, PHASES } from "../test/support/bodiesAtOnce.js";
import { residentMemoryMb } from "./admission.js";
import { startContainedService } from "./containedService.js";
import { serviceArguments } from "./serviceCommand.js";

/** The heap in use, as /metrics reads it (`nodejs_heap_size_used_bytes`), in MB; 0 when it does not answer. */
async function heapUsedMb(port: number): Promise<number> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`)
    .then((answer) => answer.text())
    .catch(() => "");
  const line = text.split("\n").find((l) => l.startsWith("nodejs_heap_size_used_bytes "));
  return line === undefined ? 0 : Number(line.split(" ")[1]) / 1e6;
}

const root = process.env.BENCH_BODIES_ROOT ?? new URL("..", import.meta.url);
const service = startContainedService(root);
const { child, limits } = service;
try {
  const port = await service.port;
  const pid = child.pid as number;

  const phases: Record<string, unknown> = {};
  for (const [name, shots] of Object.entries(PHASES)) {
    let peak = residentMemoryMb(pid);
    const sampler = setInterval(() => {
      peak = Math.max(peak, residentMemoryMb(pid) || 0);
    }, 20);
    let heapPeak = 0;
    let sampling = true;
    const heapSampler = (async () => {
      while (sampling && !service.exited()) heapPeak = Math.max(heapPeak, await heapUsedMb(port));
    })();
    const started = performance.now();
    const { answers, light } = await firePhase(port, shots);
    clearInterval(sampler);
    sampling = false;
    await heapSampler;
    const statuses: Record<string, number> = {};
    for (const { kind, status, retryAfter, lines, said } of answers) {
      const key = `${kind} ${status}${retryAfter ? ` retry-after ${retryAfter}` : ""}${lines ? ` lines ${lines.join(",")}` : ""}${said && status !== 200 ? ` ${said}` : ""}`;
      statuses[key] = (statuses[key] ?? 0) + 1;
    }
    phases[name] = {
      seconds: Math.round((performance.now() - started) / 100) / 10,
      statuses,
      light,
      peakRssMb: Math.round(peak),
      peakHeapUsedMb: Math.round(heapPeak),
      alive: !service.exited(),
    };
    console.error(name, JSON.stringify(phases[name]));
  }
  const figures = {
    node: process.version,
    arguments: serviceArguments(),
    phases,
    cgroupPeakMb: Math.round(limits.peakBytes() / 2 ** 20),
    oomKills: limits.oomKills(),
    alive: !service.exited(),
  };
  console.log(JSON.stringify(figures, null, 2));
} finally {
  await service.stop();
}
