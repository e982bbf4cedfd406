/*
 * A public on-demand price list (Linux, by region, in USD): what prices a what-if's change where the
 * bill gives no rate of its target (src/billing/changePrices.ts). Its file is a CSV of
 * `provider,region,instance_type,usd_per_hour` whose `# source:` comment names where its figures come
 * from, or of `provider,region,instance_type,usd_per_hour,engine`, whose rows naming an engine price
 * a managed service's node per engine (`RDS MySQL`, `ElastiCache Valkey`; empty for a VM). The
 * what-if's usage does not say its engine (one usage sums a type's hours at a place), so a node's
 * price is never read for it, only the ratio of two of its prices where every engine agrees on it.
 * Its `# sold where listed:` comments say, for each source, the regions it reads in full and the
 * types taken from it: where such a type is not sold (offeredAt).
 * The project ships none: `npm run price-list` (scripts/ensure-price-list.sh) derives one from
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
  /** A managed service's node's USD an hour by engine, by `listKey`: its engines priced apart. */
  readonly engines: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /**
   * By `typeKey`, the regions where the list's source of the type lists every type it sells (its
   * `# sold where listed:` lines): a type not priced at one of them is not sold there.
   */
  readonly sold: ReadonlyMap<string, ReadonlySet<string>>;
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
/** The header of a list whose rows may name an engine (a managed service's node), empty for a VM. */
const ENGINE_HEADER = `${HEADER},engine`;

/** A list from its text; `name` is what a problem names. */
export function parsePriceList(text: string, name: string): PriceList {
  const prices = new Map<string, number>();
  const types = new Map<string, string[]>();
  const engines = new Map<string, Map<string, number>>();
  const sold = new Map<string, ReadonlySet<string>>();
  let source = "";
  let header: string | null = null;
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === "") continue;
    if (line.startsWith("#")) {
      const named = /^#\s*source:\s*(.+)$/.exec(line);
      if (named !== null && source === "") source = named[1];
      const listed = /^#\s*sold where listed:\s*(\S+)\s+\S+\s+regions\s+(.+?)\s+types\s+(.+)$/.exec(line);
      if (listed !== null) {
        const regions = new Set(listed[2].toLowerCase().split(/\s+/));
        for (const type of listed[3].split(/\s+/)) sold.set(typeKey(listed[1], type), regions);
      }
      continue;
    }
    if (header === null) {
      if (line !== HEADER && line !== ENGINE_HEADER)
        throw new PriceListError(`${name}: its header is not ${HEADER} (nor ${ENGINE_HEADER})`);
      header = line;
      continue;
    }
    const fields = line.split(",");
    const [provider, region, instanceType, usd] = fields;
    const engine = header === ENGINE_HEADER ? (fields[4] ?? "").trim() : "";
    const price = Number(usd);
    if (
      provider === undefined ||
      region === undefined ||
      instanceType === undefined ||
      !(price > 0) ||
      !Number.isFinite(price) ||
      fields.length > header.split(",").length
    )
      throw new PriceListError(`${name}: line ${index + 1} is not ${header}`);
    const key = listKey(provider, instanceType, region);
    if (!prices.has(key) && !engines.has(key)) {
      const regions = types.get(typeKey(provider, instanceType)) ?? [];
      regions.push(region.toLowerCase());
      types.set(typeKey(provider, instanceType), regions);
    }
    if (engine === "") prices.set(key, price);
    else engines.set(key, (engines.get(key) ?? new Map<string, number>()).set(engine, price));
  }
  if (header === null) throw new PriceListError(`${name}: its header is not ${HEADER}`);
  if (source === "")
    throw new PriceListError(`${name}: no "# source:" line names where its prices come from`);
  return { source, prices, types, engines, sold };
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

/** What reads a run's price list from PRICE_LIST's path (undefined: the default's): loadPriceList, or keptPriceLists' reader. */
export type PriceListReader = (path: string | undefined) => PriceList | null;

/** Lists a keptPriceLists reader keeps at most (a process reads one or two: PRICE_LIST's, the default). */
const KEPT_LISTS = 4;

/**
 * loadPriceList, each list kept once read by its file's path, size, inode and modification time,
 * for a process that runs many bills (the tests run some hundred: each parse of the derived list's
 * 82,717 rows is about 0.2 s of CPU). A file changed since is read again, a missing one or one
 * that cannot be read is an error each time, as loadPriceList's. The lists are the caller's, held
 * by the reader it keeps (nothing of this module's); a list is read, never changed.
 */
