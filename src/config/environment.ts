import { z } from "zod";
import { DEFAULT_DATA_BOUNDS } from "../data/folder.js";
import { DEFAULT_EDITION_ID, EDITIONS, NEW_WORK_EDITION_ID } from "../editions/index.js";
import { LOG_LEVELS } from "../support/log.js";
import { usableCores } from "./cores.js";

/*
 * Every environment variable of the service, each one entry: how it is read (its bound), its
 * default, what it means, and where the running service takes it (`limit`: the input bounds of
 * every layer; `capacity`: the admission budgets of the whole process). The configuration
 * (src/config/serviceConfig.ts), the limits, the capacity and the configuration table (docs/operations.md) are derived
 * from these entries: adding a variable is adding an entry.
 */

/** An unset or empty (blank) variable takes its default. */
const unsetIfEmpty = (value: unknown) =>
  typeof value === "string" && value.trim() === "" ? undefined : value;

/** A whole number within [min, max], written in decimal. */
const wholeNumber = (min: number, max: number) =>
  z.preprocess(
    unsetIfEmpty,
    z
      .string()
      .regex(/^\s*\d+\s*$/, "must be a whole number")
      .transform(Number)
      .pipe(z.number().int().min(min, `must be at least ${min}`).max(max, `must be at most ${max}`))
      .optional(),
  );

/** `*` (any origin) or a comma-separated list of origins (`scheme://host[:port]`). */
const allowedOrigins = z
  .string()
  .trim()
  .transform((text, context): "*" | readonly string[] => {
    if (text === "*") return "*";
    const origins = text
      .split(",")
      .map((origin) => origin.trim())
      .filter((origin) => origin !== "");
    const invalid = origins.find((origin) => !URL.canParse(origin) || new URL(origin).origin !== origin);
    if (origins.length === 0 || invalid !== undefined) {
      const which = invalid ? ` (not an origin: ${invalid})` : "";
      context.addIssue({
        code: "custom",
        message: `must be * or a comma-separated list of origins such as https://example.org${which}`,
      });
      return z.NEVER;
    }
    return origins;
  });

/** One environment variable. */
interface Setting<S extends z.ZodType = z.ZodType> {
  readonly read: S;
  /** The default as the configuration table shows it. */
  readonly shown: string;
  /** What it means (the configuration table, docs/operations.md). */
  readonly meaning: string;
  /** Its name in `Limits`, when it bounds one request. */
  readonly limit?: string;
  /** Its name in `Capacity`, when it bounds all requests together. */
  readonly capacity?: string;
}

/** A whole number within [min, max], `fallback` when unset; `note` says the default in other words. */
function whole<const P extends Partial<Pick<Setting, "limit" | "capacity">>>(
  bounds: readonly [number, number],
  fallback: number,
  meaning: string,
  place: P & { readonly note?: string } = {} as P,
) {
  const { note, ...into } = place;
  const shown = `\`${fallback}\`${note ? ` (${note})` : ""}`;
  return { read: wholeNumber(bounds[0], bounds[1]).default(fallback), shown, meaning, ...into };
}

const MiB = 1024 * 1024;

/** The built-in editions' ids, as the configuration table lists them: `1.2.4`, `2.4.1`. */
const BUILT_IN = EDITIONS.map(({ id }) => `\`${id}\``).join(", ");
/** The edition whose settings the environment may override (`BOAVIZTA_<KEY>`). */
const OVERRIDABLE = EDITIONS.find(({ settings }) => "values" in settings)?.id;

