/*
 * The units billing exports write (AWS `pricing_unit`, FOCUS `ConsumedUnit`, Azure
 * `UnitOfMeasure`, Google Cloud `usage.unit`, Oracle `usage/consumedQuantityUnits`), read by a
 * small grammar rather than a list of spellings: a unit is an optional count (`10 GB/Month`,
 * `100 Hours`), then words, each an amount of data (decimal or binary prefix: `GB`, `GiB`,
 * `gibibyte`, `ByteHrs`' byte), a time (second to year: `Hrs`, `Mo`, `hour`), a resource counted
 * over time (`vCPU`, `OCPU`, `DPU`, `GPU`…) or a count of things (`requests`, `API Calls`…; a
 * generative-AI model's `tokens`, `characters` and `images` named, `1K` and `1M` multiplying),
 * joined by blanks, `-`, `/` or `per` (a price per GB per month bills GB × months). Its dimension
 * is what a method reads: `hour` (time, of a resource or not), `gb` (data), `gb-hour` (data over
 * time), `count` (things counted: no method reads them), and its factor the hours, GB or GB-hours
 * of one unit.
 */

/** What one unit of a billed quantity stands for. */
export interface UnitReading {
  readonly dimension: "hour" | "gb" | "gb-hour" | "count";
  /** Hours, GB or GB-hours of one unit (1 for a count). */
  readonly factor: number;
  /** Hours of one unit when it holds a time (a GB-month: 730), else null. */
  readonly hours: number | null;
  /** GB of one unit when it holds data (a GiB-hour: 1.073741824), else null. */
  readonly gigabytes: number | null;
  /** The resource counted over time (`vcpu`, `ocpu`, `dpu`, `gpu`, `acu`, `rpu`, `core`), else null. */
  readonly resource: string | null;
}

/** Spellings longer than this are no unit (read before any parsing: a unit is a few words). */
export const MAX_UNIT_LENGTH = 80;

/** GB per word: SI prefixes (powers of 1,000) and IEC binary ones (powers of 1,024). */
const DATA: Readonly<Record<string, number>> = {
  byte: 1e-9,
  bytes: 1e-9,
  kb: 1e-6,
  kilobyte: 1e-6,
  kilobytes: 1e-6,
  mb: 1e-3,
  megabyte: 1e-3,
  megabytes: 1e-3,
  gb: 1,
  gigabyte: 1,
  gigabytes: 1,
  tb: 1e3,
  terabyte: 1e3,
  terabytes: 1e3,
  pb: 1e6,
  petabyte: 1e6,
  petabytes: 1e6,
  kib: 1024 / 1e9,
  kibibyte: 1024 / 1e9,
  kibibytes: 1024 / 1e9,
  mib: 1024 ** 2 / 1e9,
  mebibyte: 1024 ** 2 / 1e9,
  mebibytes: 1024 ** 2 / 1e9,
  gib: 1024 ** 3 / 1e9,
  gibibyte: 1024 ** 3 / 1e9,
  gibibytes: 1024 ** 3 / 1e9,
  tib: 1024 ** 4 / 1e9,
  tebibyte: 1024 ** 4 / 1e9,
  tebibytes: 1024 ** 4 / 1e9,
  pib: 1024 ** 5 / 1e9,
  pebibyte: 1024 ** 5 / 1e9,
  pebibytes: 1024 ** 5 / 1e9,
};

/** A month of the methodology's 730 hours (8,760 ÷ 12), as the providers price a GB-month. */
export const HOURS_PER_MONTH = 730;

/** Hours per word. */
const TIME: Readonly<Record<string, number>> = {
  sec: 1 / 3600,
  secs: 1 / 3600,
  second: 1 / 3600,
  seconds: 1 / 3600,
  min: 1 / 60,
  mins: 1 / 60,
  minute: 1 / 60,
  minutes: 1 / 60,
  h: 1,
  hr: 1,
  hrs: 1,
  hour: 1,
  hours: 1,
  hourly: 1,
  day: 24,
  days: 24,
  mo: HOURS_PER_MONTH,
  mos: HOURS_PER_MONTH,
  mon: HOURS_PER_MONTH,
  mth: HOURS_PER_MONTH,
  month: HOURS_PER_MONTH,
  months: HOURS_PER_MONTH,
  monthly: HOURS_PER_MONTH,
  yr: 8760,
  year: 8760,
  years: 8760,
};

