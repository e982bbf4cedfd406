import {
  DescribeInstancesCommand,
  DescribeVolumesCommand,
  type Filter,
  type Instance,
  type Volume,
} from "@aws-sdk/client-ec2";
import { REGION_COUNTRIES } from "../../billing/registry/regions.js";
import {
  type CloudResource,
  matchesFilters,
  type ResourceTag,
  type ScannedResource,
  type ScanProblem,
  type TagFilter,
} from "../resources.js";
import { attemptTimeoutMs, callSignal, closeClients, type RegionClients, regionClients } from "./clients.js";
import { averageCpu } from "./cpuLoad.js";
import { callFailure } from "./failures.js";

/*
 * An AWS account read, region by region, with describe and get calls only (docs/scan.md lists the
 * IAM permissions): its running instances (DescribeInstances, filtered by state and by the tag
 * filters on AWS's side), their average CPU load over the period (src/scan/aws/cpuLoad.ts), the EBS
 * volumes attached to them or carrying the filters' tags themselves (DescribeVolumes). Each
 * resource is evaluated for the part of the period it existed: from its launch (an instance) or its
 * creation (a volume), whichever is later, to the period's end.
 *
 * A failure never stops the scan: what it could not read is one line naming the region, the call,
 * why (src/scan/aws/failures.ts) and what is left out, and the rest is read. Every list is bounded
 * (MAX_RESOURCES a region): past it, the first ones are read and a line says so.
 */

/** Resources of one kind read in a region, at most. */
export const MAX_RESOURCES = 20_000;

/** What a scan is asked. */
export interface AccountScanRequest {
  readonly regions: readonly string[];
  readonly filters: readonly TagFilter[];
  /** [start, end) in epoch milliseconds. */
  readonly period: readonly [number, number];
  /** An emulator's endpoint, or null for AWS's. */
  readonly endpoint: string | null;
  /** Aborted when the scan's time is spent: every call in flight is stopped. */
  readonly signal: AbortSignal;
  /** The scan's time: each call's attempts are bounded within it (attemptTimeoutMs). */
  readonly timeoutMs: number;
}

/** What a scan read: the resources (regions in the order asked) and what it could not read. */
export interface AccountScan {
  readonly resources: readonly ScannedResource[];
  readonly problems: readonly ScanProblem[];
}

const HOUR_MS = 3_600_000;

function tagsOf(tags: readonly { Key?: string; Value?: string }[] | undefined): ResourceTag[] {
  return (tags ?? []).flatMap((one) =>
    one.Key === undefined ? [] : [{ key: one.Key, value: one.Value ?? null }],
  );
}

/** The part of the period from `began` on, as [start, end) and its hours. */
function partOf(period: readonly [number, number], began: Date | undefined) {
  const start = Math.max(period[0], began?.getTime() ?? period[0]);
  const used: [number, number] = [Math.min(start, period[1]), period[1]];
  return { period: used, hours: (used[1] - used[0]) / HOUR_MS };
}

/** Every page of a describe call, up to MAX_RESOURCES items; `more` when the bound cut it. */
async function pages<T>(
  next: (token: string | undefined) => Promise<{ readonly items: T[]; readonly token?: string }>,
): Promise<{ readonly items: T[]; readonly more: boolean }> {
  const items: T[] = [];
  let token: string | undefined;
  do {
    const page = await next(token);
    items.push(...page.items);
    token = page.token;
  } while (token !== undefined && items.length < MAX_RESOURCES);
  return { items: items.slice(0, MAX_RESOURCES), more: token !== undefined || items.length > MAX_RESOURCES };
}

/** The running instances of the region that match the filters. */
function runningInstances(clients: RegionClients, filters: readonly TagFilter[], signal: AbortSignal) {
  const asked: Filter[] = [
    { Name: "instance-state-name", Values: ["pending", "running"] },
    ...filters.map((filter) => ({ Name: `tag:${filter.key}`, Values: [filter.value] })),
  ];
  return pages<Instance>(async (token) => {
    const page = await clients.ec2.send(
      new DescribeInstancesCommand({ Filters: asked, MaxResults: 1000, NextToken: token }),
      { abortSignal: callSignal(signal) },
    );
    return {
      items: (page.Reservations ?? []).flatMap((reservation) => reservation.Instances ?? []),
      token: page.NextToken,
    };
  });
}

/** The volumes of the region. */
function regionVolumes(clients: RegionClients, signal: AbortSignal) {
  return pages<Volume>(async (token) => {
    const page = await clients.ec2.send(new DescribeVolumesCommand({ MaxResults: 500, NextToken: token }), {
      abortSignal: callSignal(signal),
    });
    return { items: page.Volumes ?? [], token: page.NextToken };
  });
}

/** One region's reading: its resources, and a line for each thing it could not read. */
class RegionScan {
  readonly problems: ScanProblem[] = [];
  readonly resources: ScannedResource[] = [];

  constructor(
    readonly clients: RegionClients,
    private readonly request: AccountScanRequest,
    private readonly country: string,
  ) {}