export const SETTINGS = {
  PORT: whole([0, 65_535], 8080, "TCP port (0: any free port, printed on the `listening on …` line)"),
  HOST: {
    read: z.preprocess(unsetIfEmpty, z.string().optional()),
    shown: "every interface",
    meaning: "address to listen on",
  },
  WORKERS: {
    read: z.preprocess(
      (value) =>
        typeof value === "string" && value.trim() === "auto" ? String(Math.min(usableCores(), 256)) : value,
      wholeNumber(1, 256).default(1),
    ),
    shown: "`1`",
    meaning:
      "worker processes sharing the port (node:cluster), 1–256 or `auto`: the cores the process is given (its processors, at most its cgroup's CPU quota rounded down); 1 serves in-process",
  },
  /**
   * A 10,000-server fleet in GraphQL variables (CPU, RAM, disk, usage) takes about 2.6 MB compact
   * and 6.7 MB pretty-printed (measured in test/server/limits.test.ts), hence 8 MiB.
   */
  MAX_BODY_BYTES: whole([1024, 1 << 30], 8 * MiB, "largest request body, REST and `/graphql`", {
    note: "8 MiB",
    limit: "maxBodyBytes",
  }),
  /** CPU names of the reference are at most 34 characters; approximate name matching costs grow with the length. */
  MAX_STRING_LENGTH: whole(
    [1, 100_000],
    100,
    "longest text input (names, families, manufacturers, locations, …)",
    { limit: "maxStringLength" },
  ),
  MAX_LIST_LENGTH: whole(
    [1, 1_000_000],
    100,
    "longest list inside one asset (RAM/disk entries, workload points, IoT blocks)",
    { limit: "maxListLength" },
  ),
  /**
   * Checked by one scan of the text before it is parsed. The deepest legitimate input (a fleet's
   * server, its RAM entries, their usage's workload shares) nests 9.
   */
  MAX_NESTING_DEPTH: whole(
    [8, 500],
    64,
    "deepest nesting of a JSON body, GraphQL variables or a GraphQL document (8–500)",
    { limit: "maxNestingDepth" },
  ),
  MAX_URL_LENGTH: whole(
    [256, 1_000_000],
    8192,
    "longest request target (path and query string); longer ones are answered 414",
    { limit: "maxUrlLength" },
  ),
  MAX_FLEET_ITEMS: whole(
    [1, 10_000_000],
    10_000,
    "fleet items per request, counted across fleet fields and aliases",
    { limit: "maxFleetItems" },
  ),
  /**
   * A client that stalls mid-body holds a connection and the bytes already sent; a streamed
   * answer holds its fleet's budget while unread.
   */
  BODY_TIMEOUT_MS: whole(
    [1, 3_600_000],
    60_000,
    "time to upload a request body, from its headers on (past it `408`); also the time a client may read nothing of its answer before it is disconnected",
    { limit: "bodyTimeoutMs" },
  ),
  /**
   * A slow body holds what it has sent, not what it declares: at the default pace and upload time,
   * a body sending the least it may holds at most 384 KiB when it is cut (64 KiB × 6 windows).
   */
  BODY_MIN_BYTES_PER_WINDOW: whole(
    [1, 1 << 30],
    64 * 1024,
    "least a request body (REST, `/graphql`) sends in every `BODY_RATE_WINDOW_MS` from its headers on, until it is whole; less, `408` and the connection closed (a body whole within the first window is never judged)",
    { note: "64 KiB", limit: "bodyMinBytesPerWindow" },
  ),
  BODY_RATE_WINDOW_MS: whole([1, 3_600_000], 10_000, "the window `BODY_MIN_BYTES_PER_WINDOW` is counted in", {
    limit: "bodyRateWindowMs",
  }),
  /** Eight bodies of the default MAX_BODY_BYTES. */
  MAX_BODY_BYTES_IN_FLIGHT: whole(
    [1024, 2 ** 40],
    64 * MiB,
    "bytes of request bodies (REST, `/graphql`) held at once, all clients together, counted as they arrive (not as declared) and held until their request has answered; past it `503` + `Retry-After`",
    { note: "64 MiB", capacity: "maxBodyBytesInFlight" },
  ),
  /**
   * Three bodies of the default MAX_BODY_BYTES: one client holds at most 3/8 of the default
   * budget, five bodies of the largest size are left to the others. Behind a proxy every client
   * is the proxy's address: set it to MAX_BODY_BYTES_IN_FLIGHT there (docs/limits.md).
   */
  MAX_BODY_BYTES_PER_CLIENT: whole(
    [1024, 2 ** 40],
    24 * MiB,
    "bytes of request bodies one client (its connection's address; an IPv6 address's /64) holds at once, within `MAX_BODY_BYTES_IN_FLIGHT`; past it `503` + `Retry-After` naming it",
    { note: "24 MiB", capacity: "maxBodyBytesPerClient" },
  ),
  /**
   * What the bodies' parse builds, admitted before it is built: an 8 MiB body of empty records
   * builds about 180 MB, 24 bytes a character of its text, and eight of them were in flight at once
   * (bench/README.md, "Parsed bodies in the container"). Sized with the fleets' worst case and the
   * caches within the 768 MB heap of `npm start` (docs/limits.md, "Admission").
   */
  MAX_PARSED_BYTES_IN_FLIGHT: whole(
    [1 * MiB, 2 ** 40],
    128 * MiB,
    "estimated heap of the request bodies parsed at once, all requests together (REST, `/graphql`, batch lines): each body's text and what its parse builds, estimated by one scan before anything is built; a body that does not fit waits (`ADMISSION_QUEUE_LENGTH`, at most `EXECUTION_TIMEOUT_MS`), then `503` + `Retry-After`; one estimated past the whole budget `413`",
    { note: "128 MiB", capacity: "maxParsedBytesInFlight" },
  ),
  /**
   * A 10,000-server verbose fleet takes about 450 MB at its peak (bench/README.md); a request
   * larger than the whole budget runs alone.
   */
  MAX_CONCURRENT_FLEET_ITEMS: whole(
    [1, 10_000_000],
    10_000,
    "fleet items evaluated at once, all requests together; a request that does not fit waits (see [Admission](limits.md#admission-the-work-the-process-takes-at-once))",
    { capacity: "maxConcurrentFleetItems" },
  ),
  ADMISSION_QUEUE_LENGTH: whole(
    [0, 10_000],
    8,
    "requests waiting for capacity in `MAX_CONCURRENT_FLEET_ITEMS`, and as many again in `MAX_PARSED_BYTES_IN_FLIGHT`; past them `503` + `Retry-After`; 0 refuses at once",
    { capacity: "admissionQueueLength" },
  ),
  /**
   * Estimated from the selected fields × the items before any is evaluated: a 10,000-server fleet
   * with the shim's verbose selection is estimated at about 100 MB (its answer: 102 MB), hence 128 MiB.
   */
  MAX_ANSWER_BYTES: whole(
    [1024, 2 ** 40],
    128 * MiB,
    "largest answer of a request's fleets, estimated from the selection × the items before any is evaluated (`src/schema/execution/answerSize.ts`)",
    { note: "128 MiB", limit: "maxAnswerBytes" },
  ),
  EXECUTION_TIMEOUT_MS: whole(
    [1, 3_600_000],
    30_000,
    "execution budget of one request; past it the request is cancelled (422)",
    { limit: "executionTimeoutMs" },
  ),
  /**
   * Each batch runs one line at a time, in slices of about 8 ms with a turn of the event loop
   * between slices (src/batch/index.ts), so a few share the process with single requests.
   */
  MAX_CONCURRENT_BATCHES: whole(
    [1, 1024],
    4,
    "batches (`POST /v1/batch`) evaluated at once; another gets `503` with `Retry-After`",
  ),
  /**
   * Half of the default MAX_CONCURRENT_BATCHES: one address running batches back to back leaves
   * the other half to the rest. Behind a proxy every client is the proxy's address: set it to
   * MAX_CONCURRENT_BATCHES there (docs/limits.md, "Each client's share").
   */
  MAX_BATCHES_PER_CLIENT: whole(
    [1, 1024],
    2,
    "batches one client (its connection's address; an IPv6 address's /64) has running at once, within `MAX_CONCURRENT_BATCHES`; past it `503` + `Retry-After` naming it",
  ),
  /**
   * A parsed document keeps every token, ~300 bytes each (src/http/documentCache.ts): 32 MiB holds
   * hundreds of ordinary queries or five of the densest legal documents (20,000 tokens).
   */
  DOCUMENT_CACHE_BYTES: whole(
    [0, 2 ** 31 - 1],
    32 * MiB,
    "estimated heap of the parsed GraphQL documents (and syntax errors) kept for reuse, ~300 bytes a token; the least recently used go first",
    { note: "32 MiB" },
  ),
  /**
   * An open coefficient stream holds its rows' text until its reader takes it (up to ~40 kB,
   * src/rest/routes/coefficientStream.ts), its socket and its compressor.
   */
  MAX_CONCURRENT_STREAMS: whole(
    [1, 100_000],
    64,
    "coefficient tables streamed at once (`GET /v1/cloud/coefficients/stream`); another gets `503` with `Retry-After`",
  ),
  /** So that load balancers stop sending before the listener closes (then SHUTDOWN_TIMEOUT_MS begins). */
  SHUTDOWN_DRAIN_MS: whole(
    [0, 3_600_000],
    3_000,
    "after SIGTERM/SIGINT, time the process keeps accepting while `/readyz` answers 503 (a second signal ends it)",
  ),
  SHUTDOWN_TIMEOUT_MS: whole(
    [0, 3_600_000],
    10_000,
    "time given to requests in flight after SIGTERM/SIGINT before exiting anyway",
  ),
  LOG_LEVEL: {
    read: z.preprocess(unsetIfEmpty, z.enum(LOG_LEVELS).default("info")),
    shown: "`info`",
    meaning:
      "threshold of every log line, the process's own included: `fatal`, `error`, `warn`, `info` (one JSON line per request; the `listening on …` line), `debug`, `trace` or `silent`",
  },
  ALLOWED_ORIGINS: {
    read: z.preprocess(unsetIfEmpty, allowedOrigins.default("*")),
    shown: "`*`",
    meaning:
      "CORS origins allowed on `/v1` and `/graphql`: `*` (any, without credentials) or a comma-separated list such as `https://dash.example,http://localhost:3000`",
  },
  COMPRESSION_MIN_BYTES: whole(
    [0, 2 ** 31 - 1],
    1024,
    "answers smaller than this are sent uncompressed (brotli or gzip, as the client accepts)",
  ),
  /**
   * The reproducible-builds convention (reproducible-builds.org/specs/source-date-epoch): a
   * pipeline that sets it gets the same report bytes from the same bill whatever the day it runs.
   */
  SOURCE_DATE_EPOCH: {
    read: wholeNumber(0, 253_402_300_799),
    shown: "unset (the day of the run)",
    meaning:
      "seconds since 1970-01-01 UTC: the day the reports are dated (`--report`, the /evaluate page's report), instead of the day of the run",
  },
  /** Checked once EDITIONS_FILE is read (src/config/serviceConfig.ts; the rule lives with the editions). */
  EDITION: {
    read: z.string().optional(),
    shown: `\`${DEFAULT_EDITION_ID}\``,
    meaning: `default edition of REST and GraphQL requests that name none and, when set, of files too (the command line, the /evaluate page: unset, they use ${NEW_WORK_EDITION_ID}; [Which edition?](editions.md#which-edition)): ${BUILT_IN} or a custom edition's id; another value stops the start-up`,
  },
  EDITIONS_FILE: {
    read: z.preprocess(unsetIfEmpty, z.string().optional()),
    shown: "none",
    meaning:
      "a YAML file of custom editions ([Your own data](own-data.md#your-own-data)); a wrong file, data folder or setting stops the start-up with one line (exit 2)",
  },
  /** Read by a bill's run where its what-if prices a change the bill gives no rate of (src/billing/priceList.ts). */
  PRICE_LIST: {
    read: z.preprocess(unsetIfEmpty, z.string().optional()),
    shown:
      "`~/.cache/impact-service/price-lists/on-demand-linux.csv`, where `npm run price-list` made it; else none",
    meaning:
      "a CSV of on-demand Linux prices in USD (`provider,region,instance_type,usd_per_hour`, a `# source:` line naming their source) that prices a what-if's change the bill gives no rate of, both sides at their list price in a bill in USD, else the bill's rate × the two types' list ratio ([What-if](billing.md#what-if)); `impact-service price-list aws|azure` writes one from a provider's own prices; a file missing or malformed stops the run with one line",
  },
  /** The published data sets are 1.4 MB; a start-up at the bound fits the shipped 768 MB heap (bench/customEdition.ts). */
  MAX_CUSTOM_DATA_BYTES: whole(
    [1024, 2 ** 31 - 1],
    DEFAULT_DATA_BOUNDS.maxBytes,
    "bytes of the custom editions' data files together, each file's size checked before it is read ([Your own data](own-data.md#your-own-data))",
    { note: "16 MiB" },
  ),
  /** The published tables hold 4,800 rows; a start-up at the bound fits the shipped heap (bench/customEdition.ts). */
  MAX_CUSTOM_DATA_ROWS: whole(
    [1, 100_000_000],
    DEFAULT_DATA_BOUNDS.maxRows,
    "CSV rows of the custom editions' data files together, counted while parsing",
  ),
  /** The published factors.yml is 0.5 MB; a larger factor tree can be given as factors.json. */
  MAX_CUSTOM_YAML_BYTES: whole(
    [1024, 2 ** 31 - 1],
    DEFAULT_DATA_BOUNDS.maxYamlBytes,
    "bytes of one YAML file of a custom data folder (parsed YAML takes ~80× its size in heap; `factors.json` has no such bound)",
    { note: "1 MiB" },
  ),
  PERSISTED_ONLY: {
    read: z.preprocess(unsetIfEmpty, z.enum(["true", "false"]).default("false")),
    shown: "`false`",
    meaning:
      "`true`: `/graphql` runs only the documents of `PERSISTED_DOCUMENTS`, named by their SHA-256 in `extensions.persistedQuery` (a text is refused, `PERSISTED_QUERY_ONLY`; GraphiQL cannot send one)",
  },
  PERSISTED_DOCUMENTS: {
    read: z.preprocess(unsetIfEmpty, z.string().optional()),
    shown: "none",
    meaning:
      'a JSON object `{"<sha256>": "<document>"}` (GraphQL Code Generator\'s `persisted-documents.json`), each hash checked at start-up',
  },
  SCAN_AWS_REGIONS: {
    read: z.preprocess(unsetIfEmpty, z.string().optional()),
    shown: "unset (no scan)",
    meaning:
      "AWS regions whose running instances and volumes the service scans (`impact-service scan aws`, in a child process) and serves as Prometheus gauges on `/metrics` ([Scanning an AWS account](scan.md)), comma-separated; credentials from the AWS SDK's chain, an emulator's endpoint from `AWS_ENDPOINT_URL`",
  },
  SCAN_FILTER_TAGS: {
    read: z.preprocess(unsetIfEmpty, z.string().optional()),
    shown: "none",
    meaning: "the scan's tag filters, `key=value` comma-separated: only resources carrying all of them",
  },
  SCAN_INTERVAL_SECONDS: whole(
    [60, 86_400],
    300,
    "seconds between the starts of two scans; `/metrics` serves the last one's gauges in between",
  ),
  SCAN_HOURS: whole(
    [1, 8784],
    1,
    "hours each scan reads and evaluates: the last ones before it (cloud-scanner's `use_duration_hours`)",
  ),
  SCAN_TIMEOUT_SECONDS: whole(
    [10, 3600],
    120,
    "time of one scan, its calls to AWS and its evaluation together; past it, what was read is served and the rest said (the command stopped 30 s later if it has not ended, the previous gauges kept)",
  ),
  SCAN_EDITION: {
    read: z.preprocess(unsetIfEmpty, z.string().optional()),
    shown: "the command line's default",
    meaning: "the edition the scan's impacts are evaluated in",
  },
} satisfies Record<string, Setting>;

