/**
 * An emulator of Azure's Retail Prices API for the tests (its answer's shape as Microsoft documents
 * it, "Azure Retail Prices overview": `Items`, `NextPageLink`, `BillingCurrency`): the meters given,
 * filtered by the `$filter`'s `armRegionName`, `pageSize` a page. A region in `broken` answers 500;
 * `foreignNext` makes every next page point at another origin; `hugeRegion` answers a page of more
 * bytes than a page may have. Prices are the tests' own figures, never Azure's.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface RetailMeter {
  readonly armRegionName: string;
  readonly armSkuName: string;
  readonly retailPrice: number;
  readonly productName?: string;
  readonly skuName?: string;
  readonly currencyCode?: string;
  readonly unitOfMeasure?: string;
  readonly type?: string;
}

export interface RetailEmulator {
  readonly endpoint: string;
  /** The pages asked, each its region and skip. */
  readonly asked: string[];
  close(): Promise<void>;
}

export async function startRetailEmulator(
  meters: readonly RetailMeter[],
  options: { pageSize?: number; broken?: readonly string[]; foreignNext?: boolean; hugeRegion?: string } = {},
): Promise<RetailEmulator> {
  const pageSize = options.pageSize ?? 3;
  const asked: string[] = [];
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://emulator");
    const filter = url.searchParams.get("$filter") ?? "";
    const region = /armRegionName eq '([^']*)'/.exec(filter)?.[1] ?? "";
    const skip = Number(url.searchParams.get("$skip") ?? "0");
    asked.push(`${region}@${skip}`);
    if (options.broken?.includes(region)) {
      response.writeHead(500).end("{}");
      return;
    }
    if (region === options.hugeRegion) {
      response.writeHead(200, { "content-type": "application/json" });
      response.end(`{"Items":[],"pad":"${"x".repeat(9 * 1024 * 1024)}"}`);
      return;
    }
    const all = meters
      .filter((meter) => meter.armRegionName === region)
      .map((meter) => ({
        currencyCode: "USD",
        unitOfMeasure: "1 Hour",
        type: "Consumption",
        serviceName: "Virtual Machines",
        productName: `Virtual Machines ${meter.armSkuName} Series`,
        skuName: meter.armSkuName.replace(/^Standard_/, "").replace(/_/g, " "),
        ...meter,
      }));
    const page = all.slice(skip, skip + pageSize);
    const next = new URL(url);
    next.searchParams.set("$skip", String(skip + pageSize));
    if (options.foreignNext) next.host = "prices.example.invalid";
    const host = request.headers.host ?? "127.0.0.1";
    const link =
      skip + pageSize < all.length
        ? `${options.foreignNext ? "http://prices.example.invalid" : `http://${host}`}${next.pathname}${next.search}`
        : null;
    response.writeHead(200, { "content-type": "application/json" });
    response.end(
      JSON.stringify({ BillingCurrency: "USD", Items: page, NextPageLink: link, Count: page.length }),
    );
  });
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}/api/retail/prices`,
    asked,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}
