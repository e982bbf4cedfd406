/*
 * The billing SQL of the repository (sql/): plain queries in the dialect Spark SQL, Trino,
 * BigQuery and DuckDB share, read as they are. The impact query lists one line per impact column,
 * each marked `-- impact`, the lookup table's query one per per-hour column, marked `-- per hour`;
 * a run keeps the same line for each column it writes.
 */

import { readdirSync, readFileSync } from "node:fs";
import { sep } from "node:path";
import type { BillQueries } from "../grid/billLines.js";
import {
  instanceHoursUnitSql,
  instanceKindsSql,
  instanceMemorySql,
  instanceTypeSql,
  oneOfSql,
} from "./formatInstanceSql.js";
import { BILLING_FORMATS, isBillingFormatName } from "./formats/knownFormats.js";
import { lineProblemWordsSql } from "./lineStatus.js";
import {
  focusInstanceTypesSql,
  focusLineKindsSql,
  focusNamedTypesSql,
  focusProvidersSql,
  ownFocusRulesSql,
} from "./providers/index.js";
import { aiNameSql, aiSpellingSql } from "./registry/generativeAi.js";
import { transferScopesSql, unitRereadsSql, vcpuUnitsSql } from "./registry/lineWords.js";
import { catalogueCopiesSql, catalogueServicesSql, catalogueSizesSql } from "./registry/managedServices.js";
import {
  chargeReasonsSql,
  controlPlaneNodesSql,
  controlPlaneNotesSql,
  gpuModelsAlternation,
  gpuNameSql,
  methodRulesSql,
  noMethodReasonsSql,
  SUPPORT_REASON,
} from "./registry/methods.js";
import {
  deploymentWhensSql,
  diskTiersSql,
  dtuVcoresSql,
  dtuWarningsSql,
  FEE_SERVICE_NAMES,
  storageTextsSql,
} from "./registry/services.js";
import { sqlLiteral } from "./rules/conditions.js";
import { type WrittenFile, writtenNumber } from "./writtenFile.js";

const SQL_FOLDER = new URL("../../sql/", import.meta.url);

/**
 * A splice of sql/: a marker line the registry's SQL is written at. A standalone marker is a
 * comment line of its own, `-- @<name>` (`-- @method rules`, `-- @catalogue sizes of r`), so that
 * no prose comment is read as one; a trailing marker ends a line of SQL (`… -- @gpu models`).
 * Every marker of sql/ is one of these, and each of these is used (spliceProblems): a mistyped
 * marker is refused, never left in the query.
 */
interface Splice {
  /** The marker as sql/ writes it after `-- @`, its arguments as `<…>`. */
  readonly marker: string;
  readonly pattern: RegExp;
  readonly write: (...groups: string[]) => string;
}

/** The column of a format's lines naming their provider (`'aws' AS billing_provider,`); the marker itself where the format has none. */
function formatProviderSql(indent: string, name: string): string {
  const format = isBillingFormatName(name) ? BILLING_FORMATS[name] : null;
  if (format?.provider == null) return `${indent}-- @provider of format ${name}`;
  return `${indent}${sqlLiteral(format.provider)} AS billing_provider,`;
}

/**
 * The WHENs of a CASE over a format's usage unit, lower case (BillingFormat.rescaled): the unit each
 * is read as, or the scale of its quantity; the marker itself where the format rescales none.
 */
function rescaledUnitsSql(indent: string, give: "units" | "scales", name: string): string {
  const rescaled = isBillingFormatName(name) ? (BILLING_FORMATS[name].rescaled ?? []) : [];
  if (rescaled.length === 0) return `${indent}-- @rescaled ${give} of format ${name}`;
  const decimal = (value: number) => value.toFixed(1);
  return rescaled
    .map(({ unit, readAs, per }) => {
      const divisor = per.length === 1 ? decimal(per[0]) : `(${per.map(decimal).join(" * ")})`;
      return `${indent}WHEN ${sqlLiteral(unit)} THEN ${give === "units" ? sqlLiteral(readAs) : `1.0 / ${divisor}`}`;
    })
    .join("\n");
}

/** The WHEN of a format's line kind CASE marking its instance hours (BillingFormat.computeWhen); the marker itself where it has none. */
function computeLinesSql(indent: string, name: string, alias: string): string {
  const when = isBillingFormatName(name) ? BILLING_FORMATS[name].computeWhen : undefined;
  if (when === undefined) return `${indent}-- @compute lines of format ${name} over ${alias}`;
  return `${indent}WHEN ${oneOfSql(`${alias}.${when.column}`, when.oneOf)} THEN 'compute'`;
}

