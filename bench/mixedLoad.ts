/**
 * A sustained mixed load against the built service as `npm start` runs it (`npx tsx
 * bench/mixedLoad.ts`, a step of `npm run bench`): 28 clients on the loopback — REST and GraphQL
 * singles, GraphQL fleets of 100–2,000 items (some compressed), NDJSON batches of 200–5,000 lines
 * on `POST /v1/batch`, `@stream` fleets, automatic persisted queries, and a few hostile bodies
 * (issue 86's round among them: 8 MB bodies of records, not JSON, in REST, GraphQL and batches;
 * from 127.0.0.3, each batch client from an address of its own, the others from 127.0.0.1) —
 * for `BENCH_MIXED_SECONDS` (300 by default), each client stopping at the deadline or after
 * `BENCH_MIXED_REQUESTS` requests. Every answer is checked (status, and the count of items, lines
 * or parts it must hold). Resident memory is read from /proc every second, heap, external and
 * array-buffer bytes from /metrics every 5 s with the resident pages by kind (anonymous, file) and
 * what is resident beyond the heap and the Buffers (`outsideHeapMb`: malloc's arenas, stacks, the
 * binary); the log lines at warn and above are counted by level and message, the first ones at
 * error kept whole (`errorLines`). Before the mix, each kind runs alone on a fresh process for
 * `BENCH_MIXED_ALONE_SECONDS` (20 by default; 0 skips it): its own peak. To compare builds or
 * flags in turn: `BENCH_MIXED_BUNDLE` (another bundle than dist/bundle/server.mjs) and
 * `BENCH_MIXED_NODE_FLAGS` (node's flags instead of `npm start`'s, space-separated; "" for none);
 * `BENCH_MIXED_SERVICE_ENV` (`NAME=value …`, variables given the service besides its own). Its
 * resident memory is summarised minute by minute (`curve`: each minute's median, and the last
 * minute's over the fifth's), what a 30-minute soak (`BENCH_MIXED_SECONDS=1800`) is read by.
 *
 * Not a test: bench/README.md ("Memory under a mixed load") records its figures; the whole result
 * is written to bench/results-mixed.json.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { loadavg } from "node:os";
import { createInterface } from "node:readline";
import { seeded } from "../scripts/seededRandom.js";
import { BATCH, BUILT_BODY, ISSUE_BODY, NOT_JSON } from "../test/support/bodiesAtOnce.js";
import { listening, residentMemoryMb } from "./admission.js";
import { LOCATIONS, SERVERS_GQL } from "./scenarios.js";
import { serviceArguments, serviceEnvironment } from "./serviceCommand.js";

const SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 300);
const ALONE_SECONDS = Number(process.env.BENCH_MIXED_ALONE_SECONDS ?? 20);
const MAX_REQUESTS = Number(process.env.BENCH_MIXED_REQUESTS ?? 1_000_000);
const root = new URL("..", import.meta.url);

const CPU_NAMES = [
  "Intel Xeon Gold 6134",
  "Intel Xeon Platinum 8280",
  "AMD EPYC 7763",
  "Intel Xeon Silver 4214",
];
const INSTANCE_TYPES = ["m5.xlarge", "c5.large", "r5.2xlarge", "t3.micro", "m6g.large", "c5.4xlarge"];

/** What a client's request came to: whether its answer was the right one. */
interface Outcome {
  readonly status: number;
  readonly right: boolean;
  /** What was asked, when a kind asks several things (its wrong answers are counted by it). */
  readonly asked?: string;
}

/** One kind of request: its clients and how one of them asks once. */
interface Kind {
  readonly name: string;
  readonly clients: number;
  /** One client's turn: `client` is its index among its kind's clients. */
  readonly ask: (base: string, random: () => number, client: number) => Promise<Outcome>;
}

async function post(url: string, body: string, headers: Record<string, string> = {}) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
  return { status: response.status, text: await response.text() };
}

/**
 * The hostile bodies' client address: another client than the others' (127.0.0.1), as an
 * attacker is, so that the 8 MB bodies take its share of the bodies' bytes
 * (MAX_BODY_BYTES_PER_CLIENT), not theirs.
 */
const HOSTILE_CLIENT = "127.0.0.3";

