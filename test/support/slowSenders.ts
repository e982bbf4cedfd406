/**
 * Issue 95's slow senders (test/server/slowSenders.test.ts): connections from one client address
 * each declaring an 8 MiB body and sending it slowly — a byte at a time, or all but its last byte
 * at once and then nothing — reconnecting after each answer, while another client, from its own
 * address (127.0.0.2: every address of 127.0.0.0/8 is the loopback's), asks small REST, GraphQL
 * and batch POSTs and light GETs. What each side saw is recorded; every wait is on an answer,
 * a connection's end or the service's own gauge (`/metrics`).
 */
import { request as httpRequest } from "node:http";
import { connectFrom, type RawConnection } from "./clientAddress.js";

export const MiB = 1024 * 1024;

/** How a slow sender sends: its declared length, what it sends at once, then `trickle` bytes every `everyMs`. */
export interface SlowPace {
  readonly declared: number;
  /** Bytes sent with the headers. */
  readonly burst: number;
  /** Bytes sent every `everyMs` after the burst (1 unless said), never the body's last. */
  readonly trickle?: number;
  /** 0: nothing more after the burst. */
  readonly everyMs: number;
}

/** What one client's answers were: each status with the limit it named, and the Retry-After it carried. */
export interface SeenAnswer {
  readonly status: number;
  readonly limit: string | undefined;
  readonly retryAfter: string | undefined;
}

const NAMED_LIMIT = /"limit":"([A-Z_]+)"|\(([A-Z_, ]+)\)/;

/** An answer as raw text (status line, headers, body) read as a SeenAnswer. */
function seenOf(text: string): SeenAnswer {
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  const retryAfter = /\r\nretry-after: *(\S+)/i.exec(text)?.[1];
  const named = NAMED_LIMIT.exec(text);
  const limit = (named?.[1] ?? named?.[2])?.split(",")[0];
  return { status, limit, retryAfter };
}

/** A body's bytes: JSON-looking text, so that a whole one would be refused by its content. */
const filler = (bytes: number) => Buffer.alloc(bytes, 0x20);

/** One slow connection: its headers, its burst, then its trickle, until the service answers or `stop`. */
async function slowConnection(
  from: string,
  port: number,
  path: string,
  pace: SlowPace,
  stop: AbortSignal,
): Promise<SeenAnswer | null> {
  let connection: RawConnection;
  try {
    connection = await connectFrom(from, port);
  } catch {
    return null;
  }
  const { socket } = connection;
  socket.on("error", () => {});
  socket.write(
    `POST ${path} HTTP/1.1\r\nhost: service\r\ncontent-type: application/json\r\ncontent-length: ${pace.declared}\r\n\r\n`,
  );
  let sent = Math.min(pace.burst, pace.declared - 1);
  if (sent > 0) socket.write(filler(sent));
  const trickle =
    pace.everyMs > 0
      ? setInterval(() => {
          const bytes = Math.min(pace.trickle ?? 1, pace.declared - 1 - sent);
          if (bytes > 0 && socket.writable) {
            socket.write(filler(bytes));
            sent += bytes;
          }
        }, pace.everyMs)
      : undefined;
  const stopped = () => socket.destroy();
  stop.addEventListener("abort", stopped, { once: true });
  try {
    // Answered (its status line and head read), or closed
    await Promise.race([connection.received(/\r\n\r\n/), connection.answer]);
    return stop.aborted && connection.text() === "" ? null : seenOf(connection.text());
  } finally {
    clearInterval(trickle);
    stop.removeEventListener("abort", stopped);
    socket.destroy();
  }
}

/** What a slow client's connections were answered, all together. */
export interface SlowClient {
  readonly answers: SeenAnswer[];
  /** Resolves once every connection has been answered `count` times at least. */
  answered(count: number): Promise<void>;
  /** Stops every connection; resolves once they have ended. */
  stop(): Promise<void>;
}

/**
 * `connections` slow connections from `from`, each reconnecting at once after each answer (the
 * issue's client that reconnects after each 408), and after its Retry-After when it names one.
 */
export function slowClient(
  from: string,
  port: number,
  { connections, path, pace }: { connections: number; path: string; pace: SlowPace },
): SlowClient {
  const stop = new AbortController();
  const answers: SeenAnswer[] = [];
  const perConnection = Array<number>(connections).fill(0);
  const waiters = new Set<() => void>();
  const loops = perConnection.map(async (_, index) => {
    while (!stop.signal.aborted) {
      const answer = await slowConnection(from, port, path, pace, stop.signal);
      if (answer === null) continue;
      answers.push(answer);
      perConnection[index] += 1;
      for (const check of waiters) check();
      if (answer.retryAfter !== undefined && !stop.signal.aborted)
        await new Promise((again) => setTimeout(again, Number(answer.retryAfter) * 1000));
    }
  });
  return {
    answers,
    answered: (count) =>
      new Promise<void>((done) => {
        const check = () => {
          if (perConnection.every((seen) => seen >= count)) {
            waiters.delete(check);
            done();
          }
        };
        waiters.add(check);
        check();
      }),
    stop: async () => {
      stop.abort();
      await Promise.all(loops);
    },
  };
}

