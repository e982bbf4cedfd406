/**
 * The service as a separate process (`node dist/test/server.mjs`, src/app/main.ts bundled once
 * by test/support/bundle.ts, the project's global set-up), for the tests of
 * configuration, shutdown and workers. Tests wait for what the process prints (readiness lines)
 * or for its exit, never for a duration. The process logs JSON lines (pino): tests read their
 * texts (`msg`).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { afterEach } from "vitest";
import { COMPILE_CACHE, SERVER_BUNDLE } from "./bundle.js";
import { connectFrom, type RawConnection } from "./clientAddress.js";

const root = new URL("../..", import.meta.url);

interface ServiceProcess {
  readonly child: ChildProcess;
  /** Texts printed so far, in order: the `msg` of each JSON log line, any other line as printed. */
  readonly lines: string[];
  /** The JSON log lines printed so far, parsed. */
  readonly records: LogRecord[];
  /** Lines printed on stderr (a wrong configuration, before the logger exists). */
  readonly stderrLines: string[];
  /** Texts of the failures reported: log lines at level error or fatal, and stderr lines. */
  readonly errors: string[];
  /** Resolves with the first `count` lines matching `pattern` (rejects if the process exits first). */
  waitFor(pattern: RegExp, count?: number): Promise<string[]>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Kills the process and every process it started (its process group). */
  killAll(): void;
}

/** A pino line: `level` (30 info, 50 error, 60 fatal), `msg` and the line's own fields. */
interface LogRecord {
  readonly level: number;
  readonly msg: string;
  readonly [field: string]: unknown;
}

const ERROR_LEVEL = 50;

function logRecordOf(line: string): LogRecord | null {
  if (!line.startsWith("{")) return null;
  try {
    const record = JSON.parse(line) as Partial<LogRecord>;
    return typeof record.level === "number" && typeof record.msg === "string" ? (record as LogRecord) : null;
  } catch {
    return null;
  }
}

export function startService(
  env: Readonly<Record<string, string>>,
  command: readonly string[] = [process.execPath, SERVER_BUNDLE],
): ServiceProcess {
  const [file, ...args] = command;
  const child = spawn(file, args, {
    cwd: root,
    // At `info` whatever the test runner's environment says: the tests wait for these lines.
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      LOG_LEVEL: "info",
      NODE_COMPILE_CACHE: COMPILE_CACHE,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so the clean-up reaches its children (workers, node under npm).
    detached: true,
  });
  const lines: string[] = [];
  const records: LogRecord[] = [];
  const stderrLines: string[] = [];
  const errors: string[] = [];
  const waiters = new Set<() => void>();
  let ended = false;
  const onLine = (line: string, isError: boolean) => {
    const record = logRecordOf(line);
    if (record) records.push(record);
    const text = record?.msg ?? line;
    lines.push(text);
    if (isError) stderrLines.push(line);
    if (isError || (record !== null && record.level >= ERROR_LEVEL)) errors.push(text);
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
  return { child, lines, records, stderrLines, errors, waitFor, exited, killAll };
}

/** Starts services for the tests of one file; each is killed (with its children) after its test. */
export function serviceStarter(): (
  env: Readonly<Record<string, string>>,
  command?: readonly string[],
) => ServiceProcess {
  const started: ServiceProcess[] = [];
  afterEach(() => {
    for (const service of started.splice(0)) service.killAll();
  });
  return (env, command) => {
    const service = startService(env, command);
    started.push(service);
    return service;
  };
}

/** The port of a "listening on http://host:port" line. */
export function portOf(line: string): number {
  const match = /:(\d+)(?:\D|$)/.exec(line.slice(line.indexOf("http://") + 7));
  if (!match) throw new Error(`no port in ${line}`);
  return Number(match[1]);
}

/** A raw connection from the loopback, to send a request in pieces and read the whole answer. */
export function rawClient(port: number): Promise<RawConnection> {
  return connectFrom("127.0.0.1", port);
}

/**
 * A POST in flight: its headers are received (the server's "100 Continue" says so) and its
 * `contentLength` bytes of body are still to be sent with `send`.
 */
export async function requestInFlight(
  port: number,
  target: string,
  contentLength: number,
): Promise<RawConnection> {
  const client = await rawClient(port);
  client.send(
    `POST ${target} HTTP/1.1\r\nhost: localhost\r\ncontent-type: application/json\r\nexpect: 100-continue\r\ncontent-length: ${contentLength}\r\n\r\n`,
  );
  await client.received(/100 Continue/);
  return client;
}

/** The embedded gwp value of a raw HTTP answer whose JSON body (after its last header block) is a v1 impact. */
export function embeddedGwpOf(answer: string): number {
  const body = JSON.parse(answer.slice(answer.lastIndexOf("\r\n\r\n") + 4)) as {
    impacts: { gwp: { embedded: { value: number } } };
  };
  return body.impacts.gwp.embedded.value;
}