/**
 * A batch client's own address (127.0.0.10 and up): four clients are four callers, each with its
 * share of the batch slots (MAX_BATCHES_PER_CLIENT), as four machines would be.
 */
const batchClient = (client: number) => `127.0.0.${10 + client}`;

/**
 * `post` from `address` (fetch cannot choose its address). An answer that came before the
 * body was sent whole (a refusal, its connection closed) is the answer: the write's EPIPE after it
 * is not an error.
 */
function postFrom(address: string, url: string, body: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; text: string }>((resolve, reject) => {
    let answered = false;
    const target = new URL(url);
    const sent = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: "POST",
        localAddress: address,
        headers: {
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          ...headers,
        },
      },
      (answer) => {
        answered = true;
        const chunks: Buffer[] = [];
        const whole = () =>
          resolve({ status: answer.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") });
        answer.on("data", (chunk: Buffer) => chunks.push(chunk));
        answer.on("end", whole);
        answer.on("error", whole);
      },
    );
    sent.on("error", (error) => {
      if (!answered) reject(error);
    });
    sent.end(body);
  });
}

const hostilePost = (url: string, body: string, headers: Record<string, string> = {}) =>
  postFrom(HOSTILE_CLIENT, url, body, headers);

const between = (random: () => number, low: number, high: number) =>
  low + Math.floor(random() * (high - low + 1));
const pick = <T>(random: () => number, values: readonly T[]): T =>
  values[Math.floor(random() * values.length)];

function variedServer(random: () => number) {
  return {
    configuration: {
      cpu: { units: between(random, 1, 4), name: pick(random, CPU_NAMES) },
      ram: [{ units: between(random, 2, 24), capacity: pick(random, [16, 32, 64]) }],
    },
    usage: { usage_location: pick(random, LOCATIONS), time_workload: between(random, 0, 100) },
  };
}

function cloudLine(random: () => number): string {
  return JSON.stringify({
    path: "/v1/cloud/instance?verbose=false&criteria=gwp",
    body: { provider: "aws", instance_type: pick(random, INSTANCE_TYPES) },
  });
}

const CLOUD_FLEET_GQL = `query ($inputs: [CloudInstanceItemInput!]!) { cloudInstances(inputs: $inputs) { count total { criterion embedded { value } use { value } } items { impacts { embedded { ... on Impact { value } } use { ... on Impact { value } } } } } }`;
const STREAM_GQL = `query ($fleet: [CloudInstanceItemInput!]!) { cloudInstances(inputs: $fleet) { items @stream(initialCount: 0) { instanceType impacts(criteria: [gwp]) { use { ... on Impact { value } } } } } }`;
const PERSISTED_GQL = `query Persisted($input: ServerInput) { server(input: $input) { impacts(criteria: [gwp, pe]) { criterion embedded { ... on Impact { value } } use { ... on Impact { value } } } } }`;
const PERSISTED_HASH = createHash("sha256").update(PERSISTED_GQL).digest("hex");

function cloudFleet(random: () => number, size: number) {
  return Array.from({ length: size }, () => ({
    provider: "aws",
    instanceType: pick(random, INSTANCE_TYPES),
    usage: { usageLocation: pick(random, LOCATIONS) },
  }));
}

function serverFleet(random: () => number, size: number) {
  return Array.from({ length: size }, () => ({
    configuration: {
      cpu: { units: 2, name: pick(random, CPU_NAMES) },
      ram: [{ units: between(random, 1, 16), capacity: 32 }],
    },
    usage: { usageLocation: pick(random, LOCATIONS) },
  }));
}

/** REST singles: a kept GET, a varied server and a varied cloud instance, verbose. */
async function restSingle(base: string, random: () => number): Promise<Outcome> {
  const which = random();
  if (which < 0.3) {
    const response = await fetch(`${base}/v1/server/?archetype=dellR740`);
    const body = (await response.json()) as { impacts?: unknown };
    return { status: response.status, right: response.status === 200 && body.impacts !== undefined };
  }
  const [path, body] =
    which < 0.65
      ? ["/v1/server/?verbose=true", variedServer(random)]
      : [
          "/v1/cloud/instance?verbose=true",
          {
            provider: "aws",
            instance_type: pick(random, INSTANCE_TYPES),
            usage: { usage_location: pick(random, LOCATIONS) },
          },
        ];
  const { status, text } = await post(`${base}${path}`, JSON.stringify(body));
  return { status, right: status === 200 && text.includes('"impacts"') };
}

