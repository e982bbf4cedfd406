import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { z } from "zod";
import { EditionsFileError, readEditionsFile } from "../editions/custom.js";
import { defaultEditionFromEnv, EDITIONS, type EditionDescription } from "../editions/index.js";
import { type Environment, SettingsError, settingsWithOverrides } from "../editions/servedRules.js";
import { type JsonBounds, type JsonRefusal, MAX_OBJECT_MEMBERS } from "../support/jsonScan.js";
import { type Capacity, capacityFrom, ENVIRONMENT, type Limits, limitsFrom } from "./environment.js";

/*
 * The service's configuration: every environment variable (src/config/environment.ts), read once at
 * start-up by its reader (src/app/main.ts, the CLI) and validated here, with what the variables
 * name (custom editions, trusted documents, edition settings overrides) read and checked too.
 */

export type { Capacity, Limits } from "./environment.js";

export type Config = Omit<z.infer<typeof ENVIRONMENT>, "EDITION"> & {
  /** The edition of requests that name none (`EDITION`, validated). */
  readonly EDITION: string;
  /** Whether the environment set EDITION (a bill's commands default to the edition for new work otherwise). */
  readonly editionSet: boolean;
  /** The custom editions of EDITIONS_FILE (their data is read and checked when the app is made). */
  readonly customEditions: readonly EditionDescription[];
  /** The trusted documents by SHA-256 (PERSISTED_DOCUMENTS, each hash checked); empty without one. */
  readonly trustedDocuments: ReadonlyMap<string, string>;
  /**
   * The variables overriding an edition's compiled-in settings (`BOAVIZTA_<KEY>` for 2.4.1,
   * docs/methodology.md §19.1.2): their names come from the editions, their reading rules too.
   */
  readonly settingsOverrides: Environment;
  /**
   * The limits of one request (src/config/environment.ts, `limit`), gathered once when the
   * configuration is read: every service opened on it serves them.
   */
  readonly limits: Limits;
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
      // Editions sharing a prefix (2.4.1, 2.5.0) find the same bad variable: it is said once.
      if (!problems.includes(error.message)) problems.push(error.message);
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

/** Reads and validates the configuration from an environment (the process's, given by its reader). */
export function loadConfig(environment: Readonly<Record<string, string | undefined>>): Config {
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
  return {
    ...result.data,
    EDITION: edition,
    editionSet: (environment.EDITION ?? "").trim() !== "",
    customEditions,
    trustedDocuments,
    settingsOverrides: overrides,
    limits: limitsFrom(result.data),
  };
}

/** The admission budgets a configuration gives (src/config/environment.ts, `capacity`). */
export const capacityOf = (config: Config): Capacity => capacityFrom(config);

/** The day a report is dated, `YYYY-MM-DD` in UTC: SOURCE_DATE_EPOCH's when set, else today's. */
export const reportDayOf = (config: Pick<Config, "SOURCE_DATE_EPOCH">): string =>
  new Date(config.SOURCE_DATE_EPOCH === undefined ? Date.now() : config.SOURCE_DATE_EPOCH * 1000)
    .toISOString()
    .slice(0, 10);

/** The configuration of an unconfigured service (the settings' defaults), read once. */
const UNCONFIGURED: Config = loadConfig({});

/** The limits of an unconfigured service. */
export const DEFAULT_LIMITS: Limits = UNCONFIGURED.limits;

/**
 * The configuration of an unconfigured service, with some values replaced (tests, embedding): its
 * limits gathered from the values as replaced, unless `overrides` gives them.
 */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  const replaced = { ...UNCONFIGURED, ...overrides };
  return { ...replaced, limits: overrides.limits ?? limitsFrom(replaced) };
}

/** The limits a request body's JSON text is checked against before it is parsed. */
export type BodyLimits = Pick<Limits, "maxNestingDepth" | "maxListLength" | "maxFleetItems">;

/**
 * The bounds a request body's text is scanned for before it is parsed: MAX_NESTING_DEPTH, an
 * object's MAX_OBJECT_MEMBERS, and the entries of the longest list the body's transport accepts:
 * MAX_LIST_LENGTH in a v1 body (REST, a batch line: every list of it is held to it), the larger of
 * MAX_LIST_LENGTH and MAX_FLEET_ITEMS in GraphQL variables (`fleets`). A longer list is counted,
 * not built (nor its heap admitted), and refused by its length where its field is known. `wrapping`
 * levels hold the body (a batch line's object).
 */
export function bodyJsonBounds(limits: BodyLimits, holds: "fleets" | "v1", wrapping = 0): JsonBounds {
  return {
    depth: limits.maxNestingDepth + wrapping,
    members: MAX_OBJECT_MEMBERS,
    entries: holds === "fleets" ? Math.max(limits.maxListLength, limits.maxFleetItems) : limits.maxListLength,
  };
}

/**
 * Why a text passing one of bodyJsonBounds's refusing bounds is refused, and the setting: `body`
 * names what nests, `text` what holds the object (a batch line's body sits in the line).
 */
export function bodyBoundRefusal(
  bound: JsonRefusal,
  limits: BodyLimits,
  { body, text } = { body: "the JSON body", text: "the JSON body" },
): { message: string; setting: string } {
  return bound === "depth"
    ? {
        message: `${body} nests objects and lists more than ${limits.maxNestingDepth} levels deep`,
        setting: "MAX_NESTING_DEPTH",
      }
    : {
        message: `${text} has an object of more than ${MAX_OBJECT_MEMBERS.toLocaleString("en")} members`,
        setting: "MAX_OBJECT_MEMBERS",
      };
}
