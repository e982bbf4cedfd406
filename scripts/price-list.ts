/*
 * Derives the what-if's on-demand price list (src/billing/priceList.ts): one row per provider, type
 * and region (and engine, for a managed service's node), `provider,region,instance_type,usd_per_hour,engine`,
 * after a `# source:` line naming each source, its date and its licence. The list is data, kept in a
 * cache outside the repository (scripts/ensure-price-list.sh makes the default one), never in it.
 * It reads, in precedence order (a type's prices all come from the first source that has the
 * type, ./price-list/precedence.ts):
 *
 * - ec2instances.info's EC2 dump (`aws-ec2instances=PATH`, `data/instances.json` of the Go module
 *   github.com/cristim/ec2-instances-info, ./price-list/ec2instances.ts): AWS's Linux on-demand
 *   prices at every public and GovCloud region. Its dumps of RDS (`aws-ec2instances-rds=`,
 *   `data/rds-instances.json`) and ElastiCache (`aws-ec2instances-elasticache=`,
 *   `data/elasticache-instances.json`): their nodes' on-demand prices per engine, written in the
 *   list's `engine` column (src/billing/priceList.ts reads a type priced per engine apart). Its
 *   dump of OpenSearch Service (`aws-ec2instances-opensearch=`, `data/opensearch-instances.json`):
 *   its nodes' on-demand prices, under their names of OpenSearch and of legacy Elasticsearch.
 * - Karpenter's generated on-demand prices (./price-list/karpenter.ts): AWS's (`aws-karpenter=PATH`,
 *   github.com/aws/karpenter-provider-aws, `pkg/providers/pricing/zz_generated.pricing_aws*.go`:
 *   us-east-1 and GovCloud, for the types the dump lacks) and Azure's (`azure-karpenter=PATH`,
 *   github.com/Azure/karpenter-provider-azure, `pkg/providers/pricing/zz_generated.pricing.go`),
 *   each generated from its provider's price source at the date its header names.
 * - SkyPilot's catalogues of virtual machines (`aws=`, `azure=`, `gcp=` a `vms.csv`: columns
 *   `InstanceType`, `Price` (on-demand, USD an hour), `Region`, one row per availability zone where
 *   the provider has them). A type whose zones of one region disagree keeps the highest price (said
 *   on stderr with the count).
 *
 *   npx tsx scripts/price-list.ts --source "TEXT" --out FILE [aws-ec2instances=PATH] [aws-ec2instances-rds=PATH] [aws-ec2instances-elasticache=PATH] [aws-ec2instances-opensearch=PATH] [aws-karpenter=PATH] [azure-karpenter=PATH] [aws=PATH] [azure=PATH] [gcp=PATH]
 */
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { parse } from "csv-parse/sync";
import {
  ec2InstancesEnginePrices,
  ec2InstancesPrices,
  ec2InstancesSearchPrices,
} from "./price-list/ec2instances.js";
import { awsKarpenterPrices, azureKarpenterPrices, type GeneratedPrices } from "./price-list/karpenter.js";
import { byPrecedence, type SourcePrices } from "./price-list/precedence.js";

/** A source's reader: its prices, and what it left out (said on stderr). */
type Reader = (text: string) => { prices: GeneratedPrices; left: string };

/** SkyPilot's catalogue, `vms.csv`: the highest on-demand price of each type at each region, and how many zones disagreed. */
const catalogue: Reader = (text) => {
  const rows = parse(text, { columns: true, skip_empty_lines: true }) as Record<string, string>[];
  const prices: GeneratedPrices = new Map();
  let disagreements = 0;
  for (const row of rows) {
    const price = Number(row.Price);
    if (!row.InstanceType || !row.Region || !(price > 0)) continue;
    const key = `${row.Region},${row.InstanceType}`;
    const known = prices.get(key);
    if (known !== undefined && known !== price) disagreements += 1;
    prices.set(key, Math.max(known ?? 0, price));
  }
  return { prices, left: `, ${disagreements} zone rows disagreeing` };
};

