/**
 * Preloaded into the built service by bench/stages.ts (`node --import bench/heapSampler.mjs …`,
 * with STAGES_ALLOCATIONS): V8's sampling heap profiler over the measured window. The first SIGUSR2
 * starts it, the second stops it and writes its profile to HEAP_SAMPLER_FILE. Every sampled
 * allocation is kept, collected or not (HEAP_SAMPLER_SURVIVORS=1: only those that outlived a young
 * collection, i.e. were promoted or still live), so the profile tells what a request allocates,
 * not what it keeps. Not a test; never loaded by the service itself.
 */
import { writeFileSync } from "node:fs";
import { Session } from "node:inspector";

const file = process.env.HEAP_SAMPLER_FILE;
const survivorsOnly = process.env.HEAP_SAMPLER_SURVIVORS === "1";
const session = new Session();
session.connect();

function post(method, parameters) {
  return new Promise((resolve, reject) => {
    session.post(method, parameters, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

let sampling = false;

async function toggle() {
  if (!sampling) {
    sampling = true;
    await post("HeapProfiler.enable");
    await post("HeapProfiler.startSampling", {
      samplingInterval: 1024,
      includeObjectsCollectedByMajorGC: true,
      includeObjectsCollectedByMinorGC: !survivorsOnly,
    });
    return;
  }
  const { profile } = await post("HeapProfiler.stopSampling");
  writeFileSync(file, JSON.stringify(profile));
}

if (file) process.on("SIGUSR2", () => void toggle());
