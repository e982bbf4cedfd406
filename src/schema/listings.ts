import type { ArchetypeTable, CpuSpec } from "../data/types.js";
import type { CriterionInfo } from "../service/criteria.js";
import type { ComponentKind } from "../service/engineVocabulary.js";
import { checkedText } from "../service/inputs.js";
import type { EditionContext, EditionService } from "../service/open.js";
import { archetypeConfig, archetypeConfigField } from "./archetypeConfig.js";
import { builder } from "./builder.js";
import { ComponentKindEnum, componentTable } from "./component.js";
import { editionArg } from "./edition.js";
import { badUserInput, notFound, spelled } from "./errors.js";

const CriterionInfoRef = builder.objectRef<CriterionInfo>("CriterionInfo").implement({
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

/** A CPU table row as the schema shows it (counts and TDP as whole numbers, as v1 lists them). */
function cpuSpecOf(row: CpuSpec): CpuSpecShape {
  return {
    name: row.name,
    manufacturer: row.manufacturer,
    modelRange: row.modelRange,
    family: row.codeName,
    tdp: row.tdp === null ? null : Math.trunc(row.tdp),
    coreUnits: row.cores === null ? null : Math.trunc(row.cores),
    threads: row.threads === null ? null : Math.trunc(row.threads),
    dieSize: row.totalDieSize,
  };
}

function requiredTable(context: EditionContext, kind: ComponentKind): ArchetypeTable {
  const table = componentTable(context, kind);
  if (!table) throw notFound(`${kind} has no archetypes`);
  return table;
}

/** The distinct values of the lookup tables listed as they are, by field name (§16 listings). */
const TABLE_LISTINGS = {
  cpuFamilies: "CPU families (code names) of the CPU table.",
  cpuModelRanges: "CPU model ranges of the CPU table.",
  cpuNames: "CPU model names of the CPU table.",
  ssdManufacturers: "SSD manufacturers with a density in the reference table.",
  ramManufacturers: "RAM manufacturers with a density in the reference table.",
} as const satisfies Partial<Record<keyof EditionService["tables"], string>>;

/** The edition's lookup tables and criteria, listed. */
builder.queryFields((t) => ({
  countryCodes: t.field({
    type: "JSON",
    description: "Country name → code, for usageLocation.",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) =>
      Object.fromEntries(context.edition(args.edition).service.data.electricity.availableCountries),
  }),
  ...Object.fromEntries(
    Object.entries(TABLE_LISTINGS).map(([field, description]) => [
      field,
      t.stringList({
        description,
        args: { edition: editionArg(t.arg) },
        resolve: (_r, args, context) => [
          ...context.edition(args.edition).service.tables[field as keyof typeof TABLE_LISTINGS],
        ],
      }),
    ]),
  ),
  caseTypes: t.stringList({
    description: "Case types (CaseInput.caseType).",
    args: { edition: editionArg(t.arg) },
    resolve: () => ["blade", "rack"],
  }),
  impactCriteria: t.field({
    type: [CriterionInfoRef],
    description: "Every criterion of the edition with its unit and meaning.",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) => [...context.edition(args.edition).engine.rules.criteria],
  }),
  cpuByName: t.field({
    type: CpuSpecRef,
    nullable: true,
    description: "The CPU table row best matching a free-text name (approximate match), or null.",
    args: {
      name: t.arg.string({ required: true, description: "Free-text CPU name, e.g. Intel Xeon Gold 6134." }),
      edition: editionArg(t.arg),
    },
    resolve: async (_r, { name, edition }, context) => {
      const row = await context
        .edition(edition)
        .loaders.cpuName(spelled(() => checkedText(context.service.limits, name, ["name"])));
      return row ? cpuSpecOf(row) : null;
    },
  }),
}));

/** The archetypes of the edition: server and component ids, and one archetype's values. */
builder.queryFields((t) => ({
  serverArchetypes: t.stringList({
    description: "Ids of the server archetypes.",
    args: { edition: editionArg(t.arg) },
    resolve: (_r, args, context) => [...context.edition(args.edition).service.data.archetypes.server.ids],
  }),
  serverArchetypeConfig: archetypeConfigField(
    t,
    {
      field: "A server archetype's values (nested by component, `value;min;max` cells as objects).",
      archetype: "Server archetype id.",
    },
    (context) => context.service.data.archetypes.server,
  ),
  componentArchetypes: t.stringList({
    description: "Ids of a component kind's archetypes.",
    args: {
      kind: t.arg({ type: ComponentKindEnum, required: true, description: "Component kind." }),
      edition: editionArg(t.arg),
    },
    resolve: (_r, { kind, edition }, context) => [...requiredTable(context.edition(edition), kind).ids],
  }),
  componentArchetypeConfig: t.field({
    type: "JSON",
    description: "A component archetype's values.",
    args: {
      kind: t.arg({ type: ComponentKindEnum, required: true, description: "Component kind." }),
      archetype: t.arg.string({ required: true, description: "Archetype id of that kind." }),
      edition: editionArg(t.arg),
    },
    resolve: (_r, { kind, archetype, edition }, context) => {
      if (archetype.length === 0) throw badUserInput("archetype is required", ["archetype"]);
      const served = context.edition(edition);
      return archetypeConfig(served, requiredTable(served, kind), archetype);
    },
  }),
}));
