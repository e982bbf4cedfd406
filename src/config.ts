import { z } from "zod";
import { DEFAULT_EDITION_ID, EDITION_IDS } from "./editions/index.js";

/*
 * The service's configuration: every environment variable, read once at start-up and validated
 * here (README "Configuration" lists them). A bad value stops the start with one line naming it.
 */

/** An unset or empty variable takes its default. */
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

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

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
    const invalid = origins.find(
      (origin) => URL.canParse(origin) === false || new URL(origin).origin !== origin,
    );
    if (origins.length === 0 || invalid !== undefined) {
      context.addIssue({
        code: "custom",
        message: `must be * or a comma-separated list of origins such as https://example.org${invalid ? ` (not an origin: ${invalid})` : ""}`,
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
  /** Edition of the requests that name none. */
  EDITION: z.preprocess(
    unsetIfEmpty,
    z.enum(EDITION_IDS as [string, ...string[]]).default(DEFAULT_EDITION_ID),
  ),
  /** Logging threshold (pino levels); `info` logs one line per request. */
  LOG_LEVEL: z.preprocess(unsetIfEmpty, z.enum(LOG_LEVELS).default("info")),
  /** CORS origins allowed on /v1 and /graphql: `*` (any, without credentials) or a list. */
  ALLOWED_ORIGINS: z.preprocess(unsetIfEmpty, allowedOrigins.default("*")),
  /** Answers smaller than this are sent uncompressed. */
  COMPRESSION_MIN_BYTES: wholeNumber(0, 2 ** 31 - 1).default(1024),
});

export type Config = z.infer<typeof ENVIRONMENT>;

/** A configuration that cannot be used; its message is one line naming the variable. */
export class ConfigError extends Error {}

/** Reads and validates the configuration from an environment (process.env by default). */
export function loadConfig(environment: Readonly<Record<string, string | undefined>> = process.env): Config {
  const result = ENVIRONMENT.safeParse(environment);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const name = String(issue.path[0]);
    return `${name}=${JSON.stringify(environment[name])} ${issue.message}`;
  });
  throw new ConfigError(`invalid configuration: ${problems.join("; ")}`);
}

/** The configuration of an unconfigured service, with some values replaced (tests, embedding). */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  return { ...loadConfig({}), ...overrides };
}