/** A request from `from`, its whole answer read. */
export function requestFrom(
  from: string,
  port: number,
  {
    method,
    path,
    body,
    contentType = "application/json",
  }: {
    method: string;
    path: string;
    body?: string | Buffer;
    contentType?: string;
  },
): Promise<SeenAnswer & { readonly text: string; readonly ms: number }> {
  const started = performance.now();
  return new Promise((resolve) => {
    const sent = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method,
        path,
        localAddress: from,
        headers:
          body === undefined
            ? {}
            : { "content-type": contentType, "content-length": Buffer.byteLength(body) },
      },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const named = NAMED_LIMIT.exec(text);
          resolve({
            status: answer.statusCode ?? 0,
            limit: (named?.[1] ?? named?.[2])?.split(",")[0],
            retryAfter: answer.headers["retry-after"],
            text,
            ms: performance.now() - started,
          });
        });
        answer.on("error", () =>
          resolve({ status: 0, limit: undefined, retryAfter: undefined, text: "", ms: 0 }),
        );
      },
    );
    sent.on("error", () => resolve({ status: 0, limit: undefined, retryAfter: undefined, text: "", ms: 0 }));
    sent.end(body);
  });
}

const SMALL_REST = JSON.stringify({
  configuration: { cpu: { units: 2, name: "Intel Xeon Gold 6134" }, ram: [{ units: 4, capacity: 32 }] },
});
const SMALL_GRAPHQL = JSON.stringify({
  query: "query ($input: ServerInput) { server(input: $input) { impacts(criteria: [gwp]) { criterion } } }",
  variables: { input: { usage: { usageLocation: "FRA" } } },
});
const SMALL_BATCH = `${Array.from({ length: 3 }, () =>
  JSON.stringify({
    path: "/v1/cloud/instance?verbose=false&criteria=gwp",
    body: { provider: "aws", instance_type: "c5.large" },
  }),
).join("\n")}\n`;

/** The other client's requests, in turn: what each must be answered, and how to ask it. */
const OTHER_REQUESTS = [
  {
    kind: "REST",
    method: "POST",
    path: "/v1/server/?verbose=false",
    body: SMALL_REST,
    expected: /"impacts"/,
  },
  { kind: "GraphQL", method: "POST", path: "/graphql", body: SMALL_GRAPHQL, expected: /"criterion":"gwp"/ },
  { kind: "light GET", method: "GET", path: "/healthz", expected: /./ },
  {
    kind: "batch",
    method: "POST",
    path: "/v1/batch",
    body: SMALL_BATCH,
    contentType: "application/x-ndjson",
    expected: /"lines":3,"ok":3/,
  },
  { kind: "light GET", method: "GET", path: "/v1/server/?archetype=dellR740", expected: /"impacts"/ },
] as const;

/** What the other client saw: its requests' kinds and statuses not answered as expected, and its latencies. */
export interface OtherFigures {
  readonly asked: number;
  readonly wrong: string[];
  /** Each request's time, ms. */
  readonly latenciesMs: number[];
  /** The light GETs' times, ms. */
  readonly lightMs: number[];
}

/** `count` requests from `from`, back to back, each kind of OTHER_REQUESTS in turn. */
export async function otherClient(from: string, port: number, count: number): Promise<OtherFigures> {
  const wrong: string[] = [];
  const latenciesMs: number[] = [];
  const lightMs: number[] = [];
  for (let n = 0; n < count; n++) {
    const { kind, expected, ...asked } = OTHER_REQUESTS[n % OTHER_REQUESTS.length];
    const answer = await requestFrom(from, port, asked);
    latenciesMs.push(answer.ms);
    if (kind === "light GET") lightMs.push(answer.ms);
    if (answer.status !== 200 || !expected.test(answer.text))
      wrong.push(`${kind} ${answer.status} ${answer.text.slice(0, 160)}`);
  }
  return { asked: count, wrong, latenciesMs, lightMs };
}

/** The 99th percentile of latencies, ms. */
export function p99(latencies: readonly number[]): number {
  const sorted = [...latencies].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor(0.99 * sorted.length))] ?? 0);
}

/** Bytes of request bodies the service holds now (its gauge of MAX_BODY_BYTES_IN_FLIGHT). */
export async function bodyBytesHeld(port: number): Promise<number> {
  const { text } = await requestFrom("127.0.0.1", port, { method: "GET", path: "/metrics" });
  const line = /^admission_in_use\{limit="MAX_BODY_BYTES_IN_FLIGHT"\} (\d+)/m.exec(text);
  return Number(line?.[1] ?? Number.NaN);
}
