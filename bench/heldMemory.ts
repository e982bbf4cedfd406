/**
 * What clients can make the shipped deployment hold (`npm run bench`, or alone with
 * `npx tsx bench/heldMemory.ts`): the service runs with the shipped heap (npm start's flags) and deploy/deployment.yaml's settings,
 * and receives
 * - 150 distinct dense GraphQL documents (40 kB, 20,000 tokens each, under every per-document
 *   bound): the parsed-document cache keeps what DOCUMENT_CACHE_BYTES allows, not their ~5 MB each;
 * - 8,000 clients that ask for a streamed coefficient table and never read it: MAX_CONCURRENT_STREAMS
 *   are served (each holding a small buffer until BODY_TIMEOUT_MS), the others answered 503.
 * It reports the heap and the resident memory under each, /healthz's slowest answer, and whether
 * the process survived.
 *
 * Not a test: bench/README.md records its figures.
 */
import { connect, type Socket } from "node:net";
import { listening, processSampler, spawnShippedService } from "./admission.js";
import { shippedHeapMb } from "./serviceCommand.js";

/** A distinct document of 20,000 tokens in 40 kB: one field whose argument is a list of 19,980 numbers. */
const denseDocument = (n: number) => `{ d${n}: __typename(x: [${"1 ".repeat(19_980)}]) }`;

/** The readers' accept-encoding (BENCH_HELD_ENCODING, e.g. `br`: each served stream then holds a compressor). */
const ENCODING = process.env.BENCH_HELD_ENCODING
  ? `accept-encoding: ${process.env.BENCH_HELD_ENCODING}\r\n`
  : "";

/** A gauge of /metrics, or NaN. */
async function gauge(base: string, name: string, signal: AbortSignal): Promise<number> {
  try {
    const text = await (await fetch(`${base}/metrics`, { signal })).text();
    const line = text.split("\n").find((l) => l.startsWith(`${name} `));
    return Number(line?.split(" ")[1]);
  } catch {
    return Number.NaN;
  }
}

/** Memory and /healthz sampled while `work` runs. */
async function sampled(pid: number, base: string, signal: AbortSignal, work: () => Promise<void>) {
  const sampler = processSampler(pid, base, signal);
  await work();
  return sampler.stop();
}

/** A client that asks for the 1.2.4 aws table (135,240 rows) and never reads: resolves with its status line. */
function idleReader(port: number, signal: AbortSignal): Promise<{ socket: Socket; status: string }> {
  return new Promise((resolve) => {
    signal.addEventListener("abort", () => resolve({ socket, status: "gone" }), { once: true });
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(
        `GET /v1/cloud/coefficients/stream?edition=1.2.4&provider=aws&format=csv HTTP/1.1\r\nhost: bench\r\n${ENCODING}\r\n`,
      );
    });
    socket.once("data", (chunk: Buffer) => {
      // The status line only: the rest is left unread (the socket paused).
      socket.pause();
      resolve({ socket, status: chunk.toString("latin1", 9, 12) });
    });
    socket.once("error", () => resolve({ socket, status: "reset" }));
  });
}

interface HeldMemoryFigures {
  readonly heapLimitMb: number;
  readonly containerLimitMb: number;
  readonly documents: {
    readonly sent: number;
    readonly cacheBytesMb: number;
    readonly heapUsedMb: number;
    readonly peakResidentMb: number;
    readonly slowestHealthzMs: number;
  };
  readonly idleReaders: {
    readonly clients: number;
    readonly statuses: Record<string, number>;
    readonly heapUsedMb: number;
    readonly peakResidentMb: number;
    readonly slowestHealthzMs: number;
  };
  readonly survived: boolean;
}

const mb = (bytes: number) => Math.round(bytes / 1e5) / 10;

/** Runs both cases against a fresh build (dist/bundle/server.mjs, built by the caller). */
export async function heldMemory(port: number, documents = 150, readers = 8000): Promise<HeldMemoryFigures> {
  const { child, limitMb } = spawnShippedService(port);
  const pid = child.pid as number;
  let exited = false;
  // Every request of the bench ends when the process does (an OOM mid-request included).
  const gone = new AbortController();
  child.once("exit", () => {
    exited = true;
    gone.abort();
  });
  const base = `http://127.0.0.1:${port}`;
  await listening(`${base}/healthz`);

  const documentFigures = await sampled(pid, base, gone.signal, async () => {
    for (let n = 0; n < documents && !exited; n++) {
      await fetch(`${base}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: denseDocument(n) }),
        signal: gone.signal,
      }).catch(() => undefined);
    }
  });
  const cacheBytes = await gauge(base, "graphql_document_cache_bytes", gone.signal);
  const heapAfterDocuments = await gauge(base, "nodejs_heap_size_used_bytes", gone.signal);

  const clients: { socket: Socket; status: string }[] = [];
  const readerFigures = await sampled(pid, base, gone.signal, async () => {
    // In groups of 500, so that the clients' own connects do not time out.
    for (let sent = 0; sent < readers && !exited; sent += 500) {
      const group = Math.min(500, readers - sent);
      clients.push(
        ...(await Promise.all(Array.from({ length: group }, () => idleReader(port, gone.signal)))),
      );
    }
    // The served streams hold what they hold while unread: a few samples of it.
    await new Promise((resolve) => setTimeout(resolve, 2000));
  });
  const heapWithReaders = await gauge(base, "nodejs_heap_size_used_bytes", gone.signal);
  const statuses: Record<string, number> = {};
  for (const { status } of clients) statuses[status] = (statuses[status] ?? 0) + 1;
  for (const { socket } of clients) socket.destroy();
  const survived = !exited;
  child.kill();
  return {
    heapLimitMb: shippedHeapMb(),
    containerLimitMb: limitMb,
    documents: {
      sent: documents,
      cacheBytesMb: mb(cacheBytes),
      heapUsedMb: mb(heapAfterDocuments),
      ...documentFigures,
    },
    idleReaders: { clients: readers, statuses, heapUsedMb: mb(heapWithReaders), ...readerFigures },
    survived,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await heldMemory(
    20000 + Math.floor(Math.random() * 12000),
    Number(process.env.BENCH_HELD_DOCUMENTS ?? 150),
    Number(process.env.BENCH_HELD_READERS ?? 8000),
  );
  console.log(JSON.stringify(figures, null, 2));
}
