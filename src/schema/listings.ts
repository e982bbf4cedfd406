import { nestedArchetype } from "../data/cells.js";
import type { ArchetypeTable } from "../data/types.js";
import { type ComponentKind, CRITERIA } from "../engine/index.js";
import { builder } from "./builder.js";
import { ComponentKindEnum, componentTable } from "./component.js";
import type { RequestContext } from "./context.js";
import { badUserInput, notFound } from "./errors.js";
import { validateText } from "./inputs.js";

const CriterionInfoRef = builder.objectRef<(typeof CRITERIA)[number]>("CriterionInfo").implement({
  fields: (t) => ({
    key: t.exposeString("key"),
    name: t.exposeString("name"),
    unit: t.exposeString("unit"),
    description: t.exposeString("description"),
    method: t.exposeString("method", { nullable: true }),
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
    name: t.exposeString("name"),
    manufacturer: t.exposeString("manufacturer", { nullable: true }),
    modelRange: t.exposeString("modelRange", { nullable: true }),
    family: t.exposeString("family", { nullable: true }),
    tdp: t.exposeFloat("tdp", { nullable: true }),
    coreUnits: t.exposeFloat("coreUnits", { nullable: true }),
    threads: t.exposeFloat("threads", { nullable: true }),
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
    resolve: (_r, _a, { service }) => [...service.tables.cpuFamilies],
  }),
  cpuModelRanges: t.stringList({
    resolve: (_r, _a, { service }) => [...service.tables.cpuModelRanges],
  }),
  cpuNames: t.stringList({
    resolve: (_r, _a, { service }) => [...service.tables.cpuNames],
  }),
  ssdManufacturers: t.stringList({ resolve: (_r, _a, { service }) => [...service.tables.ssdManufacturers] }),
  ramManufacturers: t.stringList({ resolve: (_r, _a, { service }) => [...service.tables.ramManufacturers] }),
  caseTypes: t.stringList({ resolve: () => ["blade", "rack"] }),
  impactCriteria: t.field({ type: [CriterionInfoRef], resolve: () => [...CRITERIA] }),
  cpuByName: t.field({
    type: CpuSpecRef,
    nullable: true,
    description: "The CPU table row best matching a free-text name (approximate match), or null.",
    args: { name: t.arg.string({ required: true }) },
    resolve: (_r, { name }, { lookups, service }) => {
      const row = lookups.cpuByName(validateText(service.limits, name, ["name"]));
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
    resolve: (_r, _a, { service }) => [...service.data.archetypes.server.ids],
  }),
  serverArchetypeConfig: t.field({
    type: "JSON",
    args: { archetype: t.arg.string({ required: true }) },
    resolve: (_r, { archetype }, context) =>
      archetypeConfig(context, context.service.data.archetypes.server, archetype),
  }),
  componentArchetypes: t.stringList({
    args: { kind: t.arg({ type: ComponentKindEnum, required: true }) },
    resolve: (_r, { kind }, context) => [...requiredTable(context, kind).ids],
  }),
  componentArchetypeConfig: t.field({
    type: "JSON",
    args: {
      kind: t.arg({ type: ComponentKindEnum, required: true }),
      archetype: t.arg.string({ required: true }),
    },
    resolve: (_r, { kind, archetype }, context) => {
      if (archetype.length === 0) throw badUserInput("archetype is required", ["archetype"]);
      return archetypeConfig(context, requiredTable(context, kind), archetype);
    },
  }),
}));