/** GraphQL singles: one server. */
async function graphqlSingle(base: string, random: () => number): Promise<Outcome> {
  const { status, text } = await post(
    `${base}/graphql`,
    JSON.stringify({
      query: PERSISTED_GQL,
      variables: { input: { usage: { usageLocation: pick(random, LOCATIONS) } } },
    }),
  );
  return { status, right: status === 200 && !text.includes('"errors"') && text.includes('"criterion":"pe"') };
}

/** Fleets of 100–2,000 servers or cloud instances, answered whole, some with brotli. */
async function fleet(base: string, random: () => number): Promise<Outcome> {
  const size = between(random, 100, 2000);
  const servers = random() < 0.5;
  const query = servers ? SERVERS_GQL : CLOUD_FLEET_GQL;
  const inputs = servers ? serverFleet(random, size) : cloudFleet(random, size);
  const encoding = pick(random, ["gzip, deflate", "br", "identity"]);
  const { status, text } = await post(`${base}/graphql`, JSON.stringify({ query, variables: { inputs } }), {
    "accept-encoding": encoding,
  });
  if (status !== 200) return { status, right: status === 503 };
  const answer = JSON.parse(text) as { data?: Record<string, { items: unknown[] }> };
  const field = answer.data?.[servers ? "servers" : "cloudInstances"];
  return { status, right: field?.items.length === size };
}

/** Batches of 200–5,000 NDJSON lines; the summary must count them all. */
async function batch(base: string, random: () => number, client: number): Promise<Outcome> {
  const lines = between(random, 200, 5000);
  const body = `${Array.from({ length: lines }, () => cloudLine(random)).join("\n")}\n`;
  const { status, text } = await postFrom(batchClient(client), `${base}/v1/batch`, body, {
    "content-type": "application/x-ndjson",
  });
  if (status !== 200) return { status, right: status === 503 };
  const summary = text.slice(text.lastIndexOf("\n", text.length - 2) + 1);
  return { status: 200, right: summary.includes(`"lines":${lines},"ok":${lines},`) };
}

/** `@stream` fleets of 200–2,000 cloud instances as multipart/mixed; every item must come. */
async function streamed(base: string, random: () => number): Promise<Outcome> {
  const size = between(random, 200, 2000);
  const { status, text } = await post(
    `${base}/graphql`,
    JSON.stringify({ query: STREAM_GQL, variables: { fleet: cloudFleet(random, size) } }),
    { accept: "multipart/mixed" },
  );
  if (status !== 200) return { status, right: status === 503 };
  return { status, right: text.split('"instanceType"').length - 1 === size };
}

/** APQ: the hash alone, then the document with it when it is not known. */
async function persisted(base: string, random: () => number): Promise<Outcome> {
  const variables = { input: { usage: { usageLocation: pick(random, LOCATIONS) } } };
  const extensions = { persistedQuery: { version: 1, sha256Hash: PERSISTED_HASH } };
  let answer = await post(`${base}/graphql`, JSON.stringify({ variables, extensions }));
  if (answer.text.includes("PERSISTED_QUERY_NOT_FOUND")) {
    answer = await post(`${base}/graphql`, JSON.stringify({ query: PERSISTED_GQL, variables, extensions }));
  }
  return { status: answer.status, right: answer.status === 200 && answer.text.includes('"criterion":"pe"') };
}

/**
 * Hostile bodies: too large, too deep, too many fleet items, not JSON; issue 86's round: its 8.37 MB
 * body of 279 lists of 10,000 `{}` (REST 422; in an undeclared GraphQL variable, 413 past the
 * parsed bodies' budget; in a batch's lines, 422 lines), an 8.4 MB body that is not JSON past a
 * list longer than any input accepts (400), a legal body whose parse builds 700,000 records (200).
 * Each must be answered as said, or 503 when there is no room for it now.
 */
async function hostile(base: string, random: () => number): Promise<Outcome> {
  const [asked, ask] = pick(random, HOSTILE);
  try {
    return { ...(await ask(base)), asked };
  } catch (error) {
    return {
      status: 0,
      right: false,
      asked: `${asked}: ${(error as Error).message} ${String((error as Error).cause ?? "")}`,
    };
  }
}

