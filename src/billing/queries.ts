/*
 * The billing SQL of the repository (sql/): plain queries in the dialect Spark SQL, Trino,
 * BigQuery and DuckDB share, read as they are. The impact query lists one line per impact column,
 * each marked `-- impact`, the lookup table's query one per per-hour column, marked `-- per hour`;
 * a run keeps the same line for each column it writes.
 */

import { readFileSync } from "node:fs";
import type { BillQueries } from "../grid/billLines.js";
import { focusProvidersSql } from "./providers/index.js";
import { aiNameSql, aiSpellingSql } from "./registry/generativeAi.js";
import { catalogueCopiesSql, catalogueServicesSql, catalogueSizesSql } from "./registry/managedServices.js";
import {
  chargeReasonsSql,
  controlPlaneNodesSql,
  controlPlaneNotesSql,
  gpuModelsAlternation,
  methodRulesSql,
  noMethodReasonsSql,
  SUPPORT_REASON,
} from "./registry/methods.js";
import { deploymentWhensSql, storageTextsSql } from "./registry/services.js";
import { type WrittenFile, writtenSource } from "./writtenFile.js";

const SQL_FOLDER = new URL("../../sql/", import.meta.url);

/** The line standing for the rules that give a line its method, made from the registry (methodRulesSql). */
const METHOD_RULES = /^( *)-- method rules$/m;

/** The lines standing for the deployments' copies or warnings over a view's lines (deploymentWhensSql). */
const DEPLOYMENTS = /^( *)-- deployment (copies|warnings) of ([a-z])$/gm;

/** The lines standing for what a line's words say of its storage (storageTextsSql). */
const STORAGE_TEXTS = /^( *)-- storage (media|copies) of ([a-z])$/gm;

/** The lines standing for the catalogue's CASE lines over a view's lines (src/billing/registry/managedServices.ts). */
const CATALOGUE_LINES = /^( *)-- catalogue (services|sizes|copies) of ([a-z])$/gm;

/** The line standing for the providers a FOCUS line names (src/billing/providers/). */
const FOCUS_PROVIDERS = /^( *)-- focus providers of (.+)$/m;

/** The lines standing for a control plane's nodes and warning (src/billing/registry/methods.ts). */
const CONTROL_PLANE_LINES = /^( *)-- control plane (nodes|notes) of ([a-z])$/gm;

const CATALOGUE_SQL = {
  services: catalogueServicesSql,
  sizes: catalogueSizesSql,
  copies: catalogueCopiesSql,
} as const;

/** A line reading the registry's GPU models as a word of a text (gpuModelsPattern): its alternation is theirs. */
const GPU_MODEL_LINE =
  /^(.*'\(\?:\^\|\[\^a-z0-9\]\)\()[a-z0-9|]+(\)\(\?:\[\^a-z0-9\]\|\$\)'.*) -- gpu models$/gm;

/** The line standing for the reasons of the charges that are not usage (chargeReasonsSql). */
const CHARGE_REASON_LINES = /^( *)-- charge reasons of ([a-z])$/m;

/** The line giving a known service's lines no method reads the support reason (SUPPORT_REASON). */
const SUPPORT_REASON_LINE = /'[^']*' -- a support reason$/m;

/** The line standing for the reasons of the rules that give a line no method (noMethodReasonsSql). */
const NO_METHOD_REASONS = /^( *)-- no method reasons of ([a-z])$/m;

/** The lines standing for a line's generative-AI model, as billed (aiNameSql) and as spelt (aiSpellingSql). */
const AI_NAME = /^( *)-- generative-ai model of ([a-z])$/m;
const AI_SPELLING = /^( *)-- generative-ai spelling of ([a-z])$/m;

/**
 * A query of sql/, as written; sql/classify/billing_methods.sql with the registry's rules at its
 * line marked `-- method rules` (src/billing/registry/methods.ts), its deployments at the lines
 * marked `-- deployment …` (src/billing/registry/services.ts) and a line's generative-AI model
 * at `-- generative-ai model of …` and `-- generative-ai spelling of …`
 * (src/billing/registry/generativeAi.ts).
 */
export function sqlQuery(name: string): string {
  const text = readFileSync(new URL(name, SQL_FOLDER), "utf8");
  return text
    .replace(METHOD_RULES, (_, indent: string) => methodRulesSql(indent))
    .replace(DEPLOYMENTS, (_, indent: string, give: string, alias: string) =>
      deploymentWhensSql(indent, alias, give === "copies" ? "copies" : "warning"),
    )
    .replace(NO_METHOD_REASONS, (_, indent: string, alias: string) => noMethodReasonsSql(indent, alias))
    .replace(CHARGE_REASON_LINES, (_, indent: string, alias: string) => chargeReasonsSql(indent, alias))
    .replace(SUPPORT_REASON_LINE, `'${SUPPORT_REASON}'`)
    .replace(STORAGE_TEXTS, (_, indent: string, give: "media" | "copies", alias: string) =>
      storageTextsSql(indent, alias, give),
    )
    .replace(FOCUS_PROVIDERS, (_, indent: string, name: string) => focusProvidersSql(indent, name))
    .replace(CONTROL_PLANE_LINES, (_, indent: string, give: string, alias: string) =>
      give === "nodes" ? controlPlaneNodesSql(indent, alias) : controlPlaneNotesSql(indent, alias),
    )
    .replace(CATALOGUE_LINES, (_, indent: string, give: keyof typeof CATALOGUE_SQL, alias: string) =>
      CATALOGUE_SQL[give](indent, alias),
    )
    .replace(
      GPU_MODEL_LINE,
      (_, before: string, after: string) => `${before}${gpuModelsAlternation()}${after}`,
    )
    .replace(AI_NAME, (_, indent: string, alias: string) => aiNameSql(indent, alias))
    .replace(AI_SPELLING, (_, indent: string, alias: string) => aiSpellingSql(indent, alias));
}

/** The marks of the lines written once per column: impact columns, per-hour columns. */
const MARKS = { impact: "-- impact", perHour: "-- per hour", gridUse: "-- grid use" } as const;
type Mark = keyof typeof MARKS;

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
  writtenSource,
};
