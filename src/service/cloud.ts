/**
 * The cloud instance use cases (docs/methodology.md §19.7.2): a provider's table, the instance-name
 * cascade (exact id, then the closest id where the edition's data set has a threshold, with its
 * warning) and the hosting platform of an instance. Failures are domain errors (NOT_FOUND), spelled
 * by the transport.
 */

import type { Archetype, ArchetypeTable, CloudRegion } from "../data/types.js";
import { type AssetWith, type CloudShape, cloudModel, regionsOf } from "../engine/index.js";
import { elsewhere } from "./archetypes.js";
import type { PreparedAsset } from "./asset.js";
import { DomainError } from "./errors.js";
import { checkedText, checkedUsage } from "./inputs.js";
import { type FoundInstanceRow, matchedInstance } from "./loaders.js";
import type { EditionContext, EditionService } from "./open.js";

export function providerTable(context: EditionContext, provider: string): ArchetypeTable | undefined {
  return context.service.data.cloudInstances.get(provider);
}

/**
 * docs/methodology.md §19.7.2: the provider's table, then the exact id, then (where the data set has a
 * threshold) the closest id, through the request's loaders; NOT_FOUND, naming the editions that
 * have it, when none is found. Edition 1.2.4 matches ids exactly.
 */
export async function instanceRow(
  context: EditionContext,
  provider: string,
  instanceType: string,
): Promise<FoundInstanceRow> {
  const match = await context.loaders.instance(provider, instanceType);
  if (match) return match;
  // Another edition finds the instance by its own rule (2.4.1 matches names approximately).
  const found = (served: EditionService) => matchedInstance(served, { provider, instanceType }) !== null;
  throw new DomainError("NOT_FOUND", `${instanceType} at ${provider} not found${elsewhere(context, found)}`);
}

/**
 * The hosting platform of an instance. An instance row naming a platform missing from the server
 * table is, by the edition's rule, hosted on the default server archetype (1.2.4: the reference
 * fails with HTTP 500 on such rows, so every listed instance type gets an answer) or not found
 * (2.4.1, docs/methodology.md §19.7.2).
 */
async function platformOf(context: EditionContext, row: Archetype): Promise<Archetype> {
  const { data } = context.service;
  const id = row.cells.platform?.default;
  const platform =
    typeof id === "string" ? await context.loaders.archetype(data.archetypes.server, id) : null;
  if (platform) return platform;
  if (context.engine.rules.cloud.unknownPlatform === "not-found") {
    throw new DomainError(
      "NOT_FOUND",
      `Cloud platform ${String(id)} not found. Please add it to the server archetypes. For more information, please check the documentation https://doc.api.boavizta.org/contributing/server/.`,
    );
  }
  return data.archetypes.server.byId.get(data.config.defaultArchetypes.server) as Archetype;
}

export interface PreparedCloudInstance extends PreparedAsset {
  readonly build: () => AssetWith<CloudShape>;
  readonly provider: string;
  readonly instanceType: string;
  readonly platform: string;
  /** Top-level warnings of the answer (a fuzzy instance-name match, docs/methodology.md §19.7.3). */
  readonly warnings: readonly string[];
}

/** Checks a cloud instance request (provider, instance type, usage) and prepares its (lazy) evaluation. */
export async function prepareCloudInstance(
  context: EditionContext,
  providerArg: string | null | undefined,
  instanceTypeArg: string | null | undefined,
  rawUsage: unknown,
  path: readonly string[],
): Promise<PreparedCloudInstance> {
  // Instance names are matched approximately (2.4.1): their length is bounded like any text.
  checkedText(context.limits, providerArg, ["provider"]);
  checkedText(context.limits, instanceTypeArg, ["instanceType"]);
  const { config } = context.service.data;
  const defaultProvider = config.defaultArchetypes.cloud_provider ?? "aws";
  const provider = providerArg ?? defaultProvider;
  // The default instance type belongs to the default provider: another provider needs its own
  // (the reference answers 404 "None at …" in 1.2.4 and fails with HTTP 500 in 2.4.1).
  if (instanceTypeArg == null && provider !== defaultProvider) {
    throw new DomainError("BAD_USER_INPUT", `instanceType: required for provider ${provider}`, [
      "instanceType",
    ]);
  }
  const instanceType = instanceTypeArg ?? config.defaultArchetypes.cloud_instance ?? "a1.4xlarge";
  const { input, usageHours } = checkedUsage(context.limits, rawUsage, path);
  const { row, warning } = await instanceRow(context, provider, instanceType);
  const platform = await platformOf(context, row);
  const engine = context.engine;
  const namedProvider = providerArg ?? null;
  return {
    provider,
    instanceType: row.id,
    warnings: warning === null ? [] : [warning],
    platform: platform.id,
    usageHours,
    build: () => cloudModel(engine, row.cells, platform.cells, input, namedProvider),
  };
}

/** The cloud regions of an edition (a provider's only, when one is named), in the reference's order. */
export function cloudRegions(context: EditionContext, provider: string | null | undefined): CloudRegion[] {
  const regions = context.service.data.cloudRegions;
  if (regions === null) throw new DomainError("NOT_FOUND", "Cloud regions are not part of this edition");
  return regionsOf(regions, provider);
}
