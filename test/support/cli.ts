/**
 * The command line as its user runs it: the package's bin (what `npx impact-service` runs) in a
 * process of its own, its exit code, stdout and stderr.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return promisify(execFile)(process.execPath, ["bin/impact-service.mjs", ...args], {
    env: { ...process.env, LOG_LEVEL: "silent", ...env },
    maxBuffer: 64 * 1024 * 1024,
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );
}
