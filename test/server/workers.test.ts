/**
 * `WORKERS=N npm start` runs N worker processes sharing the port (node:cluster).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";

const root = new URL("../..", import.meta.url);

/** Worker processes of a primary: its children running the server (not tsx's esbuild service). */
function workersOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // Fields after the command name (which is in parentheses): state, ppid, …
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      const command = readFileSync(`/proc/${entry}/cmdline`, "utf8");
      if (ppid === pid && command.includes("src/server.ts")) children.push(Number(entry));
    } catch {
      // the process ended meanwhile
    }
  }
  return children;
}

async function waitForAnswer(url: string, timeoutMs: number): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await fetch(url);
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

describe("WORKERS", () => {
  let primary: ChildProcess | null = null;
  afterAll(() => {
    primary?.kill();
  });

  it("runs the requested number of worker processes, all answering on PORT", async () => {
    const port = 30000 + Math.floor(Math.random() * 10000);
    primary = spawn(process.execPath, ["--import", "tsx", "src/server.ts"], {
      cwd: root,
      env: { ...process.env, PORT: String(port), WORKERS: "2" },
      stdio: "ignore",
    });
    const response = await waitForAnswer(`http://127.0.0.1:${port}/v1/utils/case_type`, 60000);
    expect(await response.json()).toEqual(["blade", "rack"]);
    // Both workers are up once each has answered; the primary forks them directly.
    await new Promise((r) => setTimeout(r, 1500));
    expect(workersOf(primary.pid as number)).toHaveLength(2);
  }, 90000);
});
