import { nestedArchetype } from "../data/cells.js";
import { availability } from "../editions/features.js";
import { CLOUD_INSTANCE } from "../inputs/inputFields.js";
import {
  cloudRegions,
  instanceRow,
  type PreparedCloudInstance,
  prepareCloudInstance,
  providerTable,
} from "../service/cloud.js";
import { evaluatedShape } from "../service/evaluations/evaluations.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";
import { notFound, rethrowSpelled, spelled, spelledUseCase } from "./errors.js";
import { ASSET_FIELD_NULLABLE, AssetRef } from "./impact.js";
import { inputArgsOf } from "./inputs.js";

const HostShareRef = builder
  .objectRef<{ cpu: number; ram: number; ssd: number; hdd: number }>("HostShare")
  .implement({
    description:
      "The instance's part of each kind of host component (vCPU / threads, memory / RAM, storage / disks).",
    fields: (t) => ({
      cpu: t.exposeFloat("cpu", {
        description: "Instance vCPU over the host's threads (CPU, GPU and others).",
      }),
      ram: t.exposeFloat("ram", { description: "Instance memory over the host's RAM capacity." }),
      ssd: t.exposeFloat("ssd", { description: "Instance SSD storage over the host's SSD capacity." }),
      hdd: t.exposeFloat("hdd", { description: "Instance HDD storage over the host's HDD capacity." }),
    }),
  });

export const CloudInstanceRef = builder.objectRef<PreparedCloudInstance>("CloudInstance").implement({
  interfaces: [AssetRef],
  description: "A cloud instance: its share of a hosting platform server (docs/methodology.md §8).",
  fields: (t) => ({
    provider: t.exposeString("provider", { description: "Provider id, e.g. aws." }),
    instanceType: t.exposeString("instanceType", {
      description: "The instance type evaluated (the closest id when the name was matched approximately).",
    }),
    warnings: t.exposeStringList("warnings", {
      description:
        "Warnings about the instance as a whole, e.g. an approximate instance-name match (editions with an instance-name threshold).",
    }),
    platform: t.exposeString("platform", { description: "The hosting platform (a server archetype id)." }),
    hostShare: t.field({
      type: HostShareRef,
      description: "The instance's share of each kind of host component.",
      resolve: (p, _args, context) => evaluatedShape(context, p).hostShare(),
    }),
  }),
});

interface CloudProviderShape {
  readonly name: string;
  readonly description: string;
  readonly instanceCount: number;
}

const CloudProviderRef = builder.objectRef<CloudProviderShape>("CloudProvider").implement({
  description: "A cloud provider whose instance types can be evaluated.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Provider id, e.g. aws." }),
    description: t.exposeString("description", { description: "Provider name, e.g. Amazon Web Services." }),
    instanceCount: t.exposeInt("instanceCount", { description: "Number of instance types listed." }),
  }),
});

const CloudRegionRef = builder
  .objectRef<{ provider: string; region: string; usageLocation: string }>("CloudRegion")
  .implement({
    description:
      "A provider's region and the country whose electricity it uses (docs/methodology.md §19.7.5).",
    fields: (t) => ({
      provider: t.exposeString("provider", { description: "Provider id, e.g. azure." }),
      region: t.exposeString("region", { description: "Region id, e.g. francecentral." }),
      usageLocation: t.exposeString("usageLocation", {
        description: "Country code (NATO CodSP3), e.g. FRA.",
      }),
    }),
  });

/** The use case of src/service, its domain errors spelled as GraphQL errors. */
export const resolveCloudInstance = spelledUseCase(prepareCloudInstance);

/** The evaluation of an instance. */
builder.queryFields((t) => ({
  cloudInstance: t.field({
    type: CloudInstanceRef,
    nullable: ASSET_FIELD_NULLABLE,
    description:
      "Evaluate a cloud instance of a provider (those of the edition's data, see cloudProviders) with an optional usage.",
    args: { ...inputArgsOf(t.arg, CLOUD_INSTANCE), edition: editionArg(t.arg) },
    resolve: (_root, args, context) =>
      resolveCloudInstance(context.edition(args.edition), args.provider, args.instanceType, args.usage, [
        "usage",
      ]),
  }),
}));

/** What an edition lists of the cloud: providers, their instance types and rows, regions. */
builder.queryFields((t) => ({
  cloudProviders: t.field({
    type: [CloudProviderRef],
    description: "The cloud providers and how many instance types each lists.",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) => {
      const { data } = context.edition(args.edition).service;
      return data.cloudProviders.map((p) => ({
        ...p,
        instanceCount: data.cloudInstances.get(p.name)?.ids.length ?? 0,
      }));
    },
  }),
  cloudInstanceTypes: t.stringList({
    description: "The instance types of a provider, in the reference's order.",
    args: {
      provider: t.arg.string({ required: true, description: "Provider id, e.g. gcp." }),
      edition: editionArg(t.arg),
    },
    resolve: (_r, { provider, edition }, context) => {
      const table = providerTable(context.edition(edition), provider);
      if (!table) throw notFound(`No available data for this cloud provider (${provider})`);
      return [...table.ids];
    },
  }),
  cloudInstanceConfig: t.field({
    type: "JSON",
    // Kept quirk (docs/methodology.md §19.15.26): an approximate name is answered without a warning.
    description: "The reference row of an instance type (matched like an evaluation's, without warning).",
    args: {
      provider: t.arg.string({ required: true, description: "Provider id, e.g. aws." }),
      instanceType: t.arg.string({ required: true, description: "Instance type, e.g. m5.xlarge." }),
      edition: editionArg(t.arg),
    },
    resolve: async (_r, { provider, instanceType, edition }, context) =>
      nestedArchetype(
        (await instanceRow(context.edition(edition), provider, instanceType).catch(rethrowSpelled)).row.cells,
      ),
  }),
  cloudRegions: t.field({
    type: [CloudRegionRef],
    description: `Cloud regions usable as usage.region, in the reference's order; all providers' without a provider. ${availability("cloudRegions")}`,
    args: {
      provider: t.arg.string({ required: false, description: "Only this provider's (exact id)." }),
      edition: editionArg(t.arg),
    },
    resolve: (_r, { provider, edition }, context) =>
      spelled(() => cloudRegions(context.edition(edition), provider)),
  }),
}));