/** Variables read by other parts than these entries, listed with them in the configuration table. */
const OTHER_VARIABLES: readonly {
  readonly name: string;
  readonly shown: string;
  readonly meaning: string;
}[] = [
  {
    name: "BOAVIZTA_<KEY>",
    shown: `the ${OVERRIDABLE} settings (docs/methodology.md §19.1.2)`,
    meaning:
      `overrides a setting of edition ${OVERRIDABLE} ` +
      "(and of custom editions on it): `BOAVIZTA_DEFAULT_<KIND>` (default archetype ids, `DEFAULT_LOCATION`), `BOAVIZTA_DEFAULT_CRITERIA` (JSON list), `BOAVIZTA_UNCERTAINTY`, `BOAVIZTA_MAX_SIG_FIG`, `BOAVIZTA_MIN_SIG_FIG` (rounding, docs/methodology.md §12), `BOAVIZTA_CPU_NAME_FUZZYMATCH_THRESHOLD`, `BOAVIZTA_GPU_NAME_FUZZYMATCH_THRESHOLD`, `BOAVIZTA_CLOUD_INSTANCE_NAME_FUZZYMATCH_THRESHOLD`; each changes answers; an unreadable or out-of-range value, or a default archetype id the data lacks, stops the start-up",
  },
  {
    name: "NODE_ENV",
    shown: "`production` under `npm start`",
    meaning: "graphql-js skips its development checks in production",
  },
];