export function keptPriceLists(): PriceListReader {
  const kept = new Map<string, { readonly stamp: string; readonly list: PriceList | null }>();
  return (path) => {
    const file = path ?? DEFAULT_PRICE_LIST;
    let stamp: string;
    try {
      const { size, ino, mtimeMs } = statSync(file);
      stamp = `${size} ${ino} ${mtimeMs}`;
    } catch {
      return loadPriceList(path);
    }
    const key = `${path === undefined ? "default" : "named"} ${file}`;
    const known = kept.get(key);
    if (known !== undefined && known.stamp === stamp) return known.list;
    const list = loadPriceList(path);
    kept.delete(key);
    if (kept.size >= KEPT_LISTS) kept.delete(kept.keys().next().value ?? "");
    kept.set(key, { stamp, list });
    return list;
  };
}

/**
 * Whether a type may run at a region as far as the list tells: not where its source lists every
 * type it sells (`# sold where listed:`) and not this one, at its date; else yes, unknown (a type
 * no such line names, a region its source does not read: a list of a few regions, or a source of
 * us-east-1's prices only, says nothing of the others).
 */
export function offeredAt(list: PriceList, provider: string, instanceType: string, region: string): boolean {
  const key = typeKey(provider, instanceType);
  const covered = list.sold.get(key);
  const place = region.toLowerCase();
  return covered === undefined || !covered.has(place) || (list.types.get(key)?.includes(place) ?? false);
}

/** A node's engines, as a reason names them. */
const engineNames = (engines: ReadonlyMap<string, number>) => [...engines.keys()].sort().join(", ");

/**
 * A type's list price at a region, or what the list lacks (`m8i.xlarge`, `m8i.xlarge in eu-west-3`;
 * a node priced per engine has no price the what-if may read: its engine is not known).
 */
