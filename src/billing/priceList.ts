/*
 * A public on-demand price list (Linux, by region, in USD): what prices a what-if's change where the
 * bill gives no rate of its target (src/billing/changePrices.ts). Its file is a CSV of
 * `provider,region,instance_type,usd_per_hour` whose `# source:` comment names where its figures come
 * from; the project ships none: `npm run price-list` (scripts/ensure-price-list.sh) derives one from
 * public data into the cache outside the repository (docs/billing.md, "What-if"). `PRICE_LIST`
 * names the file; unset, the one in that cache where present.
 */

import { existsSync, readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { BillingInputError } from "./errors.js";
import { providerOf } from "./providers/index.js";

/** The list's currency: every figure of it is in US dollars. */
export const LIST_CURRENCY = "USD";

/** The most a list may weigh: checked before it is read (the derived list of three providers is about 2 MB). */
export const MAX_PRICE_LIST_BYTES = 32 * 1024 * 1024;

/** Where `npm run price-list` writes its list by default, read where PRICE_LIST names none. */
export const DEFAULT_PRICE_LIST = join(homedir(), ".cache/impact-service/price-lists/on-demand-linux.csv");

/** A price list: its hourly prices by provider, type and region, and its source as its file names it. */
export interface PriceList {
  /** The `# source:` comment's text: the source, its date and licence. */
  readonly source: string;
  /** USD an hour by `listKey`. */
  readonly prices: ReadonlyMap<string, number>;
  /** The regions the list prices each type at, by `typeKey`, in the list's order. */
  readonly types: ReadonlyMap<string, readonly string[]>;
}

/** A list that cannot be read: its message names the file and what is wrong (the run stops, nothing written). */
export class PriceListError extends BillingInputError {}

/** How the list names a type: lower case, without the tier its provider's bills write or not (Azure's `Standard_`). */
export function listTypeName(provider: string, instanceType: string): string {
  const name = instanceType.trim().toLowerCase();
  return providerOf(provider)?.names.untiered(name) ?? name;
}

const typeKey = (provider: string, instanceType: string) =>
  `${provider}\u0000${listTypeName(provider, instanceType)}`;
const listKey = (provider: string, instanceType: string, region: string) =>
  `${typeKey(provider, instanceType)}\u0000${region.toLowerCase()}`;

const HEADER = "provider,region,instance_type,usd_per_hour";

/** A list from its text; `name` is what a problem names. */
export function parsePriceList(text: string, name: string): PriceList {
  const prices = new Map<string, number>();
  const types = new Map<string, string[]>();
  let source = "";
  let header = false;
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "") continue;
    if (line.startsWith("#")) {
      const named = /^#\s*source:\s*(.+)$/.exec(line);
      if (named !== null && source === "") source = named[1];
      continue;
    }
    if (!header) {
      if (line !== HEADER) throw new PriceListError(`${name}: its header is not ${HEADER}`);
      header = true;
      continue;
    }
    const [provider, region, instanceType, usd] = line.split(",");
    const price = Number(usd);
    if (
      provider === undefined ||
      region === undefined ||
      instanceType === undefined ||
      !(price > 0) ||
      !Number.isFinite(price)
    )
      throw new PriceListError(
        `${name}: line ${index + 1} is not provider,region,instance_type,usd_per_hour`,
      );
    const key = listKey(provider, instanceType, region);
    if (!prices.has(key)) {
      const regions = types.get(typeKey(provider, instanceType)) ?? [];
      regions.push(region.toLowerCase());
      types.set(typeKey(provider, instanceType), regions);
    }
    prices.set(key, price);
  }
  if (!header) throw new PriceListError(`${name}: its header is not ${HEADER}`);
  if (source === "")
    throw new PriceListError(`${name}: no "# source:" line names where its prices come from`);
  return { source, prices, types };
}

/**
 * The list of `path` (PRICE_LIST), else the one `npm run price-list` made where present; null where none
 * is (named or present). A named file missing, too large or malformed is an error naming it.
 */
export function loadPriceList(path: string | undefined): PriceList | null {
  const file = path ?? DEFAULT_PRICE_LIST;
  if (path === undefined && !existsSync(file)) return null;
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new PriceListError(`PRICE_LIST=${JSON.stringify(file)}: no such file`);
  }
  if (size > MAX_PRICE_LIST_BYTES)
    throw new PriceListError(
      `PRICE_LIST=${JSON.stringify(file)}: ${size} bytes, more than the ${MAX_PRICE_LIST_BYTES} a list may have`,
    );
  return parsePriceList(readFileSync(file, "utf8"), `PRICE_LIST=${JSON.stringify(file)}`);
}