/** The WHENs of a CASE giving a format's line without a unit its unit (BillingFormat.impliedUnits); the marker itself where it implies none. */
function impliedUnitsSql(indent: string, name: string, alias: string): string {
  const implied = isBillingFormatName(name) ? (BILLING_FORMATS[name].impliedUnits ?? []) : [];
  if (implied.length === 0) return `${indent}-- @implied units of format ${name} over ${alias}`;
  return implied
    .map(({ unit, column, like }) => {
      const matches = like.map((pattern) => `${alias}.${column} LIKE ${sqlLiteral(pattern)}`);
      return `${indent}WHEN ${matches.join(" OR ")} THEN ${sqlLiteral(unit)}`;
    })
    .join("\n");
}

const INSTANCE_SQL = {
  "hours kinds": instanceKindsSql,
  type: instanceTypeSql,
  "hours unit": instanceHoursUnitSql,
  memory: instanceMemorySql,
} as const;

const CATALOGUE_SQL = {
  services: catalogueServicesSql,
  sizes: catalogueSizesSql,
  copies: catalogueCopiesSql,
} as const;

/** What each marker of sql/ stands for, made from the registry (src/billing/registry/, src/billing/providers/). */
const SPLICES: readonly Splice[] = [
  {
    marker: "method rules",
    pattern: /^( *)-- @method rules$/gm,
    write: (indent) => methodRulesSql(indent),
  },
  {
    // The provider of a format's every line (BillingFormat.provider), a column of its lines' query;
    // left in place, and so refused, for a name no format has or a format whose lines name theirs
    marker: "provider of format <name>",
    pattern: /^( *)-- @provider of format ([a-z0-9]+)$/gm,
    write: (indent, name) => formatProviderSql(indent, name),
  },
  {
    marker: "rescaled <units|scales> of format <name>",
    pattern: /^( *)-- @rescaled (units|scales) of format ([a-z0-9]+)$/gm,
    write: (indent, give, name) => rescaledUnitsSql(indent, give === "units" ? "units" : "scales", name),
  },
  {
    marker: "compute lines of format <name> over <alias>",
    pattern: /^( *)-- @compute lines of format ([a-z0-9]+) over ([a-z])$/gm,
    write: (indent, name, alias) => computeLinesSql(indent, name, alias),
  },
  {
    // A format's instance lines (BillingFormat.instanceHours, instanceMemory): src/billing/formatInstanceSql.ts
    marker: "instance <hours kinds|type|hours unit|memory> of format <name> over <alias>",
    pattern: /^( *)-- @instance (hours kinds|type|hours unit|memory) of format ([a-z0-9]+) over ([a-z])$/gm,
    write: (indent, give, name, alias) =>
      INSTANCE_SQL[give as keyof typeof INSTANCE_SQL](indent, name, alias),
  },
  {
    marker: "implied units of format <name> over <alias>",
    pattern: /^( *)-- @implied units of format ([a-z0-9]+) over ([a-z])$/gm,
    write: (indent, name, alias) => impliedUnitsSql(indent, name, alias),
  },
  {
    marker: "deployment <copies|warnings> of <alias>",
    pattern: /^( *)-- @deployment (copies|warnings) of ([a-z])$/gm,
    write: (indent, give, alias) =>
      deploymentWhensSql(indent, alias, give === "copies" ? "copies" : "warning"),
  },
  {
    marker: "no method reasons of <alias>",
    pattern: /^( *)-- @no method reasons of ([a-z])$/gm,
    write: (indent, alias) => noMethodReasonsSql(indent, alias),
  },
  {
    marker: "charge reasons of <alias>",
    pattern: /^( *)-- @charge reasons of ([a-z])$/gm,
    write: (indent, alias) => chargeReasonsSql(indent, alias),
  },
  {
    marker: "a support reason",
    pattern: /'[^']*' -- @a support reason$/gm,
    write: () => `'${SUPPORT_REASON}'`,
  },
  {
    marker: "storage <media|copies> of <alias>",
    pattern: /^( *)-- @storage (media|copies) of ([a-z])$/gm,
    write: (indent, give, alias) => storageTextsSql(indent, alias, give === "media" ? "media" : "copies"),
  },
  {
    marker: "disk tiers of <alias>",
    pattern: /^( *)-- @disk tiers of ([a-z])$/gm,
    write: (indent, alias) => diskTiersSql(indent, alias),
  },
  {
    marker: "dtu vcores of <alias>",
    pattern: /^( *)-- @dtu vcores of ([a-z])$/gm,
    write: (indent, alias) => dtuVcoresSql(indent, alias),
  },
  {
    marker: "dtu warnings of <alias>",
    pattern: /^( *)-- @dtu warnings of ([a-z])$/gm,
    write: (indent, alias) => dtuWarningsSql(indent, alias),
  },
  {
    marker: "focus providers of <expression>",
    pattern: /^( *)-- @focus providers of (.+)$/gm,
    write: (indent, name) => focusProvidersSql(indent, name),
  },
  {
    marker: "focus line kinds of <alias>",
    pattern: /^( *)-- @focus line kinds of ([a-z])$/gm,
    write: (indent, alias) => focusLineKindsSql(indent, alias, FEE_SERVICE_NAMES),
  },
  {
    marker: "focus instance types of <alias>",
    pattern: /^( *)-- @focus instance types of ([a-z])$/gm,
    write: (indent, alias) => focusInstanceTypesSql(indent, alias),
  },
  {
    marker: "focus named types of <alias>",
    pattern: /^( *)-- @focus named types of ([a-z])$/gm,
    write: (indent, alias) => focusNamedTypesSql(indent, alias),
  },
  {
    // A condition on a FOCUS line's provider, written `<alias>.billing_provider IN ('')` (no provider
    // named): its list becomes the providers whose FOCUS lines their own rules read
    // (BillingProvider.focusLines).
    marker: "own focus rules",
    pattern: /^(.*[^a-z_.])([a-z]\.billing_provider) IN \(''\)(.*) -- @own focus rules$/gm,
    write: (before, column, after) => `${before}${ownFocusRulesSql(column)}${after}`,
  },
  {
    marker: "control plane <nodes|notes> of <alias>",
    pattern: /^( *)-- @control plane (nodes|notes) of ([a-z])$/gm,
    write: (indent, give, alias) =>
      give === "nodes" ? controlPlaneNodesSql(indent, alias) : controlPlaneNotesSql(indent, alias),
  },
  {
    marker: "catalogue <services|sizes|copies> of <alias>",
    pattern: /^( *)-- @catalogue (services|sizes|copies) of ([a-z])$/gm,
    write: (indent, give, alias) => CATALOGUE_SQL[give as keyof typeof CATALOGUE_SQL](indent, alias),
  },
  {
    // A line reading the registry's GPU models as a word of a text (gpuModelsPattern): its alternation is theirs.
    marker: "gpu models",
    pattern: /^(.*'\(\?:\^\|\[\^a-z0-9\]\)\()[a-z0-9|]+(\)\(\?:\[\^a-z0-9\]\|\$\)'.*) -- @gpu models$/gm,
    write: (before, after) => `${before}${gpuModelsAlternation()}${after}`,
  },
  {
    marker: "vcpu units of <alias>",
    pattern: /^( *)-- @vcpu units of ([a-z])$/gm,
    write: (indent, alias) => vcpuUnitsSql(indent, alias),
  },
  {
    marker: "transfer scopes of <alias>",
    pattern: /^( *)-- @transfer scopes of ([a-z])$/gm,
    write: (indent, alias) => transferScopesSql(indent, alias),
  },
  {
    marker: "unit <rereads|reread factors> of <alias>",
    pattern: /^( *)-- @unit (rereads|reread factors) of ([a-z])$/gm,
    write: (indent, give, alias) =>
      unitRereadsSql(indent, alias, give === "rereads" ? "dimensions" : "factors"),
  },
  {
    marker: "gpu name of <alias>",
    pattern: /^( *)-- @gpu name of ([a-z])$/gm,
    write: (indent, alias) => gpuNameSql(indent, alias),
  },
  {
    marker: "line problem words of <alias>",
    pattern: /^( *)-- @line problem words of ([a-z])$/gm,
    write: (indent, alias) => lineProblemWordsSql(indent, alias),
  },
  {
    marker: "generative-ai model of <alias>",
    pattern: /^( *)-- @generative-ai model of ([a-z])$/gm,
    write: (indent, alias) => aiNameSql(indent, alias),
  },
  {
    marker: "generative-ai spelling of <alias>",
    pattern: /^( *)-- @generative-ai spelling of ([a-z])$/gm,
    write: (indent, alias) => aiSpellingSql(indent, alias),
  },
];

