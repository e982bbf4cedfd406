/**
 * The command line as its user runs it: the package's bin in a process of its own (what `npx
 * impact-service` runs), its stdout, stderr and exit code.
 */
import { execFile } from "node:child_process";

export interface CliRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export function runCli(args: readonly string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["bin/impact-service.mjs", ...args],
      { env: { ...process.env, EDITION: "2.4.1", LOG_LEVEL: "silent", ...env }, maxBuffer: 1 << 26 },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}
