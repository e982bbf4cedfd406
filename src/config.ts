import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { z } from "zod";
import { DEFAULT_DATA_BOUNDS } from "./data/folder.js";
import { EditionsFileError, readEditionsFile } from "./editions/custom.js";
import { defaultEditionFromEnv, EDITIONS, type EditionDescription } from "./editions/index.js";
import { type Environment, SettingsError, settingsWithOverrides } from "./editions/settings.js";
import { LOG_LEVELS } from "./log.js";

/*
 * The service's configuration: every environment variable, read once at start-up and validated
 * here (README "Configuration" lists them). Adding a variable is one line in `ENVIRONMENT`.
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

const ENVIRONMENT = z.object({
  /** TCP port to listen on (0: any free port). */
  PORT: wholeNumber(0, 65_535).default(8080),
  /** Address to listen on; unset: every interface. */
  HOST: z.preprocess(unsetIfEmpty, z.string().optional()),
  /** Worker processes sharing the port (node:cluster); 1 runs in-process. */
  WORKERS: wholeNumber(1, 256).default(1),
  /**
   * Largest request body, REST and /graphql alike. A 10,000-server fleet in GraphQL variables
   * (CPU, RAM, disk, usage) takes about 2.6 MB compact and 6.7 MB pretty-printed (measured in
   * test/server/limits.test.ts), hence 8 MiB.
   */
  MAX_BODY_BYTES: wholeNumber(1024, 1 << 30).default(8 * 1024 * 1024),
  /**
   * Longest text input (names, families, manufacturers, locations, types). CPU names of the
   * reference are at most 34 characters; approximate name matching costs grow with the length.
   */
  MAX_STRING_LENGTH: wholeNumber(1, 100_000).default(100),
  /** Longest list inside one asset (RAM and disk entries, workload points and shares, IoT blocks). */
  MAX_LIST_LENGTH: wholeNumber(1, 1_000_000).default(100),
  /**
   * Deepest nesting of a JSON body or GraphQL variables (objects and lists) and of a GraphQL
   * document (`{`, `(`, `[`), checked by one scan of the text before it is parsed. The deepest
   * legitimate input (a fleet's server, its RAM entries, their usage's workload shares) nests 9.
   */
  MAX_NESTING_DEPTH: wholeNumber(8, 500).default(64),
  /** Longest request target (path and query string); longer ones are answered 414. */
  MAX_URL_LENGTH: wholeNumber(256, 1_000_000).default(8192),
  /** Fleet items one request may evaluate, counted across every fleet field and alias. */
  MAX_FLEET_ITEMS: wholeNumber(1, 10_000_000).default(10_000),
  /**
   * Time to upload a request body, from its headers on: past it, 408 (a client that stalls mid-body
   * holds a connection and the bytes already sent). Also the time a client may read nothing of its
   * answer before it is disconnected (a streamed answer holds its fleet's budget while unread).
   */
  BODY_TIMEOUT_MS: wholeNumber(1, 3_600_000).default(60_000),
  /**
   * Bytes of request bodies held at once, all requests together: past it, 503 with Retry-After.
   * Eight bodies of the default MAX_BODY_BYTES.
   */
  MAX_BODY_BYTES_IN_FLIGHT: wholeNumber(1024, 2 ** 40).default(64 * 1024 * 1024),
  /**
   * Fleet items evaluated at once, all requests together (README "Limits": a 10,000-server verbose
   * fleet takes about 450 MB at its peak, bench/README.md). A request whose fleets do not fit waits
   * in a queue of ADMISSION_QUEUE_LENGTH requests, or is refused with 503 and Retry-After; a request
   * larger than the whole budget runs alone.
   */
  MAX_CONCURRENT_FLEET_ITEMS: wholeNumber(1, 10_000_000).default(10_000),
  /** Requests waiting for room within MAX_CONCURRENT_FLEET_ITEMS; 0 refuses at once. */
  ADMISSION_QUEUE_LENGTH: wholeNumber(0, 10_000).default(8),
  /**
   * Largest answer of a request's fleets, estimated from the selected fields × the items before
   * any is evaluated (src/schema/answerSize.ts): a 10,000-server fleet with the shim's verbose
   * selection is estimated at about 100 MB (its answer: 102 MB), hence 128 MiB.
   */
  MAX_ANSWER_BYTES: wholeNumber(1024, 2 ** 40).default(128 * 1024 * 1024),
  /** Execution budget of one request: past it, a fleet still being evaluated is cancelled. */
  EXECUTION_TIMEOUT_MS: wholeNumber(1, 3_600_000).default(30_000),
  /**
   * Batches (`POST /v1/batch`) evaluated at once; past it, 503 with Retry-After. Each batch runs
   * one line at a time with a turn of the event loop between lines, so a few share the process
   * with single requests without delaying them.
   */
  MAX_CONCURRENT_BATCHES: wholeNumber(1, 1024).default(4),
  /**
   * On SIGTERM/SIGINT, the time the process keeps accepting requests while /readyz answers 503, so
   * load balancers stop sending before the listener closes (then SHUTDOWN_TIMEOUT_MS begins).
   */
  SHUTDOWN_DRAIN_MS: wholeNumber(0, 3_600_000).default(3_000),
  /** On SIGTERM/SIGINT, the time given to requests in flight before the process exits anyway. */
  SHUTDOWN_TIMEOUT_MS: wholeNumber(0, 3_600_000).default(10_000),
  /** Logging threshold (pino levels); `info` logs one line per request. */
  LOG_LEVEL: z.preprocess(unsetIfEmpty, z.enum(LOG_LEVELS).default("info")),
  /** CORS origins allowed on /v1 and /graphql: `*` (any, without credentials) or a list. */
  ALLOWED_ORIGINS: z.preprocess(unsetIfEmpty, allowedOrigins.default("*")),
  /** Answers smaller than this are sent uncompressed. */
  COMPRESSION_MIN_BYTES: wholeNumber(0, 2 ** 31 - 1).default(1024),
  /**
   * The methodology edition of requests that name none: a built-in or a custom edition's id
   * (checked below, once EDITIONS_FILE is read; the rule lives with the editions).
   */
  EDITION: z.string().optional(),
  /** A YAML file of custom editions (src/editions/custom.ts, README "Your own data"). */
  EDITIONS_FILE: z.preprocess(unsetIfEmpty, z.string().optional()),
  /**
   * Bytes of every file read from the custom editions' data folders, all together; each file's
   * size is checked against what remains before it is read. The published data sets are 1.4 MB;
   * a start-up at the bound fits the shipped 768 MB heap (bench/customEdition.ts).
   */
  MAX_CUSTOM_DATA_BYTES: wholeNumber(1024, 2 ** 31 - 1).default(DEFAULT_DATA_BOUNDS.maxBytes),
  /**
   * Rows of every CSV table of the custom editions' data folders, all together, counted as they
   * are parsed (the published tables hold 4,800 rows; a start-up at the bound fits the shipped
   * heap, bench/customEdition.ts).
   */
  MAX_CUSTOM_DATA_ROWS: wholeNumber(1, 100_000_000).default(DEFAULT_DATA_BOUNDS.maxRows),
  /**
   * Bytes of one YAML file of a custom data folder (factors.yml, config.yml), checked before it is
   * read: parsed YAML holds ~80 times its size in heap (bench/customEdition.ts); the published
   * factors.yml is 0.5 MB. A larger factor tree can be given as factors.json.
   */
  MAX_CUSTOM_YAML_BYTES: wholeNumber(1024, 2 ** 31 - 1).default(DEFAULT_DATA_BOUNDS.maxYamlBytes),
  /**
   * Trusted documents only: /graphql runs the documents of PERSISTED_DOCUMENTS, named by their
   * SHA-256, and refuses any other (docs/clients.md, "Trusted documents").
   */
  PERSISTED_ONLY: z.preprocess(unsetIfEmpty, z.enum(["true", "false"]).default("false")),
  /** A JSON object of trusted documents by SHA-256 (GraphQL Code Generator's persisted-documents.json). */
  PERSISTED_DOCUMENTS: z.preprocess(unsetIfEmpty, z.string().optional()),
});