/** The capturing groups of `pattern`: what its splice's writer takes, before replace's offset and text. */
const groupCount = (pattern: RegExp): number => (new RegExp(`${pattern.source}|`).exec("") ?? []).length - 1;

/** The marks of the lines written once per column: impact columns, per-hour columns. */
const MARKS = { impact: "-- impact", perHour: "-- per hour", gridUse: "-- grid use" } as const;
type Mark = keyof typeof MARKS;

/** A marker line of sql/: its first comment, of its own or ending a line of SQL, starts `-- @` (prose may name a marker). */
const MARKER_LINE = /^(?:(?!--).)*-- @.*$/gm;

/** A comment ending a line of SQL: in sql/, only the marks of the lines written once per column (MARKS). */
const TRAILING_COMMENT = /^.*\S.* -- (.*)$/gm;

/**
 * The lines of `text` still holding a marker: one no splice knows, one written otherwise than its
 * splice reads, or a comment ending a line of SQL that is not a column's mark (`-- impcat`).
 */
function unsplicedMarkers(text: string): string[] {
  const marks: readonly string[] = Object.values(MARKS);
  const trailing = [...text.matchAll(TRAILING_COMMENT)].filter(
    (match) => !match[0].trimStart().startsWith("--") && !marks.includes(`-- ${match[1].trimEnd()}`),
  );
  return [...new Set([...text.matchAll(MARKER_LINE), ...trailing].map((match) => match[0].trim()))];
}