  /** Whether the region is past asking: it does not answer, or no credentials were found. */
  private given = false;

  private say(call: string, error: unknown, left: string): void {
    const { region } = this.clients;
    const failure = callFailure(error);
    this.given = ["not answering", "no credentials", "aborted"].includes(failure.kind);
    const what = this.given ? `nothing of ${region} read` : left;
    this.problems.push({ region, line: `${region}: ${call} ${failure.words}: ${what}` });
  }

  private location() {
    return { aws_region: this.clients.region, iso_country_code: this.country };
  }

  async read(): Promise<void> {
    const { region } = this.clients;
    const { filters, signal } = this.request;
    let instances: Instance[];
    try {
      const read = await runningInstances(this.clients, filters, signal);
      instances = read.items;
      if (read.more)
        this.problems.push({
          region,
          line: `${region}: more than ${MAX_RESOURCES} instances: the first ${MAX_RESOURCES} read`,
        });
    } catch (error) {
      this.say("DescribeInstances", error, `no instance of ${region} read`);
      instances = [];
    }
    // A region that does not answer, or without credentials, is not asked again.
    if (this.given) return;
    const loads = await this.loads(instances);
    for (const instance of instances) this.resources.push(this.instanceResource(instance, loads));
    await this.volumes(new Set(instances.map((instance) => instance.InstanceId ?? "")));
  }

  /** The instances' CPU loads; none when the call failed (said). */
  private async loads(instances: readonly Instance[]): Promise<Map<string, number> | null> {
    if (instances.length === 0) return new Map();
    try {
      const ids = instances.map((instance) => instance.InstanceId ?? "");
      return await averageCpu(this.clients, ids, this.request.period, this.request.signal);
    } catch (error) {
      this.say(
        "GetMetricData (CloudWatch)",
        error,
        `the CPU load of ${instances.length} instances not read: the archetype's load instead`,
      );
      return null;
    }
  }

  private instanceResource(instance: Instance, loads: Map<string, number> | null): ScannedResource {
    const id = instance.InstanceId ?? "";
    const load = loads?.get(id);
    const resource: CloudResource = {
      provider: "AWS",
      id,
      location: this.location(),
      resource_details: {
        instance: {
          instance_type: String(instance.InstanceType ?? ""),
          usage: { average_cpu_load: load ?? 0, state: "running" },
        },
      },
      tags: tagsOf(instance.Tags),
    };
    return {
      resource,
      ...partOf(this.request.period, instance.LaunchTime),
      launched: instance.LaunchTime?.toISOString() ?? null,
      ...(load === undefined ? { loadUnknown: true } : {}),
    };
  }

  /** The volumes attached to `scanned` instances or carrying the filters' tags. */
  private async volumes(scanned: ReadonlySet<string>): Promise<void> {
    const { region } = this.clients;
    let volumes: Volume[];
    try {
      const read = await regionVolumes(this.clients, this.request.signal);
      volumes = read.items;
      if (read.more)
        this.problems.push({
          region,
          line: `${region}: more than ${MAX_RESOURCES} volumes: the first ${MAX_RESOURCES} read`,
        });
    } catch (error) {
      this.say("DescribeVolumes", error, `no volume of ${region} read`);
      return;
    }
    for (const volume of volumes) {
      const attached = (volume.Attachments ?? []).flatMap((one) =>
        one.InstanceId === undefined ? [] : [one.InstanceId],
      );
      const tags = tagsOf(volume.Tags);
      const { filters } = this.request;
      const kept =
        filters.length === 0 || attached.some((id) => scanned.has(id)) || matchesFilters(tags, filters);
      if (!kept) continue;
      this.resources.push({
        resource: {
          provider: "AWS",
          id: volume.VolumeId ?? "",
          location: this.location(),
          resource_details: {
            block_storage: {
              storage_type: String(volume.VolumeType ?? ""),
              usage: volume.Size === undefined ? null : { size_gb: volume.Size },
              attached_instances:
                attached.length === 0 ? null : attached.map((instance_id) => ({ instance_id })),
            },
          },
          tags,
        },
        ...partOf(this.request.period, volume.CreateTime),
        launched: volume.CreateTime?.toISOString() ?? null,
      });
    }
  }
}

/** The account's resources in the regions asked, read at once (each region's calls in sequence). */
export async function scanAccount(request: AccountScanRequest): Promise<AccountScan> {
  const scans = request.regions.map(
    (region) =>
      new RegionScan(
        regionClients(region, request.endpoint, attemptTimeoutMs(request.timeoutMs)),
        request,
        REGION_COUNTRIES.aws[region] ?? "",
      ),
  );
  try {
    await Promise.all(scans.map((scan) => scan.read()));
  } finally {
    for (const scan of scans) closeClients(scan.clients);
  }
  return {
    resources: scans.flatMap((scan) => scan.resources),
    problems: scans.flatMap((scan) => scan.problems),
  };
}
