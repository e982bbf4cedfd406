/*
 * The on-demand prices of ec2instances.info's EC2 dump (`data/instances.json` of the Go module
 * github.com/cristim/ec2-instances-info, read by scripts/price-list.ts): a list of instance types,
 * each with `pricing[region].linux.ondemand`, USD an hour as text. Read as data, never run. Its
 * pricing also keys Local Zones and Wavelength Zones (`us-east-1-dfw-1`, `us-east-1-wl1-bna1`):
 * no region a bill's hours are of, left out and counted.
 */
import type { GeneratedPrices } from "./karpenter.js";

/** An AWS region's name (`eu-north-1`, `us-gov-west-1`), not a zone's under it. */
export const isAwsRegion = (key: string): boolean => /^[a-z]{2}(?:-[a-z]+)+-\d+$/.test(key);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * `region,type` → USD an hour of each type's Linux on-demand price at each region, the prices above
 * 0; `zones`: the zone keys (no region) left out. A text that is no list of types is an error.
 */
export function ec2InstancesPrices(text: string): { prices: GeneratedPrices; zones: number } {
  const types: unknown = JSON.parse(text);
  if (!Array.isArray(types)) throw new Error("ec2instances.info's EC2 dump is not a list of instance types");
  const prices: GeneratedPrices = new Map();
  const zones = new Set<string>();
  for (const entry of types) {
    if (!isRecord(entry) || typeof entry.instance_type !== "string" || !isRecord(entry.pricing)) continue;
    for (const [region, byOs] of Object.entries(entry.pricing)) {
      if (!isAwsRegion(region)) {
        zones.add(region);
        continue;
      }
      const linux = isRecord(byOs) ? byOs.linux : undefined;
      const price = Number(isRecord(linux) ? linux.ondemand : undefined);
      if (price > 0 && Number.isFinite(price)) prices.set(`${region},${entry.instance_type}`, price);
    }
  }
  return { prices, zones: zones.size };
}

/**
 * `region,type,engine` → USD an hour of a managed service's nodes in ec2instances.info's dump of
 * it (`data/rds-instances.json`, `data/elasticache-instances.json`): each type's
 * `pricing[region][engine].ondemand`, its engine named with `service` (`RDS MySQL`, `ElastiCache
 * Valkey`): one type's engines are priced apart. Left out and counted: the engines keyed by a
 * number (the dump keys most twice, by name and by the price list's id) and the Outposts' prices
 * (a rack on the customer's premises, no region's); the zones as above.
 */
export function ec2InstancesEnginePrices(
  text: string,
  service: string,
): { prices: GeneratedPrices; left: number } {
  const types: unknown = JSON.parse(text);
  if (!Array.isArray(types))
    throw new Error(`ec2instances.info's ${service} dump is not a list of instance types`);
  const prices: GeneratedPrices = new Map();
  let left = 0;
  for (const entry of types) {
    if (!isRecord(entry) || typeof entry.instance_type !== "string" || !isRecord(entry.pricing)) continue;
    for (const [region, byEngine] of Object.entries(entry.pricing)) {
      if (!isAwsRegion(region) || !isRecord(byEngine)) continue;
      for (const [engine, terms] of Object.entries(byEngine)) {
        const price = Number(isRecord(terms) ? terms.ondemand : undefined);
        if (!(price > 0) || !Number.isFinite(price)) continue;
        if (/^\d+$/.test(engine) || /outpost/i.test(engine) || /[,\r\n]/.test(engine)) {
          left += 1;
          continue;
        }
        prices.set(`${region},${entry.instance_type},${service} ${engine}`, price);
      }
    }
  }
  return { prices, left };
}

/**
 * `region,type` → USD an hour of OpenSearch Service's nodes in ec2instances.info's dump of it
 * (`data/opensearch-instances.json`): each type's `pricing[region].ondemand`. The service names a
 * node `m5.large.search` in a domain of OpenSearch and `m5.large.elasticsearch` in one of a legacy
 * Elasticsearch version (its APIs, and so a bill's usage types): one node of one service, its
 * price written under both names.
 */
export function ec2InstancesSearchPrices(text: string): GeneratedPrices {
  const types: unknown = JSON.parse(text);
  if (!Array.isArray(types))
    throw new Error("ec2instances.info's OpenSearch dump is not a list of instance types");
  const prices: GeneratedPrices = new Map();
  for (const entry of types) {
    if (!isRecord(entry) || typeof entry.instance_type !== "string" || !isRecord(entry.pricing)) continue;
    const legacy = entry.instance_type.replace(/\.search$/, ".elasticsearch");
    for (const [region, terms] of Object.entries(entry.pricing)) {
      const price = Number(isRecord(terms) ? terms.ondemand : undefined);
      if (!isAwsRegion(region) || !(price > 0) || !Number.isFinite(price)) continue;
      prices.set(`${region},${entry.instance_type}`, price);
      if (legacy !== entry.instance_type) prices.set(`${region},${legacy}`, price);
    }
  }
  return prices;
}