export type Config = Omit<z.infer<typeof ENVIRONMENT>, "EDITION"> & {
  /** The edition of requests that name none (`EDITION`, validated). */
  readonly EDITION: string;
  /** The custom editions of EDITIONS_FILE (their data is read and checked when the app is made). */
  readonly customEditions: readonly EditionDescription[];
  /** The trusted documents by SHA-256 (PERSISTED_DOCUMENTS, each hash checked); empty without one. */
  readonly trustedDocuments: ReadonlyMap<string, string>;
  /**
   * The variables overriding an edition's compiled-in settings (`BOAVIZTA_<KEY>` for 2.4.1,
   * docs/methodology.md §19.1.2): their names come from the editions, their reading rules too.
   */
  readonly settingsOverrides: Environment;
};

/** Every variable named by an edition's settings prefix, each validated by that edition's rules. */
function settingsOverrides(environment: Environment, problems: string[]): Environment {
  const prefixes = EDITIONS.flatMap(({ settings }) =>
    "values" in settings ? [settings.environmentPrefix] : [],
  );
  const overrides = Object.fromEntries(
    Object.entries(environment).filter(([name]) => prefixes.some((prefix) => name.startsWith(prefix))),
  );
  for (const { settings } of EDITIONS) {
    if (!("values" in settings)) continue;
    try {
      settingsWithOverrides(settings.values, settings.environmentPrefix, overrides);
    } catch (error) {
      if (!(error instanceof SettingsError)) throw error;
      problems.push(error.message);
    }
  }
  return overrides;
}

/** The custom editions of an EDITIONS_FILE (none without one); a problem is added to `problems`. */
function editionsOf(
  variables: z.infer<typeof ENVIRONMENT> | undefined,
  problems: string[],
): readonly EditionDescription[] {
  const file = variables?.EDITIONS_FILE;
  if (variables === undefined || file === undefined) return [];
  try {
    return readEditionsFile(file, EDITIONS, {
      maxBytes: variables.MAX_CUSTOM_DATA_BYTES,
      maxRows: variables.MAX_CUSTOM_DATA_ROWS,
      maxYamlBytes: variables.MAX_CUSTOM_YAML_BYTES,
    });
  } catch (error) {
    if (!(error instanceof EditionsFileError)) throw error;
    problems.push(error.message);
    return [];
  }
}

