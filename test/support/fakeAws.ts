/**
 * A local fake of the three AWS calls the scan makes (EC2's DescribeInstances and DescribeVolumes in
 * EC2's XML, CloudWatch's GetMetricData in its JSON 1.0), for what moto cannot be made to do at
 * scale or on purpose: a region of tens of thousands of running instances served in pages, made
 * as they are asked (nothing held per instance), calls held until a number of them wait at once
 * (so that they overlap, whatever the machine's pace), and a DescribeInstances that never answers
 * or whose answer never ends. The region is read from the request's signature.
 */
import { once } from "node:events";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { regionAndAction } from "./moto.js";

/** How DescribeInstances answers: its pages, never, or an answer whose bytes never end. */
export type InstancesAnswer = "pages" | "silent" | "endless";

export interface FakeAwsOptions {
  /** Running instances of each region, every one with a CPU series. */
  readonly instancesPerRegion: number;
  /** Calls held unanswered until this many wait at once, then all answered (0: none held). */
  readonly holdUntil?: number;
  readonly instances?: InstancesAnswer;
}

export interface FakeAws {
  readonly url: string;
  /** Calls asked so far, by `action`. */
  readonly asked: Map<string, number>;
  /** Bytes written so far in endless answers. */
  endlessBytes(): number;
  /** Resolves when a call of `action` has come `count` times. */
  waitFor(action: string, count?: number): Promise<void>;
  close(): Promise<void>;
}

/** The instance types served, in turn (each one in every edition). */
export const FAKE_TYPES = ["m5.large", "c5.xlarge", "t3.medium", "r5.large"] as const;

/** When every instance was launched: before any period a test reads. */
const LAUNCHED = "2026-01-01T00:00:00.000Z";

/** The n-th instance's id in the region (17 hex digits, as EC2's). */
export function fakeInstanceId(region: string, n: number): string {
  let hash = 0;
  for (const char of region) hash = (hash * 31 + char.charCodeAt(0)) & 0xfff;
  return `i-0${hash.toString(16).padStart(3, "0")}${n.toString(16).padStart(13, "0")}`;
}

/** The n-th instance's CPU load, percent: 5 to 94. */
export const fakeLoad = (n: number) => 5 + (n % 90);

const PAGE = 1000;

function instanceItem(region: string, n: number): string {
  return `<item><reservationId>r-${n}</reservationId><ownerId>123456789012</ownerId><instancesSet><item><instanceId>${fakeInstanceId(region, n)}</instanceId><instanceType>${FAKE_TYPES[n % FAKE_TYPES.length]}</instanceType><launchTime>${LAUNCHED}</launchTime><instanceState><code>16</code><name>running</name></instanceState><tagSet><item><key>team</key><value>t${n % 7}</value></item></tagSet></item></instancesSet></item>`;
}

/** A page of DescribeInstances: up to MaxResults (at most PAGE) from the token's instance on. */
function instancesPage(region: string, body: URLSearchParams, total: number): string {
  const first = Number(body.get("NextToken") ?? 0);
  const count = Math.min(Number(body.get("MaxResults") ?? PAGE), PAGE, total - first);
  const items: string[] = [];
  for (let n = first; n < first + count; n += 1) items.push(instanceItem(region, n));
  const next = first + count < total ? `<nextToken>${first + count}</nextToken>` : "";
  return `<?xml version="1.0" encoding="UTF-8"?><DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>fake</requestId><reservationSet>${items.join("")}</reservationSet>${next}</DescribeInstancesResponse>`;
}

const NO_VOLUMES = `<?xml version="1.0" encoding="UTF-8"?><DescribeVolumesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><requestId>fake</requestId><volumeSet/></DescribeVolumesResponse>`;

/** GetMetricData: each query's instance, one datapoint of its load. */
function metricData(body: string): string {
  const asked = JSON.parse(body) as {
    MetricDataQueries: { Id: string; MetricStat: { Metric: { Dimensions: { Value: string }[] } } }[];
  };
  const now = Math.floor(Date.now() / 1000);
  return JSON.stringify({
    MetricDataResults: asked.MetricDataQueries.map((query) => {
      const id = query.MetricStat.Metric.Dimensions[0].Value;
      return {
        Id: query.Id,
        Label: "CPUUtilization",
        Timestamps: [now - 300],
        Values: [fakeLoad(Number.parseInt(id.slice(6), 16))],
        StatusCode: "Complete",
      };
    }),
  });
}

/** An answer whose body never ends: a DescribeInstances opened, then items forever (with the pipe's pace). */
async function endless(answer: ServerResponse, region: string, written: { bytes: number }) {
  answer.writeHead(200, { "content-type": "text/xml;charset=UTF-8" });
  answer.write(
    `<?xml version="1.0" encoding="UTF-8"?><DescribeInstancesResponse xmlns="http://ec2.amazonaws.com/doc/2016-11-15/"><reservationSet>`,
  );
  const chunk = Array.from({ length: 100 }, (_, n) => instanceItem(region, n)).join("");
  const closed = once(answer, "close");
  while (!answer.destroyed) {
    written.bytes += chunk.length;
    if (!answer.write(chunk)) await Promise.race([once(answer, "drain"), closed]);
  }
}

/** The fake endpoint on a free loopback port. */
export async function startFakeAws(options: FakeAwsOptions): Promise<FakeAws> {
  const asked = new Map<string, number>();
  const held: (() => void)[] = [];
  const silent = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  const written = { bytes: 0 };
  const answerCall = (action: string, region: string, body: string, answer: ServerResponse) => {
    if (action === "DescribeInstances") {
      if (options.instances === "silent") return void silent.add(answer);
      if (options.instances === "endless") return void endless(answer, region, written);
      const page = instancesPage(region, new URLSearchParams(body), options.instancesPerRegion);
      return void answer.writeHead(200, { "content-type": "text/xml;charset=UTF-8" }).end(page);
    }
    if (action === "DescribeVolumes")
      return void answer.writeHead(200, { "content-type": "text/xml;charset=UTF-8" }).end(NO_VOLUMES);
    if (action === "GetMetricData")
      return void answer
        .writeHead(200, { "content-type": "application/x-amz-json-1.0" })
        .end(metricData(body));
    answer.writeHead(400, { "content-type": "text/plain" }).end(`not faked: ${action}`);
  };
  const server: Server = createServer((incoming, answer) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const { region, action } = regionAndAction(incoming.headers, body);
      asked.set(action, (asked.get(action) ?? 0) + 1);
      for (const check of waiters) check();
      const hold = options.holdUntil ?? 0;
      if (hold === 0) return answerCall(action, region, body, answer);
      held.push(() => answerCall(action, region, body, answer));
      if (held.length >= hold) {
        options = { ...options, holdUntil: 0 };
        for (const release of held.splice(0)) release();
      }
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    asked,
    endlessBytes: () => written.bytes,
    waitFor: (action, count = 1) =>
      new Promise<void>((resolve) => {
        const check = () => {
          if ((asked.get(action) ?? 0) < count) return;
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      }),
    async close() {
      for (const answer of silent) answer.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
