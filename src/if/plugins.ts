import { defaultConfig } from "../config.js";
import { createLogger } from "../log.js";
import { withoutFloatNoise } from "../output/columns.js";
import { inProcessRest } from "../server.js";
import { openService } from "../service/open.js";

/*
 * Impact Framework 1.x plugins (the `PluginFactory` interface of @grnsft/if-core: a function of
 * the manifest's config, parameter metadata and mapping, returning `metadata` and `execute`) for
 * cloud instances, servers and CPUs. They ask the service's engine in this process, through the
 * REST shim's dispatch as the command line does: no server, no network, and each observation's
 * numbers are the ones `POST /v1/...` answers for the same inputs.
 *
 * An observation (IF's names): `duration` (seconds), `cpu/utilization` (%), `location` (a
 * country or region code of the edition, e.g. FRA), and per asset `cloud/vendor` and
 * `cloud/instance-type`, `server/archetype` and `cpu/name` + `cpu/units`, or `cpu/name`.
 * Outputs: `carbon-embodied` (gCO2eq, IF's unit), `energy` (kWh: the average power the service
 * reports × the duration × the use-time ratio) and `boavizta/<criterion>-embedded` /
 * `boavizta/<criterion>-use` for the criteria of the config (in the v1 unit of each criterion).
 */

/** The plugins' config in a manifest. */
export interface BoaviztaConfig {
  /** The edition to answer with (default: the service's default, `EDITION`). */
  readonly edition?: string;
  /** The criteria to output (default gwp, adp, pe); gwp is always evaluated. */
  readonly criteria?: readonly string[];
  /** The server archetype (BoaviztaServer), when the observations name none. */
  readonly archetype?: string;
}

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
  readonly "aggregation-method": {
    readonly time: "sum" | "avg" | "copy" | "none";
    readonly component: string;
  };
}

/** IF's plugin signature: config, parameter metadata and mapping from the manifest. */
export type IfPluginFactory = (
  config?: BoaviztaConfig,
  parametersMetadata?: unknown,
  mapping?: unknown,
) => IfPlugin;

const DEFAULT_CRITERIA = ["gwp", "adp", "pe"] as const;

/** The shim's dispatch, built once per process on first use (its reference data loaded and checked). */
let app: { rest: ReturnType<typeof inProcessRest> } | undefined;
function inProcessApp() {
  const logger = createLogger("warn", process.stderr);
  app ??= { rest: inProcessRest(openService(defaultConfig(), null, { logger }), logger) };
  return app;
}

class ObservationError extends Error {}

function text(observation: Observation, field: string, required = true): string | undefined {
  const value = observation[field];
  if (value === undefined || value === null) {
    if (required) throw new ObservationError(`the observation has no ${field}`);
    return undefined;
  }
  return String(value);
}

function number(observation: Observation, field: string): number | undefined {
  const value = observation[field];
  if (value === undefined || value === null) return undefined;
  const parsed = typeof value === "number" ? value : Number(value);
  if (!Number.isFinite(parsed)) throw new ObservationError(`${field} is not a number: ${String(value)}`);
  return parsed;
}

/** The usage block of a v1 body: location and load, when the observation gives them. */
function usageOf(observation: Observation): Record<string, unknown> {
  const location = text(observation, "location", false);
  const utilization = number(observation, "cpu/utilization");
  return {
    ...(location !== undefined ? { usage_location: location } : {}),
    ...(utilization !== undefined ? { time_workload: utilization } : {}),
  };
}

interface V1Phase {
  readonly value: number;
}
interface V1Answer {
  readonly impacts: Readonly<
    Record<string, { readonly embedded: V1Phase | string; readonly use: V1Phase | string }>
  >;
  readonly verbose?: Readonly<Record<string, { readonly value?: unknown }>>;
}

const phaseValue = (phase: V1Phase | string | undefined) =>
  typeof phase === "object" ? phase.value : undefined;

