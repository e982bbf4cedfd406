/*
 * Derives the what-if's on-demand price list (src/billing/priceList.ts) from SkyPilot's catalogues
 * of virtual machines (a `vms.csv` per provider: columns `InstanceType`, `Price` (on-demand, USD an
 * hour), `Region`, one row per availability zone where the provider has them). Writes one row per
 * provider, type and region: `provider,region,instance_type,usd_per_hour`, after a `# source:` line
 * naming the catalogue, its commit and date and its licence. The list is data, kept in a cache
 * outside the repository (scripts/ensure-price-list.sh makes the default one), never in it.
 *
 * Also reads Karpenter's generated AWS on-demand prices (`aws-karpenter=PATH`: the Go module
 * github.com/aws/karpenter-provider-aws, `pkg/providers/pricing/zz_generated.pricing_aws.go`, a map
 * of region to `"type": USD an hour`, generated from AWS's price list API at the date its header
 * names), which take precedence over a catalogue's price of the same type and region: dated, and
 * every type of its regions.
 *
 *   npx tsx scripts/price-list.ts --source "TEXT" --out FILE aws=PATH [azure=PATH] [gcp=PATH] [aws-karpenter=PATH]
 *
 * A type whose zones of one region disagree keeps the highest price (said on stderr with the count).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parse } from "csv-parse/sync";

const PROVIDERS = new Set(["aws", "azure", "gcp"]);
const KARPENTER = "aws-karpenter";

/** Karpenter's generated map: each `"region": {` opens a region, each `"type": price` is one price in it. */
function karpenterPrices(path: string): Map<string, number> {
  const prices = new Map<string, number>();
  let region: string | null = null;
  for (const line of readFileSync(path, "utf8").split("\n")) {
    const opened = /^\s*"([a-z]{2}(?:-[a-z]+)+-\d+)":\s*\{/.exec(line);
    if (opened !== null) {
      region = opened[1];
      continue;
    }
    if (region === null) continue;
    for (const [, type, price] of line.matchAll(/"([a-z0-9-]+\.[a-z0-9-]+)":\s*([0-9.]+)/g))
      if (Number(price) > 0) prices.set(`${region},${type}`, Number(price));
  }
  return prices;
}

/** One provider's rows: the highest on-demand price of each type at each region, and how many zones disagreed. */
function pricesOf(path: string): { prices: Map<string, number>; disagreements: number } {
  const rows = parse(readFileSync(path, "utf8"), { columns: true, skip_empty_lines: true }) as Record<
    string,
    string
  >[];
  const prices = new Map<string, number>();
  let disagreements = 0;
  for (const row of rows) {
    const price = Number(row.Price);
    if (!row.InstanceType || !row.Region || !(price > 0)) continue;
    const key = `${row.Region},${row.InstanceType}`;
    const known = prices.get(key);
    if (known !== undefined && known !== price) disagreements += 1;
    prices.set(key, Math.max(known ?? 0, price));
  }
  return { prices, disagreements };
}

const { values, positionals } = parseArgs({
  options: { source: { type: "string" }, out: { type: "string" } },
  allowPositionals: true,
});
if (values.source === undefined || values.out === undefined || positionals.length === 0) {
  process.stderr.write('usage: price-list.ts --source "TEXT" --out FILE aws=PATH [azure=PATH] [gcp=PATH]\n');
  process.exit(2);
}
const lines = [`# source: ${values.source}`, "provider,region,instance_type,usd_per_hour"];
const byProvider = new Map<string, Map<string, number>>();
for (const argument of positionals) {
  const [provider, path] = argument.split("=", 2);
  if (!(PROVIDERS.has(provider) || provider === KARPENTER) || path === undefined) {
    process.stderr.write(`${argument}: not PROVIDER=PATH (aws, azure, gcp, ${KARPENTER})\n`);
    process.exit(2);
  }
  const target = provider === KARPENTER ? "aws" : provider;
  const known = byProvider.get(target) ?? new Map<string, number>();
  byProvider.set(target, known);
  if (provider === KARPENTER) {
    const prices = karpenterPrices(path);
    let replaced = 0;
    for (const [key, price] of prices) {
      if (known.has(key) && known.get(key) !== price) replaced += 1;
      known.set(key, price);
    }
    process.stderr.write(`${provider}: ${prices.size} prices (${replaced} of a catalogue's replaced)\n`);
    continue;
  }
  const { prices, disagreements } = pricesOf(path);
  for (const [key, price] of prices) if (!known.has(key)) known.set(key, price);
  process.stderr.write(`${provider}: ${prices.size} prices (${disagreements} zone rows disagreeing)\n`);
}
for (const [provider, prices] of [...byProvider].sort(([a], [b]) => (a < b ? -1 : 1)))
  for (const [key, price] of [...prices].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    lines.push(`${provider},${key},${price}`);
writeFileSync(values.out, `${lines.join("\n")}\n`);