type Settings = typeof SETTINGS;
type Entry = Settings[keyof Settings];

/** The environment's schema: one field a setting, in the entries' order. */
export const ENVIRONMENT = z.object(
  Object.fromEntries(Object.entries(SETTINGS).map(([name, setting]) => [name, setting.read])) as {
    readonly [N in keyof Settings]: Settings[N]["read"];
  },
);

/** What one request may ask for (the input bounds of every layer). */
export type Limits = {
  readonly [N in keyof Settings as Settings[N] extends { readonly limit: infer K extends string }
    ? K
    : never]: number;
};

/** The work the whole process takes at once (admission, src/http/limits/admission.ts). */
export type Capacity = {
  readonly [N in keyof Settings as Settings[N] extends { readonly capacity: infer K extends string }
    ? K
    : never]: number;
};

/** The values of the settings that go `into` one place, under their names there. */
function gathered(variables: Readonly<Record<string, unknown>>, into: "limit" | "capacity") {
  const entries = Object.entries(SETTINGS) as [
    keyof Settings,
    Entry & Partial<Record<typeof into, string>>,
  ][];
  return Object.fromEntries(
    entries.flatMap(([name, setting]) => {
      const key = setting[into];
      return key === undefined ? [] : [[key, variables[name]]];
    }),
  );
}

export const limitsFrom = (variables: z.infer<typeof ENVIRONMENT>): Limits =>
  gathered(variables, "limit") as Limits;

export const capacityFrom = (variables: z.infer<typeof ENVIRONMENT>): Capacity =>
  gathered(variables, "capacity") as Capacity;

/** The configuration table of docs/operations.md: one row a setting, then the variables read elsewhere. */
export function configurationTable(): string {
  const rows = [
    ...Object.entries(SETTINGS).map(([name, setting]) => ({ name, ...setting })),
    ...OTHER_VARIABLES,
  ].map(({ name, shown, meaning }) => `| \`${name}\` | ${shown} | ${meaning} |`);
  return ["| variable | default | meaning |", "|---|---|---|", ...rows].join("\n");
}