/** Each source by its name, in precedence order: the provider its prices are of, and its reader. */
const SOURCES: readonly { name: string; provider: string; read: Reader }[] = [
  {
    name: "aws-ec2instances",
    provider: "aws",
    read: (text) => {
      const { prices, zones } = ec2InstancesPrices(text);
      return { prices, left: `, ${zones} zones that are no region left out` };
    },
  },
  {
    name: "aws-ec2instances-rds",
    provider: "aws",
    read: (text) => {
      const { prices, left } = ec2InstancesEnginePrices(text, "RDS");
      return { prices, left: `, ${left} engines by id or of Outposts left out` };
    },
  },
  {
    name: "aws-ec2instances-elasticache",
    provider: "aws",
    read: (text) => {
      const { prices, left } = ec2InstancesEnginePrices(text, "ElastiCache");
      return { prices, left: `, ${left} engines by id or of Outposts left out` };
    },
  },
  {
    name: "aws-ec2instances-opensearch",
    provider: "aws",
    read: (text) => ({ prices: ec2InstancesSearchPrices(text), left: "" }),
  },
  {
    name: "aws-karpenter",
    provider: "aws",
    read: (text) => ({ prices: awsKarpenterPrices(text), left: "" }),
  },
  {
    name: "azure-karpenter",
    provider: "azure",
    read: (text) => {
      const { prices, notSizes } = azureKarpenterPrices(text);
      return { prices, left: `, ${notSizes} keys that are no VM size left out` };
    },
  },
  { name: "aws", provider: "aws", read: catalogue },
  { name: "azure", provider: "azure", read: catalogue },
  { name: "gcp", provider: "gcp", read: catalogue },
];
const NAMES = SOURCES.map((source) => source.name).join(", ");

const { values, positionals } = parseArgs({
  options: { source: { type: "string" }, out: { type: "string" } },
  allowPositionals: true,
});
if (values.source === undefined || values.out === undefined || positionals.length === 0) {
  process.stderr.write(`usage: price-list.ts --source "TEXT" --out FILE SOURCE=PATH... (${NAMES})\n`);
  process.exit(2);
}
// Each source's prices, its files (Karpenter's AWS has two) read into one
const read = new Map<string, GeneratedPrices>();
for (const argument of positionals) {
  const [name, path] = argument.split("=", 2);
  const source = SOURCES.find((candidate) => candidate.name === name);
  if (source === undefined || path === undefined) {
    process.stderr.write(`${argument}: not SOURCE=PATH (${NAMES})\n`);
    process.exit(2);
  }
  const { prices, left } = source.read(readFileSync(path, "utf8"));
  process.stderr.write(`${argument}: ${prices.size} prices${left}\n`);
  const known = read.get(name) ?? new Map<string, number>();
  for (const [key, price] of prices) known.set(key, price);
  read.set(name, known);
}
const given: SourcePrices[] = SOURCES.flatMap((source) => {
  const prices = read.get(source.name);
  return prices === undefined ? [] : [{ name: source.name, provider: source.provider, prices }];
});
const { prices: byProvider, typesGiven, sold } = byPrecedence(given);
for (const [name, types] of typesGiven) process.stderr.write(`${name}: ${types} types taken\n`);
// A managed service's node is priced per engine, in the `engine` column (empty for a VM's)
// What each source sells where it is read (src/billing/priceList.ts, offeredAt): a region move is
// to a region that sells the type
const lines = [
  `# source: ${values.source}`,
  ...sold.map(
    (source) =>
      `# sold where listed: ${source.provider} ${source.name} regions ${source.regions.join(" ")} types ${source.types.join(" ")}`,
  ),
  "provider,region,instance_type,usd_per_hour,engine",
];
for (const [provider, prices] of [...byProvider].sort(([a], [b]) => (a < b ? -1 : 1)))
  for (const [key, price] of [...prices].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [region, type, engine = ""] = key.split(",");
    lines.push(`${provider},${region},${type},${price},${engine}`);
  }
writeFileSync(values.out, `${lines.join("\n")}\n`);
