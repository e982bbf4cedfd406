/*
 * The columns a reader may group and filter a bill's lines by once the report is open (the
 * /evaluate page's, a mailed report's): the columns `--group-by` and `--filter` take — the report's
 * dimensions' columns, the run's `method`, the tags' keys (`tag:<key>`), the export's other text
 * columns but its quantity, costs and dates — as candidates; src/billing/report/facts.ts counts
 * them and sums the lines by them.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import { identifier } from "../../duckdb/sqlText.js";
import { BILLING_FORMATS, filedColumns, headerColumn } from "../formats/knownFormats.js";
import { keyValueJson, type TagColumns, tagColumns, tagExpression, tagsJson } from "../reading/tags.js";
import { dimensionColumns, type ReportedLines, sourceOf } from "../stages/writtenLines.js";

/** A column the cube may group by, before it is counted: `rank` orders the kinds of columns. */
export interface Candidate {
  readonly name: string;
  readonly expression: string;
  /** 0 the report's dimensions and the method, 1 a tag, 2 the export's other columns. */
  readonly rank: number;
}

/**
 * The columns of the written lines a reader may group by, before they are counted: the report's
 * dimensions' columns first, the run's `method`, the tags' most frequent `maxTags` keys, then the
 * export's other text columns that are not its quantity, costs or dates.
 */
export async function cubeCandidates(
  connection: DuckDBConnection,
  written: ReportedLines,
  maxTags: number,
): Promise<Candidate[]> {
  const format = BILLING_FORMATS[written.input];
  const { header, runName } = filedColumns(written.header, written.renamed);
  const text = written.text;
  const runNames = (names: readonly string[]) =>
    names.flatMap((name) => {
      const found = headerColumn(format, name, header);
      return found === null ? [] : [runName(found)];
    });
  const measured = new Set(runNames([...format.numbers, ...format.dates]));
  const dimensions = runNames(dimensionColumns(written.input));
  const nested = new Set(written.header.filter((column) => !text.has(column)));
  const tags = tagColumns(header, written.header, nested);
  const tagHolders = new Set([...tags.objects, ...tags.keyValues].map(({ column }) => column));
  const own = written.header.filter(
    (column) => text.has(column) && !measured.has(column) && !tagHolders.has(column),
  );
  // A column of the file named like the run's (kept as input_method) keeps the run's name for it
  const named = (column: string) => {
    const name = header[written.header.indexOf(column)];
    return name.toLowerCase() === "method" ? column : name;
  };
  const ownCandidate = (rank: number) => (column: string) => ({
    name: named(column),
    expression: identifier(column),
    rank,
  });
  const candidates: Candidate[] = [
    ...own.filter((column) => dimensions.includes(column)).map(ownCandidate(0)),
    { name: "method", expression: identifier("method"), rank: 0 },
    ...(tagHolders.size === 0 ? [] : await tagCandidates(connection, written, tags, maxTags)),
    ...own.filter((column) => !dimensions.includes(column)).map(ownCandidate(2)),
  ];
  return candidates;
}

/** The most frequent keys of the tag columns holding every tag of a line (objects, key/value lists), each as a candidate `tag:<key>`. */
async function tagCandidates(
  connection: DuckDBConnection,
  written: ReportedLines,
  tags: TagColumns,
  maxTags: number,
): Promise<Candidate[]> {
  const keys = [
    ...tags.objects.map(({ column, nested }) => {
      const json = tagsJson(column, nested);
      return `SELECT unnest(json_keys(${json})) AS key FROM ${sourceOf(written)} WHERE status = 'evaluated' AND json_valid(${json})`;
    }),
    ...tags.keyValues.map(({ column, nested }) => {
      const json = keyValueJson(column, nested);
      return `SELECT unnest(json_extract_string(${json}, '$[*].key')) AS key FROM ${sourceOf(written)}
        WHERE status = 'evaluated' AND json_valid(${json}) AND LEFT(${json}, 1) = '['`;
    }),
  ];
  const reader = await connection.runAndReadAll(
    `SELECT key, COUNT(*) AS lines FROM (${keys.join(" UNION ALL ")}) WHERE key IS NOT NULL
     GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT ${maxTags}`,
  );
  const holders = { ...tags, perTag: [] };
  return reader.getRowObjects().map((row) => {
    const key = String(row.key);
    return {
      name: `tag:${key}`,
      expression: tagExpression(holders, key) ?? "CAST(NULL AS VARCHAR)",
      rank: 1,
    };
  });
}
