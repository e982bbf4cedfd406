/*
 * Derives the what-if's on-demand price list (src/billing/priceList.ts) from SkyPilot's catalogues
 * of virtual machines (a `vms.csv` per provider: columns `InstanceType`, `Price` (on-demand, USD an
 * hour), `Region`, one row per availability zone where the provider has them). Writes one row per
 * provider, type and region: `provider,region,instance_type,usd_per_hour`, after a `# source:` line
 * naming the catalogue, its commit and date and its licence. The list is data, kept beside the
 * checkout (../shared/price-lists/, its SOURCES.md), never in the repository.
 *
 *   npx tsx scripts/price-list.ts --source "TEXT" --out FILE aws=PATH [azure=PATH] [gcp=PATH]
 *
 * A type whose zones of one region disagree keeps the highest price (said on stderr with the count).
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parse } from "csv-parse/sync";

const PROVIDERS = new Set(["aws", "azure", "gcp"]);

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
for (const argument of positionals) {
  const [provider, path] = argument.split("=", 2);
  if (!PROVIDERS.has(provider) || path === undefined) {
    process.stderr.write(`${argument}: not PROVIDER=PATH (aws, azure, gcp)\n`);
    process.exit(2);
  }
  const { prices, disagreements } = pricesOf(path);
  for (const [key, price] of [...prices].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    lines.push(`${provider},${key},${price}`);
  process.stderr.write(`${provider}: ${prices.size} prices (${disagreements} zone rows disagreeing)\n`);
}
writeFileSync(values.out, `${lines.join("\n")}\n`);
