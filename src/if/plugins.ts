import { type DocumentNode, type GraphQLError, parse } from "graphql";
import { z } from "zod";
import { defaultConfig } from "../config/serviceConfig.js";
import { withoutFloatNoise } from "../output/columns.js";
import { graphqlErrorOf } from "../schema/errors.js";
import { compiledExecutor, type OperationExecutor, servedSchema } from "../schema/execution/inProcess.js";
import type { Service } from "../service/context.js";
import { createRequestContext } from "../service/context.js";
import { CRITERION_SPELLINGS, criterionEnumName, parseCriterion } from "../service/criteria.js";
import { type PowerPer, useEnergyKwh, type V1Verbose } from "../service/energy.js";
import { openService } from "../service/open.js";
import { createLogger } from "../support/log.js";

/*
 * Impact Framework 1.x plugins (the `PluginFactory` interface of @grnsft/if-core: a function of
 * the manifest's config, parameter metadata and mapping, returning `metadata` and `execute`) for
 * cloud instances, servers and CPUs. They ask the service's GraphQL schema in this process (no
 * server, no network): each observation is the `cloudInstance`, `server` or `cpu` field the
 * REST routes run, so its rounded numbers are the ones `POST /v1/...` answers.
 *
 * An observation (IF's names): `duration` (seconds), `cpu/utilization` (%), `location` (a
 * country or region code of the edition, e.g. FRA), and per asset `cloud/vendor`,
 * `cloud/instance-type` and `cloud/region`, `server/archetype` and `cpu/name` + `cpu/units`, or
 * `cpu/name`. Outputs: `carbon-embodied` (gCO2eq, IF's unit), `energy` (kWh: the average power
 * the service reports × the duration × the use-time ratio), `boavizta/<criterion>-embedded` /
 * `boavizta/<criterion>-use` for the criteria of the config (in the v1 unit of each criterion)
 * and `boavizta/warnings` when there is a caveat (an approximate instance match, an unknown
 * location replaced by the edition's default). An observation's `grid/carbon-intensity` (IF's
 * parameter, gCO2e/kWh) replaces the location's gwp factor: its gwp use is its energy × that
 * intensity, the other criteria keep the location's factors (the pipeline's own grid data).
 *
 * Impacts are unrounded unless the config says `rounded: true`: a pipeline sums observations
 * (TimeSync, Sum, IF's aggregation), and a sum of values rounded to their margin's 1–2
 * significant figures (docs/methodology.md §12) is a sum of rounding errors.
 */

/** The plugins' config in a manifest, checked before any observation is read. */
const CONFIG = z
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
type CheckedConfig = z.output<typeof CONFIG>;

/** A number as YAML or a CSV import gives it (a numeric text is read; an array or object is not). */
const numeric = z.union(
  [
    z.number(),
    z
      .string()
      .regex(/^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/)
      .transform(Number),
  ],
  { error: "expected a number" },
);
const text = z.union([z.string().min(1), z.number().transform(String)], { error: "expected a text" });