/** A status that is a refusal (4xx), or 503: no room for its bytes now beside the other 8 MB bodies. */
const refused = (status: number) => ({ status, right: (status >= 400 && status < 500) || status === 503 });
/** The status expected, or 503 with no room. */
const roomOr = (status: number, expected: number) => ({
  status,
  right: status === expected || status === 503,
});
const GRAPHQL_ISSUE_BODY = `{"query":"{ __typename }","variables":{"undeclared":${ISSUE_BODY.slice(ISSUE_BODY.indexOf("["), -2)}}}`;

const HOSTILE: readonly (readonly [string, (base: string) => Promise<Outcome>])[] = [
  [
    "9 MiB",
    async (base) =>
      refused((await hostilePost(`${base}/v1/server/`, `{"x":"${"a".repeat(9 * 1024 * 1024)}"}`)).status),
  ],
  [
    "5,000 deep",
    async (base) =>
      refused((await hostilePost(`${base}/v1/server/`, `${"[".repeat(5000)}${"]".repeat(5000)}`)).status),
  ],
  [
    "10,001 fleet items",
    async (base) => {
      const inputs = Array.from({ length: 10_001 }, () => ({ provider: "aws", instanceType: "c5.large" }));
      const body = JSON.stringify({ query: CLOUD_FLEET_GQL, variables: { inputs } });
      return refused(
        (await hostilePost(`${base}/graphql`, body, { accept: "application/graphql-response+json" })).status,
      );
    },
  ],
  [
    "broken JSON",
    async (base) =>
      refused(
        (await hostilePost(`${base}/v1/cloud/instance`, '{"provider": "aws", "instance_type": ')).status,
      ),
  ],
  [
    "issue 86 REST",
    async (base) => roomOr((await hostilePost(`${base}/v1/server/`, ISSUE_BODY)).status, 422),
  ],
  [
    "issue 86 GraphQL",
    async (base) => roomOr((await hostilePost(`${base}/graphql`, GRAPHQL_ISSUE_BODY)).status, 413),
  ],
  ["8.4 MB not JSON", async (base) => roomOr((await hostilePost(`${base}/graphql`, NOT_JSON)).status, 400)],
  [
    "700,000 records built",
    async (base) => roomOr((await hostilePost(`${base}/v1/server/?verbose=false`, BUILT_BODY)).status, 200),
  ],
  [
    "issue 86 batch",
    async (base) => {
      const { status, text } = await hostilePost(`${base}/v1/batch`, BATCH, {
        "content-type": "application/x-ndjson",
      });
      const lines = text.match(/"status":\d+/g)?.join(",") ?? "";
      return {
        status,
        right: status === 503 || /^"status":(422|503),"status":(422|503),"status":200$/.test(lines),
      };
    },
  ],
];

const KINDS: readonly Kind[] = [
  { name: "REST single", clients: 8, ask: restSingle },
  { name: "GraphQL single", clients: 4, ask: graphqlSingle },
  { name: "GraphQL fleet 100-2,000", clients: 6, ask: fleet },
  { name: "batch 200-5,000 lines", clients: 4, ask: batch },
  { name: "@stream fleet", clients: 2, ask: streamed },
  { name: "persisted query", clients: 2, ask: persisted },
  { name: "hostile body", clients: 2, ask: hostile },
];

/** What one kind's clients saw. */
interface KindFigures {
  requests: number;
  wrong: number;
  /** The wrong answers by what was asked and their status (0: no answer, the error's message). */
  wrongBy: Record<string, number>;
  statuses: Record<string, number>;
  latenciesMs: number[];
}

/** Latencies summarised: count, median, 99th percentile, maximum (ms). */
function summary(latencies: number[]) {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0);
  return { p50Ms: at(0.5), p99Ms: at(0.99), maxMs: Math.round(sorted.at(-1) ?? 0) };
}

