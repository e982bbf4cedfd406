import { GetMetricDataCommand, type MetricDataQuery } from "@aws-sdk/client-cloudwatch";
import { callSignal, type RegionClients } from "./clients.js";

/*
 * Each instance's average CPU utilisation over the period (CloudWatch `AWS/EC2` `CPUUtilization`,
 * percent): the mean of its intervals' averages, as cloud-scanner takes it (cloud-scanner-cli's
 * aws_cloud_provider.rs averages the 5-minute averages of the last 10 minutes). Asked with
 * GetMetricData, QUERIES_PER_CALL instances a call, its pages followed. An interval of 5 minutes,
 * EC2's basic monitoring; a period of more than 5 days in intervals of whole hours, at most
 * MAX_INTERVALS each (CloudWatch keeps 5-minute data 63 days, hourly 455).
 */

/** Queries of one GetMetricData call (CloudWatch's most). */
const QUERIES_PER_CALL = 500;

/** Intervals of an instance's series over the period, at most. */
const MAX_INTERVALS = 1_440;

/** The interval, in seconds, of a period of `seconds`. */
export function intervalSeconds(seconds: number): number {
  if (seconds <= MAX_INTERVALS * 300) return 300;
  return Math.ceil(seconds / MAX_INTERVALS / 3600) * 3600;
}

/** The query of an instance's series. */
function query(id: string, at: number, period: number): MetricDataQuery {
  return {
    Id: `cpu${at}`,
    MetricStat: {
      Metric: {
        Namespace: "AWS/EC2",
        MetricName: "CPUUtilization",
        Dimensions: [{ Name: "InstanceId", Value: id }],
      },
      Period: period,
      Stat: "Average",
    },
    ReturnData: true,
  };
}

/**
 * The average CPU load of each instance of `ids` over [start, end) (epoch ms); an instance without a
 * datapoint is absent. A failed call throws (the caller names what it could not read).
 */
export async function averageCpu(
  clients: RegionClients,
  ids: readonly string[],
  [start, end]: readonly [number, number],
  signal: AbortSignal,
): Promise<Map<string, number>> {
  const period = intervalSeconds((end - start) / 1000);
  const averages = new Map<string, number>();
  for (let first = 0; first < ids.length; first += QUERIES_PER_CALL) {
    const batch = ids.slice(first, first + QUERIES_PER_CALL);
    const values = new Map<string, number[]>();
    let token: string | undefined;
    do {
      const page = await clients.cloudwatch.send(
        new GetMetricDataCommand({
          StartTime: new Date(start),
          EndTime: new Date(end),
          MetricDataQueries: batch.map((id, at) => query(id, at, period)),
          NextToken: token,
        }),
        { abortSignal: callSignal(signal) },
      );
      for (const result of page.MetricDataResults ?? []) {
        const id = batch[Number(result.Id?.slice(3))];
        if (id === undefined) continue;
        values.set(id, [...(values.get(id) ?? []), ...(result.Values ?? [])]);
      }
      token = page.NextToken;
    } while (token !== undefined);
    for (const [id, points] of values) {
      if (points.length > 0) averages.set(id, points.reduce((sum, point) => sum + point, 0) / points.length);
    }
  }
  return averages;
}
