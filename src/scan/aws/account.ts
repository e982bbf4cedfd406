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
 * (MAX_RESOURCES a region): past it, the first ones are read and a line says so. Each page read is
 * handed on before the next is asked, its instances' CPU loads with it: a scan holds a page a
 * region, whatever the account's size.
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

/** A consumer's failure while a page is handed to it: not the call's, never said as the call's. */
class ConsumerFailure {
  constructor(readonly cause: unknown) {}
}

/**
 * Every page of a describe call, each handed to `each` before the next is asked (a page at a time
 * in memory), up to MAX_RESOURCES items; `more` when the bound cut it.
 */
async function eachPage<T>(
  next: (token: string | undefined) => Promise<{ readonly items: T[]; readonly token?: string }>,
  each: (items: T[]) => Promise<void>,
): Promise<{ readonly more: boolean }> {
  let token: string | undefined;
  let count = 0;
  let cut = false;
  do {
    const page = await next(token);
    const items = page.items.slice(0, MAX_RESOURCES - count);
    cut = items.length < page.items.length;
    count += items.length;
    token = page.token;
    await each(items).catch((error: unknown) => {
      throw new ConsumerFailure(error);
    });
  } while (token !== undefined && count < MAX_RESOURCES);
  return { more: token !== undefined || cut };
}

/** The running instances of the region that match the filters, a page at a time. */
function runningInstances(
  clients: RegionClients,
  filters: readonly TagFilter[],
  signal: AbortSignal,
  each: (instances: Instance[]) => Promise<void>,
) {
  const asked: Filter[] = [
    { Name: "instance-state-name", Values: ["pending", "running"] },
    ...filters.map((filter) => ({ Name: `tag:${filter.key}`, Values: [filter.value] })),
  ];
  return eachPage<Instance>(async (token) => {
    const page = await clients.ec2.send(
      new DescribeInstancesCommand({ Filters: asked, MaxResults: 1000, NextToken: token }),
      { abortSignal: callSignal(signal) },
    );
    return {
      items: (page.Reservations ?? []).flatMap((reservation) => reservation.Instances ?? []),
      token: page.NextToken,
    };
  }, each);
}

/** The volumes of the region, a page at a time. */
function regionVolumes(
  clients: RegionClients,
  signal: AbortSignal,
  each: (volumes: Volume[]) => Promise<void>,
) {
  return eachPage<Volume>(async (token) => {
    const page = await clients.ec2.send(new DescribeVolumesCommand({ MaxResults: 500, NextToken: token }), {
      abortSignal: callSignal(signal),
    });
    return { items: page.Volumes ?? [], token: page.NextToken };
  }, each);
}

/** Where a region's resources go as they are read: a page's at a time. */
export type ResourceSink = (resources: readonly ScannedResource[]) => Promise<void>;

/** One region's reading: its resources handed to the sink, and a line for each thing it could not read. */
class RegionScan {
  readonly problems: ScanProblem[] = [];

  constructor(
    readonly clients: RegionClients,
    private readonly request: AccountScanRequest,
    private readonly country: string,
    private readonly sink: ResourceSink,
  ) {}

  /** Whether the region is past asking: it does not answer, or no credentials were found. */
  private given = false;
  /** Instances read so far. */
  private instancesRead = 0;
  /** CloudWatch's failure, once: the instances read after it keep their archetype's load. */
  private loadFailure: { readonly error: unknown; count: number } | null = null;

  private say(call: string, error: unknown, left: string): void {
    const { region } = this.clients;
    const failure = callFailure(error);
    this.given = ["not answering", "no credentials", "aborted", "too large"].includes(failure.kind);
    const read = this.instancesRead;
    const what = !this.given
      ? left
      : read === 0
        ? `nothing of ${region} read`
        : `nothing more of ${region} read (${read} instance${read === 1 ? "" : "s"} read)`;
    this.problems.push({ region, line: `${region}: ${call} ${failure.words}: ${what}` });
  }

  private location() {
    return { aws_region: this.clients.region, iso_country_code: this.country };
  }

  async read(): Promise<void> {
    try {
      await this.readAll();
    } catch (error) {
      if (error instanceof ConsumerFailure) throw error.cause;
      throw error;
    }
  }