/** The kinds' clients, each asking in a loop until the deadline or its count. */
async function drive(base: string, kinds: readonly Kind[], seconds: number, exited: () => boolean) {
  const deadline = performance.now() + seconds * 1000;
  const figures = new Map<string, KindFigures>();
  const clients = kinds.flatMap((kind, k) => {
    const seen: KindFigures = { requests: 0, wrong: 0, wrongBy: {}, statuses: {}, latenciesMs: [] };
    figures.set(kind.name, seen);
    return Array.from({ length: kind.clients }, async (_, c) => {
      const random = seeded(1000 * k + c + 1);
      for (let n = 0; n < MAX_REQUESTS && performance.now() < deadline && !exited(); n++) {
        const started = performance.now();
        const outcome: Outcome = await kind.ask(base, random, c).catch((error: Error) => ({
          status: 0,
          right: false,
          asked: `${kind.name}: ${error.message} ${String(error.cause ?? "")}`.slice(0, 200),
        }));
        seen.latenciesMs.push(performance.now() - started);
        seen.requests += 1;
        if (!outcome.right) {
          seen.wrong += 1;
          const key = `${outcome.asked ?? kind.name} ${outcome.status}`;
          seen.wrongBy[key] = (seen.wrongBy[key] ?? 0) + 1;
        }
        seen.statuses[outcome.status] = (seen.statuses[outcome.status] ?? 0) + 1;
      }
    });
  });
  await Promise.all(clients);
  return Object.fromEntries(
    [...figures].map(([name, { requests, wrong, wrongBy, statuses, latenciesMs }]) => [
      name,
      { requests, wrong, wrongBy, statuses, ...summary(latenciesMs) },
    ]),
  );
}

/** Gauges of /metrics, in MB (NaN when absent or unreachable). */
async function memoryGauges(base: string) {
  const names = {
    heapUsedMb: "nodejs_heap_size_used_bytes",
    heapTotalMb: "nodejs_heap_size_total_bytes",
    externalMb: "nodejs_external_memory_bytes",
    arrayBuffersMb: "nodejs_array_buffers_bytes",
    largeObjectsMb: 'nodejs_heap_space_size_used_bytes{space="large_object"}',
    eventLoopLagP99Ms: "nodejs_eventloop_lag_p99_seconds",
  } as const;
  const text = await fetch(`${base}/metrics`)
    .then((r) => r.text())
    .catch(() => "");
  const gauges: Record<string, number> = {};
  for (const [key, name] of Object.entries(names)) {
    const line = text.split("\n").find((l) => l.startsWith(`${name} `));
    const value = Number(line?.slice(name.length + 1));
    gauges[key] = key.endsWith("Ms") ? Math.round(value * 1000) : Math.round(value / 1e5) / 10;
  }
  return gauges;
}

/** Resident memory by kind (/proc/<pid>/smaps_rollup), MB: anonymous pages (V8's heap, malloc's) and file pages (binary, bundle). */
function residentKindsMb(pid: number): { anonymousMb?: number; fileMb?: number } {
  try {
    const text = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kB = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1]);
    const anonymous = kB("Anonymous");
    return { anonymousMb: Math.round(anonymous / 1024), fileMb: Math.round((kB("Rss") - anonymous) / 1024) };
  } catch {
    return {}; // the process is gone
  }
}

/** Node's arguments: `npm start`'s, or the flags and bundle the environment names instead. */
function nodeArguments(): string[] {
  const shipped = serviceArguments();
  const flags = process.env.BENCH_MIXED_NODE_FLAGS;
  return [
    ...(flags === undefined ? shipped.slice(0, -1) : flags.split(" ").filter((flag) => flag !== "")),
    process.env.BENCH_MIXED_BUNDLE ?? (shipped.at(-1) as string),
  ];
}

/** Variables given the service besides its own (`BENCH_MIXED_SERVICE_ENV="NAME=value …"`: a setting tried). */
function triedEnvironment(): Record<string, string> {
  const pairs = (process.env.BENCH_MIXED_SERVICE_ENV ?? "").split(" ").filter((pair) => pair.includes("="));
  return Object.fromEntries(
    pairs.map((pair) => [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)]),
  );
}

/** The built service as `npm start` runs it (its flags, NODE_ENV=production), on the loopback. */
function startService(port: number): {
  child: ChildProcess;
  levels: Record<string, number>;
  errors: string[];
} {
  const child = spawn(process.execPath, nodeArguments(), {
    cwd: root,
    env: { ...serviceEnvironment(port), ...triedEnvironment() },
    stdio: ["ignore", "pipe", "inherit"],
  });
  // Lines at warn and above, by level and message: a designed refusal must not be an error.
  const levels: Record<string, number> = {};
  // The first lines at error and above, whole (their stack says what failed).
  const errors: string[] = [];
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on("line", (line) => {
    const record = /"level":(\d+).*"msg":"([^"]*)"/.exec(line);
    const key = record ? `${record[1]} ${record[2]}` : "other";
    levels[key] = (levels[key] ?? 0) + 1;
    if ((record === null || Number(record[1]) >= 50) && errors.length < 20) errors.push(line.slice(0, 4000));
  });
  return { child, levels, errors };
}

