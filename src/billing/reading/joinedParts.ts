/*
 * A bill's parts joined by their columns' names (an account's months as each was written: a month
 * gains a product or tag column, loses another, a provider's new version adds its own): the parts in
 * runs of the same columns, each run read as it is, the runs joined by name (a column a part lacks
 * is empty there), a column whose type differs between parts read as text, the text every format's
 * query reads. What came and went, part after part, is said. Refused only when a part is not the
 * same export as the others: another format, or a column the format reads spelled otherwise (a
 * legacy CUR's `lineItem/UsageType` against CUR 2.0's `line_item_usage_type`), which a join by
 * name would leave empty half the time.
 */

import { identifier } from "../../duckdb/sqlText.js";
import { BillingInputError } from "../errors.js";
import {
  type BillingFormat,
  headerColumn,
  missingColumns,
  readAs,
  readColumns,
  recognisedFormat,
} from "../formats/knownFormats.js";

/** A part's columns as DuckDB reads them (a text's as VARCHAR), in order. */
export type PartColumns = readonly (readonly [string, string])[];

/** Consecutive parts of the same columns (names and types), read by one reader. */
export interface PartRun {
  readonly parts: readonly string[];
  readonly columns: PartColumns;
}

/** The parts cut into runs of the same columns, in their order. */
export function partRuns(parts: readonly string[], columns: readonly PartColumns[]): PartRun[] {
  const runs: { parts: string[]; columns: PartColumns }[] = [];
  for (const [index, part] of parts.entries()) {
    const last = runs.at(-1);
    if (last !== undefined && sameColumns(last.columns, columns[index])) last.parts.push(part);
    else runs.push({ parts: [part], columns: columns[index] });
  }
  return runs;
}

const sameColumns = (a: PartColumns, b: PartColumns) =>
  a.length === b.length && a.every(([name, type], index) => b[index][0] === name && b[index][1] === type);

/** A column's name as a join by name matches it (SQL's names ignore case). */
const key = (name: string) => name.toLowerCase();

/** The columns whose type differs between runs (by their names' key): read as text in every run. */
export function textColumns(runs: readonly PartRun[]): ReadonlySet<string> {
  const types = new Map<string, string>();
  const differing = new Set<string>();
  for (const run of runs) {
    for (const [name, type] of run.columns) {
      const seen = types.get(key(name));
      if (seen === undefined) types.set(key(name), type);
      else if (seen !== type) differing.add(key(name));
    }
  }
  return differing;
}

