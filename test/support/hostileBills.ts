/**
 * Hostile bills, written by the tests and the bench that send them (never committed): FOCUS CSV
 * exports legal in every cell whose lines each fall on a day of their own, or each name a
 * resource, account and tag value of their own — what makes a report's chart and tables grow
 * with the bill if they are not bounded (issue 86). Seeded: a seed names a file, byte for byte.
 */
import { once } from "node:events";
import { createWriteStream } from "node:fs";
import { seeded } from "../../scripts/seededRandom.js";

const HEADER = [
  "BilledCost",
  "EffectiveCost",
  "BillingCurrency",
  "ChargeCategory",
  "ChargePeriodStart",
  "ChargePeriodEnd",
  "ConsumedQuantity",
  "ConsumedUnit",
  "ProviderName",
  "RegionId",
  "ServiceName",
  "ServiceCategory",
  "SubAccountId",
  "SubAccountName",
  "ResourceId",
  "ResourceName",
  "Tags",
  "x_ServiceCode",
  "x_Operation",
  "x_UsageType",
  "ChargeDescription",
].join(",");

const TYPES = ["m5.xlarge", "c5.2xlarge", "r5.large", "m6g.large", "t3.medium", "c6i.4xlarge"];
const REGIONS = ["eu-west-3", "us-east-1", "eu-central-1", "ap-south-1"];
const TEAMS = ["web", "data", "ml", "ops"];
const DAY_MS = 86_400_000;
/** The first day of a many-days bill: 2000-01-01, so that 190,000 days end in the 26th century. */
const FIRST_DAY = Date.UTC(2000, 0, 1);

/** What a line of a hostile bill varies. */
interface LineParts {
  readonly day: number;
  readonly account: string;
  readonly resource: string;
  readonly team: string;
}

const stamp = (ms: number) => new Date(ms).toISOString().replace("T", " ").slice(0, 19);

function lineOf(parts: LineParts, random: () => number): string {
  const type = TYPES[Math.floor(random() * TYPES.length)];
  const region = REGIONS[Math.floor(random() * REGIONS.length)];
  const hours = 1 + Math.floor(random() * 24);
  const cost = (hours * (0.05 + random())).toFixed(4);
  const start = FIRST_DAY + parts.day * DAY_MS;
  return [
    cost,
    cost,
    "USD",
    "Usage",
    stamp(start),
    stamp(start + DAY_MS),
    hours,
    "Hrs",
    "AWS",
    region,
    "Amazon Elastic Compute Cloud",
    "Compute",
    parts.account,
    `team-${parts.account}`,
    parts.resource,
    `name-${parts.resource}`,
    `"{""team"":""${parts.team}"",""owner"":""o${Math.floor(random() * 1000)}""}"`,
    "AmazonEC2",
    "RunInstances",
    `EUW3-BoxUsage:${type}`,
    `Linux ${type}`,
  ].join(",");
}

/** Writes `lines` lines of `partsOf(i)` after the header, with backpressure; resolves with the bytes. */
async function writeBill(
  path: string,
  lines: number,
  seed: number,
  partsOf: (index: number, random: () => number) => LineParts,
): Promise<number> {
  const random = seeded(seed);
  const out = createWriteStream(path);
  let bytes = 0;
  const write = async (text: string) => {
    bytes += Buffer.byteLength(text);
    if (!out.write(text)) await once(out, "drain");
  };
  await write(`${HEADER}\n`);
  const chunk: string[] = [];
  for (let index = 0; index < lines; index += 1) {
    chunk.push(lineOf(partsOf(index, random), random));
    if (chunk.length === 5_000 || index === lines - 1) {
      await write(`${chunk.join("\n")}\n`);
      chunk.length = 0;
    }
  }
  out.end();
  await once(out, "close");
  return bytes;
}

/** A permutation of 0…n-1 (Fisher–Yates), so that the days come in no order. */
function shuffled(n: number, random: () => number): Uint32Array {
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i += 1) order[i] = i;
  for (let i = n - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order;
}

/**
 * A FOCUS bill of `lines` lines each on a day of its own (from 2000-01-01, in a shuffled order):
 * the 190,000 lines are 48 MB, inside the page's 50 MiB and 200,000 lines.
 */
export function writeManyDaysBill(path: string, lines: number, seed = 86): Promise<number> {
  const days = shuffled(lines, seeded(seed ^ 0x5eed));
  return writeBill(path, lines, seed, (index, random) => ({
    day: days[index],
    account: `acct-${index % 50}`,
    resource: `i-${Math.floor(random() * 2000)}`,
    team: TEAMS[index % TEAMS.length],
  }));
}

/**
 * A FOCUS bill of `lines` lines in one month, each of its own resource, account and `team` tag
 * value (`--group-by tag:team` groups it in as many groups as lines).
 */
export function writeManyNamesBill(path: string, lines: number, seed = 86): Promise<number> {
  return writeBill(path, lines, seed, (index) => ({
    day: 9000 + (index % 30),
    account: `acct-${index}`,
    resource: `i-${index.toString(16).padStart(8, "0")}`,
    team: `team-${index}`,
  }));
}
