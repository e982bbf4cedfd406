/**
 * moto, AWS's APIs emulated (installed at its pinned hashes by scripts/ensure-moto.sh, `npm test`'s
 * pretest), started in server mode on a free port and stopped after; an account held in it through
 * the same SDK the scan reads with; and a proxy in front of it that answers some calls of some
 * regions as AWS answers a denied or throttled call, or never answers them (what moto cannot be
 * asked to do), the region read from the request's signature.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { homedir } from "node:os";
import { join } from "node:path";
import { CloudWatchClient, PutMetricDataCommand } from "@aws-sdk/client-cloudwatch";
import {
  CreateVolumeCommand,
  DescribeImagesCommand,
  DescribeVolumesCommand,
  EC2Client,
  RunInstancesCommand,
} from "@aws-sdk/client-ec2";
import { ensured } from "./testTools.js";

/** The emulator's credentials (moto takes any): set in the test's environment, never a real account's. */
export const EMULATOR_CREDENTIALS = {
  AWS_ACCESS_KEY_ID: "testing",
  AWS_SECRET_ACCESS_KEY: "testing",
} as const;

/** moto_server's path, or why there is none (the install's own words). */
async function motoServer(): Promise<string> {
  const path = await ensured("ensure-moto.sh");
  if (path !== "") return path;
  const failed = join(
    process.env.IMPACT_SERVICE_CACHE ?? join(homedir(), ".cache/impact-service"),
    "moto-5.2.5.failed",
  );
  throw new Error(existsSync(failed) ? readFileSync(failed, "utf8") : "moto 5.2.5 is not installed");
}

export interface Moto {
  readonly url: string;
  stop(): Promise<void>;
}

/** moto on a free port, ready: its "Running on" line read, then its API answering. */
export async function startMoto(): Promise<Moto> {
  const child: ChildProcess = spawn(await motoServer(), ["-H", "127.0.0.1", "-p", "0"], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let said = "";
  const url = await new Promise<string>((resolve, reject) => {
    const read = (chunk: Buffer) => {
      said = (said + chunk.toString()).slice(-8192);
      const found = /Running on (http:\/\/127\.0\.0\.1:\d+)/.exec(said);
      if (found !== null) resolve(found[1]);
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => reject(new Error(`moto_server ended (${code}) before listening: ${said}`)));
  });
  const answer = await fetch(`${url}/moto-api/data.json`);
  if (!answer.ok) throw new Error(`moto answered ${answer.status}`);
  return {
    url,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      await once(child, "exit");
    },
  };
}

/** An instance held in the emulator. */
export interface HeldInstance {
  readonly region: string;
  readonly id: string;
  readonly type: string;
  readonly tags: Readonly<Record<string, string>>;
  readonly launch: number;
  /** The CPUUtilization values put, percent. */
  readonly cpu: readonly number[];
}

/** A volume held in the emulator. */
export interface HeldVolume {
  readonly region: string;
  readonly id: string;
  readonly type: string;
  readonly size: number;
  readonly attachedTo: string | null;
  readonly tags: Readonly<Record<string, string>>;
  readonly created: number;
}

export function clients(url: string, region: string) {
  const config = {
    region,
    endpoint: url,
    credentials: { accessKeyId: "testing", secretAccessKey: "testing" },
  };
  return { ec2: new EC2Client(config), cloudwatch: new CloudWatchClient(config) };
}

const asTags = (tags: Readonly<Record<string, string>>) =>
  Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));

/** An instance run with its tags, a data volume when asked, and its CPU series put `at` (epoch ms). */
export async function runInstance(
  url: string,
  region: string,
  spec: {
    type: string;
    tags: Record<string, string>;
    volume?: { type: string; size: number };
    cpu: number[];
  },
  at: readonly number[],
): Promise<{ instance: HeldInstance; volumes: HeldVolume[] }> {
  const { ec2, cloudwatch } = clients(url, region);
  const image = (await ec2.send(new DescribeImagesCommand({}))).Images?.[0]?.ImageId;
  const run = await ec2.send(
    new RunInstancesCommand({
      ImageId: image,
      MinCount: 1,
      MaxCount: 1,
      InstanceType: spec.type as never,
      TagSpecifications: [{ ResourceType: "instance", Tags: asTags(spec.tags) }],
      ...(spec.volume === undefined
        ? {}
        : {
            BlockDeviceMappings: [
              {
                DeviceName: "/dev/sdb",
                Ebs: {
                  VolumeSize: spec.volume.size,
                  VolumeType: spec.volume.type as never,
                  ...(spec.volume.type.startsWith("io") ? { Iops: 1000 } : {}),
                },
              },
            ],
          }),
    }),
  );
  const id = run.Instances?.[0]?.InstanceId as string;
  const launch = (run.Instances?.[0]?.LaunchTime ?? new Date(Number.NaN)).getTime();
  if (spec.cpu.length > 0) {
    await cloudwatch.send(
      new PutMetricDataCommand({
        Namespace: "AWS/EC2",
        MetricData: spec.cpu.map((value, k) => ({
          MetricName: "CPUUtilization",
          Dimensions: [{ Name: "InstanceId", Value: id }],
          Unit: "Percent",
          Value: value,
          Timestamp: new Date(at[k]),
        })),
      }),
    );
  }
  // Every volume attached to it: its root volume (moto makes one) and the data volume asked.
  const attached = await ec2.send(
    new DescribeVolumesCommand({ Filters: [{ Name: "attachment.instance-id", Values: [id] }] }),
  );
  const volumes = (attached.Volumes ?? []).map((made) => ({
    region,
    id: made.VolumeId as string,
    type: String(made.VolumeType),
    size: made.Size as number,
    attachedTo: id,
    tags: {},
    created: (made.CreateTime as Date).getTime(),
  }));
  return { instance: { region, id, type: spec.type, tags: spec.tags, launch, cpu: spec.cpu }, volumes };
}