  private async readAll(): Promise<void> {
    const { region } = this.clients;
    const { filters, signal } = this.request;
    const ids = new Set<string>();
    try {
      const read = await runningInstances(this.clients, filters, signal, async (instances) => {
        const loads = await this.loads(instances);
        for (const instance of instances) ids.add(instance.InstanceId ?? "");
        this.instancesRead += instances.length;
        await this.sink(instances.map((instance) => this.instanceResource(instance, loads)));
      });
      if (read.more)
        this.problems.push({
          region,
          line: `${region}: more than ${MAX_RESOURCES} instances: the first ${MAX_RESOURCES} read`,
        });
    } catch (error) {
      if (error instanceof ConsumerFailure) throw error;
      const read = this.instancesRead;
      this.say(
        "DescribeInstances",
        error,
        read === 0
          ? `no instance of ${region} read`
          : `the instances of ${region} past the first ${read} not read`,
      );
    }
    this.sayLoadFailure();
    // A region that does not answer, or without credentials, is not asked again.
    if (this.given) return;
    await this.volumes(ids);
  }

  /** The instances' CPU loads; none after CloudWatch failed once (said when the region is read). */
  private async loads(instances: readonly Instance[]): Promise<Map<string, number> | null> {
    if (instances.length === 0) return new Map();
    if (this.loadFailure !== null) {
      this.loadFailure.count += instances.length;
      return null;
    }
    try {
      const ids = instances.map((instance) => instance.InstanceId ?? "");
      return await averageCpu(this.clients, ids, this.request.period, this.request.signal);
    } catch (error) {
      this.loadFailure = { error, count: instances.length };
      return null;
    }
  }

  private sayLoadFailure(): void {
    const failed = this.loadFailure;
    if (failed === null) return;
    const given = this.given;
    this.say(
      "GetMetricData (CloudWatch)",
      failed.error,
      `the CPU load of ${failed.count} instances not read: the archetype's load instead`,
    );
    this.given ||= given;
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
    try {
      const read = await regionVolumes(this.clients, this.request.signal, (volumes) =>
        this.sink(volumes.flatMap((volume) => this.volumeResource(volume, scanned))),
      );
      if (read.more)
        this.problems.push({
          region,
          line: `${region}: more than ${MAX_RESOURCES} volumes: the first ${MAX_RESOURCES} read`,
        });
    } catch (error) {
      if (error instanceof ConsumerFailure) throw error;
      this.say("DescribeVolumes", error, `no volume of ${region} read`);
    }
  }

  /** A volume as a resource, when it is attached to a kept instance or carries the filters' tags. */
  private volumeResource(volume: Volume, scanned: ReadonlySet<string>): ScannedResource[] {
    const attached = (volume.Attachments ?? []).flatMap((one) =>
      one.InstanceId === undefined ? [] : [one.InstanceId],
    );
    const tags = tagsOf(volume.Tags);
    const { filters } = this.request;
    const kept =
      filters.length === 0 || attached.some((id) => scanned.has(id)) || matchesFilters(tags, filters);
    if (!kept) return [];
    return [
      {
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
      },
    ];
  }
}

/**
 * The account's resources in the regions asked, read at once (each region's calls in sequence),
 * each page handed to `sink` as it is read (then dropped: the scan's memory is a page a region), or
 * kept and returned in the regions' order when no sink is given.
 */
export async function scanAccount(request: AccountScanRequest, sink?: ResourceSink): Promise<AccountScan> {
  const kept = request.regions.map(() => [] as ScannedResource[]);
  const scans = request.regions.map(
    (region, at) =>
      new RegionScan(
        regionClients(region, request.endpoint, attemptTimeoutMs(request.timeoutMs)),
        request,
        REGION_COUNTRIES.aws[region] ?? "",
        sink ??
          (async (resources) => {
            kept[at].push(...resources);
          }),
      ),
  );
  try {
    await Promise.all(scans.map((scan) => scan.read()));
  } finally {
    for (const scan of scans) closeClients(scan.clients);
  }
  return { resources: kept.flat(), problems: scans.flatMap((scan) => scan.problems) };
}