/** Runs `kinds` for `seconds` against a fresh service; memory sampled throughout. */
async function phase(kinds: readonly Kind[], seconds: number, timeline: boolean) {
  const port = 20_000 + Math.floor(Math.random() * 12_000);
  const { child, levels, errors } = startService(port);
  let exited = false;
  child.once("exit", () => {
    exited = true;
  });
  const base = `http://127.0.0.1:${port}`;
  await listening(`${base}/readyz`);
  const pid = child.pid as number;
  const started = performance.now();
  const samples: Record<string, number>[] = [];
  const rssEachSecond: number[] = [];
  let peak = 0;
  const everySecond = setInterval(() => {
    const rss = residentMemoryMb(pid) || 0;
    rssEachSecond.push(Math.round(rss));
    peak = Math.max(peak, rss);
  }, 1000);
  const everyFive = setInterval(async () => {
    const t = Math.round((performance.now() - started) / 1000);
    const rssMb = Math.round(residentMemoryMb(pid));
    const gauges = await memoryGauges(base);
    samples.push({
      t,
      rssMb,
      ...residentKindsMb(pid),
      ...gauges,
      // Resident beyond V8's heap and the Buffers: node's binary and the bundle, malloc's arenas
      // (zlib, sockets, the heap snapshot's own), thread stacks: where a native rise shows
      outsideHeapMb: Math.round(rssMb - gauges.heapTotalMb - gauges.externalMb),
      load1: Math.round(loadavg()[0] * 10) / 10,
    });
    if (timeline) console.error(JSON.stringify(samples.at(-1)));
  }, 5000);
  const kindsFigures = await drive(base, kinds, seconds, () => exited);
  clearInterval(everySecond);
  clearInterval(everyFive);
  const after = { rssMb: Math.round(residentMemoryMb(pid)), ...(await memoryGauges(base)) };
  const survived = !exited;
  child.kill();
  const curve = rssCurve(rssEachSecond);
  return {
    peakRssMb: Math.round(peak),
    after,
    survived,
    kinds: kindsFigures,
    logLines: levels,
    errorLines: errors,
    curve,
    samples,
  };
}

/** The median of numbers. */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)];
}

/**
 * Resident memory minute by minute (the median of each minute's samples): the curve a soak is
 * read by, and the last minute's median over the fifth's (the first four are the process filling
 * its heap and caches).
 */
function rssCurve(rssEachSecond: readonly number[]) {
  const minutes: number[] = [];
  for (let at = 0; at < rssEachSecond.length; at += 60)
    minutes.push(median(rssEachSecond.slice(at, at + 60)));
  const fifth = minutes[4];
  const last = minutes.at(-1);
  return {
    rssMedianByMinuteMb: minutes,
    lastOverFifth:
      fifth === undefined || last === undefined ? null : Math.round((last / fifth) * 1000) / 1000,
  };
}

const alone: Record<string, unknown> = {};
if (ALONE_SECONDS > 0) {
  for (const kind of KINDS) {
    const { peakRssMb, after, kinds, survived } = await phase([kind], ALONE_SECONDS, false);
    alone[kind.name] = { peakRssMb, after, survived, ...kinds[kind.name] };
    console.error(`${kind.name} alone: ${JSON.stringify(alone[kind.name])}`);
  }
}
const mixed = await phase(KINDS, SECONDS, true);
const result = {
  node: process.version,
  arguments: nodeArguments(),
  environment: triedEnvironment(),
  seconds: SECONDS,
  clients: KINDS.reduce((sum, kind) => sum + kind.clients, 0),
  loadAverage: loadavg().map((l) => Math.round(l * 10) / 10),
  alone,
  mixed,
};
writeFileSync(new URL("bench/results-mixed.json", root), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify({ ...result, mixed: { ...mixed, samples: undefined } }, null, 2));
