/**
 * `@stream` scenario of `npm run bench`: one 10,000-item cloud fleet (the README's streaming
 * query) answered unstreamed, streamed as multipart/mixed and as text/event-stream, each by a
 * fresh built service with npm start's flags (the shipped heap, `--max-old-space-size=768`). For each: the server's
 * CPU time for the request (after a 1,000-item warm-up of the same kind), its peak resident
 * memory, the items received (checked equal to the unstreamed ones) and the payloads. Not a
 * test: figures for bench/README.md. `BENCH_STREAM_ITEMS` changes the size, `BENCH_STREAM_ROUNDS`
 * the requests measured per kind (the median is kept).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { serviceArguments } from "./serviceCommand.js";

const ITEMS = Number(process.env.BENCH_STREAM_ITEMS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_STREAM_ROUNDS ?? 3);
const PORT = 20_000 + Math.floor(Math.random() * 10_000);
const root = new URL("..", import.meta.url);

const QUERY = `query Fleet($fleet: [CloudInstanceItemInput!]!) {
  cloudInstances(inputs: $fleet) {
    items @stream(initialCount: 0) { instanceType impacts(criteria: [gwp]) { use { ... on Impact { value } } } }
  }
}`;
const TYPES = ["m5.xlarge", "c5.large", "r5.2xlarge", "t3.micro", "m6g.large"];

type Kind = "unstreamed" | "multipart" | "event stream";
const ACCEPT: Record<Kind, string> = {
  unstreamed: "application/json",
  multipart: "multipart/mixed",
  "event stream": "text/event-stream",
};

function fleet(size: number) {
  return Array.from({ length: size }, (_, index) => ({ provider: "aws", instanceType: TYPES[index % 5] }));
}

/** Main-thread and other threads' CPU seconds of a process so far (utime + stime). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

async function startService(): Promise<ChildProcess> {
  const child = spawn(process.execPath, serviceArguments(), {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", PORT: String(PORT), WORKERS: "1", LOG_LEVEL: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`the service exited before it was ready (port ${PORT} taken?)`);
    try {
      if ((await fetch(`http://127.0.0.1:${PORT}/readyz`)).ok) return child;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** The fleet's request, its answer read whole (uncompressed: the figures compare the executors). */
function ask(kind: Kind, size: number): Promise<string> {
  const query = kind === "unstreamed" ? QUERY.replace(" @stream(initialCount: 0)", "") : QUERY;
  const body = JSON.stringify({ query, variables: { fleet: fleet(size) } });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port: PORT,
        method: "POST",
        path: "/graphql",
        headers: { "content-type": "application/json", accept: ACCEPT[kind], "content-length": body.length },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    request.end(body);
  });
}

/** The items of an answer, in order, and the number of payloads it came in. */
function itemsOf(kind: Kind, text: string): { items: unknown[]; payloads: number } {
  if (kind === "unstreamed") return { items: JSON.parse(text).data.cloudInstances.items, payloads: 1 };
  const payloads =
    kind === "multipart"
      ? text
          .split("\r\n---")
          .map((part) => part.slice(part.indexOf("\r\n\r\n") + 4).trim())
          .filter((part) => part.startsWith("{"))
      : text
          .split("\n")
          .filter((line) => line.startsWith("data: {"))
          .map((line) => line.slice(6));
  const parsed = payloads.map((payload) => JSON.parse(payload));
  const items: unknown[] = [...parsed[0].data.cloudInstances.items];
  for (const payload of parsed.slice(1))
    for (const increment of payload.incremental ?? []) items.push(...(increment.items ?? []));
  return { items, payloads: parsed.length };
}

interface Figures {
  readonly kind: Kind;
  readonly cpuSeconds: number;
  readonly peakMb: number;
  readonly payloads: number;
  readonly items: unknown[];
}

async function measure(kind: Kind): Promise<Figures> {
  const service = await startService();
  const pid = service.pid as number;
  try {
    await ask(kind, 1_000);
    const rounds: { cpu: number; payloads: number; items: unknown[] }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      const before = cpuSeconds(pid);
      const text = await ask(kind, ITEMS);
      const cpu = cpuSeconds(pid) - before;
      rounds.push({ cpu, ...itemsOf(kind, text) });
    }
    rounds.sort((a, b) => a.cpu - b.cpu);
    const median = rounds[Math.floor(rounds.length / 2)];
    return {
      kind,
      cpuSeconds: median.cpu,
      peakMb: peakMb(pid),
      payloads: median.payloads,
      items: median.items,
    };
  } finally {
    service.kill();
  }
}

async function main(): Promise<void> {
  execFileSync("npm", ["run", "build", "--silent"], { cwd: root, stdio: "inherit" });
  const results: Figures[] = [];
  for (const kind of ["unstreamed", "multipart", "event stream"] as const) results.push(await measure(kind));
  const [unstreamed] = results;
  console.log(`\n@stream: ${ITEMS.toLocaleString("en-US")} cloud items, median of ${ROUNDS} requests`);
  console.log("| answer | server CPU s | × unstreamed | peak RSS MB | payloads | items equal |");
  console.log("|---|---:|---:|---:|---:|---|");
  for (const figures of results) {
    const equal = JSON.stringify(figures.items) === JSON.stringify(unstreamed.items);
    console.log(
      `| ${figures.kind} | ${figures.cpuSeconds.toFixed(2)} | ${(figures.cpuSeconds / unstreamed.cpuSeconds).toFixed(2)} | ${figures.peakMb.toFixed(0)} | ${figures.payloads} | ${equal && figures.items.length === ITEMS ? "yes" : "NO"} |`,
    );
  }
}

await main();