/** The fields every plugin reads of an observation; IF passes any others, kept in the outputs. */
const COMMON_FIELDS = {
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

interface ParameterMetadata {
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

const AGGREGATION_METHOD = z.enum(["sum", "avg", "copy", "none"]);
const PARAMETERS = z.record(
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
const MAPPING = z.record(z.string(), z.string(), { error: "expected names by name" }).nullish();
type Mapping = Readonly<Record<string, string>>;

/** The observation with each mapped parameter under the plugin's own name. */
function mappedObservation(observation: Observation, mapping: Mapping): Observation {
  const view: Record<string, unknown> = { ...observation };
  for (const [parameter, name] of Object.entries(mapping)) {
    if (name in observation) view[parameter] = observation[name];
  }
  return view;
}

/** The outputs without the plugin's names of mapped parameters the observation gave under its own. */
function withoutMappedParameters(
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
function renamed<T>(record: Readonly<Record<string, T>>, mapping: Mapping): Record<string, T> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [mapping[key] ?? key, value]));
}

/** A manifest's `parameter-metadata` (`inputs`, `outputs`), which overrides the plugins' own. */
const PARAMETER_METADATA = z
  .object({ inputs: PARAMETERS.optional(), outputs: PARAMETERS.optional() })
  .nullish();

type AggregationMethod = z.output<typeof AGGREGATION_METHOD>;

const DEFAULT_CRITERIA = ["gwp", "adp", "pe"] as const;

/**
 * The service and its executor, built once per process on first use (reference data loaded and
 * checked): the schema as `/graphql` serves it, operations compiled as the REST shim's are.
 */
let served: { readonly execute: OperationExecutor; readonly service: Service } | undefined;
function inProcessApp(): { readonly execute: OperationExecutor; readonly service: Service } {
  served ??= {
    execute: compiledExecutor(servedSchema()),
    service: openService(defaultConfig(), null, { logger: createLogger("warn", process.stderr) }),
  };
  return served;
}

/** A refused config or observation: one line naming the plugin, the observation and the field. */
class PluginInputError extends Error {}

/** `value` as `schema` reads it, or one PluginInputError naming each refused field and what was given. */
function checked<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const lines = result.error.issues.map((issue) => {
    const field = issue.path.map(String).join(".");
    const given = issue.path.reduce<unknown>(valueAt, value);
    return `${field === "" ? "" : `${field}: `}${issue.message} (given: ${shortJson(given)})`;
  });
  throw new PluginInputError(`${where}: ${lines.join("; ")}`);
}

const valueAt = (value: unknown, key: PropertyKey): unknown =>
  typeof value === "object" && value !== null ? (value as Record<PropertyKey, unknown>)[key] : undefined;

/** A given value in an error line, at most 60 characters of its JSON. */
function shortJson(value: unknown): string {
  const json = JSON.stringify(value) ?? String(value);
  return json.length <= 60 ? json : `${json.slice(0, 57)}...`;
}

interface PhaseAnswer {
  readonly value?: number;
  readonly warnings?: readonly string[];
  readonly unrounded?: { readonly value: number } | null;
}
interface AssetAnswer {
  readonly warnings?: readonly string[];
  readonly impacts: readonly {
    readonly criterion: string;
    readonly embedded: PhaseAnswer;
    readonly use: PhaseAnswer;
  }[];
  readonly verbose: { readonly v1: V1Verbose };
}

/** What every plugin selects of the asset (the REST routes' `impacts` and `verbose`, with the unrounded values). */
const ASSET_SELECTION = `
fragment IfAsset on Asset {
  impacts(criteria: $criteria, duration: $duration) {
    criterion
    embedded { ...IfPhase }
    use { ...IfPhase }
  }
  verbose(criteria: $criteria, duration: $duration) { v1 }
}
fragment IfPhase on PhaseImpact {
  ... on Impact { value warnings unrounded { value } }
}`;

const IMPACT_VARIABLES = "$criteria: [Criterion!], $duration: Float, $edition: Edition";

/** A query of one asset field, `asset`, with its own variables and the impact variables. */
function assetQuery(variables: string, field: string, selection = ""): DocumentNode {
  return parse(
    `query (${variables}, ${IMPACT_VARIABLES}) { asset: ${field} { ${selection} ...IfAsset } }${ASSET_SELECTION}`,
  );
}

/** The `usage` input of an observation: location, load and (cloud) region, when given. */
function usageOf(observation: z.output<z.ZodObject<typeof COMMON_FIELDS>>, region?: string) {
  return {
    ...(observation.location !== undefined ? { usageLocation: observation.location } : {}),
    ...(observation["cpu/utilization"] !== undefined ? { timeWorkload: observation["cpu/utilization"] } : {}),
    ...(region !== undefined ? { region } : {}),
  };
}

const phaseValue = (phase: PhaseAnswer, rounded: boolean) =>
  (rounded ? phase.value : phase.unrounded?.value) ?? null;

/** Runs a document against the service's schema in this process, in a request context of its own. */
async function run(document: DocumentNode, variableValues: Record<string, unknown>) {
  const { execute, service } = inProcessApp();
  return execute(document, variableValues, createRequestContext(service, { spellError: graphqlErrorOf }));
}

