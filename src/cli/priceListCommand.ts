import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import {
  MAX_PRICE_LIST_BYTES,
  PriceListError,
  type PriceListRow,
  priceListRows,
  priceListText,
} from "../billing/priceList.js";
import { PRICE_SOURCES, PriceSourceError } from "../billing/priceSources/index.js";
import type { PriceSource } from "../billing/priceSources/source.js";
import { REGION_COUNTRIES } from "../billing/registry/regions.js";
import { checkedOutput } from "../support/namedFiles.js";
import { readNumber } from "../support/numbers.js";
import { printable } from "../support/terminalText.js";
import { didYouMean } from "./nearest.js";
import { type CliIo, listOf, misuse, parsedOptions, UsageError } from "./options.js";

/*
 * `impact-service price-list <provider>`: a price list (src/billing/priceList.ts, the file
 * PRICE_LIST names) of a provider's on-demand Linux VM prices at the regions asked, read from its
 * public price source (src/billing/priceSources/: AWS's Price List Bulk API, Azure's Retail Prices
 * API), so that the what-if prices the changes the bill does not. `--with` keeps another list's
 * rows beside them. Each region that cannot be read is said on stderr, the rest written; the file
 * is written whole or not at all.
 */

const PROVIDERS = PRICE_SOURCES.map((source) => source.provider);

export const PRICE_LIST_USAGE = `usage: impact-service price-list <${PROVIDERS.join(" | ")}> --region <r>[,<r>…] -o <file> [options]

Writes a price list of a provider's on-demand Linux VM prices (USD an hour) at the regions asked,
read from its public price source (no credentials), for PRICE_LIST to name (docs/billing.md,
"What-if"):
${PRICE_SOURCES.map((source) => `  ${source.provider.padEnd(6)} ${source.name}\n         (${source.endpoint})`).join("\n")}

  --region <r>[,<r>…]   the provider's regions (eu-north-1, westeurope…), comma-separated or repeated
  -o, --output <file>   the list written (a CSV: provider,region,instance_type,usd_per_hour)
  --with <file>         another price list whose rows are kept beside these (its source named too)
  --endpoint <url>      the source's address instead of the provider's (an emulator's)
  --timeout <seconds>   the whole read's time (default 600; 10 to 3600)

exit codes: 0 written (each region that could not be read said on stderr), 1 no region could be
read, 2 misused
`;

/** Regions of one list, at most (Azure has about 60). */
export const MAX_LIST_REGIONS = 100;

/** One request's time, at most. */
const REQUEST_MS = 30_000;

const OPTIONS = {
  region: { type: "string", multiple: true },
  output: { type: "string", short: "o" },
  with: { type: "string" },
  endpoint: { type: "string" },
  timeout: { type: "string" },
  help: { type: "boolean", short: "h", default: false },
} as const;

interface PriceListAsk {
  readonly source: PriceSource;
  readonly regions: readonly string[];
  readonly output: string;
  readonly with: string | null;
  readonly endpoint: string;
  readonly timeoutMs: number;
}

