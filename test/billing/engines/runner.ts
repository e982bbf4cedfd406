/**
 * An engine's process for a whole test file (engines/runner.py): started once, every fixture's
 * statements sent to it, each request answered on one line. A request names its session (its own
 * temporary views and schema), so that fixtures run side by side; readiness is the process's first
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
  readonly id?: number;
  readonly ready?: boolean;
  readonly version?: string;
  readonly ok?: boolean;
  readonly error?: string;
}

export interface EngineSession {
  readonly version: string;
  /** The runner's process (its engine's JVM a child of it): the bench reads their CPU and memory. */
  readonly pid: number | undefined;
  /**
   * Runs the script's statements in the session `session` (a name the engine takes for a schema),
   * then `query` (its rows written to `out` and read back).
   */
  run(
    session: string,
    script: string,
    query?: { readonly sql: string; readonly out: string },
  ): Promise<EngineRows | null>;
  close(): void;
}

/** At most this long for one request (a fixture's script, or the engine's start). */
const REQUEST_BOUND_MS = 600_000;

/** The engine's process; `boundMs` bounds each request (the bench's bills take longer than a fixture). */
export async function startSession(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  boundMs = REQUEST_BOUND_MS,
): Promise<EngineSession> {
  const child: ChildProcess = spawn(command, args, { env, stdio: ["pipe", "pipe", "pipe"], detached: true });
  let errors = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-6000);
  });
  /** Who waits for the answer to each request (the start's: -1). */
  const waiting = new Map<number, (answer: Answer) => void>();
  let exited: string | null = null;
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  lines.on("line", (line) => {
    if (!line.startsWith("@@")) return;
    const answer = JSON.parse(line.slice(2)) as Answer;
    const id = answer.id ?? -1;
    waiting.get(id)?.(answer);
    waiting.delete(id);
  });
  child.on("exit", (code, signal) => {
    exited = `the engine's process ended (${code ?? signal}): ${errors}`;
    for (const answer of waiting.values()) answer({ error: exited });
    waiting.clear();
  });
  const answerTo = (id: number) =>
    new Promise<Answer>((resolve, reject) => {
      if (exited !== null) return resolve({ error: exited });
      const timer = setTimeout(() => {
        kill();
        reject(new Error(`no answer from the engine within ${boundMs / 1000} s: ${errors}`));
      }, boundMs);
      waiting.set(id, (answer) => {
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
  const ready = await answerTo(-1);
  if (ready.ready !== true) {
    kill();
    throw new Error(`the engine did not start: ${ready.error ?? errors}`);
  }
  let requests = 0;
  return {
    version: ready.version ?? "",
    pid: child.pid,
    async run(session, script, query) {
      const id = requests++;
      const answered = answerTo(id);
      child.stdin?.write(
        `${JSON.stringify({ id, session, script, query: query?.sql ?? null, out: query?.out ?? null })}\n`,
      );
      const answer = await answered;
      if (answer.error !== undefined) throw new Error(answer.error);
      return query === undefined ? null : (JSON.parse(readFileSync(query.out, "utf8")) as EngineRows);
    },
    close: kill,
  };
}

/**
 * At most `width` of the works given to it at once, the others waiting their turn in order:
 * the fixtures side by side on an engine as wide as the machine lets them be planned.
 */
export function sideBySide(width: number): <T>(work: () => Promise<T>) => Promise<T> {
  let running = 0;
  const queue: (() => void)[] = [];
  return async (work) => {
    if (running >= width) await new Promise<void>((turn) => queue.push(turn));
    else running++;
    try {
      return await work();
    } finally {
      const next = queue.shift();
      if (next === undefined) running--;
      else next();
    }
  };
}
