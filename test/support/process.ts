/**
 * The service as a separate process (`node --import tsx src/server.ts`), for the tests of
 * configuration, shutdown and workers. Tests wait for what the process prints (readiness lines)
 * or for its exit, never for a duration.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { connect, type Socket } from "node:net";

const root = new URL("../..", import.meta.url);

export interface ServiceProcess {
  readonly child: ChildProcess;
  /** Lines printed so far (stdout and stderr), in order. */
  readonly lines: string[];
  readonly stderrLines: string[];
  /** Resolves with the first `count` lines matching `pattern` (rejects if the process exits first). */
  waitFor(pattern: RegExp, count?: number): Promise<string[]>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the process and every process it started (its process group). */
  killAll(): void;
}

export function startService(
  env: Readonly<Record<string, string>>,
  command: readonly string[] = [process.execPath, "--import", "tsx", "src/server.ts"],
): ServiceProcess {
  const [file, ...args] = command;
  const child = spawn(file, args, {
    cwd: root,
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so the clean-up reaches its children (workers, node under npm).
    detached: true,
  });
  const lines: string[] = [];
  const stderrLines: string[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const onLine = (line: string, isError: boolean) => {
    lines.push(line);
    if (isError) stderrLines.push(line);
    for (const check of waiters) check();
  };
  for (const [stream, isError] of [
    [child.stdout, false],
    [child.stderr, true],
  ] as const) {
    let pending = "";
    stream?.setEncoding("utf8");
    stream?.on("data", (text: string) => {
      pending += text;
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      for (const part of parts) onLine(part, isError);
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => {
      ended = true;
      for (const check of waiters) check();
      resolve({ code, signal });
    }),
  );
  const waitFor = (pattern: RegExp, count = 1) =>
    new Promise<string[]>((resolve, reject) => {
      const check = () => {
        const found = lines.filter((line) => pattern.test(line));
        if (found.length >= count) {
          waiters.delete(check);
          resolve(found.slice(0, count));
        } else if (ended) {
          waiters.delete(check);
          reject(new Error(`process exited before printing ${pattern}; it printed:\n${lines.join("\n")}`));
        }
      };
      waiters.add(check);
      check();
    });
  const killAll = () => {
    try {
      process.kill(-(child.pid as number), "SIGKILL");
    } catch {
      // the group is gone already
    }
  };
  return { child, lines, stderrLines, waitFor, exited, killAll };
}

/** The port of a "listening on http://host:port" line. */
export function portOf(line: string): number {
  const match = /:(\d+)(?:\D|$)/.exec(line.slice(line.indexOf("http://") + 7));
  if (!match) throw new Error(`no port in ${line}`);
  return Number(match[1]);
}

/** A raw connection, to send a request in pieces and read the whole answer. */
export interface RawClient {
  readonly socket: Socket;
  send(text: string): void;
  /** Resolves once the server has sent text matching `pattern`. */
  received(pattern: RegExp): Promise<void>;
  /** Everything the server sent, once it closed the connection. */
  readonly answer: Promise<string>;
}

export function rawClient(port: number): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    const waiters = new Set<() => void>();
    socket.setEncoding("utf8");
    socket.on("data", (text: string) => {
      received += text;
      for (const check of waiters) check();
    });
    const answer = new Promise<string>((done) => socket.once("close", () => done(received)));
    socket.on("error", reject);
    const receivedMatching = (pattern: RegExp) =>
      new Promise<void>((done) => {
        const check = () => {
          if (!pattern.test(received)) return;
          waiters.delete(check);
          done();
        };
        waiters.add(check);
        check();
      });
    socket.once("connect", () =>
      resolve({ socket, send: (text) => socket.write(text), received: receivedMatching, answer }),
    );
  });
}