/** A type's list price at a region, or what the list lacks (`m8i.xlarge`, `m8i.xlarge in eu-west-3`). */
export function listPrice(
  list: PriceList,
  provider: string,
  instanceType: string,
  region: string,
): { readonly price: number } | { readonly price: null; readonly missing: string } {
  const price = list.prices.get(listKey(provider, instanceType, region));
  if (price !== undefined) return { price };
  return {
    price: null,
    missing: list.types.has(typeKey(provider, instanceType))
      ? `${instanceType} in ${region}`
      : `${instanceType} at any region`,
  };
}

/** The list's ratio of a change's price to its usage's, and where it is read; else what the list lacks. */
export type ListRatio =
  | { readonly ratio: number; readonly from: number; readonly to: number; readonly where: string }
  | { readonly ratio: null; readonly missing: string };

/**
 * The ratio of `to`'s list price to `from`'s: at their own regions where the list prices both;
 * else, for a change that keeps its region (a family or a size), at the first region by name the
 * list prices both types at — read as their relative price wherever they run, an estimate.
 */
export function listRatio(
  list: PriceList,
  provider: string,
  from: { readonly instanceType: string; readonly region: string },
  to: { readonly instanceType: string; readonly region: string },
): ListRatio {
  const own = listPrice(list, provider, from.instanceType, from.region);
  const changed = listPrice(list, provider, to.instanceType, to.region);
  if (own.price !== null && changed.price !== null)
    return {
      ratio: changed.price / own.price,
      from: own.price,
      to: changed.price,
      where: from.region === to.region ? `in ${from.region}` : `in ${to.region} and ${from.region}`,
    };
  const ownRegions = list.types.get(typeKey(provider, from.instanceType)) ?? [];
  const changedRegions = new Set(list.types.get(typeKey(provider, to.instanceType)) ?? []);
  // The change's side first, then the usage's own, as a pair's reason says them
  if (changedRegions.size === 0) return { ratio: null, missing: `${to.instanceType} at any region` };
  if (ownRegions.length === 0)
    return { ratio: null, missing: `${from.instanceType} at any region, the usage's own` };
  if (from.region.toLowerCase() !== to.region.toLowerCase())
    return {
      ratio: null,
      missing:
        changed.price === null
          ? changed.missing
          : own.price === null
            ? `${own.missing}, the usage's own`
            : "",
    };
  const common = ownRegions.filter((region) => changedRegions.has(region)).sort();
  if (common.length === 0)
    return {
      ratio: null,
      missing: `region pricing both ${from.instanceType} and ${to.instanceType}`,
    };
  const region = common[0];
  const ownPrice = list.prices.get(listKey(provider, from.instanceType, region)) ?? 0;
  const changedPrice = list.prices.get(listKey(provider, to.instanceType, region)) ?? 0;
  return { ratio: changedPrice / ownPrice, from: ownPrice, to: changedPrice, where: `in ${region}` };
}

/** A list's row: a provider's type at a region, its USD an hour. */
export interface PriceListRow {
  readonly provider: string;
  readonly region: string;
  readonly instanceType: string;
  readonly usdPerHour: number;
}

/**
 * A list's text, as parsePriceList reads it: its `# source:` line, the header, its rows (a row
 * whose fields would break the CSV is left out: no provider, region or type has a comma or a line
 * break).
 */
export function priceListText(source: string, rows: readonly PriceListRow[]): string {
  const safe = (field: string) => !/[,\r\n]/.test(field) && field.trim() !== "";
  const lines = rows
    .filter((row) => safe(row.provider) && safe(row.region) && safe(row.instanceType))
    .map((row) => `${row.provider},${row.region},${row.instanceType},${row.usdPerHour}`);
  return `# source: ${source.replace(/[\r\n]+/g, " ")}\n${HEADER}\n${lines.join("\n")}${lines.length > 0 ? "\n" : ""}`;
}

/** A list's rows as its text gives them (the text parsePriceList accepts), and its source. */
export function priceListRows(text: string, name: string): { source: string; rows: PriceListRow[] } {
  const { source } = parsePriceList(text, name);
  const rows = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#") && line !== HEADER)
    .map((line) => {
      const [provider, region, instanceType, usd] = line.split(",");
      return { provider, region, instanceType, usdPerHour: Number(usd) };
    });
  return { source, rows };
}