/** Runs `document` for one observation and writes its outputs beside the observation's fields. */
async function evaluate(
  document: DocumentNode,
  powerPer: PowerPer,
  variables: Record<string, unknown>,
  observation: Observation,
  config: CheckedConfig,
  notices: readonly string[],
): Promise<Record<string, unknown>> {
  const criteria = config?.criteria ?? DEFAULT_CRITERIA;
  const rounded = config?.rounded ?? false;
  const result = await run(document, {
    ...variables,
    criteria: [...new Set(["gwp", ...criteria])].map(criterionEnumName),
    duration: Number(observation.duration) / 3600,
    edition: config?.edition ?? null,
  });
  const asset = (result.data as { asset?: AssetAnswer | null } | null | undefined)?.asset;
  if (result.errors?.length || !asset) throw new PluginInputError(errorLine(result.errors ?? []));
  const outputs: Record<string, unknown> = { ...observation };
  const byCriterion = new Map(asset.impacts.map((impact) => [impact.criterion, impact]));
  const gwp = byCriterion.get("gwp");
  const embeddedGwp = gwp ? phaseValue(gwp.embedded, rounded) : null;
  // Rounded values times 1000 show float noise (1.1450000000000002); unrounded ones keep every digit.
  if (typeof embeddedGwp === "number") {
    outputs["carbon-embodied"] = rounded ? withoutFloatNoise(embeddedGwp * 1000) : embeddedGwp * 1000;
  }
  const energy = useEnergyKwh(asset.verbose.v1, powerPer);
  if (energy !== undefined) outputs.energy = withoutFloatNoise(energy);
  for (const criterion of criteria) {
    const impact = byCriterion.get(criterion);
    outputs[`boavizta/${criterion}-embedded`] = impact ? phaseValue(impact.embedded, rounded) : null;
    outputs[`boavizta/${criterion}-use`] = impact ? phaseValue(impact.use, rounded) : null;
  }
  const grid = gridUse(observation, energy, criteria);
  if (grid) outputs["boavizta/gwp-use"] = rounded ? withoutFloatNoise(grid.use) : grid.use;
  const warnings = new Set([
    ...notices,
    ...(grid ? [grid.notice] : []),
    ...(asset.warnings ?? []),
    ...asset.impacts.flatMap((impact) => [
      ...(impact.embedded.warnings ?? []),
      ...(impact.use.warnings ?? []),
    ]),
  ]);
  if (warnings.size > 0) outputs[WARNINGS] = [...warnings].join("; ");
  return outputs;
}

/**
 * The gwp use of an observation carrying `grid/carbon-intensity` (gCO2e/kWh): its energy × the
 * intensity ÷ 1000, in kgCO2eq as the criterion's v1 unit; none when gwp is not output or the
 * observation has no energy (a use impact not implemented).
 */
function gridUse(
  observation: Observation,
  energy: number | undefined,
  criteria: readonly string[],
): { readonly use: number; readonly notice: string } | undefined {
  const given = observation["grid/carbon-intensity"];
  if (given === undefined || energy === undefined || !criteria.includes("gwp")) return undefined;
  // Checked by the observation's schema: a number, or a numeric text as a CSV import gives it.
  const intensity = Number(given);
  return {
    use: (energy * intensity) / 1000,
    notice: `gwp use from grid/carbon-intensity (${intensity} gCO2e/kWh × energy); other criteria use the location's factors`,
  };
}

/** The GraphQL errors of an observation as one line: message, code and the field refused. */
function errorLine(errors: readonly GraphQLError[]): string {
  if (errors.length === 0) return "no answer";
  return errors
    .map((error) => {
      const field = error.extensions?.field;
      const at = Array.isArray(field) ? ` (${field.join(".")})` : "";
      return `${error.message}${at}`;
    })
    .join("; ");
}

const WARNINGS = "boavizta/warnings";

const method = (time: AggregationMethod, component: AggregationMethod = time) => ({ time, component });

const copied = (description: string): ParameterMetadata => ({
  description,
  unit: "none",
  "aggregation-method": method("copy"),
});