/** Whether a DuckDB type is nested (a map, a record, a list): read as its JSON text. */
const isNested = (type: string) => /^(MAP|STRUCT)\(|\[\]$/.test(type);

/**
 * A run's relation as the join reads it: `from` (its reader) with each column of `text` cast to
 * text (a nested one as its JSON), else as it is.
 */
export function runRelation(run: PartRun, from: string, text: ReadonlySet<string>): string {
  const cast = run.columns.filter(([name, type]) => text.has(key(name)) && type !== "VARCHAR");
  if (cast.length === 0) return from;
  const casts = cast.map(([name, type]) =>
    isNested(type)
      ? `CAST(to_json(${identifier(name)}) AS VARCHAR) AS ${identifier(name)}`
      : `CAST(${identifier(name)} AS VARCHAR) AS ${identifier(name)}`,
  );
  return `(SELECT * REPLACE (${casts.join(", ")}) FROM ${from})`;
}

/** The runs' relations joined by name, in their order (DuckDB keeps it: the lines come part after part). */
export function joinedRelation(relations: readonly string[]): string {
  if (relations.length === 1) return relations[0];
  return `(${relations.map((relation) => `SELECT * FROM ${relation}`).join(" UNION ALL BY NAME ")})`;
}

/** Parts whose columns differ from the part before said at most, and names said in each. */
const NOTED_PARTS = 12;
const NAMES_SHOWN = 8;

const shown = (names: readonly string[]) =>
  names.length <= NAMES_SHOWN
    ? names.join(", ")
    : `${names.slice(0, NAMES_SHOWN).join(", ")} and ${names.length - NAMES_SHOWN} more`;

/**
 * What is said of the runs' columns, a line for each part whose columns differ from the part's
 * before: the columns that came (empty in the parts before) and went (empty from it on), and those
 * read as text because their type differs. None when every part has the first's columns.
 */
export function joinNotes(runs: readonly PartRun[]): string[] {
  const text = textColumns(runs);
  const notes: string[] = [];
  for (const [index, run] of runs.entries()) {
    if (index === 0) continue;
    const before = runs[index - 1];
    const had = new Map(before.columns.map(([name, type]) => [key(name), type]));
    const has = new Set(run.columns.map(([name]) => key(name)));
    const came = run.columns.filter(([name]) => !had.has(key(name))).map(([name]) => name);
    const went = before.columns.filter(([name]) => !has.has(key(name))).map(([name]) => name);
    const retyped = run.columns
      .filter(([name, type]) => had.has(key(name)) && had.get(key(name)) !== type)
      .map(([name, type]) => `${name} (${had.get(key(name))}, then ${type})`);
    const said = [
      ...(came.length > 0 ? [`came ${shown(came)}`] : []),
      ...(went.length > 0 ? [`went ${shown(went)}`] : []),
      ...(retyped.length > 0 ? [`read as text, its type changed: ${shown(retyped)}`] : []),
    ];
    if (said.length > 0)
      notes.push(`${run.parts[0]}: columns since ${before.parts.at(-1)}: ${said.join("; ")}`);
  }
  const first = runs[0];
  const ever = runs.flatMap((run) => run.columns.map(([name]) => key(name)));
  const columns = new Set(ever).size;
  const textOnly = text.size === 0 ? "" : `, ${text.size} read as text`;
  const kept = notes.slice(0, NOTED_PARTS);
  if (notes.length > NOTED_PARTS)
    kept.push(`… and ${notes.length - NOTED_PARTS} more parts whose columns differ from the part before`);
  return notes.length === 0
    ? []
    : [
        `${first.parts[0]}: its parts joined by their columns' names (${columns} columns in all${textOnly}; a column a part lacks is empty there)`,
        ...kept,
      ];
}

/**
 * Refuses a run whose columns are not the same export as the first run's: its header another
 * format's (or none), or a column the format reads spelled otherwise, named with both parts.
 * `format`: the one asked for (--input), else the first run's.
 */
export function checkSameExport(runs: readonly PartRun[], asked: BillingFormat | null): void {
  const [first] = runs;
  const names = (run: PartRun) => run.columns.map(([name]) => name);
  const format = asked ?? recognisedFormat(names(first));
  if (format === null || runs.length === 1) return;
  const title = readAs(format, names(first));
  for (const run of runs.slice(1)) {
    const lacking = missingColumns(format, names(run));
    const own = recognisedFormat(names(run));
    if (own !== null && own.name !== format.name) {
      throw new BillingInputError(
        `${run.parts[0]}: ${readAs(own, names(run))}, where ${first.parts[0]} is ${title}; the parts of one bill are one export`,
      );
    }
    if (lacking.length > 0) {
      throw new BillingInputError(
        `${run.parts[0]}: no column ${lacking.join(", ")}, which ${title} reads to tell its lines (${first.parts[0]} has ${lacking.length === 1 ? "it" : "them"}); the parts of one bill are one export`,
      );
    }
  }
  const spelled = new Map<string, { spelling: string; part: string }>();
  for (const run of runs) {
    for (const column of readColumns(format)) {
      const spelling = headerColumn(format, column, names(run));
      if (spelling === null) continue;
      const seen = spelled.get(column);
      if (seen === undefined) spelled.set(column, { spelling, part: run.parts[0] });
      else if (key(seen.spelling) !== key(spelling)) {
        throw new BillingInputError(
          `${run.parts[0]}: column ${spelling}, where ${seen.part} names it ${seen.spelling} (${title} reads either as ${column}); the parts of one bill are one export, its columns named alike`,
        );
      }
    }
  }
}
