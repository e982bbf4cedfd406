import { z } from "zod";

/*
 * Every environment variable the service reads, described once (one zod schema), parsed once at
 * start-up. A bad value stops the start with one line naming the variable.
 */

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;

/** An integer given as decimal text. */
const integerText = (min: number, max: number) =>
  z
    .string()
    .trim()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(z.number().int().min(min).max(max));

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
    for (const origin of origins) {
      let parsed: URL | null = null;
      try {
        parsed = new URL(origin);
      } catch {
        parsed = null;
      }
      if (parsed === null || parsed.origin !== origin) {
        context.addIssue({
          code: "custom",
          message: `"${origin}" is not an origin like https://example.org`,
        });
        return z.NEVER;
      }
    }
    if (origins.length === 0) {
      context.addIssue({ code: "custom", message: "must be * or a comma-separated list of origins" });
      return z.NEVER;
    }
    return origins;
  });

const CONFIG_SCHEMA = z.object({
  PORT: integerText(0, 65535).default(8080),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  WORKERS: integerText(1, 256).default(1),
  LOG_LEVEL: z.enum(LOG_LEVELS).default("info"),
  ALLOWED_ORIGINS: allowedOrigins.default("*"),
  COMPRESSION_MIN_BYTES: integerText(0, 2 ** 31 - 1).default(1024),
});

/** The validated configuration (defaults applied). */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly workers: number;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  /** Origins allowed by CORS on /v1 and /graphql: `*` (any, without credentials) or a list. */
  readonly allowedOrigins: "*" | readonly string[];
  /** Answers smaller than this are sent uncompressed. */
  readonly compressionMinBytes: number;
}

/** A bad environment variable, described in one line. */
export class ConfigError extends Error {}

/** Validates the environment (unset or empty variables take their defaults). */
export function parseConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const present = Object.fromEntries(
    Object.keys(CONFIG_SCHEMA.shape)
      .map((name) => [name, env[name]] as const)
      .filter(([, value]) => value !== undefined && value.trim() !== ""),
  );
  const result = CONFIG_SCHEMA.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue.path[0]);
    throw new ConfigError(`invalid ${name}=${JSON.stringify(env[name])}: ${issue.message}`);
  }
  const value = result.data;
  return {
    port: value.PORT,
    host: value.HOST,
    workers: value.WORKERS,
    logLevel: value.LOG_LEVEL,
    allowedOrigins: value.ALLOWED_ORIGINS,
    compressionMinBytes: value.COMPRESSION_MIN_BYTES,
  };
}

/** The configuration of a test or an embedding: the defaults, with some values replaced. */
export function defaultConfig(overrides: Partial<Config> = {}): Config {
  return { ...parseConfig({}), ...overrides };
}