/** Resources billed per unit of time, each the name a method reads. */
const RESOURCES: Readonly<Record<string, string>> = {
  vcpu: "vcpu",
  vcpus: "vcpu",
  cpu: "vcpu",
  cpus: "vcpu",
  ocpu: "ocpu",
  ocpus: "ocpu",
  ecpu: "vcpu",
  ecpus: "vcpu",
  core: "core",
  cores: "core",
  dpu: "dpu",
  dpus: "dpu",
  gpu: "gpu",
  gpus: "gpu",
  acu: "acu",
  acus: "acu",
  // Redshift Serverless's Redshift Processing Units (`RPU-Hr`)
  rpu: "rpu",
  rpus: "rpu",
  instance: "instance",
  instances: "instance",
  node: "instance",
  nodes: "instance",
  vm: "instance",
  // A Kubernetes cluster's control plane (Oracle's `ONE HOURS CLUSTER`, an enhanced cluster's hour)
  cluster: "cluster",
  clusters: "cluster",
  // What a generative-AI model reads or writes (docs/methodology.md, "Generative AI"): counted,
  // never over time, each named so that its method reads only its own
  token: "token",
  tokens: "token",
  character: "character",
  characters: "character",
  image: "image",
  images: "image",
};

/** Words that multiply a unit's count (`1K` tokens are 1,000, `1M` a million, `Million Datapoints`). */
const MULTIPLIERS: Readonly<Record<string, number>> = {
  k: 1e3,
  thousand: 1e3,
  m: 1e6,
  million: 1e6,
  billion: 1e9,
};

/** Words of things counted (no hardware a method reads), and words that add nothing to a unit. */
const COUNTED = new Set([
  "request",
  "requests",
  "count",
  "counts",
  "unit",
  "units",
  "call",
  "calls",
  "api",
  "query",
  "queries",
  "invocation",
  "invocations",
  "message",
  "messages",
  "event",
  "events",
  "transaction",
  "transactions",
  "operation",
  "operations",
  "op",
  "ops",
  "io",
  "ios",
  "iops",
  "object",
  "objects",
  // S3's `Obj-Month` (objects stored, billed per month)
  "obj",
  "key",
  "keys",
  "user",
  "users",
  "license",
  "licenses",
  "tag",
  "tags",
  "ip",
  "ips",
  "address",
  "addresses",
  "domain",
  "domains",
  "zone",
  "zones",
  "certificate",
  "certificates",
  "metric",
  "metrics",
  "alarm",
  "alarms",
  "dashboard",
  "dashboards",
  "job",
  "jobs",
  "performance",
  "credit",
  "credits",
  "page",
  "pages",
  "check",
  "checks",
  "read",
  "reads",
  "write",
  "writes",
  "capacity",
  "state",
  "transition",
  "transitions",
  "throughput",
  "shard",
  "shards",
  "secret",
  "secrets",
  "rule",
  "rules",
  "finding",
  "findings",
  "resource",
  "resources",
  "item",
  "items",
  "record",
  "records",
  "row",
  "rows",
  "email",
  "emails",
  "notification",
  "notifications",
  "lookup",
  "lookups",
  "connection",
  "connections",
  "session",
  "sessions",
  "seat",
  "seats",
  "agent",
  "agents",
  "vector",
  "vectors",
  "trace",
  "traces",
  "span",
  "spans",
  "rcu",
  "wcu",
  "rru",
  "wru",
  "security",
  // Monitoring's datapoints, a key's versions (`Key Version Hours`), buckets held
  // (`Bucket-Mo`: an object-month, no capacity), Oracle's volume performance units (`VPUs`)
  "datapoint",
  "datapoints",
  "version",
  "versions",
  "bucket",
  "buckets",
  "vpu",
  "vpus",
  // A bandwidth held over time (`Mbps Per Hour`: a port or a circuit's capacity, no GB carried)
  "kbps",
  "mbps",
  "gbps",
]);
/**
 * Words that add nothing to a unit's quantity: Oracle's readable units name what they measure
 * (`1 GiB MONTHS STORAGE_SIZE`, `1 GiB HOURS MEMORY`, `1 NONE HOURS OCPUS`), and a storage unit
 * may say what it stores (`Gigabyte Log Storage per Month`).
 */
const FILLER = new Set([
  "per",
  "of",
  "the",
  "a",
  "in",
  "x",
  "lambda",
  "used",
  "provisioned",
  "usage",
  "none",
  "storage",
  "size",
  "memory",
  "log",
  "logs",
  "data",
]);
/**
 * Words saying data carried (`1 GiB HOURS DATA_TRANSFERRED`, `GB Of Data Transferred`): GB whatever
 * the time word beside them (Oracle writes its transfer in `HOURS` or `MONTHS` of the period).
 */
