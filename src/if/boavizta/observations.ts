import { z } from "zod";
import { CRITERION_SPELLINGS, parseCriterion } from "../../service/criteria.js";
import { readNumber } from "../../support/numbers.js";

/** The criteria a plugin answers when its config names none: the service's. */
export { DEFAULT_CRITERIA } from "../../service/criteria.js";

/** The plugins' config in a manifest, checked before any observation is read. */
export const CONFIG = z
  .strictObject({
    /** The edition to answer with (default: the service's default, `EDITION`); YAML may read `2.4` as a number. */
    edition: z
      .union([z.string().min(1), z.number()], {
        error: "expected an edition id (text, as in the service's EDITION)",
      })
      .transform(String)
      .optional(),
    /** The criteria to output (default gwp, adp, pe); gwp is always evaluated. */
    criteria: z
      .array(
        z.string().refine((spelling) => parseCriterion(spelling) !== null, {
          error: (issue) =>
            `unknown criterion ${JSON.stringify(issue.input)} (known: ${CRITERION_SPELLINGS.join(", ")})`,
        }),
        { error: "expected a list of criteria, e.g. [gwp, pe]" },
      )
      .min(1)
      .optional(),
    /** The server archetype (BoaviztaServer), when the observations name none. */
    archetype: z.string().min(1).optional(),
    /** true: the impacts rounded as the REST routes answer them; default false (unrounded, for sums). */
    rounded: z.boolean().optional(),
  })
  .optional();

/** The plugins' config in a manifest. */
export type BoaviztaConfig = z.input<typeof CONFIG>;
export type CheckedConfig = z.output<typeof CONFIG>;

/**
 * A number as YAML or a CSV import gives it (a numeric text is read; an array or object is not), a
 * bigint as its value: read as every input's number is (src/support/numbers.ts), finite, within
 * its range, never -0.
 */
export const numeric = z.unknown().transform((given, context) => {
  const reading = readNumber(given);
  if ("value" in reading) return reading.value;
  context.addIssue({
    code: "custom",
    message: reading.problem === "not a number" ? "expected a number" : reading.problem,
  });
  return z.NEVER;
});
export const text = z.union([z.string().min(1), z.number().transform(String)], { error: "expected a text" });

/** The fields every plugin reads of an observation; IF passes any others, kept in the outputs. */
export const COMMON_FIELDS = {
  duration: numeric.pipe(z.number().positive().finite()),
  "cpu/utilization": numeric.pipe(z.number().min(0).max(100)).optional(),
  location: text.optional(),
  /** gCO2e/kWh; the bound is ten times the most carbon-intensive grids (coal, about 1,000). */
  "grid/carbon-intensity": numeric.pipe(z.number().min(0).max(10_000)).optional(),
};

/** One observation: IF passes any fields; the plugins read theirs. */
export type Observation = Readonly<Record<string, unknown>>;

/** What IF 1.x expects of a plugin instance. */
export interface IfPlugin {
  readonly metadata: {
    readonly kind: "execute";
    readonly inputs: Readonly<Record<string, ParameterMetadata>>;
    readonly outputs: Readonly<Record<string, ParameterMetadata>>;
  };
  execute(inputs: readonly Observation[]): Promise<Record<string, unknown>[]>;
}

export interface ParameterMetadata {
  readonly description: string;
  readonly unit: string;
  readonly "aggregation-method": { readonly time: AggregationMethod; readonly component: AggregationMethod };
}

/** IF's plugin signature: config, parameter metadata and mapping from the manifest. */
export type IfPluginFactory = (
  config?: BoaviztaConfig,
  parametersMetadata?: unknown,
  mapping?: unknown,
) => IfPlugin;

export const AGGREGATION_METHOD = z.enum(["sum", "avg", "copy", "none"]);
export const PARAMETERS = z.record(
  z.string(),
  z.object({
    description: z.string(),
    unit: z.string(),
    "aggregation-method": z.object({ time: AGGREGATION_METHOD, component: AGGREGATION_METHOD }),
  }),
);
/**
 * A manifest's `mapping`: a plugin's parameter name → the name the manifest uses for it, read
 * from the observations and written in the outputs (what @grnsft/if-core's PluginFactory does).
 */
export const MAPPING = z.record(z.string(), z.string(), { error: "expected names by name" }).nullish();
export type Mapping = Readonly<Record<string, string>>;

/** The observation with each mapped parameter under the plugin's own name. */
export function mappedObservation(observation: Observation, mapping: Mapping): Observation {
  const view: Record<string, unknown> = { ...observation };
  for (const [parameter, name] of Object.entries(mapping)) {
    if (name in observation) view[parameter] = observation[name];
  }
  return view;
}

/** The outputs without the plugin's names of mapped parameters the observation gave under its own. */
export function withoutMappedParameters(
  outputs: Record<string, unknown>,
  observation: Observation,
  mapping: Mapping,
): Record<string, unknown> {
  for (const [parameter, name] of Object.entries(mapping)) {
    if (name in observation && !(parameter in observation)) delete outputs[parameter];
  }
  return outputs;
}

/** Keys renamed as the mapping says (outputs and their metadata). */
export function renamed<T>(record: Readonly<Record<string, T>>, mapping: Mapping): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [mapping[key] ?? key, value]));
}

/** A manifest's `parameter-metadata` (`inputs`, `outputs`), which overrides the plugins' own. */
export const PARAMETER_METADATA = z
  .object({ inputs: PARAMETERS.optional(), outputs: PARAMETERS.optional() })
  .nullish();

export type AggregationMethod = z.output<typeof AGGREGATION_METHOD>;

/** A refused config or observation: one line naming the plugin, the observation and the field. */
export class PluginInputError extends Error {}

/** `value` as `schema` reads it, or one PluginInputError naming each refused field and what was given. */
export function checked<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    const given = issue.path.reduce<unknown>(valueAt, value);
    return `${field === "" ? "" : `${field}: `}${issue.message} (given: ${shortJson(given)})`;
  });
  throw new PluginInputError(`${where}: ${lines.join("; ")}`);
}

export const valueAt = (value: unknown, key: PropertyKey): unknown =>
  typeof value === "object" && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;

/** A given value in an error line, at most 60 characters of its JSON. */
export function shortJson(value: unknown): string {
  // A bigint (YAML's big integers) as its digits: JSON has none.
  const json =
    JSON.stringify(value, (_, item) => (typeof item === "bigint" ? `${item}n` : item)) ?? String(value);
  return json.length <= 60 ? json : `${json.slice(0, 57)}...`;
}

/**
 * The observation as given, but each number it gives as a bigint written as the number read (the
 * outputs are written by IF as YAML or JSON, which hold no bigint).
 */
export function withNumbersRead(given: Observation, read: Readonly<Record<string, unknown>>): Observation {
  const bigints = Object.entries(given).filter(([, value]) => typeof value === "bigint");
  if (bigints.length === 0) return given;
  return {
    ...given,
    ...Object.fromEntries(bigints.map(([key, value]) => [key, read[key] ?? String(value)])),
  };
}
