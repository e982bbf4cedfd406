/**
 * The command line when its output or its run is cut: a reader that closes the pipe (`| head`),
 * a full disk (a `full` device made in a temporary folder), SIGINT and SIGTERM — one line on stderr, whole output lines, a
 * non-zero exit code, never a stack trace. Every wait is on the process's own output or exit.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CLI_BUNDLE } from "../support/bundle.js";

const HEADER = "kind,provider,instance_type,usage_location,hours\n";
const ROW = "cloud,aws,m5.xlarge,FRA,8760\n";

function start(args: string[], stdout: "pipe" | number = "pipe"): ChildProcess {
  return spawn(process.execPath, [CLI_BUNDLE, "evaluate", ...args], {
    env: { ...process.env, LOG_LEVEL: "silent" },
    stdio: ["pipe", stdout, "pipe"],
  });
}

function collect(stream: NodeJS.ReadableStream | null): () => string {
  let text = "";
  stream?.setEncoding("utf8");
  stream?.on("data", (chunk: string) => {
    text += chunk;
  });
  return () => text;
}

/**
 * The exit code, once the process's pipes are read to their end too: `exit` may come before the
 * last bytes it wrote are read (a loaded run once saw 299 of the 300 rows at its `exit`).
 */
async function exitOf(child: ChildProcess): Promise<number | null> {
  const [code] = (await once(child, "close")) as [number | null];
  return code;
}

/** Writes the header and rows, without closing stdin unless asked. */
function feed(child: ChildProcess, rows: number, end: boolean): void {
  child.stdin?.on("error", () => {});
  child.stdin?.write(HEADER + ROW.repeat(rows));
  if (end) child.stdin?.end();
}

describe("impact-service evaluate, cut short", () => {
  it("ends with one line and exit 1 when its reader closes the pipe (| head)", async () => {
    const child = start(["-", "--format", "csv"]);
    const stderr = collect(child.stderr);
    feed(child, 3000, true);
    // Like `head -1`: read until the first line, then close the pipe.
    await new Promise<void>((resolve) => {
      let seen = "";
      child.stdout?.on("data", (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes("\n")) {
          child.stdout?.destroy();
          resolve();
        }
      });
    });
    expect(await exitOf(child)).toBe(1);
    expect(stderr()).toContain("impact-service: the output was closed by its reader (EPIPE)\n");
    expect(stderr()).not.toMatch(/\n\s+at /);
  }, 120_000);

  // A device with the numbers of `full` (every write: ENOSPC), made in a temporary folder.
  it.skipIf(process.getuid?.() !== 0)(
    "ends with one line and exit 1 on a full disk (a `full` device)",
    async () => {
      const device = join(mkdtempSync(join(tmpdir(), "impact-full-")), "full");
      execFileSync("mknod", [device, "c", "1", "7"]);
      const child = start(["-", "--format", "csv"], openSync(device, "w"));
      const stderr = collect(child.stderr);
      feed(child, 10, true);
      expect(await exitOf(child)).toBe(1);
      expect(stderr()).toContain("impact-service: no space left on the output's device (ENOSPC)\n");
      expect(stderr()).not.toMatch(/\n\s+at /);
    },
    120_000,
  );

  for (const [signal, code] of [
    ["SIGTERM", 143],
    ["SIGINT", 130],
  ] as const) {
    it(`on ${signal}: the rows read are written whole, the interruption told on stderr, exit ${code}`, async () => {
      const child = start(["-", "--edition", "1.2.4", "--format", "csv", "--criteria", "gwp"]);
      const stdout = collect(child.stdout);
      const stderr = collect(child.stderr);
      // More than one chunk of rows, stdin left open: the run waits for more input.
      feed(child, 300, false);
      await new Promise<void>((resolve) => {
        child.stdout?.on("data", () => {
          if (stdout().split("\n").length > 100) resolve();
        });
      });
      child.kill(signal);
      expect(await exitOf(child)).toBe(code);
      const lines = stdout().split("\n");
      expect(lines.pop()).toBe("");
      expect(lines[0]).toBe(
        `${HEADER.trim()},energy_kwh,gwp_embedded_kgco2eq,gwp_use_kgco2eq,status,warnings`,
      );
      // Only rows: the interruption is told on stderr.
      const rows = lines.slice(1);
      expect(rows.length, `stderr: ${stderr()}`).toBe(300);
      for (const row of rows) expect(row).toBe("cloud,aws,m5.xlarge,FRA,8760,227.2760392,12,22.3,evaluated,");
      expect(stderr()).toContain(
        "impact-service: interrupted after 300 rows (the output holds them, whole)\n",
      );
    }, 120_000);
  }
});