/**
 * The documents of a PERSISTED_DOCUMENTS file (`{"<sha256>": "<document>"}`), each key checked
 * against its document's hash; required when PERSISTED_ONLY=true. A problem is added to `problems`.
 */
function trustedDocumentsOf(
  file: string | undefined,
  persistedOnly: boolean,
  problems: string[],
): ReadonlyMap<string, string> {
  if (file === undefined) {
    if (persistedOnly)
      problems.push("PERSISTED_ONLY=true needs PERSISTED_DOCUMENTS (a JSON file of documents by SHA-256)");
    return new Map();
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    problems.push(
      `PERSISTED_DOCUMENTS=${JSON.stringify(file)} cannot be read as JSON: ${(error as Error).message}`,
    );
    return new Map();
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    problems.push(`PERSISTED_DOCUMENTS=${JSON.stringify(file)} is not a JSON object of documents by SHA-256`);
    return new Map();
  }
  const documents = new Map<string, string>();
  for (const [hash, document] of Object.entries(parsed)) {
    if (typeof document !== "string" || createHash("sha256").update(document).digest("hex") !== hash) {
      problems.push(
        `PERSISTED_DOCUMENTS=${JSON.stringify(file)}: the document under ${hash} is not a string of that SHA-256`,
      );
      return new Map();
    }
    documents.set(hash, document);
  }
  return documents;
}

/** A configuration that cannot be used; its message is one line naming the variable. */
export class ConfigError extends Error {}

/** Reads and validates the configuration from an environment (process.env by default). */
export function loadConfig(environment: Readonly<Record<string, string | undefined>> = process.env): Config {
  const result = ENVIRONMENT.safeParse(environment);
  const problems = result.success
    ? []
    : result.error.issues.map((issue) => {
        const name = String(issue.path[0]);
        return `${name}=${JSON.stringify(environment[name])} ${issue.message}`;
      });
  const overrides = settingsOverrides(environment, problems);
  const customEditions = editionsOf(result.success ? result.data : undefined, problems);
  const trustedDocuments = result.success
    ? trustedDocumentsOf(result.data.PERSISTED_DOCUMENTS, result.data.PERSISTED_ONLY === "true", problems)
    : new Map<string, string>();
  let edition = "";
  try {
    edition = defaultEditionFromEnv(environment, customEditions);
  } catch (error) {
    problems.push(`EDITION=${JSON.stringify(environment.EDITION)} ${(error as Error).message}`);
  }
  if (!result.success || problems.length > 0)
    throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
  return { ...result.data, EDITION: edition, customEditions, trustedDocuments, settingsOverrides: overrides };
}

/** What one request may ask for (the input bounds of every layer). */
export interface Limits {
  readonly maxBodyBytes: number;
  readonly maxStringLength: number;
  readonly maxListLength: number;
  readonly maxFleetItems: number;
  readonly maxNestingDepth: number;
  readonly maxUrlLength: number;
  readonly maxAnswerBytes: number;
  readonly executionTimeoutMs: number;
  readonly bodyTimeoutMs: number;
}

/** The work the whole process takes at once (admission, src/http/admission.ts). */
export interface Capacity {
  readonly maxBodyBytesInFlight: number;
  readonly maxConcurrentFleetItems: number;
  readonly admissionQueueLength: number;
}

export function capacityOf(config: Config): Capacity {
  return {
    maxBodyBytesInFlight: config.MAX_BODY_BYTES_IN_FLIGHT,
    maxConcurrentFleetItems: config.MAX_CONCURRENT_FLEET_ITEMS,
    admissionQueueLength: config.ADMISSION_QUEUE_LENGTH,
  };
}

export function limitsOf(config: Config): Limits {
  return {
    maxBodyBytes: config.MAX_BODY_BYTES,
    maxStringLength: config.MAX_STRING_LENGTH,
    maxListLength: config.MAX_LIST_LENGTH,
    maxFleetItems: config.MAX_FLEET_ITEMS,
    maxNestingDepth: config.MAX_NESTING_DEPTH,
    maxUrlLength: config.MAX_URL_LENGTH,
    maxAnswerBytes: config.MAX_ANSWER_BYTES,
    executionTimeoutMs: config.EXECUTION_TIMEOUT_MS,
    bodyTimeoutMs: config.BODY_TIMEOUT_MS,
  };
}

/** The configuration of an unconfigured service (the defaults above), read once. */
const UNCONFIGURED: Config = loadConfig({});

/** The limits of an unconfigured service. */
export const DEFAULT_LIMITS: Limits = limitsOf(UNCONFIGURED);

/** The configuration of an unconfigured service, with some values replaced (tests, embedding). */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  return { ...UNCONFIGURED, ...overrides };
}