export function listPrice(
  list: PriceList,
  provider: string,
  instanceType: string,
  region: string,
): { readonly price: number } | { readonly price: null; readonly missing: string } {
  const key = listKey(provider, instanceType, region);
  const price = list.prices.get(key);
  if (price !== undefined) return { price };
  const engines = list.engines.get(key);
  if (engines !== undefined)
    return {
      price: null,
      missing: `single price of ${instanceType} in ${region}: it prices its engines apart (${engineNames(engines)}) and the usage names none`,
    };
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
 * How far apart a node's engines' ratios may be for the ratio to be read without its engine: 0.5 %,
 * the rounding of prices given to three or four figures.
 */
export const ENGINES_ALIKE = 0.005;

interface Side {
  readonly instanceType: string;
  readonly region: string;
}

/**
 * The ratio of `to`'s price to `from`'s at the regions they name: two prices, else two nodes'
 * prices per engine whose every engine is priced at both and gives the same ratio (ENGINES_ALIKE),
 * read as the first engine's by name, said so; null where a side has no row there.
 */
function ratioAt(
  list: PriceList,
  provider: string,
  from: Side,
  to: Side,
): (ListRatio & { readonly alike: string }) | null {
  const fromKey = listKey(provider, from.instanceType, from.region);
  const toKey = listKey(provider, to.instanceType, to.region);
  const own = list.prices.get(fromKey);
  const changed = list.prices.get(toKey);
  if (own !== undefined && changed !== undefined)
    return { ratio: changed / own, from: own, to: changed, where: "", alike: "" };
  const ownEngines = list.engines.get(fromKey);
  const changedEngines = list.engines.get(toKey);
  if (ownEngines === undefined || changedEngines === undefined) return null;
  const pair = `${to.instanceType} in ${to.region} to ${from.instanceType} in ${from.region}`;
  const names = [...ownEngines.keys()].sort();
  if (names.length !== changedEngines.size || names.some((engine) => !changedEngines.has(engine)))
    return {
      ratio: null,
      missing: `ratio of ${pair} whatever the engine: their engines differ (${names.join(", ")}; ${engineNames(changedEngines)}) and the usage names none`,
      alike: "",
    };
  const ratios = names.map((engine) => (changedEngines.get(engine) ?? 0) / (ownEngines.get(engine) ?? 1));
  const low = Math.min(...ratios);
  const high = Math.max(...ratios);
  if (high > low * (1 + ENGINES_ALIKE))
    return {
      ratio: null,
      missing: `ratio of ${pair} whatever the engine: its engines' are ${low.toPrecision(3)} to ${high.toPrecision(3)} (${names.join(", ")}) and the usage names none`,
      alike: "",
    };
  return {
    ratio: ratios[0],
    from: ownEngines.get(names[0]) ?? 0,
    to: changedEngines.get(names[0]) ?? 0,
    where: "",
    alike: `, ${names[0]}'s, its ${names.length} engines' ratios alike within ${ENGINES_ALIKE * 100} %`,
  };
}

/**
 * The ratio of `to`'s list price to `from`'s: at their own regions where the list prices both;
 * else, for a change that keeps its region (a family or a size), at the first region by name the
 * list prices both types at — read as their relative price wherever they run, an estimate. A
 * node priced per engine has a ratio only where its engines agree on it (ratioAt).
 */
export function listRatio(list: PriceList, provider: string, from: Side, to: Side): ListRatio {
  const where = (regions: string, found: ListRatio & { readonly alike: string }): ListRatio =>
    found.ratio === null
      ? found
      : { ratio: found.ratio, from: found.from, to: found.to, where: `${regions}${found.alike}` };
  const own = ratioAt(list, provider, from, to);
  if (own !== null && own.ratio !== null)
    return where(from.region === to.region ? `in ${from.region}` : `in ${to.region} and ${from.region}`, own);
  const ownRegions = list.types.get(typeKey(provider, from.instanceType)) ?? [];
  const changedRegions = new Set(list.types.get(typeKey(provider, to.instanceType)) ?? []);
  // The change's side first, then the usage's own, as a pair's reason says them
  if (changedRegions.size === 0) return { ratio: null, missing: `${to.instanceType} at any region` };
  if (ownRegions.length === 0)
    return { ratio: null, missing: `${from.instanceType} at any region, the usage's own` };
  if (from.region.toLowerCase() !== to.region.toLowerCase()) {
    if (own !== null) return { ratio: null, missing: own.missing };
    const changed = listPrice(list, provider, to.instanceType, to.region);
    const usage = listPrice(list, provider, from.instanceType, from.region);
    return {
      ratio: null,
      missing:
        changed.price === null && !list.engines.has(listKey(provider, to.instanceType, to.region))
          ? changed.missing
          : usage.price === null && !list.engines.has(listKey(provider, from.instanceType, from.region))
            ? `${usage.missing}, the usage's own`
            : "",
    };
  }
  const common = ownRegions.filter((region) => changedRegions.has(region)).sort();
  if (common.length === 0)
    return {
      ratio: null,
      missing: `region pricing both ${from.instanceType} and ${to.instanceType}`,
    };
  let first: ListRatio | null = null;
  for (const region of common) {
    const found = ratioAt(
      list,
      provider,
      { instanceType: from.instanceType, region },
      { instanceType: to.instanceType, region },
    );
    if (found === null) continue;
    if (found.ratio !== null) return where(`in ${region}`, found);
    first ??= found;
  }
  return first ?? { ratio: null, missing: `region pricing both ${from.instanceType} and ${to.instanceType}` };
}

/** A list's row: a provider's type at a region (a node's of one engine), its USD an hour. */
export interface PriceListRow {
  readonly provider: string;
  readonly region: string;
  readonly instanceType: string;
  readonly usdPerHour: number;
  /** A managed service's node's engine (`RDS MySQL`); absent for a VM. */
  readonly engine?: string;
}

/**
 * A list's text, as parsePriceList reads it: its `# source:` line, the header (with `engine` where
 * a row names one), its rows (a row whose fields would break the CSV is left out: no provider,
 * region, type or engine has a comma or a line break).
 */
export function priceListText(source: string, rows: readonly PriceListRow[]): string {
  const safe = (field: string) => !/[,\r\n]/.test(field) && field.trim() !== "";
  const kept = rows.filter(
    (row) =>
      safe(row.provider) &&
      safe(row.region) &&
      safe(row.instanceType) &&
      (row.engine === undefined || row.engine === "" || safe(row.engine)),
  );
  const withEngines = kept.some((row) => row.engine !== undefined && row.engine !== "");
  const lines = kept.map(
    (row) =>
      `${row.provider},${row.region},${row.instanceType},${row.usdPerHour}${withEngines ? `,${row.engine ?? ""}` : ""}`,
  );
  return `# source: ${source.replace(/[\r\n]+/g, " ")}\n${withEngines ? ENGINE_HEADER : HEADER}\n${lines.join("\n")}${lines.length > 0 ? "\n" : ""}`;
}

/** A list's rows as its text gives them (the text parsePriceList accepts), and its source. */
export function priceListRows(text: string, name: string): { source: string; rows: PriceListRow[] } {
  const { source } = parsePriceList(text, name);
  const rows = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#") && line !== HEADER && line !== ENGINE_HEADER)
    .map((line) => {
      const [provider, region, instanceType, usd, engine = ""] = line.split(",");
      return {
        provider,
        region,
        instanceType,
        usdPerHour: Number(usd),
        ...(engine.trim() === "" ? {} : { engine: engine.trim() }),
      };
    });
  return { source, rows };
}
