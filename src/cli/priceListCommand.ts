import { readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import {
  MAX_PRICE_LIST_BYTES,
  PriceListError,
  type PriceListRow,
  priceListRows,
  priceListText,
} from "../billing/priceList.js";
import {
  AZURE_RETAIL_ENDPOINT,
  RetailPricesError,
  regionVmPrices,
} from "../billing/priceSources/azureRetail.js";
import { REGION_COUNTRIES } from "../billing/registry/regions.js";
import { checkedOutput } from "../support/namedFiles.js";
import { readNumber } from "../support/numbers.js";
import { printable } from "../support/terminalText.js";
import { didYouMean } from "./nearest.js";
import { type CliIo, listOf, misuse, parsedOptions, UsageError } from "./options.js";

/*
 * `impact-service price-list azure`: a price list (src/billing/priceList.ts, the file PRICE_LIST
 * names) of Azure's on-demand Linux VM prices at the regions asked, read from Azure's Retail
 * Prices API (src/billing/priceSources/azureRetail.ts), so that the what-if prices Azure's
 * changes the bill does not. `--with` keeps another list's rows beside them (the AWS list
 * `npm run price-list` derives). Each region that cannot be read is said on stderr, the rest
 * written; the file is written whole or not at all.
 */

export const PRICE_LIST_USAGE = `usage: impact-service price-list azure --region <r>[,<r>…] -o <file> [options]

Writes a price list of Azure's on-demand Linux VM prices (USD an hour) at the regions asked, read
from Azure's Retail Prices API (public, no credentials), for PRICE_LIST to name (docs/billing.md,
"What-if").

  --region <r>[,<r>…]   Azure regions (westeurope, swedencentral…), comma-separated or repeated
  -o, --output <file>   the list written (a CSV: provider,region,instance_type,usd_per_hour)
  --with <file>         another price list whose rows are kept beside these (its source named too)
  --endpoint <url>      the API's address (default ${AZURE_RETAIL_ENDPOINT}); an emulator's
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
  readonly regions: readonly string[];
  readonly output: string;
  readonly with: string | null;
  readonly endpoint: string;
  readonly timeoutMs: number;
}

const AZURE_REGIONS = Object.keys(REGION_COUNTRIES.azure);

/** `price-list azure [options]` read and checked, before any request. */
function priceListAsk(argv: readonly string[]): PriceListAsk | "help" {
  const { values, positionals } = parsedOptions({
    args: [...argv],
    allowPositionals: true,
    options: OPTIONS,
  });
  if (values.help) return "help";
  const [provider, ...rest] = positionals;
  if (provider !== "azure")
    throw new UsageError(
      provider === undefined
        ? "price-list takes a provider: price-list azure"
        : `price-list reads azure, not ${provider}${didYouMean(provider, ["azure"])}`,
    );
  if (rest.length > 0)
    throw new UsageError(`unexpected argument ${rest[0]}: price-list azure takes options only`);
  const regions = [...new Set((values.region ?? []).flatMap((text) => listOf(text)))];
  if (regions.length === 0) throw new UsageError("no region: --region <region>[,<region>…]");
  if (regions.length > MAX_LIST_REGIONS)
    throw new UsageError(`${regions.length} regions: at most ${MAX_LIST_REGIONS}`);
  for (const region of regions)
    if (!Object.hasOwn(REGION_COUNTRIES.azure, region))
      throw new UsageError(`--region ${region} is not an Azure region${didYouMean(region, AZURE_REGIONS)}`);
  if (values.output === undefined || values.output === "")
    throw new UsageError("no file to write: -o <file>");
  checkedOutput("-o", values.output);
  const endpoint = values.endpoint ?? AZURE_RETAIL_ENDPOINT;
  if (!URL.canParse(endpoint) || !/^https?:$/.test(new URL(endpoint).protocol))
    throw new UsageError(`--endpoint is an http(s) URL, not ${endpoint}`);
  const seconds = values.timeout === undefined ? { value: 600 } : readNumber(values.timeout);
  if (!("value" in seconds) || !(seconds.value >= 10 && seconds.value <= 3600))
    throw new UsageError(`--timeout is a number of seconds from 10 to 3600, not ${values.timeout}`);
  return {
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
      const prices = await regionVmPrices({ endpoint: ask.endpoint, requestMs: REQUEST_MS, signal }, region);
      rows.push(...prices.map((price) => ({ provider: "azure", ...price })));
      read.push(region);
      io.stderr.write(`impact-service: ${region}: ${prices.length} VM sizes priced\n`);
    } catch (error) {
      if (!(error instanceof RetailPricesError)) throw error;
      io.stderr.write(`impact-service: ${printable(error.message)}; not in the list\n`);
    }
  }
  if (read.length === 0) {
    io.stderr.write("impact-service: no region could be read; nothing written\n");
    return 1;
  }
  const day = new Date().toISOString().slice(0, 10);
  const source = `Azure Retail Prices API (${new URL(ask.endpoint).host}), read ${day}: Virtual Machines, Consumption, Linux, USD, at ${read.join(" ")}${kept === null ? "" : `; ${kept.source}`}`;
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