/** Asks the v1 route `path` with `body` for the observation's duration, criteria and edition. */
async function evaluate(
  path: string,
  body: Record<string, unknown>,
  observation: Observation,
  config: BoaviztaConfig | undefined,
): Promise<Record<string, unknown>> {
  const criteria = config?.criteria ?? DEFAULT_CRITERIA;
  const query = new URLSearchParams({ verbose: "true" });
  for (const criterion of new Set(["gwp", ...criteria])) query.append("criteria", criterion);
  const seconds = number(observation, "duration");
  if (seconds !== undefined) query.set("duration", String(seconds / 3600));
  // YAML may read an edition as a number (`edition: 2.4`): its text is the id.
  if (config?.edition !== undefined) query.set("edition", String(config.edition));
  const answer = await inProcessApp().rest({
    method: "POST",
    url: `${path}?${query}`,
    body: JSON.stringify({ ...body, usage: usageOf(observation) }),
  });
  if (answer.status !== 200) {
    throw new ObservationError(`${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
  }
  const { impacts, verbose } = answer.body as V1Answer;
  const outputs: Record<string, unknown> = { ...observation };
  const embeddedGwp = phaseValue(impacts.gwp?.embedded);
  if (embeddedGwp !== undefined) outputs["carbon-embodied"] = withoutFloatNoise(embeddedGwp * 1000);
  const power = verbose?.avg_power?.value;
  const hours = verbose?.duration?.value;
  const useTimeRatio = verbose?.use_time_ratio?.value;
  if (typeof power === "number" && typeof hours === "number") {
    outputs.energy = withoutFloatNoise(
      (power * hours * (typeof useTimeRatio === "number" ? useTimeRatio : 1)) / 1000,
    );
  }
  for (const criterion of criteria) {
    outputs[`boavizta/${criterion}-embedded`] = phaseValue(impacts[criterion]?.embedded) ?? null;
    outputs[`boavizta/${criterion}-use`] = phaseValue(impacts[criterion]?.use) ?? null;
  }
  return outputs;
}

const time = (method: "sum" | "avg" | "copy" | "none", component = method) => ({ time: method, component });

const COMMON_INPUTS: Readonly<Record<string, ParameterMetadata>> = {
  duration: { description: "observation length", unit: "seconds", "aggregation-method": time("sum") },
  "cpu/utilization": { description: "CPU load", unit: "percentage", "aggregation-method": time("avg") },
  location: {
    description: "usage location (a country or region code of the edition)",
    unit: "none",
    "aggregation-method": time("copy"),
  },
};

const OUTPUTS: Readonly<Record<string, ParameterMetadata>> = {
  "carbon-embodied": {
    description: "embedded emissions over the duration",
    unit: "gCO2eq",
    "aggregation-method": time("sum"),
  },
  energy: {
    description: "electricity used over the duration",
    unit: "kWh",
    "aggregation-method": time("sum"),
  },
};

/** A plugin evaluating each observation with `request` (its v1 path and body). */
function plugin(
  inputs: Readonly<Record<string, ParameterMetadata>>,
  request: (
    observation: Observation,
    config: BoaviztaConfig | undefined,
  ) => { path: string; body: Record<string, unknown> },
): IfPluginFactory {
  return (config) => ({
    metadata: { kind: "execute", inputs: { ...COMMON_INPUTS, ...inputs }, outputs: OUTPUTS },
    execute: async (observations) => {
      const outputs: Record<string, unknown>[] = [];
      for (const observation of observations) {
        const { path, body } = request(observation, config);
        outputs.push(await evaluate(path, body, observation, config));
      }
      return outputs;
    },
  });
}

const copied = (description: string): ParameterMetadata => ({
  description,
  unit: "none",
  "aggregation-method": time("copy"),
});

/** A cloud instance: `cloud/vendor` (default aws) and `cloud/instance-type`. */
export const BoaviztaCloud = plugin(
  {
    "cloud/vendor": copied("cloud provider"),
    "cloud/instance-type": copied("instance type of the provider"),
  },
  (observation) => ({
    path: "/v1/cloud/instance",
    body: {
      provider: text(observation, "cloud/vendor", false) ?? "aws",
      instance_type: text(observation, "cloud/instance-type"),
    },
  }),
);

/** A server: `server/archetype` (or the config's `archetype`), optionally its CPU (`cpu/name`, `cpu/units`). */
export const BoaviztaServer = plugin(
  {
    "server/archetype": copied("server archetype"),
    "cpu/name": copied("CPU name"),
    "cpu/units": copied("CPUs"),
  },
  (observation, config) => {
    const name = text(observation, "cpu/name", false);
    const units = number(observation, "cpu/units");
    const archetype = text(observation, "server/archetype", false) ?? config?.archetype;
    return {
      path: "/v1/server/",
      body: {
        ...(archetype !== undefined ? { model: { archetype } } : {}),
        ...(name !== undefined
          ? { configuration: { cpu: { name, ...(units !== undefined ? { units } : {}) } } }
          : {}),
      },
    };
  },
);

/** A CPU on its own: `cpu/name`. */
export const BoaviztaCpu = plugin({ "cpu/name": copied("CPU name") }, (observation) => ({
  path: "/v1/component/cpu",
  body: { name: text(observation, "cpu/name") },
}));