const TRANSFERRED = new Set(["transferred", "transfer", "egress", "outbound"]);

/** Units that are exactly one word of another tongue of the same unit. */
const ALIASES: Readonly<Record<string, string>> = { "1/month": "units month", "1/hour": "units hour" };

/**
 * A unit as the registry keys it: lower case, trimmed, blanks collapsed. Null beyond
 * MAX_UNIT_LENGTH characters (no unit is that long).
 */
export function unitSpelling(text: string | null): string | null {
  if (text === null) return "";
  if (text.length > MAX_UNIT_LENGTH * 4) return null;
  const spelling = text.trim().toLowerCase().replace(/\s+/g, " ");
  return spelling.length > MAX_UNIT_LENGTH ? null : spelling;
}

/** The words of a glued word (`bytehrs`, `gbmonth`, `gigabyteperhour`), longest word first; null if some part is none. */
function splitGlued(word: string): string[] | null {
  const known = (part: string) =>
    part in DATA ||
    part in TIME ||
    part in RESOURCES ||
    part in MULTIPLIERS ||
    COUNTED.has(part) ||
    FILLER.has(part) ||
    TRANSFERRED.has(part);
  const parts: string[] = [];
  let rest = word;
  // Each step takes the longest known word starting the rest: at most `word.length` steps.
  while (rest.length > 0) {
    let taken = 0;
    for (let length = Math.min(rest.length, 16); length > 0; length--) {
      if (known(rest.slice(0, length))) {
        taken = length;
        break;
      }
    }
    if (taken === 0) return null;
    parts.push(rest.slice(0, taken));
    rest = rest.slice(taken);
  }
  return parts;
}

/** What a unit's words name: the count before it, its data and time words, a resource, whether it counts things. */
interface UnitWords {
  readonly count: number;
  readonly gigabytes: number | null;
  readonly hours: number | null;
  readonly resource: string | null;
  readonly counted: boolean;
  /** Whether it names IOPS (provisioned I/O operations a second). */
  readonly iops: boolean;
}

/**
 * Provisioned IOPS held over time (`IOPS-Mo`, `1 IOPS/Month`) are read as the SSD capacity that
 * delivers them: a General Purpose SSD (gp2) volume's baseline is 3 IOPS per GiB (Amazon EBS User
 * Guide, "General Purpose SSD volumes"), so an IOPS-month is a third of a GiB-month of SSD
 * (docs/billing.md, "Provisioned IOPS and throughput": a decision, with its reason).
 */
export const IOPS_PER_GIB = 3;
const GIB = 1024 ** 3 / 1e9;

/**
 * A count written as a word before the unit: Oracle's cost and usage reports write `ONE GiB HOURS
 * MEMORY`, `ONE GiB HOURS STORAGE_SIZE` (the FinOps Foundation's FOCUS unit guidance, "OCI Cost and
 * Usage Report" units).
 */
const COUNT_WORDS: Readonly<Record<string, number>> = { one: 1 };

/** The words of a unit's tokens; null for a spelling no method reads (a count after a word, two data words). */
function unitWords(tokens: readonly string[]): UnitWords | null {
  let count = 1;
  let gigabytes: number | null = null;
  let hours: number | null = null;
  let resource: string | null = null;
  let counted = false;
  let transferred = false;
  let iops = false;
  for (const [index, token] of tokens.entries()) {
    if (/^[0-9]/.test(token) || Object.hasOwn(COUNT_WORDS, token)) {
      // A count before the unit (`10 GB/Month`, `100 Hours`; Oracle's `ONE GiB HOURS MEMORY`), once.
      if (index !== 0) return null;
      count = COUNT_WORDS[token] ?? Number(token.replace(",", "."));
      continue;
    }
    const words = token in DATA || token in TIME ? [token] : splitGlued(token);
    if (words === null) return null;
    for (const word of words) {
      if (word in DATA) {
        if (gigabytes !== null) return null;
        gigabytes = DATA[word];
      } else if (word in TIME) {
        // A second time word makes a rate held over time (`GiB/Second-Months`: provisioned
        // throughput), which no method reads
        if (hours !== null) counted = true;
        else hours = TIME[word];
      } else if (word in RESOURCES) {
        resource = RESOURCES[word];
      } else if (word === "iops") {
        iops = true;
      } else if (word in MULTIPLIERS) {
        count *= MULTIPLIERS[word];
        counted = true;
      } else if (COUNTED.has(word)) {
        counted = true;
      } else if (TRANSFERRED.has(word)) {
        transferred = true;
      }
    }
  }
  // Data carried: its time word is the period's, not a duration the data is held
  return {
    count,
    gigabytes,
    hours: transferred && gigabytes !== null ? null : hours,
    resource,
    counted,
    iops,
  };
}