/**
 * `text` (the query `name` of sql/) with each marker replaced by what it stands for; throws, naming
 * the marker and the markers known, where a line still holds one.
 */
export function splicedSql(name: string, text: string): string {
  const spliced = SPLICES.reduce(
    (sql, splice) =>
      sql.replace(splice.pattern, (_, ...groups: unknown[]) =>
        splice.write(...(groups.slice(0, groupCount(splice.pattern)) as string[])),
      ),
    text,
  );
  const left = unsplicedMarkers(spliced);
  if (left.length > 0)
    throw new Error(
      `sql/${name}: unknown marker ${left.map((line) => JSON.stringify(line)).join(", ")}; the markers are ${SPLICES.map((splice) => `-- @${splice.marker}`).join(", ")} (src/billing/queries.ts)`,
    );
  return spliced;
}

/** The queries of sql/, by their names under it. */
function sqlFiles(): string[] {
  return readdirSync(SQL_FOLDER, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".sql"))
    .map((file) => file.split(sep).join("/"))
    .sort();
}

/**
 * Every query of sql/ spliced once, when the module loads: the registry's SQL is a constant of its
 * data, so no run splices it again, and a marker no splice writes stops the program at its start
 * (and every test), never a bill half read.
 */
const SPLICED_QUERIES: ReadonlyMap<string, string> = new Map(
  sqlFiles().map((name) => [name, splicedSql(name, readFileSync(new URL(name, SQL_FOLDER), "utf8"))]),
);

/** A query of sql/, as the command runs it: each marker replaced by the registry's SQL (SPLICES). */
export function sqlQuery(name: string): string {
  const query = SPLICED_QUERIES.get(name);
  if (query === undefined) throw new Error(`sql/${name}: no such query of sql/`);
  return query;
}

/**
 * What is wrong with the markers of sql/, each named: a marker no splice knows (with its file and
 * line), a splice no query uses. None for the tree as it should be (test/billing/queries.test.ts).
 */
export function spliceProblems(files: readonly string[] = sqlFiles()): string[] {
  const texts = files.map((name) => ({ name, text: readFileSync(new URL(name, SQL_FOLDER), "utf8") }));
  const unknown = texts.flatMap(({ name, text }) => {
    try {
      splicedSql(name, text);
      return [];
    } catch (error) {
      return [(error as Error).message];
    }
  });
  const unused = SPLICES.filter((splice) =>
    texts.every(({ text }) => [...text.matchAll(splice.pattern)].length === 0),
  ).map((splice) => `no query of sql/ uses the marker -- @${splice.marker}`);
  return [...unknown, ...unused];
}

