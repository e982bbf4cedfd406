import { nestedArchetype } from "../data/cells.js";
import type { Archetype, ArchetypeTable } from "../data/types.js";
import { CloudInstance, cloudModel } from "../engine/index.js";
import { builder } from "./builder.js";
import type { RequestContext } from "./context.js";
import { notFound } from "./errors.js";
import { type AssetParent, assetImpactFields } from "./impact.js";
import { UsageInputRef, validateUsage } from "./inputs.js";

interface CloudParent extends AssetParent {
  readonly provider: string;
  readonly instanceType: string;
  readonly platform: string;
  readonly newInstance: () => CloudInstance;
}

const HostShareRef = builder
  .objectRef<{ cpu: number; ram: number; ssd: number; hdd: number }>("HostShare")
  .implement({
    description:
      "The instance's part of each kind of host component (vCPU / threads, memory / RAM, storage / disks).",
    fields: (t) => ({
      cpu: t.exposeFloat("cpu"),
      ram: t.exposeFloat("ram"),
      ssd: t.exposeFloat("ssd"),
      hdd: t.exposeFloat("hdd"),
    }),
  });

export const CloudInstanceRef = builder.objectRef<CloudParent>("CloudInstance").implement({
  description: "A cloud instance: its share of a hosting platform server (METHOD.md §8).",
  fields: (t) => ({
    provider: t.exposeString("provider"),
    instanceType: t.exposeString("instanceType"),
    platform: t.exposeString("platform", { description: "The hosting platform (a server archetype id)." }),
    hostShare: t.field({ type: HostShareRef, resolve: (p) => p.newInstance().hostShare() }),
    ...assetImpactFields(t),
  }),
});

const CloudProviderRef = builder.objectRef<{ name: string; description: string }>("CloudProvider").implement({
  fields: (t) => ({ name: t.exposeString("name"), description: t.exposeString("description") }),
});

function providerTable(context: RequestContext, provider: string): ArchetypeTable | undefined {
  return context.service.data.cloudInstances.get(provider);
}

async function instanceRow(
  context: RequestContext,
  provider: string,
  instanceType: string,
): Promise<Archetype> {
  const table = providerTable(context, provider);
  const row = table ? await context.archetypes.load({ table, id: instanceType }) : null;
  if (!row) throw notFound(`${instanceType} at ${provider} not found`);
  return row;
}

/**
 * The hosting platform of an instance. Some instance rows name a platform missing from the
 * server table (the reference fails with HTTP 500); they are hosted on the default server
 * archetype so every listed instance type gets an answer.
 */
async function platformOf(context: RequestContext, row: Archetype): Promise<Archetype> {
  const { data } = context.service;
  const id = row.cells.platform?.default;
  const platform =
    typeof id === "string" ? await context.archetypes.load({ table: data.archetypes.server, id }) : null;
  return platform ?? (data.archetypes.server.byId.get(data.config.defaultArchetypes.server) as Archetype);
}

/** Validates a cloud instance description and prepares its (lazy) evaluation. */
export async function resolveCloudInstance(
  context: RequestContext,
  providerArg: string | null | undefined,
  instanceTypeArg: string | null | undefined,
  rawUsage: unknown,
  path: readonly string[],
): Promise<CloudParent> {
  const { config } = context.service.data;
  const provider = providerArg ?? config.defaultArchetypes.cloud_provider ?? "aws";
  const instanceType = instanceTypeArg ?? config.defaultArchetypes.cloud_instance ?? "a1.4xlarge";
  const { input, usageHours } = validateUsage(context.service.limits, rawUsage, path);
  const row = await instanceRow(context, provider, instanceType);
  const platform = await platformOf(context, row);
  const engine = { data: context.service.data, lookups: context.lookups };
  return {
    provider,
    instanceType,
    platform: platform.id,
    usageHours,
    newInstance: () => new CloudInstance(engine, row.cells, platform.cells, input),
    build: () => cloudModel(engine, row.cells, platform.cells, input),
  };
}

builder.queryFields((t) => ({
  cloudInstance: t.field({
    type: CloudInstanceRef,
    description: "Evaluate a cloud instance of a provider (aws) with an optional usage.",
    args: {
      provider: t.arg.string({ required: false, description: "Default aws." }),
      instanceType: t.arg.string({ required: false, description: "Default a1.4xlarge." }),
      usage: t.arg({ type: UsageInputRef, required: false }),
    },
    resolve: (_root, args, context) =>
      resolveCloudInstance(context, args.provider, args.instanceType, args.usage, ["usage"]),
  }),
  cloudProviders: t.field({
    type: [CloudProviderRef],
    resolve: (_r, _a, { service }) => [...service.data.cloudProviders],
  }),
  cloudInstanceTypes: t.stringList({
    args: { provider: t.arg.string({ required: true }) },
    resolve: (_r, { provider }, context) => {
      const table = providerTable(context, provider);
      if (!table) throw notFound(`No available data for this cloud provider (${provider})`);
      return [...table.ids];
    },
  }),
  cloudInstanceConfig: t.field({
    type: "JSON",
    args: {
      provider: t.arg.string({ required: true }),
      instanceType: t.arg.string({ required: true }),
    },
    resolve: async (_r, { provider, instanceType }, context) =>
      nestedArchetype((await instanceRow(context, provider, instanceType)).cells),
  }),
}));
