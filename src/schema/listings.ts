import { nestedArchetype } from "../data/cells.js";
import type { ArchetypeTable } from "../data/types.js";
import { type ComponentKind, CRITERIA } from "../engine/index.js";
import { builder } from "./builder.js";
import { ComponentKindEnum, componentTable } from "./component.js";
import type { RequestContext } from "./context.js";
import { badUserInput, notFound } from "./errors.js";

const CriterionInfoRef = builder.objectRef<(typeof CRITERIA)[number]>("CriterionInfo").implement({
  description: "An impact criterion the service knows.",
  fields: (t) => ({
    key: t.exposeString("key", { description: "Key under which v1 lists it (`CTUh_c` keeps its capitals)." }),
    name: t.exposeString("name", { description: "Name to request it by (a Criterion value)." }),
    unit: t.exposeString("unit", { description: "Unit of its impacts." }),
    description: t.exposeString("description", { description: "What it measures." }),
    method: t.exposeString("method", {
      nullable: true,
      description: "Characterisation method (PEF), when the reference names one.",
    }),
  }),
});

interface CpuSpecShape {
  readonly name: string;
  readonly manufacturer: string | null;
  readonly modelRange: string | null;
  readonly family: string | null;
  readonly tdp: number | null;
  readonly coreUnits: number | null;
  readonly threads: number | null;
  readonly dieSize: number | null;
}

const CpuSpecRef = builder.objectRef<CpuSpecShape>("CpuSpec").implement({
  description: "A row of the CPU reference table.",
  fields: (t) => ({
    name: t.exposeString("name", { description: "Model name as in the table." }),
    manufacturer: t.exposeString("manufacturer", { nullable: true, description: "e.g. Intel, AMD." }),
    modelRange: t.exposeString("modelRange", { nullable: true, description: "e.g. Xeon Gold." }),
    family: t.exposeString("family", { nullable: true, description: "Code name, e.g. Skylake." }),
    tdp: t.exposeFloat("tdp", { nullable: true, description: "Thermal design power, W." }),
    coreUnits: t.exposeFloat("coreUnits", { nullable: true, description: "Cores (count)." }),
    threads: t.exposeFloat("threads", { nullable: true, description: "Threads (count)." }),
    dieSize: t.exposeFloat("dieSize", { nullable: true, description: "Total die size, mm²." }),
  }),
});

async function archetypeConfig(context: RequestContext, table: ArchetypeTable, id: string) {
  const row = await context.archetypes.load({ table, id });
  if (!row) throw notFound(`${id} not found`);
  return nestedArchetype(row.cells);
}

function requiredTable(context: RequestContext, kind: ComponentKind): ArchetypeTable {
  const table = componentTable(context, kind);
  if (!table) throw notFound(`${kind} has no archetypes`);
  return table;
}

builder.queryFields((t) => ({
  countryCodes: t.field({
    type: "JSON",
    description: "Country name → code, for usageLocation.",
    resolve: (_r, _a, { service }) => Object.fromEntries(service.data.electricity.availableCountries),
  }),
  cpuFamilies: t.stringList({
    description: "CPU families (code names) of the CPU table.",
    resolve: (_r, _a, { service }) => [...service.tables.cpuFamilies],
  }),
  cpuModelRanges: t.stringList({
    description: "CPU model ranges of the CPU table.",
    resolve: (_r, _a, { service }) => [...service.tables.cpuModelRanges],
  }),
  cpuNames: t.stringList({
    description: "CPU model names of the CPU table.",
    resolve: (_r, _a, { service }) => [...service.tables.cpuNames],
  }),
  ssdManufacturers: t.stringList({
    description: "SSD manufacturers with a density in the reference table.",
    resolve: (_r, _a, { service }) => [...service.tables.ssdManufacturers],
  }),
  ramManufacturers: t.stringList({
    description: "RAM manufacturers with a density in the reference table.",
    resolve: (_r, _a, { service }) => [...service.tables.ramManufacturers],
  }),
  caseTypes: t.stringList({
    description: "Case types (CaseInput.caseType).",
    resolve: () => ["blade", "rack"],
  }),
  impactCriteria: t.field({
    type: [CriterionInfoRef],
    description: "Every criterion with its unit and meaning.",
    resolve: () => [...CRITERIA],
  }),
  cpuByName: t.field({
    type: CpuSpecRef,
    nullable: true,
    description: "The CPU table row best matching a free-text name (approximate match), or null.",
    args: {
      name: t.arg.string({ required: true, description: "Free-text CPU name, e.g. Intel Xeon Gold 6134." }),
    },
    resolve: (_r, { name }, { lookups }) => {
      const row = lookups.cpuByName(name);
      return row
        ? {
            name: row.name,
            manufacturer: row.manufacturer,
            modelRange: row.modelRange,
            family: row.codeName,
            tdp: row.tdp === null ? null : Math.trunc(row.tdp),
            coreUnits: row.cores === null ? null : Math.trunc(row.cores),
            threads: row.threads === null ? null : Math.trunc(row.threads),
            dieSize: row.totalDieSize,
          }
        : null;
    },
  }),
  serverArchetypes: t.stringList({
    description: "Ids of the server archetypes.",
    resolve: (_r, _a, { service }) => [...service.data.archetypes.server.ids],
  }),
  serverArchetypeConfig: t.field({
    type: "JSON",
    description: "A server archetype's values (nested by component, `value;min;max` cells as objects).",
    args: { archetype: t.arg.string({ required: true, description: "Server archetype id." }) },
    resolve: (_r, { archetype }, context) =>
      archetypeConfig(context, context.service.data.archetypes.server, archetype),
  }),
  componentArchetypes: t.stringList({
    description: "Ids of a component kind's archetypes.",
    args: { kind: t.arg({ type: ComponentKindEnum, required: true, description: "Component kind." }) },
    resolve: (_r, { kind }, context) => [...requiredTable(context, kind).ids],
  }),
  componentArchetypeConfig: t.field({
    type: "JSON",
    description: "A component archetype's values.",
    args: {
      kind: t.arg({ type: ComponentKindEnum, required: true, description: "Component kind." }),
      archetype: t.arg.string({ required: true, description: "Archetype id of that kind." }),
    },
    resolve: (_r, { kind, archetype }, context) => {
      if (archetype.length === 0) throw badUserInput("archetype is required", ["archetype"]);
      return archetypeConfig(context, requiredTable(context, kind), archetype);
    },
  }),
}));