/** The column a marked line writes (`… AS gwp_embedded_kgco2eq, -- impact`). */
function writtenColumn(line: string, mark: string): string {
  const match = / AS ([a-z0-9_]+),\s*(-- [a-z ]+)$/.exec(line.trimEnd());
  if (!match || match[2] !== mark) throw new Error(`sql: a marked line names no column: ${line}`);
  return match[1];
}

/**
 * A query of sql/ whose lines marked `mark` are written once for each of `columns`, alike: the
 * template's `replaced` name (by default the column it writes) becomes each column.
 */
function markedQuery(name: string, mark: Mark, columns: readonly string[], replaced?: string): string {
  const lines = sqlQuery(name).split("\n");
  const isMarked = (line: string) => line.trimEnd().endsWith(MARKS[mark]);
  const marked = lines.filter(isMarked);
  if (marked.length === 0) throw new Error(`sql: ${name} has no line marked ${MARKS[mark]}`);
  const template = marked[0];
  const templateColumn = replaced ?? writtenColumn(template, MARKS[mark]);
  if (replaced !== undefined) writtenColumn(template, MARKS[mark]);
  const first = lines.indexOf(template);
  const kept = lines.filter((line) => !isMarked(line));
  const written = columns.map((column) => template.replaceAll(templateColumn, column));
  return [...kept.slice(0, first), ...written, ...kept.slice(first)].join("\n");
}

/** The impact query writing `columns` (each `<impact column>` = hours × `<impact column>_per_hour`). */
export function impactsQuery(columns: readonly string[]): string {
  return markedQuery("evaluate/billing_impacts.sql", "impact", columns);
}

/**
 * A query (`select`, not itself a WITH) reading each of `named`'s queries under its name, as a
 * common table expression NOT MATERIALIZED, which DuckDB inlines as it does a view, rather than as
 * a view: a view is bound when it is created, then again in every statement that reads it, and the
 * views a billing run reads once are its largest (billing_classified, billing_located).
 */
export function withQueries(named: readonly (readonly [string, string])[], select: string): string {
  if (named.length === 0) return select;
  if (/^(\s*--[^\n]*\n)*\s*WITH\b/i.test(select))
    throw new Error("billing: withQueries reads a query without WITH");
  return `WITH ${named.map(([name, query]) => `${name} AS NOT MATERIALIZED (\n${query}\n)`).join(",\n")}\n${select}`;
}

/** The lookup table's query, with the per-hour column of each of the impact `columns`. */
export function keysQuery(columns: readonly string[]): string {
  return markedQuery(
    "lookup/billing_keys.sql",
    "perHour",
    columns.map((column) => `${column}_per_hour`),
  );
}

/** The gwp use columns a grid series rewrites (sql/evaluate/billing_grid.sql): the value, min and max written. */
export function gridUseColumns(impactColumns: readonly string[]): string[] {
  return impactColumns.filter((column) => column.startsWith(GRID_USE_TEMPLATE));
}

const GRID_USE_TEMPLATE = "gwp_use_kgco2eq";

/** sql/evaluate/billing_grid.sql with a `billing_grid_<column>` for each gwp use column of `impactColumns`. */
export function gridQuery(impactColumns: readonly string[]): string {
  return markedQuery(
    "evaluate/billing_grid.sql",
    "gridUse",
    gridUseColumns(impactColumns),
    GRID_USE_TEMPLATE,
  );
}

/** The text of the series' queries over the lines (what they read of billing_located). */
export function gridLinesQueries(impactColumns: readonly string[]): string {
  return `${sqlQuery("evaluate/billing_periods.sql")}\n${gridQuery(impactColumns)}`;
}

/** The column of sql/evaluate/billing_grid.sql's lines an output column is written from (the series' gwp use and warnings). */
export function gridSourceColumn(column: string, impactColumns: readonly string[]): string {
  if (column === "warnings") return "billing_grid_warnings";
  return gridUseColumns(impactColumns).includes(column) ? `billing_grid_${column}` : column;
}

/** What a bill gives its grid series (src/grid/billLines.ts): its queries and its written lines' relation. */
export const BILL_GRID_QUERIES: BillQueries<WrittenFile> = {
  sql: sqlQuery,
  gridQuery,
  gridUseColumns,
  gridSourceColumn,
  writtenNumber,
};
