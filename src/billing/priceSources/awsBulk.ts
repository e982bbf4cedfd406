import { Readable } from "node:stream";
import { parse } from "csv-parse";
import {
  boundedChunks,
  type PriceSource,
  PriceSourceError,
  type SourceAsk,
  sourceAnswer,
  type VmPrice,
} from "./source.js";

/*
 * AWS's on-demand Linux prices of EC2 instances, read from the Price List Bulk API's offer file of
 * a region (public, unauthenticated: AWS Billing and Cost Management User Guide, "Using the bulk
 * API"): `/offers/v1.0/aws/AmazonEC2/current/<region>/index.csv`, a few lines of metadata, then a
 * header and one row per price term. Kept are the rows of an instance type's on-demand hour that
 * are Linux, shared tenancy, without pre-installed software or a licence, of capacity used
 * (not reserved), in USD, and of that region. The file is streamed: its rows are read as they
 * arrive and dropped, only the prices kept; its bytes are bounded before and while it is read.
 */

/** AWS's endpoint of the Price List Bulk API. */
export const AWS_BULK_ENDPOINT = "https://pricing.us-east-1.amazonaws.com";

/** Bytes of one region's offer file, at most (the largest regions' CSV files are a few GB). */
export const MAX_OFFER_FILE_BYTES = 8 * 1024 ** 3;

/** The columns a row is read by (the header's names, compared without case), each with the value kept. */
const KEPT: Readonly<Record<string, string>> = {
  termtype: "OnDemand",
  unit: "Hrs",
  currency: "USD",
  tenancy: "Shared",
  "operating system": "Linux",
  "pre installed s/w": "NA",
  capacitystatus: "Used",
};

/** Columns read where the file has them (older files lack them): their value kept. */
const KEPT_WHERE_PRESENT: Readonly<Record<string, string>> = {
  "license model": "No License required",
  operation: "RunInstances",
};

/** The columns whose positions a row is read at. */
interface Header {
  readonly price: number;
  readonly type: number;
  readonly family: number;
  readonly region: number | null;
  readonly kept: readonly (readonly [number, string])[];
}

/** A header's positions, else the columns it lacks. */
function headerOf(cells: readonly string[]): Header | string[] {
  const at = new Map(cells.map((cell, index) => [cell.trim().toLowerCase(), index]));
  const required = ["priceperunit", "instance type", "product family", ...Object.keys(KEPT)];
  const missing = required.filter((name) => !at.has(name));
  if (missing.length > 0) return missing;
  const position = (name: string) => at.get(name) as number;
  return {
    price: position("priceperunit"),
    type: position("instance type"),
    family: position("product family"),
    region: at.get("region code") ?? null,
    kept: [
      ...Object.entries(KEPT).map(([name, value]) => [position(name), value] as const),
      ...Object.entries(KEPT_WHERE_PRESENT)
        .filter(([name]) => at.has(name))
        .map(([name, value]) => [position(name), value] as const),
    ],
  };
}

/** A row's price where it is an instance type's Linux on-demand hour at `region`, else null. */
function rowPrice(header: Header, row: readonly string[], region: string): VmPrice | null {
  for (const [index, value] of header.kept) if (row[index] !== value) return null;
  if (!(row[header.family] ?? "").startsWith("Compute Instance")) return null;
  if (header.region !== null && row[header.region] !== region) return null;
  const instanceType = (row[header.type] ?? "").trim();
  const price = Number(row[header.price]);
  if (instanceType === "" || !(price > 0) || !Number.isFinite(price)) return null;
  return { region, instanceType, usdPerHour: price };
}

/** The address of a region's offer file of EC2 at `endpoint`. */
export const offerFile = (endpoint: string, region: string) =>
  new URL(
    `offers/v1.0/aws/AmazonEC2/current/${encodeURIComponent(region)}/index.csv`,
    `${endpoint.replace(/\/+$/, "")}/`,
  );

/**
 * A region's prices read from an offer file's text, as it arrives: the rows before the header
 * (its metadata) skipped, a type met twice keeping its lowest price.
 */
export async function offerPrices(
  chunks: AsyncIterable<Uint8Array>,
  region: string,
  what: string,
): Promise<VmPrice[]> {
  const rows = Readable.from(chunks).pipe(parse({ relax_column_count: true, relax_quotes: true, bom: true }));
  let header: Header | null = null;
  const kept = new Map<string, VmPrice>();
  try {
    for await (const row of rows as AsyncIterable<string[]>) {
      if (header === null) {
        if (row[0]?.trim().toUpperCase() !== "SKU") continue;
        const read = headerOf(row);
        if (Array.isArray(read)) throw new PriceSourceError(`${what}: its header has no ${read.join(", ")}`);
        header = read;
        continue;
      }
      const price = rowPrice(header, row, region);
      if (price === null) continue;
      const before = kept.get(price.instanceType);
      if (before === undefined || price.usdPerHour < before.usdPerHour) kept.set(price.instanceType, price);
    }
  } catch (error) {
    if (error instanceof PriceSourceError) throw error;
    throw new PriceSourceError(`${what}: not an offer file's CSV (${(error as Error).message})`);
  }
  if (header === null) throw new PriceSourceError(`${what}: no header (a line starting "SKU")`);
  return [...kept.values()];
}

/** A region's EC2 on-demand Linux prices from its offer file. */
export async function regionOfferPrices(ask: SourceAsk, region: string): Promise<VmPrice[]> {
  const what = `${region}'s offer file`;
  const response = await sourceAnswer(ask, offerFile(ask.endpoint, region), what, "text/csv");
  return offerPrices(boundedChunks(response, what, MAX_OFFER_FILE_BYTES), region, what);
}

/** AWS's source of a price list. */
export const AWS_BULK: PriceSource = {
  provider: "aws",
  name: "AWS Price List Bulk API: AmazonEC2 offer files, on-demand, Linux, shared tenancy, USD",
  endpoint: AWS_BULK_ENDPOINT,
  regionPrices: regionOfferPrices,
};