const COMMON_INPUTS: Readonly<Record<string, ParameterMetadata>> = {
  duration: { description: "observation length", unit: "seconds", "aggregation-method": method("sum") },
  "cpu/utilization": { description: "CPU load", unit: "percentage", "aggregation-method": method("avg") },
  location: copied("usage location (a country or region code of the edition, e.g. FRA)"),
  "grid/carbon-intensity": {
    description: "carbon intensity of the electricity used, replacing the location's gwp factor",
    unit: "gCO2e/kWh",
    "aggregation-method": method("avg"),
  },
};

/**
 * The outputs with their unit and how IF aggregates them: impacts and energy add up over time and
 * over components (TimeSync sums them into its windows, Sum and the aggregation total them);
 * warnings are copied over time and not aggregated across components.
 */
function outputsOf(criteria: readonly string[]): Record<string, ParameterMetadata> {
  const summed = (description: string, unit: string): ParameterMetadata => ({
    description,
    unit,
    "aggregation-method": method("sum"),
  });
  const outputs: Record<string, ParameterMetadata> = {
    "carbon-embodied": summed("embedded emissions over the duration", "gCO2eq"),
    energy: summed("electricity used over the duration", "kWh"),
  };
  for (const criterion of criteria) {
    const info = parseCriterion(criterion)?.info;
    const unit = info?.unit ?? "none";
    outputs[`boavizta/${criterion}-embedded`] = summed(`${info?.description ?? criterion}, embedded`, unit);
    outputs[`boavizta/${criterion}-use`] = summed(`${info?.description ?? criterion}, use`, unit);
  }
  outputs[WARNINGS] = {
    description: "caveats of the evaluation (approximate instance match, unknown location replaced)",
    unit: "none",
    "aggregation-method": method("copy", "none"),
  };
  return outputs;
}

/** A plugin evaluating each observation, checked against `fields`, with `request` (its query and variables). */
function plugin<Fields extends z.ZodRawShape>(
  name: string,
  fields: Fields,
  inputs: Readonly<Record<string, ParameterMetadata>>,
  document: DocumentNode,
  powerPer: PowerPer,
  request: (
    observation: z.output<z.ZodObject<typeof COMMON_FIELDS & Fields>>,
    config: CheckedConfig,
  ) => Record<string, unknown>,
  /** Made per plugin instance: the caveats the evaluation itself does not report (an input it ignores). */
  noticesFor: () => (
    observation: z.output<z.ZodObject<typeof COMMON_FIELDS & Fields>>,
    config: CheckedConfig,
  ) => Promise<readonly string[]> = () => async () => [],
): IfPluginFactory {
  const observationSchema = z.looseObject({ ...COMMON_FIELDS, ...fields });
  return (givenConfig, parametersMetadata, givenMapping) => {
    const config = checked(CONFIG, givenConfig ?? undefined, `${name} config`);
    const given = checked(PARAMETER_METADATA, parametersMetadata, `${name} parameter-metadata`);
    const mapping = checked(MAPPING, givenMapping, `${name} mapping`) ?? {};
    const noticesOf = noticesFor();
    return {
      metadata: {
        kind: "execute",
        inputs: { ...COMMON_INPUTS, ...inputs, ...given?.inputs },
        outputs: renamed({ ...outputsOf(config?.criteria ?? DEFAULT_CRITERIA), ...given?.outputs }, mapping),
      },
      execute: async (observations) => {
        const outputs: Record<string, unknown>[] = [];
        for (const [index, observation] of observations.entries()) {
          const where = `${name} observation ${index + 1}`;
          const view = mappedObservation(observation, mapping);
          const read = checked(observationSchema, view, where);
          try {
            const notices = await noticesOf(read, config);
            const evaluated = await evaluate(
              document,
              powerPer,
              request(read, config),
              view,
              config,
              notices,
            );
            outputs.push(renamed(withoutMappedParameters(evaluated, observation, mapping), mapping));
          } catch (error) {
            if (!(error instanceof PluginInputError)) throw error;
            throw new PluginInputError(`${where}: ${error.message}`);
          }
        }
        return outputs;
      },
    };
  };
}

const CLOUD_REGIONS = parse(
  "query ($provider: String, $edition: Edition) { cloudRegions(provider: $provider, edition: $edition) { region } }",
);

type KnownRegions = { regions: ReadonlySet<string> } | { refused: string };

