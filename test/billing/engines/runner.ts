/**
 * An engine's session for a whole test file (engines/runner.py): started once, every fixture's
 * statements sent to it in turn, each request answered on one line. Readiness is its first
 * answer (the engine up), never a wall-clock wait; each request has a bound, and the process is
 * killed with its group when the file ends.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { createInterface } from "node:readline";

export interface EngineRows {
  readonly columns: readonly string[];
  readonly rows: readonly (readonly unknown[])[];
}

interface Answer {
  readonly ready?: boolean;
  readonly version?: string;
  readonly ok?: boolean;
  readonly error?: string;
}

export interface EngineSession {
  readonly version: string;
  /** Runs the script's statements, then `query` (its rows written to `out` and read back). */
  run(script: string, query?: { readonly sql: string; readonly out: string }): Promise<EngineRows | null>;
  close(): void;
}

/** At most this long for one request (a fixture's script, or the engine's start). */
const REQUEST_BOUND_MS = 600_000;

export async function startSession(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<EngineSession> {
  const child: ChildProcess = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-6000);
  });
  const waiting: ((answer: Answer) => void)[] = [];
  let exited: string | null = null;
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  lines.on("line", (line) => {
    if (line.startsWith("@@")) waiting.shift()?.(JSON.parse(line.slice(2)) as Answer);
  });
  child.on("exit", (code, signal) => {
    exited = `the engine's process ended (${code ?? signal}): ${errors}`;
    for (const answer of waiting.splice(0)) answer({ error: exited });
  });
  const next = () =>
    new Promise<Answer>((resolve, reject) => {
      if (exited !== null) return resolve({ error: exited });
      const timer = setTimeout(() => {
        kill();
        reject(new Error(`no answer from the engine within ${REQUEST_BOUND_MS / 1000} s: ${errors}`));
      }, REQUEST_BOUND_MS);
      waiting.push((answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
    });
  const kill = () => {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  };
  const ready = await next();
  if (ready.ready !== true) {
    kill();
    throw new Error(`the engine did not start: ${ready.error ?? errors}`);
  }
  return {
    version: ready.version ?? "",
    async run(script, query) {
      const answered = next();
      child.stdin?.write(
        `${JSON.stringify({ script, query: query?.sql ?? null, out: query?.out ?? null })}\n`,
      );
      const answer = await answered;
      if (answer.error !== undefined) throw new Error(answer.error);
      return query === undefined ? null : (JSON.parse(readFileSync(query.out, "utf8")) as EngineRows);
    },
    close: kill,
  };
}
