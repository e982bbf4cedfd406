/**
 * What p99 one Node process gives at the benchmark's 10 closed-loop connections for a given CPU
 * time per request, whatever that time is spent on (`npx tsx bench/latencyModel.ts [µs …]`).
 *
 * A bare node:http server (in this process's child) reads each POST body, holds the event loop for
 * a fixed time — a spin, standing for the service's work — and answers a body of the size of a
 * verbose server answer (10.7 KB); autocannon drives it as bench/run.ts drives the service. The
 * table says which service time the target "p99 ≤ 10 ms" stands for on this machine, so a
 * scenario's p99 can be read against its CPU time per request (bench/README.md, "Judging a change"). Not a
 * test: the figures are the machine's.
 */
import { spawn } from "node:child_process";
import autocannon from "autocannon";

const SPINS = process.argv.slice(2).map(Number);
const SERVICE_TIMES_US = SPINS.length > 0 ? SPINS : [0, 300, 400, 450, 500, 600];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARM_UP_SECONDS = Number(process.env.BENCH_WARMUP ?? 2);

/** The child's program: answers after holding the loop `SPIN_US` microseconds. */
const SERVER = `
const http = require("node:http");
const spin = Number(process.env.SPIN_US);
const answer = "x".repeat(10700);
const server = http.createServer((request, response) => {
  request.resume();
  request.on("end", () => {
    const until = process.hrtime.bigint() + BigInt(spin * 1000);
    while (process.hrtime.bigint() < until) {}
    response.writeHead(200, { "content-type": "application/json" });
    response.end(answer);
  });
});
server.listen(0, "127.0.0.1", () => process.send(server.address().port));
`;

async function measure(spinMicros: number) {
  const child = spawn(process.execPath, ["-e", SERVER], {
    env: { ...process.env, SPIN_US: String(spinMicros) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const port = await new Promise<number>((resolve) => child.once("message", (m) => resolve(Number(m))));
  const drive = (seconds: number) =>
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: 10,
      duration: seconds,
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ usage: { usage_location: "FRA", time_workload: 50 } }),
    });
  await drive(WARM_UP_SECONDS);
  const result = await drive(SECONDS);
  child.kill();
  return {
    "held per request (µs)": spinMicros,
    "req/s": Math.round(result.requests.average),
    "µs per request": Math.round(1e6 / result.requests.average),
    "p50 ms": result.latency.p50,
    "p90 ms": result.latency.p90,
    "p99 ms": result.latency.p99,
  };
}

const rows = [];
for (const spin of SERVICE_TIMES_US) rows.push(await measure(spin));
console.table(rows);