/** The regions of a provider in an edition (or why there are none), asked once per plugin instance. */
function regionsOnce(): (provider: string, edition: string | undefined) => Promise<KnownRegions> {
  const known = new Map<string, Promise<KnownRegions>>();
  return (provider, edition) => {
    const key = `${edition ?? ""}\n${provider}`;
    let regions = known.get(key);
    if (!regions) {
      regions = run(CLOUD_REGIONS, { provider, edition: edition ?? null }).then((result) =>
        result.errors?.length
          ? { refused: errorLine(result.errors) }
          : {
              regions: new Set(
                (result.data as { cloudRegions: { region: string }[] }).cloudRegions.map((row) => row.region),
              ),
            },
      );
      known.set(key, regions);
    }
    return regions;
  };
}

/**
 * The service falls back to `location` (or the edition's default) for a region it does not know,
 * or ignores `usage.region` in an edition without regions (1.2.4), and says so nowhere an impact
 * shows (docs/methodology.md Appendix D.11): the plugin says it in `boavizta/warnings`.
 */
async function regionNotices(
  regionsOf: ReturnType<typeof regionsOnce>,
  provider: string,
  region: string | undefined,
  edition: string | undefined,
): Promise<readonly string[]> {
  if (region === undefined) return [];
  const known = await regionsOf(provider, edition);
  if ("refused" in known) {
    return [
      `cloud/region '${region}' not used (${known.refused}): the location, or the edition's default, is used`,
    ];
  }
  return known.regions.has(region.trim())
    ? []
    : [
        `Region '${region}' not found for provider '${provider}': the location, or the edition's default, is used`,
      ];
}

/** A cloud instance: `cloud/vendor` (default aws), `cloud/instance-type`, `cloud/region` (the provider's region). */
export const BoaviztaCloud = plugin(
  "BoaviztaCloud",
  { "cloud/vendor": text.optional(), "cloud/instance-type": text, "cloud/region": text.optional() },
  {
    "cloud/vendor": copied("cloud provider"),
    "cloud/instance-type": copied("instance type of the provider"),
    "cloud/region": copied("region of the provider (sets the location)"),
  },
  assetQuery(
    "$provider: String, $instanceType: String, $usage: UsageInput",
    "cloudInstance(provider: $provider, instanceType: $instanceType, usage: $usage, edition: $edition)",
    "warnings",
  ),
  "unit",
  (observation) => ({
    provider: observation["cloud/vendor"] ?? "aws",
    instanceType: observation["cloud/instance-type"],
    usage: usageOf(observation, observation["cloud/region"]),
  }),
  () => {
    const regions = regionsOnce();
    return (observation, config) =>
      regionNotices(
        regions,
        observation["cloud/vendor"] ?? "aws",
        observation["cloud/region"],
        config?.edition,
      );
  },
);

/** A server: `server/archetype` (or the config's `archetype`), optionally its CPU (`cpu/name`, `cpu/units`). */
export const BoaviztaServer = plugin(
  "BoaviztaServer",
  {
    "server/archetype": text.optional(),
    "cpu/name": text.optional(),
    "cpu/units": numeric.pipe(z.number().int().positive()).optional(),
  },
  {
    "server/archetype": copied("server archetype"),
    "cpu/name": copied("CPU name"),
    "cpu/units": copied("CPUs"),
  },
  assetQuery(
    "$archetype: String, $input: ServerInput",
    "server(archetype: $archetype, input: $input, edition: $edition)",
  ),
  "unit",
  (observation, config) => {
    const name = observation["cpu/name"];
    const units = observation["cpu/units"];
    return {
      archetype: observation["server/archetype"] ?? config?.archetype ?? null,
      input: {
        ...(name !== undefined
          ? { configuration: { cpu: { name, ...(units !== undefined ? { units } : {}) } } }
          : {}),
        usage: usageOf(observation),
      },
    };
  },
);

/** A CPU on its own: `cpu/name`. */
export const BoaviztaCpu = plugin(
  "BoaviztaCpu",
  { "cpu/name": text },
  { "cpu/name": copied("CPU name") },
  assetQuery("$input: CpuInput", "cpu(input: $input, edition: $edition)"),
  "all units",
  (observation) => ({ input: { name: observation["cpu/name"], usage: usageOf(observation) } }),
);
