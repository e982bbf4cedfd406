import { nestedArchetype } from "../data/cells.js";
import type { Archetype, ArchetypeTable } from "../data/types.js";
import { CloudInstance, cloudModel } from "../engine/index.js";
import { builder } from "./builder.js";
import type { EditionContext } from "./context.js";
import { editionArg } from "./edition.js";
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

function providerTable(context: EditionContext, provider: string): ArchetypeTable | undefined {
  return context.service.data.cloudInstances.get(provider);
}

async function instanceRow(
  context: EditionContext,
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
async function platformOf(context: EditionContext, row: Archetype): Promise<Archetype> {
  const { data } = context.service;
  const id = row.cells.platform?.default;
  const platform =
    typeof id === "string" ? await context.archetypes.load({ table: data.archetypes.server, id }) : null;
  return platform ?? (data.archetypes.server.byId.get(data.config.defaultArchetypes.server) as Archetype);
}

/** Validates a cloud instance description and prepares its (lazy) evaluation. */
export async function resolveCloudInstance(
  context: EditionContext,
  providerArg: string | null | undefined,
  instanceTypeArg: string | null | undefined,
  rawUsage: unknown,
  path: readonly string[],
): Promise<CloudParent> {
  const { config } = context.service.data;
  const provider = providerArg ?? config.defaultArchetypes.cloud_provider ?? "aws";
  const instanceType = instanceTypeArg ?? config.defaultArchetypes.cloud_instance ?? "a1.4xlarge";
  const { input, usageHours } = validateUsage(rawUsage, path);
  const row = await instanceRow(context, provider, instanceType);
  const platform = await platformOf(context, row);
  const engine = context.engine;
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
      edition: editionArg(t.arg),
    },
    resolve: (_root, args, context) =>
      resolveCloudInstance(context.edition(args.edition), args.provider, args.instanceType, args.usage, [
        "usage",
      ]),
  }),
  cloudProviders: t.field({
    type: [CloudProviderRef],
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) => [...context.edition(args.edition).service.data.cloudProviders],
  }),
  cloudInstanceTypes: t.stringList({
    args: { provider: t.arg.string({ required: true }), edition: editionArg(t.arg) },
    resolve: (_r, { provider, edition }, context) => {
      const table = providerTable(context.edition(edition), provider);
      if (!table) throw notFound(`No available data for this cloud provider (${provider})`);
      return [...table.ids];
    },
  }),
  cloudInstanceConfig: t.field({
    type: "JSON",
    args: {
      provider: t.arg.string({ required: true }),
      instanceType: t.arg.string({ required: true }),
      edition: editionArg(t.arg),
    },
    resolve: async (_r, { provider, instanceType, edition }, context) =>
      nestedArchetype((await instanceRow(context.edition(edition), provider, instanceType)).cells),
  }),
}));
