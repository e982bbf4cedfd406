/*
 * Azure's on-demand Linux prices of virtual machines, read from Azure's Retail Prices API (public,
 * unauthenticated: learn.microsoft.com, "Azure Retail Prices overview"), as a price list's rows
 * (src/billing/priceList.ts). A region's `Virtual Machines` meters of price type `Consumption` are
 * asked page by page (the answer's `NextPageLink`); kept are the hourly meters of a VM size
 * (`armSkuName`) that are neither Windows (its `productName`), Spot nor Low Priority (its
 * `skuName`), in USD, Microsoft's pricing currency (its other currencies are "for reference").
 *
 * Every answer is bounded before it is read: its bytes, each request's time, the pages of a
 * region; a next page is only followed on the endpoint's own origin.
 */

import {
  boundedChunks,
  type PriceSource,
  PriceSourceError,
  type SourceAsk,
  sourceAnswer,
  type VmPrice,
} from "./source.js";

/** Azure's endpoint of the Retail Prices API. */
export const AZURE_RETAIL_ENDPOINT = "https://prices.azure.com/api/retail/prices";

/** The API version asked (its "preview" returns every meter, primary or not; backward compatible). */
const API_VERSION = "2023-01-01-preview";

/** Bytes of one page, at most (a page of 1,000 meters is about 600 KB). */
export const MAX_PAGE_BYTES = 8 * 1024 * 1024;

/** Pages of one region, at most: a region's VM meters are 4,000–12,000, 100 or 1,000 a page. */
export const MAX_PAGES_PER_REGION = 200;

/** A meter of the answer's `Items`, as far as it is read. */
interface RetailItem {
  readonly currencyCode?: unknown;
  readonly retailPrice?: unknown;
  readonly armRegionName?: unknown;
  readonly armSkuName?: unknown;
  readonly productName?: unknown;
  readonly skuName?: unknown;
  readonly unitOfMeasure?: unknown;
  readonly type?: unknown;
}

const text = (value: unknown) => (typeof value === "string" ? value : "");

/**
 * The Linux on-demand hourly prices among a page's meters; a size met twice at one region keeps its
 * lowest price (two meters of one size differ by their product's name only).
 */
export function linuxVmPrices(items: readonly unknown[]): VmPrice[] {
  const kept = new Map<string, VmPrice>();
  for (const raw of items) {
    if (raw === null || typeof raw !== "object") continue;
    const item = raw as RetailItem;
    const price = item.retailPrice;
    const instanceType = text(item.armSkuName);
    const region = text(item.armRegionName);
    if (
      text(item.type) !== "Consumption" ||
      text(item.currencyCode) !== "USD" ||
      text(item.unitOfMeasure) !== "1 Hour" ||
      /windows/i.test(text(item.productName)) ||
      /\b(spot|low priority)\b/i.test(text(item.skuName)) ||
      instanceType === "" ||
      region === "" ||
      typeof price !== "number" ||
      !(price > 0) ||
      !Number.isFinite(price)
    )
      continue;
    const key = `${region}\u0000${instanceType.toLowerCase()}`;
    const before = kept.get(key);
    if (before === undefined || price < before.usdPerHour)
      kept.set(key, { region, instanceType, usdPerHour: price });
  }
  return [...kept.values()];
}

/** The first page's address of a region's VM meters at `endpoint`. */
export function firstPage(endpoint: string, region: string): URL {
  const url = new URL(endpoint);
  url.searchParams.set("api-version", API_VERSION);
  url.searchParams.set(
    "$filter",
    `serviceName eq 'Virtual Machines' and armRegionName eq '${region}' and priceType eq 'Consumption'`,
  );
  return url;
}

/**
 * A region's Linux on-demand VM prices, every page read; a page that cannot be read, a page past
 * MAX_PAGES_PER_REGION or a next page on another origin is a PriceSourceError naming it.
 */
export async function regionVmPrices(ask: SourceAsk, region: string): Promise<VmPrice[]> {
  const origin = new URL(ask.endpoint).origin;
  const prices: VmPrice[] = [];
  let next: URL | null = firstPage(ask.endpoint, region);
  for (let page = 1; next !== null; page++) {
    if (page > MAX_PAGES_PER_REGION)
      throw new PriceSourceError(`${region}: more than ${MAX_PAGES_PER_REGION} pages`);
    const what = `${region}, page ${page}`;
    const response = await sourceAnswer(ask, next, what, "application/json");
    const chunks: Uint8Array[] = [];
    for await (const chunk of boundedChunks(response, what, MAX_PAGE_BYTES)) chunks.push(chunk);
    let answer: { Items?: unknown; NextPageLink?: unknown };
    try {
      answer = JSON.parse(Buffer.concat(chunks).toString("utf8")) as typeof answer;
    } catch (error) {
      throw new PriceSourceError(`${what}: not the API's JSON (${(error as Error).message})`);
    }
    if (answer === null || typeof answer !== "object" || !Array.isArray(answer.Items))
      throw new PriceSourceError(`${what}: no Items in the answer`);
    prices.push(...linuxVmPrices(answer.Items).filter((price) => price.region === region));
    const link = text(answer.NextPageLink);
    if (link === "") next = null;
    else {
      const url: URL = new URL(link, next);
      if (url.origin !== origin)
        throw new PriceSourceError(
          `${what}: its next page is on another origin (${url.origin}), not followed`,
        );
      next = url;
    }
  }
  return prices;
}

/** Azure's source of a price list. */
export const AZURE_RETAIL: PriceSource = {
  provider: "azure",
  name: "Azure Retail Prices API: Virtual Machines, Consumption, Linux, USD",
  endpoint: AZURE_RETAIL_ENDPOINT,
  regionPrices: regionVmPrices,
};