/** Reads a unit's spelling (unitSpelling's), or null when some word of it is not a unit's. */
export function readUnit(spelling: string): UnitReading | null {
  const text = ALIASES[spelling] ?? spelling;
  const tokens = text.match(/[0-9]+(?:[.,][0-9]+)?|[a-z]+/g) ?? [];
  const words = unitWords(tokens);
  if (words === null || !(words.count > 0)) return null;
  const { count, gigabytes, hours, resource, counted, iops } = words;
  if (iops && !counted && gigabytes === null && hours !== null) {
    // IOPS held over time: the GiB of SSD that deliver them, over that time
    const held = (count * GIB) / IOPS_PER_GIB;
    return {
      dimension: "gb-hour",
      factor: held * hours,
      hours: count * hours,
      gigabytes: held,
      resource: "iops",
    };
  }
  if (counted || iops || (gigabytes === null && hours === null)) {
    return tokens.length === 0
      ? null
      : { dimension: "count", factor: count, hours: null, gigabytes: null, resource };
  }
  if (gigabytes !== null && hours !== null) {
    return {
      dimension: "gb-hour",
      factor: count * gigabytes * hours,
      hours: count * hours,
      gigabytes: count * gigabytes,
      resource,
    };
  }
  if (gigabytes !== null) {
    return {
      dimension: "gb",
      factor: count * gigabytes,
      hours: null,
      gigabytes: count * gigabytes,
      resource,
    };
  }
  return {
    dimension: "hour",
    factor: count * (hours as number),
    hours: count * (hours as number),
    gigabytes: null,
    resource,
  };
}

/**
 * Spellings the providers' documentation writes, written into the units table whatever the bill
 * holds (so that the table run elsewhere reads them): AWS's pricing units, Azure's units of
 * measure, Google Cloud's `usage.unit` and pricing units, Oracle's.
 */
export const DOCUMENTED_UNITS: readonly string[] = [
  // AWS (CUR pricing_unit)
  "Hrs",
  "Hours",
  "vCPU-Hours",
  "GB-Mo",
  "GB-Month",
  "GB",
  "GB-Hours",
  "ByteHrs",
  "Lambda-GB-Second",
  "GB-Second",
  "Requests",
  "ACU-Hr",
  "DPU-Hour",
  "GiB-Mo",
  "Obj-Month",
  "IOs",
  "Count",
  "Seconds",
  // Amazon Bedrock's tokens (the Price List's units)
  "1K tokens",
  "1M tokens",
  "tokens",
  // Azure (UnitOfMeasure)
  "1 Hour",
  "10 Hours",
  "100 Hours",
  "1000 Hours",
  "1 GB/Month",
  "10 GB/Month",
  "100 GB/Month",
  "1 GB",
  "10 GB",
  "100 GB Hours",
  "1 GB Hour",
  "1 GB/Hour",
  "GB/Month",
  "1 GiB Hour",
  "1 GiB/Hour",
  "1 GiB",
  "1 TB/Month",
  "1/Month",
  "10K",
  "1M",
  // Google Cloud (usage.unit, usage.pricing_unit)
  "gibibyte month",
  "gibibyte hour",
  "gibibyte",
  "hour",
  "seconds",
  "requests",
  "gibibyte second",
  "byte-seconds",
  "count",
  // Oracle (usage/consumedQuantityUnits)
  "GB Months",
  "OCPU Hours",
  "Performance Units Per Gigabyte Per Month",
  "GB Hours",
  "Gigabytes",
  "Hours",
  "Requests",
];

/** The units table's rows for these spellings (as the SQL keys them: lower case, trimmed), those the grammar reads. */
export function unitRows(spellings: Iterable<string>): (readonly (string | number | null)[])[] {
  const rows = new Map<string, readonly (string | number | null)[]>();
  for (const spelling of spellings) {
    const normal = unitSpelling(spelling);
    const reading = normal === null ? null : readUnit(normal);
    if (reading === null || rows.has(spelling)) continue;
    rows.set(spelling, [
      spelling,
      reading.dimension,
      reading.factor,
      reading.hours,
      reading.gigabytes,
      reading.resource,
    ]);
  }
  return [...rows.values()];
}
