import type { GpuSpec } from "../data/types.js";
import { gpuByName } from "../service/components.js";
import { builder } from "./builder.js";
import { editionArg } from "./edition.js";

/**
 * GPU models of the reference table (docs/methodology.md §19.5.6), in the shape of a GPU input: a client
 * copies these fields into `GpuInput` for model-based impacts (the engine never matches names).
 */
const GpuSpecRef = builder.objectRef<GpuSpec>("GpuSpec").implement({
  description: "A row of the GPU reference table, as the GPU input fields it provides.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Model name as the table spells it." }),
    manufacturer: t.exposeString("manufacturer", { nullable: true, description: "Manufacturer." }),
    weight: t.exposeFloat("mass", { nullable: true, description: "Mass of the card, kg." }),
    heatsinkWeight: t.exposeFloat("massHeatsink", { nullable: true, description: "Heatsink mass, kg." }),
    casingWeight: t.exposeFloat("massCasing", { nullable: true, description: "Casing mass, kg." }),
    pwbSurface: t.exposeFloat("pwbSurface", {
      nullable: true,
      description: "Printed wiring board surface, cm².",
    }),
    gpuSurface: t.exposeFloat("dieSurface", {
      nullable: true,
      description: "GPU die area, mm² (taken as effective when copied into a GpuInput).",
    }),
    vram: t.int({
      nullable: true,
      description: "Video memory, GB (integer part).",
      resolve: (row) => (row.vram === null ? null : Math.trunc(row.vram)),
    }),
    vramDies: t.int({
      nullable: true,
      description: "Number of video memory dies (integer part).",
      resolve: (row) => (row.vramDies === null ? null : Math.trunc(row.vramDies)),
    }),
    transportBoat: t.exposeFloat("distanceBoat", { nullable: true, description: "Boat distance, km." }),
    transportTruck: t.exposeFloat("distanceTruck", { nullable: true, description: "Truck distance, km." }),
    transportPlane: t.exposeFloat("distancePlane", { nullable: true, description: "Plane distance, km." }),
  }),
});

builder.queryFields((t) => ({
  gpuNames: t.stringList({
    description: "Names of the GPU models of the reference table, in table order (empty without GPUs).",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) =>
      context.edition(args.edition).service.data.gpuSpecs.map((row) => row.name),
  }),
  gpuByName: t.field({
    type: GpuSpecRef,
    nullable: true,
    description:
      "The GPU table row best matching a free-text name (token-set ratio above the GPU threshold), or null.",
    args: {
      name: t.arg.string({ required: true, description: "Free-text GPU name." }),
      edition: editionArg(t.arg),
    },
    resolve: (_r, { name, edition }, context) => gpuByName(context.edition(edition), name),
  }),
}));
