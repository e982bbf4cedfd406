/*
 * Derives the what-if's on-demand price list (src/billing/priceList.ts): one row per provider, type
 * and region, `provider,region,instance_type,usd_per_hour`, after a `# source:` line naming each
 * source, its date and its licence. The list is data, kept in a cache outside the repository
 * (scripts/ensure-price-list.sh makes the default one), never in it. It reads:
 *
 * - Karpenter's generated on-demand prices (./price-list/karpenter.ts): AWS's (`aws-karpenter=PATH`,
 *   github.com/aws/karpenter-provider-aws, `pkg/providers/pricing/zz_generated.pricing_aws*.go`) and
 *   Azure's (`azure-karpenter=PATH`, github.com/Azure/karpenter-provider-azure,
 *   `pkg/providers/pricing/zz_generated.pricing.go`), each generated from its provider's price source
 *   at the date its header names; they take precedence over a catalogue's price of the same type
 *   and region: dated, and every type of their regions.
 * - SkyPilot's catalogues of virtual machines (`aws=`, `azure=`, `gcp=` a `vms.csv`: columns
 *   `InstanceType`, `Price` (on-demand, USD an hour), `Region`, one row per availability zone where
 *   the provider has them). A type whose zones of one region disagree keeps the highest price (said
 *   on stderr with the count).
 *
 *   npx tsx scripts/price-list.ts --source "TEXT" --out FILE [aws-karpenter=PATH] [azure-karpenter=PATH] [aws=PATH] [azure=PATH] [gcp=PATH]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parse } from "csv-parse/sync";
import { awsKarpenterPrices, azureKarpenterPrices, type GeneratedPrices } from "./price-list/karpenter.js";

const PROVIDERS = new Set(["aws", "azure", "gcp"]);

/** Each generated source: the provider its prices are of, and its reader (with what it left out). */
const GENERATED: Readonly<
  Record<string, { provider: string; read: (text: string) => { prices: GeneratedPrices; left: string } }>
> = {
  "aws-karpenter": { provider: "aws", read: (text) => ({ prices: awsKarpenterPrices(text), left: "" }) },
  "azure-karpenter": {
    provider: "azure",
    read: (text) => {
      const { prices, notSizes } = azureKarpenterPrices(text);
      return { prices, left: `, ${notSizes} keys that are no VM size left out` };
    },
  },
};
const SOURCES = [...PROVIDERS, ...Object.keys(GENERATED)].join(", ");

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
  process.stderr.write(`usage: price-list.ts --source "TEXT" --out FILE SOURCE=PATH... (${SOURCES})\n`);
  process.exit(2);
}
const lines = [`# source: ${values.source}`, "provider,region,instance_type,usd_per_hour"];
const byProvider = new Map<string, Map<string, number>>();
for (const argument of positionals) {
  const [name, path] = argument.split("=", 2);
  const generated = GENERATED[name];
  if (!(PROVIDERS.has(name) || generated !== undefined) || path === undefined) {
    process.stderr.write(`${argument}: not SOURCE=PATH (${SOURCES})\n`);
    process.exit(2);
  }
  const target = generated?.provider ?? name;
  const known = byProvider.get(target) ?? new Map<string, number>();
  byProvider.set(target, known);
  if (generated !== undefined) {
    const { prices, left } = generated.read(readFileSync(path, "utf8"));
    let replaced = 0;
    for (const [key, price] of prices) {
      if (known.has(key) && known.get(key) !== price) replaced += 1;
      known.set(key, price);
    }
    process.stderr.write(`${name}: ${prices.size} prices (${replaced} of a catalogue's replaced${left})\n`);
    continue;
  }
  const { prices, disagreements } = pricesOf(path);
  for (const [key, price] of prices) if (!known.has(key)) known.set(key, price);
  process.stderr.write(`${name}: ${prices.size} prices (${disagreements} zone rows disagreeing)\n`);
}
for (const [provider, prices] of [...byProvider].sort(([a], [b]) => (a < b ? -1 : 1)))
  for (const [key, price] of [...prices].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
    lines.push(`${provider},${key},${price}`);
writeFileSync(values.out, `${lines.join("\n")}\n`);
