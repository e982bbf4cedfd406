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

export { BoaviztaCloud, BoaviztaCpu, BoaviztaServer } from "./boavizta/assetPlugins.js";
export type { BoaviztaConfig, IfPlugin, IfPluginFactory, Observation } from "./boavizta/observations.js";
