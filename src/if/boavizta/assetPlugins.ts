import { z } from "zod";
import { IfCloudInstanceDocument, IfCpuDocument, IfServerDocument } from "../generated/graphql.js";
import { regionNotices, regionsOnce } from "./knownRegions.js";
import { copied } from "./metadata.js";
import { observationUsage } from "./observationEvaluation.js";
import { numeric, text } from "./observations.js";
import { plugin } from "./plugin.js";

/** A cloud instance: `cloud/vendor` (default aws), `cloud/instance-type`, `cloud/region` (the provider's region). */
export const BoaviztaCloud = plugin(
  "BoaviztaCloud",
  { "cloud/vendor": text.optional(), "cloud/instance-type": text, "cloud/region": text.optional() },
  {
    "cloud/vendor": copied("cloud provider"),
    "cloud/instance-type": copied("instance type of the provider"),
    "cloud/region": copied("region of the provider (sets the location)"),
  },
  IfCloudInstanceDocument,
  "unit",
  (observation) => ({
    provider: observation["cloud/vendor"] ?? "aws",
    instanceType: observation["cloud/instance-type"],
    usage: observationUsage(observation, observation["cloud/region"]),
  }),
  () => {
    const regions = regionsOnce();
    return (observation, _config, edition) =>
      regionNotices(regions, observation["cloud/vendor"] ?? "aws", observation["cloud/region"], edition);
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
  IfServerDocument,
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
        usage: observationUsage(observation),
      },
    };
  },
);

/** A CPU on its own: `cpu/name`. */
export const BoaviztaCpu = plugin(
  "BoaviztaCpu",
  { "cpu/name": text },
  { "cpu/name": copied("CPU name") },
  IfCpuDocument,
  "all units",
  (observation) => ({ input: { name: observation["cpu/name"], usage: observationUsage(observation) } }),
);