/** A volume attached to nothing, with its tags. */
export async function createVolume(
  url: string,
  region: string,
  spec: { type: string; size: number; tags: Record<string, string> },
): Promise<HeldVolume> {
  const { ec2 } = clients(url, region);
  const made = await ec2.send(
    new CreateVolumeCommand({
      AvailabilityZone: `${region}a`,
      Size: spec.size,
      VolumeType: spec.type as never,
      TagSpecifications: [{ ResourceType: "volume", Tags: asTags(spec.tags) }],
    }),
  );
  return {
    region,
    id: made.VolumeId as string,
    type: spec.type,
    size: spec.size,
    attachedTo: null,
    tags: spec.tags,
    created: (made.CreateTime as Date).getTime(),
  };
}

/** What the proxy does with a call of a region: AWS's refusal of it, or no answer at all. */
export type Fault = "denied" | "throttled" | "silent";

/** The region and the action of a signed request (`Credential=…/<date>/<region>/<service>/…`). */
export function regionAndAction(headers: Record<string, string | string[] | undefined>, body: string) {
  const region = /Credential=[^/]+\/\d+\/([^/]+)\//.exec(String(headers.authorization ?? ""))?.[1] ?? "";
  const target = String(headers["x-amz-target"] ?? "");
  const action =
    target !== "" ? target.slice(target.lastIndexOf(".") + 1) : (/(?:^|&)Action=(\w+)/.exec(body)?.[1] ?? "");
  return { region, action };
}

/** AWS's answer to a denied or throttled call, in its protocol (EC2's XML, CloudWatch's JSON). */
function refusal(fault: "denied" | "throttled", json: boolean) {
  const code = json
    ? fault === "denied"
      ? "AccessDenied"
      : "Throttling"
    : fault === "denied"
      ? "UnauthorizedOperation"
      : "RequestLimitExceeded";
  const status = fault === "denied" ? 403 : json ? 400 : 503;
  if (json) {
    return {
      status,
      headers: { "content-type": "application/x-amz-json-1.0", "x-amzn-query-error": `${code};Sender` },
      body: JSON.stringify({ __type: code, message: `${code} (the test's proxy)` }),
    };
  }
  const body = `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>${code}</Code><Message>${code} (the test's proxy)</Message></Error></Errors><RequestID>test</RequestID></Response>`;
  return { status, headers: { "content-type": "text/xml" }, body };
}

/** A proxy to `target` applying `faults[region][action]` (`*`: every action of the region). */
export async function faultProxy(
  target: string,
  faults: Readonly<Record<string, Readonly<Record<string, Fault>>>>,
): Promise<{ url: string; close(): Promise<void> }> {
  const held = new Set<import("node:http").ServerResponse>();
  const server: Server = createServer((incoming, answer) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const body = Buffer.concat(chunks);
      const { region, action } = regionAndAction(incoming.headers, body.toString());
      const fault = faults[region]?.[action] ?? faults[region]?.["*"];
      if (fault === "silent") {
        held.add(answer);
        return;
      }
      if (fault !== undefined) {
        const refused = refusal(fault, incoming.headers["x-amz-target"] !== undefined);
        answer.writeHead(refused.status, refused.headers).end(refused.body);
        return;
      }
      const forwarded = request(
        `${target}${incoming.url}`,
        { method: incoming.method, headers: incoming.headers },
        (reply) => {
          answer.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(answer);
        },
      );
      forwarded.end(body);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async close() {
      for (const answer of held) answer.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, "close");
    },
  };
}
