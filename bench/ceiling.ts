/**
 * The bare server that every served figure is read against (bench/README.md, "What each scenario
 * measures"), and the main-thread CPU time of a process, the figure that moves least with the
 * machine's load.
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";

/** Clock ticks per second of /proc's CPU times. */
const CLOCK_TICKS = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;

/** CPU time (user + system, µs) of a process's main thread so far, from /proc. */
export function mainThreadCpuMicros(pid: number): number {
  // Fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
}

/**
 * The bare server's whole program: every request answered with a constant JSON body. It runs in
 * a process of its own, as the service does: beside autocannon in this process, it read 0.25–0.5
 * of what it answers alone (2026-11-25, bench/log/2026.md), which flattered every ratio to it. It
 * exits on SIGTERM through `process.exit`, so that a `--cpu-prof` run writes its profile.
 */
export const CEILING_SOURCE = `
const body = JSON.stringify({ impacts: { gwp: { value: 1, min: 1, max: 1 } } });
require("node:http")
  .createServer((_req, res) => {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(body);
  })
  .listen(Number(process.env.PORT), "127.0.0.1");
process.on("SIGTERM", () => process.exit(0));
`;

/** Resolves once `url` answers 2xx, with the milliseconds since `started`. */
export async function waitForAnswer(url: string, started: number): Promise<number> {
  for (;;) {
    try {
      const response = await fetch(url);
      if (response.ok) return performance.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The bare server in a process of its own; `nodeFlags` before its program (e.g. `--cpu-prof`). */
export async function startCeiling(
  nodeFlags: readonly string[] = [],
): Promise<{ port: number; pid: number; close: () => Promise<void> }> {
  const port = 20000 + Math.floor(Math.random() * 20000);
  const child = spawn(process.execPath, [...nodeFlags, "-e", CEILING_SOURCE], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  await waitForAnswer(`http://127.0.0.1:${port}/`, performance.now());
  const close = () =>
    new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.kill("SIGTERM");
    });
  return { port, pid: child.pid as number, close };
}
