/**
 * In-process timing of one scenario's REST handler and the serialisation of its answer
 * (`npx tsx bench/inProcess.ts <part of a scenario's name>`), without HTTP: rounds of
 * `INPROCESS_REQUESTS` requests (default 1,500), `INPROCESS_ROUNDS` rounds (default 9), the
 * minimum and median µs per request printed (the handler's time only). The varied bodies are
 * those of bench/scenarios.ts, made before the timed loop. `INPROCESS_PROFILE=<file>` writes a
 * CPU profile of the timed rounds. Beside the times, the median of the rounds' bytes allocated
 * per request (V8's `total_allocated_bytes`, collected or not; the first round excluded), a figure
 * that moves little with the machine's load. `INPROCESS_INTERLEAVE=<port>` makes a tiny HTTP GET to that
 * port between two requests (what a served request's handler has around it: it slows the next
 * request's work, bench/log/2026.md, "sixth round"). tsx's transform runs slower than the
 * production bundle: compare runs of one way with each other (bench/README.md, "Judging a
 * change"). Not a test.
 */
import { writeFileSync } from "node:fs";
import { Agent, get } from "node:http";
import { Session } from "node:inspector";
import { getHeapStatistics } from "node:v8";
import { handlerTimer } from "./harness.js";
import { namedScenario, scenarioBodies } from "./scenarios.js";

const REQUESTS = Number(process.env.INPROCESS_REQUESTS ?? 1500);
const ROUNDS = Number(process.env.INPROCESS_ROUNDS ?? 9);

const scenario = namedScenario("bench/inProcess.ts");
const bodies = scenarioBodies(scenario, REQUESTS);
// INPROCESS_PROFILE=<file>: a CPU profile of the timed rounds (warm-up round excluded).
const profileFile = process.env.INPROCESS_PROFILE;
const session = profileFile ? new Session() : null;
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) =>
    session?.post(method, params, (error, result) => (error ? reject(error) : resolve(result))),
  );
// INPROCESS_INTERLEAVE=<port>: a tiny HTTP GET to that port between two requests (experiment).
const interleavePort = process.env.INPROCESS_INTERLEAVE;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const interleave = interleavePort
  ? () =>
      new Promise<void>((resolve) => {
        get({ host: "127.0.0.1", port: Number(interleavePort), path: "/", agent }, (res) => {
          res.resume();
          res.on("end", resolve);
        });
      })
  : undefined;
const round = handlerTimer({ method: scenario.method, path: scenario.path, bodies }, interleave);
/** V8's bytes allocated so far (Node 26 reports them; @types/node does not list the field yet). */
function allocatedBytes(): number {
  return (getHeapStatistics() as ReturnType<typeof getHeapStatistics> & { total_allocated_bytes: number })
    .total_allocated_bytes;
}
const times: number[] = [];
const allocated: number[] = [];
for (let index = 0; index < ROUNDS; index++) {
  if (session && index === 1) {
    session.connect();
    await post("Profiler.enable");
    await post("Profiler.setSamplingInterval", { interval: 100 });
    await post("Profiler.start");
  }
  const bytesBefore = allocatedBytes();
  times.push(await round());
  if (index > 0) allocated.push((allocatedBytes() - bytesBefore) / bodies.length);
}
if (session && profileFile) {
  const { profile } = (await post("Profiler.stop")) as { profile: unknown };
  writeFileSync(profileFile, JSON.stringify(profile));
}
times.sort((a, b) => a - b);
allocated.sort((a, b) => a - b);
const allocatedKb = allocated.length > 0 ? allocated[Math.floor(allocated.length / 2)] / 1024 : Number.NaN;
console.log(
  `${scenario.name}: min ${times[0].toFixed(1)} µs, median ${times[Math.floor(times.length / 2)].toFixed(1)} µs per request; ${allocatedKb.toFixed(1)} KB allocated per request (median of rounds)`,
);