/** `price-list <provider> [options]` read and checked, before any request. */
function priceListAsk(argv: readonly string[]): PriceListAsk | "help" {
  const { values, positionals } = parsedOptions({
    args: [...argv],
    allowPositionals: true,
    options: OPTIONS,
  });
  if (values.help) return "help";
  const [provider, ...rest] = positionals;
  const source = PRICE_SOURCES.find((candidate) => candidate.provider === provider);
  if (source === undefined)
    throw new UsageError(
      provider === undefined
        ? `price-list takes a provider: ${PROVIDERS.join(" or ")}`
        : `price-list reads ${PROVIDERS.join(" or ")}, not ${provider}${didYouMean(provider, PROVIDERS)}`,
    );
  if (rest.length > 0)
    throw new UsageError(`unexpected argument ${rest[0]}: price-list ${provider} takes options only`);
  const known = REGION_COUNTRIES[source.provider] ?? {};
  const regions = [...new Set((values.region ?? []).flatMap((text) => listOf(text)))];
  if (regions.length === 0) throw new UsageError("no region: --region <region>[,<region>…]");
  if (regions.length > MAX_LIST_REGIONS)
    throw new UsageError(`${regions.length} regions: at most ${MAX_LIST_REGIONS}`);
  for (const region of regions)
    if (!Object.hasOwn(known, region))
      throw new UsageError(
        `--region ${region} is not a region of ${provider}${didYouMean(region, Object.keys(known))}`,
      );
  if (values.output === undefined || values.output === "")
    throw new UsageError("no file to write: -o <file>");
  checkedOutput("-o", values.output);
  const endpoint = values.endpoint ?? source.endpoint;
  if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol))
    throw new UsageError(`--endpoint is an http(s) URL, not ${endpoint}`);
  const seconds = values.timeout === undefined ? { value: 600 } : readNumber(values.timeout);
  if (!("value" in seconds) || !(seconds.value >= 10 && seconds.value <= 3600))
    throw new UsageError(`--timeout is a number of seconds from 10 to 3600, not ${values.timeout}`);
  return {
    source,
    regions,
    output: values.output,
    with: values.with ?? null,
    endpoint,
    timeoutMs: seconds.value * 1000,
  };
}

/** The rows and source of `--with`'s list, its size checked before it is read. */
function keptList(path: string): { source: string; rows: PriceListRow[] } {
  const name = `--with ${path}`;
  let size: number;
  try {
    size = statSync(path).size;
  } catch {
    throw new UsageError(`${name}: no such file`);
  }
  if (size > MAX_PRICE_LIST_BYTES)
    throw new UsageError(`${name}: ${size} bytes, more than the ${MAX_PRICE_LIST_BYTES} a list may have`);
  try {
    return priceListRows(readFileSync(path, "utf8"), name);
  } catch (error) {
    if (error instanceof PriceListError) throw new UsageError(error.message);
    throw error;
  }
}

/** `impact-service price-list …`; the exit code. */
export async function priceListMain(argv: readonly string[], io: CliIo): Promise<number> {
  let ask: PriceListAsk;
  let kept: { source: string; rows: PriceListRow[] } | null;
  try {
    const read = priceListAsk(argv);
    if (read === "help") {
      io.stdout.write(PRICE_LIST_USAGE);
      return 0;
    }
    ask = read;
    kept = ask.with === null ? null : keptList(ask.with);
  } catch (error) {
    return misuse(io, error);
  }
  const signal = AbortSignal.any([
    AbortSignal.timeout(ask.timeoutMs),
    ...(io.interrupt === undefined ? [] : [io.interrupt]),
  ]);
  const rows: PriceListRow[] = [];
  const read: string[] = [];
  for (const region of ask.regions) {
    try {
      const asked = { endpoint: ask.endpoint, requestMs: REQUEST_MS, signal };
      const prices = await ask.source.regionPrices(asked, region);
      rows.push(...prices.map((price) => ({ provider: ask.source.provider, ...price })));
      read.push(region);
      io.stderr.write(`impact-service: ${region}: ${prices.length} VM types priced\n`);
    } catch (error) {
      if (!(error instanceof PriceSourceError)) throw error;
      io.stderr.write(`impact-service: ${printable(error.message)}; not in the list\n`);
    }
  }
  if (read.length === 0) {
    io.stderr.write("impact-service: no region could be read; nothing written\n");
    return 1;
  }
  const day = new Date().toISOString().slice(0, 10);
  const source = `${ask.source.name} (${new URL(ask.endpoint).host}), read ${day}, at ${read.join(" ")}${kept === null ? "" : `; ${kept.source}`}`;
  const staged = `${ask.output}.${process.pid}.part`;
  try {
    writeFileSync(staged, priceListText(source, [...rows, ...(kept?.rows ?? [])]));
    renameSync(staged, ask.output);
  } finally {
    rmSync(staged, { force: true });
  }
  io.stderr.write(
    `impact-service: ${rows.length} prices of ${read.length} region(s) written to ${ask.output}\n`,
  );
  return 0;
}
