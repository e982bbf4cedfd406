/*
 * The billing pipeline as one script for an engine (`impact-service sql`): the steps a run takes on
 * DuckDB, in order, each a query of sql/ (composed as the command composes it: src/billing/queries.ts)
 * rendered for the engine (render.ts, dialects.ts). The lines script's last statement stores
 * billing_result: one row per line of billing_export, `line_id` first, then the command's output
 * columns under its names; the keys script's stores billing_line_kinds, the distinct kinds of lines
 * `impact-service tables` builds the small tables from.
 *
 * The export's own columns are listed from its header: the script names each (renamed as the
 * command renames it, src/billing/stages/read.ts), adds the columns of its format's query it lacks
 * (empty) and the machine type hint, and keeps `line_id`, the only order a line has on an engine
 * that joins in parallel.
 */

import type { Cell } from "../../duckdb/database.js";
import { identifier } from "../../duckdb/sqlText.js";
import { LINE_COLUMNS, linesQueryOf, usageQueryOf } from "../formats/format.js";
import {
  aliasedColumns,
  type BillingFormat,
  decidingFileColumns,
  emptyAsNone,
  headerColumn,
} from "../formats/knownFormats.js";
import { gridQuery, impactsQuery, keysQuery, sqlQuery } from "../queries.js";
import { REGISTRY_TABLES, type RegistryTable } from "../registry/sqlTables.js";
import { exportAddedColumns, KIND_SUMS, lineKindsQuery } from "../stages/classify.js";
import { SMALL_TABLE_COLUMNS } from "../stages/lookUp.js";
import { addedColumns, inputColumnNames, lineTuple } from "../stages/read.js";
import { smallTableFiles, sourceColumn } from "../stages/write.js";
import { CANONICAL_TYPES, type Dialect, type TupleHashing } from "./dialects.js";
import { columnReader, type ExportHeader, formatHeader } from "./header.js";
import { rendered, tablesRead, tokens } from "./render.js";

/** The column every line of billing_export carries: its number, the result's order. */
export const LINE_ID = "line_id";

export interface ScriptRequest {
  readonly dialect: Dialect;
  readonly format: BillingFormat;
  /** The export's columns as its table names them (line_id apart), records whole. */
  readonly header: ExportHeader;
  readonly impactColumns: readonly string[];
  /** With a grid series' tables (grid_zone, grid_spans, grid_knots). */
  readonly grid: boolean;
  /** The column (of the format's header) holding Google Cloud lines' machine type (--instance-type-column). */
  readonly typeHintColumn: string | null;
}

/** A step of a script: a query of sql/ (canonical), what it is stored as, and the tables it reads otherwise. */
interface Step {
  readonly name: string;
  readonly query: string;
  readonly kind: "view" | "table" | "result";
  readonly tables?: ReadonlyMap<string, string>;
  /**
   * A view written only in the WITH list of each step reading it, whatever the dialect's shape: on
   * DuckDB each view stored over the export's file is bound on creation, its file sniffed again
   * (about 1 s a view for 1,000,000 real-width lines, bench/README.md).
   */
  readonly inline?: boolean;
  /** The views of its WITH list, where they are not the script's own (the tuples' classification). */
  readonly with?: readonly Step[];
}

const EXPORT_VIEW = "billing_export_read";

/**
 * The export as the format's query reads it: its columns (renamed as the output renames them),
 * then what the command's view adds (src/billing/stages/classify.ts: the columns the file spells otherwise
 * under the query's names, those it lacks, the hint, billing_amortised), and line_id.
 */
function exportQuery(request: ScriptRequest): string {
  const { columns } = request.header;
  const names = inputColumnNames(columns, request.impactColumns);
  // An empty text in a column that tells what a line is reads as none, as the command's CSV reader
  // gives an empty cell (Hive's and Athena's give an empty text): the file's own column and a
  // record's field or a column read under another name alike (decidingColumns)
  const deciding = decidingFileColumns(request.format, formatHeader(request.header));
  const own = columns.map((column, index) => {
    const cell = deciding.has(column) ? emptyAsNone(`e.${identifier(column)}`) : `e.${identifier(column)}`;
    return names[index] === column && !deciding.has(column) ? cell : `${cell} AS ${identifier(names[index])}`;
  });
  const fields = columnReader(request.header);
  const read = (column: string) => (deciding.has(column) ? emptyAsNone(fields(column)) : fields(column));
  const hint =
    request.typeHintColumn === null
      ? "CAST(NULL AS VARCHAR)"
      : `NULLIF(TRIM(CAST(${read(request.typeHintColumn)} AS VARCHAR)), '')`;
  // A record's fields are read under the format's names (service_description): none is a column of its own
  const added = exportAddedColumns(request.format, formatHeader(request.header), hint, read);
  return `SELECT ${[...own, added, `e.${LINE_ID}`].join(",\n  ")}
FROM billing_export e`;
}

/** A cell of the registry as a literal every engine reads as its column's type (numbers as doubles). */
function cellLiteral(cell: Cell, type: "VARCHAR" | "DOUBLE"): string {
  if (cell === null) return `CAST(NULL AS ${type})`;
  if (typeof cell === "number") return `CAST(${cell.toExponential()} AS DOUBLE)`;
  return `CAST('${String(cell).replaceAll("'", "''")}' AS VARCHAR)`;
}

/**
 * A registry table as a query of its rows written out (the registry is the same for every bill):
 * one VALUES list, or where the engine has none (BigQuery) a UNION ALL of one-row SELECTs.
 */
function registryQuery(table: RegistryTable, values: boolean): string {
  const rows = table.rows;
  if (values) {
    const tuples = rows.map(
      (row) => `(${table.columns.map(([, type], index) => cellLiteral(row[index], type)).join(", ")})`,
    );
    return `SELECT * FROM (VALUES\n${tuples.join(",\n")}\n) AS registry_rows(${table.columns.map(([column]) => column).join(", ")})`;
  }
  return rows
    .map(
      (row) =>
        `SELECT ${table.columns.map(([column, type], index) => `${cellLiteral(row[index], type)} AS ${column}`).join(", ")}`,
    )
    .join("\nUNION ALL\n");
}

/** The registry's tables as the keys script names them (the lines script reads the files `tables --keys` writes). */
const carried = (name: string) => `keys_${name}`;

/**
 * The steps from the export to billing_classified (each line's method, hours and region key). The
 * keys script (`carryRegistry`) carries the registry's tables itself: it runs before any small table
 * exists; the units a bill spells beyond the documented ones are read by `tables --keys`.
 */
function classifiedSteps(request: ScriptRequest, carryRegistry = false): Step[] {
  const registry = new Map(carryRegistry ? REGISTRY_TABLES.map(({ name }) => [name, carried(name)]) : []);
  return [
    ...(carryRegistry
      ? REGISTRY_TABLES.map(
          (table): Step => ({
            name: carried(table.name),
            query: registryQuery(table, request.dialect.valuesLists),
            kind: "view",
          }),
        )
      : []),
    { name: EXPORT_VIEW, query: exportQuery(request), kind: "view" },
    {
      name: "billing_lines",
      query: sqlQuery(linesQueryOf(request.format)),
      kind: "view",
      tables: new Map([["billing_export", EXPORT_VIEW]]),
    },
    { name: "billing_usage", query: sqlQuery(usageQueryOf(request.format)), kind: "view" },
    {
      name: "billing_methods",
      query: sqlQuery("classify/billing_methods.sql"),
      kind: "view",
      tables: registry,
    },
    {
      name: "billing_classified",
      query: sqlQuery("classify/billing_classified.sql"),
      kind: "view",
      tables: registry,
    },
  ];
}

/** The result's columns: line_id, the export's (renamed), then those the command adds, from their source. */
function resultQuery(request: ScriptRequest, from: string): string {
  const names = inputColumnNames(request.header.columns, request.impactColumns).map(identifier);
  const added = addedColumns(request.impactColumns, request.grid).map(({ name }) => ({
    name: identifier(name),
    source: identifier(sourceColumn(name, request.impactColumns, request.grid)),
  }));
  const selected = added.map(({ name, source }) => (source === name ? name : `${source} AS ${name}`));
  const { order } = request.dialect;
  if (order === "positional") {
    // The export's own columns as the file has them (an empty text stays one), under the run's names
    const own = request.header.columns.map((column, index) =>
      identifier(column) === names[index]
        ? `e.${names[index]}`
        : `e.${identifier(column)} AS ${names[index]}`,
    );
    return positionalResult(own, added, selected, from);
  }
  return `SELECT ${[LINE_ID, ...names, ...selected].join(",\n  ")}
FROM ${from}${order === "sorted" ? `\nORDER BY ${LINE_ID}` : ""}`;
}

/**
 * The result in line_id's order with only the computed columns sorted (DuckDB): the export's lines
 * read again in their order, as the file has them (an empty text stays one), each set beside its
 * computed columns by position. Reading the export
 * in line_id's order is what makes the positions the lines': a line whose line_id is not its
 * computed row's stops the read with an error rather than pair two lines.
 */
function positionalResult(
  own: readonly string[],
  added: readonly { readonly name: string }[],
  selected: readonly string[],
  from: string,
): string {
  const checked = `CASE WHEN e.${LINE_ID} = d.${LINE_ID} THEN e.${LINE_ID} ELSE error('billing_export is not read in line_id''s order') END AS ${LINE_ID}`;
  return `SELECT ${[checked, ...own, ...added.map(({ name }) => `d.${name}`)].join(",\n  ")}
FROM billing_export e
POSITIONAL JOIN (
  SELECT ${[LINE_ID, ...selected].join(", ")}
  FROM ${from}
  ORDER BY ${LINE_ID}
) d`;
}

/** The lines script's steps: the export's lines to billing_result. */
function lineSteps(request: ScriptRequest): Step[] {
  const classified = classifiedSteps(request);
  const hashing = request.dialect.classifiedOnce;
  if (hashing === null) return [...classified, ...stepsAfterClassified(request, "billing_classified")];
  const later = stepsAfterClassified(request, CLASSIFIED_LINES);
  // Read once, by the stored classified lines and the result: none stored as a view
  const inline = classified.map((step): Step => ({ ...step, inline: true }));
  const columns = classifiedColumnsRead(request, classified, later);
  const exported = exportReadColumns(request, classified);
  const tuple = describingColumns(request, exported, columns);
  if (request.dialect.order !== "positional") {
    if (tuple === null) return [...classified, ...stepsAfterClassified(request, "billing_classified")];
    // The lookup table's keys are the tuples' (every tuple has its lines)
    const keysRead = tokens(keysQuery(request.impactColumns)).map((token) => nameOf(token).toLowerCase());
    const kinds = columns.some(
      (column) => keysRead.includes(column.toLowerCase()) && ownOfLine(column, exported),
    )
      ? CLASSIFIED_LINES
      : TUPLE_CLASSES;
    return [
      ...inline,
      ...joinedTupleSteps(request, classified, exported, tuple, columns, hashing),
      ...stepsAfterClassified(request, CLASSIFIED_LINES, kinds),
    ];
  }
  const stored =
    tuple === null
      ? [
          {
            name: CLASSIFIED_LINES,
            query: selectFrom([LINE_ID, ...columns], "billing_classified"),
            kind: "table",
          } as const,
        ]
      : tupleSteps(classified, exported, tuple, columns, hashing);
  return [...inline, ...stored, ...later];
}

/** The steps from billing_classified (stored as `classified`) to billing_result. */
function stepsAfterClassified(request: ScriptRequest, classified: string, kinds = classified): Step[] {
  const { impactColumns, grid } = request;
  const keys = grid ? "billing_grid_keys" : "billing_keys";
  const gridSteps: Step[] = grid
    ? [
        { name: "billing_evaluated", query: impactsQuery(impactColumns), kind: "view" },
        // The order of the bill's dates of day and month, from every line, as the command reads it
        { name: "billing_date_order", query: sqlQuery("evaluate/billing_date_order.sql"), kind: "table" },
        { name: "billing_timed", query: sqlQuery("evaluate/billing_periods.sql"), kind: "view" },
        { name: "billing_grid_located", query: sqlQuery("evaluate/billing_grid_knots.sql"), kind: "view" },
        { name: "billing_output", query: gridQuery(impactColumns), kind: "view" },
      ]
    : [{ name: "billing_output", query: impactsQuery(impactColumns), kind: "view" }];
  return [
    {
      name: "billing_keys",
      query: keysQuery(impactColumns),
      kind: "table",
      // The command groups the lines into kinds first; their distinct keys are the same.
      tables: new Map([["billing_line_kinds", kinds]]),
    },
    ...(grid
      ? [
          {
            name: "billing_grid_keys",
            query: sqlQuery("lookup/billing_grid_keys.sql"),
            kind: "table",
          } as const,
        ]
      : []),
    {
      name: "billing_located",
      query: sqlQuery("evaluate/billing_located.sql"),
      kind: "view",
      tables: new Map([
        ["billing_keys", keys],
        ["billing_classified", classified],
      ]),
    },
    ...gridSteps,
    { name: "billing_result", query: resultQuery(request, "billing_output"), kind: "result" },
  ];
}

/** The classified lines stored once (Dialect.classifiedOnce). */
const CLASSIFIED_LINES = "billing_classified_lines";

/** A name token's text, unquoted. */
const nameOf = (token: { readonly kind: string; readonly text: string }) =>
  token.kind === "name" ? token.text.slice(1, -1).replaceAll('""', '"') : token.text;

/** The names a query reads or gives (its words and quoted names), lower case as the engines read them. */
const namesIn = (query: string) =>
  tokens(query)
    .filter((token) => token.kind === "word" || token.kind === "name")
    .map((token) => nameOf(token).toLowerCase());

/**
 * The columns steps give, by lower case (the engines read names so), as first spelled: `own`
 * (the export's, as billing_export_read names them) and each name after AS, type names apart.
 */
function namesGiven(steps: readonly Step[], own: readonly string[]): Map<string, string> {
  const types = new Set<string>(CANONICAL_TYPES.map((type) => type.toLowerCase()));
  const given = new Map<string, string>();
  const give = (name: string) => {
    if (!types.has(name.toLowerCase()) && !given.has(name.toLowerCase())) given.set(name.toLowerCase(), name);
  };
  own.forEach(give);
  for (const step of steps) {
    const words = tokens(step.query).filter((token) => token.kind !== "space" && token.kind !== "comment");
    words.forEach((token, index) => {
      const after = index > 0 && words[index - 1].text.toUpperCase() === "AS";
      if (after && (token.kind === "word" || token.kind === "name")) give(nameOf(token));
    });
  }
  return given;
}

/** billing_export_read's columns: the export's own (renamed), those its query adds, line_id. */
function exportReadColumns(request: ScriptRequest, classified: readonly Step[]): string[] {
  const own = inputColumnNames(request.header.columns, request.impactColumns);
  return [
    ...namesGiven(
      classified.filter((step) => step.name === EXPORT_VIEW),
      [...own, LINE_ID],
    ).values(),
  ];
}

/**
 * The classified lines stored once, narrow: line_id and each column of billing_classified a later
 * step names. billing_classified's columns are the export's and those its steps name after AS
 * (each step reads the one before whole, `x.*`); a later step's word that is one of them is read.
 * The result (positional: the export's own columns read from the export) reads the columns it adds.
 * A column named in passing is stored for nothing; one left out stops the script (its name unbound).
 */
function classifiedColumnsRead(
  request: ScriptRequest,
  classified: readonly Step[],
  later: readonly Step[],
): string[] {
  const positional = request.dialect.order === "positional";
  const read = new Set([
    ...later.filter((step) => step.kind !== "result" || !positional).flatMap((step) => namesIn(step.query)),
    ...addedColumns(request.impactColumns, request.grid).map(({ name }) =>
      sourceColumn(name, request.impactColumns, request.grid).toLowerCase(),
    ),
  ]);
  return [...namesGiven(classified, exportReadColumns(request, classified))]
    .filter(([lower]) => read.has(lower) && lower !== LINE_ID)
    .map(([, name]) => name);
}

const selectFrom = (columns: readonly string[], from: string) =>
  `SELECT ${columns.map((column) => (column === LINE_ID ? column : identifier(column))).join(", ")}\nFROM ${from}`;

/** The export's distinct tuples of describing columns (DuckDB's classified lines, tupleSteps). */
const TUPLES = "billing_export_tuples";
const TUPLE_CLASSES = "billing_tuple_classes";
const LINE_TUPLES = "billing_line_tuples";

/**
 * The export's describing columns as billing_export_read names them (src/billing/stages/read.ts,
 * lineTuple: what the command classifies once per tuple), or null where they are not plain
 * columns of it (a record's fields: each line is classified).
 */
function describingColumns(
  request: ScriptRequest,
  exported: readonly string[],
  read: readonly string[],
): string[] | null {
  const { header, format } = request;
  if (header.records.size > 0) return null;
  const names = inputColumnNames(header.columns, request.impactColumns);
  if (format.numbers.length === 0 || headerColumn(format, format.numbers[0], header.columns) === null)
    return null;
  const { columns } = lineTuple(format, header.columns, names, request.typeHintColumn);
  // A column of the export read later is a line's own, not its tuple's: where the lines' tuples
  // are stored, the export's columns are read again only by the result
  const readOwn =
    request.dialect.order === "positional" &&
    read.some((column) => exported.includes(column) && !LINE_COLUMNS.includes(column));
  return columns.length > 0 && !readOwn && columns.every((column) => exported.includes(column))
    ? [...columns]
    : null;
}

/**
 * The classified lines as the command gets them (src/billing/stages/evaluate.ts): the format's
 * queries run once per distinct tuple of describing columns, not on every line; each line then
 * reads its tuple's classes by the tuple's hash (two tuples sharing one stop the script), and its
 * own quantity, costs, account, resource and period from the format's first two queries (whose
 * other expressions DuckDB leaves unevaluated). A tuple's other columns are one of its lines'.
 *
 * Two from joinedTupleSteps, for what each engine does cheaply: DuckDB reads the lines in their
 * order and pairs the result by position, so each line's tuple is stored once and a tuple's other
 * columns are any line's (MIN); Spark and Trino group texts by hash but sort every line for a MIN
 * of a text, so there the tuples are DISTINCT with the lines' own columns left NULL, and the lines
 * are joined as they are read. What the two share is one function each (tupleViewsOf,
 * tupleClasses, linesWithClasses, checkedLine).
 */
function tupleSteps(
  classified: readonly Step[],
  exported: readonly string[],
  tuple: readonly string[],
  columns: readonly string[],
  hashing: TupleHashing,
): Step[] {
  const others = exported.filter((column) => !tuple.includes(column));
  const hashed = hashing.hash(tuple.map(identifier));
  const perLine = columns.filter((column) => LINE_COLUMNS.includes(column));
  const ofTuple = columns.filter((column) => !LINE_COLUMNS.includes(column));
  const tupleViews = tupleViewsOf(classified);
  const tuples = `SELECT ${[...tuple.map(identifier), ...others.map((column) => `MIN(${identifier(column)}) AS ${identifier(column)}`)].join(", ")}
FROM ${EXPORT_VIEW}
GROUP BY ${tuple.map(identifier).join(", ")}`;
  const classes = tupleClasses(hashed, ofTuple);
  const checked = checkedLine(hashing);
  // Each line's tuple stored, not its tuple's classes: a 1,000,000-line export's classes held 841 MB
  const lineTuples = `SELECT ${LINE_ID}, ${hashed} AS billing_tuple${perLine.map((column) => `, ${identifier(column)}`).join("")}
FROM billing_usage`;
  const lines = linesWithClasses(checked, perLine, ofTuple, LINE_TUPLES);
  return [
    { name: TUPLES, query: tuples, kind: "table" },
    { name: TUPLE_CLASSES, query: classes, kind: "table", with: tupleViews },
    { name: LINE_TUPLES, query: lineTuples, kind: "table" },
    { name: CLASSIFIED_LINES, query: lines, kind: "view" },
  ];
}

/**
 * The format's queries as the tuples' classes are made: every classifying step but the export's
 * view and the registry's carried tables, `billing_lines` reading the tuples for the export.
 */
const tupleViewsOf = (classified: readonly Step[]): Step[] =>
  classified
    .filter((step) => step.name !== EXPORT_VIEW && !step.name.startsWith(carried("")))
    .map(
      (step): Step =>
        step.name === "billing_lines" ? { ...step, tables: new Map([["billing_export", TUPLES]]) } : step,
    );

/**
 * Each line of `lineTuples` (its line_id, tuple hash and own columns) beside its tuple's classes;
 * `hint` opens the select list (an engine's join hint).
 */
const linesWithClasses = (
  checked: string,
  perLine: readonly string[],
  ofTuple: readonly string[],
  lineTuples: string,
  hint = "",
) => `SELECT ${hint}${[checked, ...perLine.map((column) => `l.${identifier(column)}`), ...ofTuple.map((column) => `t.${identifier(column)}`)].join(", ")}
FROM ${lineTuples} l
JOIN ${TUPLE_CLASSES} t ON t.billing_tuple = l.billing_tuple`;

/** The tuples' classes, each under its tuple's hash, with how many tuples share that hash. */
const tupleClasses = (hashed: string, ofTuple: readonly string[]) =>
  `SELECT ${hashed} AS billing_tuple, COUNT(*) OVER (PARTITION BY ${hashed}) AS billing_tuples_hashed,
  ${ofTuple.map(identifier).join(", ")}
FROM billing_classified`;

/** A line's line_id, or the script stopped where its tuple's hash is another tuple's too. */
const checkedLine = (hashing: TupleHashing) =>
  `CASE WHEN t.billing_tuples_hashed = 1 THEN l.${LINE_ID} ELSE ${hashing.error}('two tuples of billing_export share a hash') END AS ${LINE_ID}`;

/**
 * The columns a line gives itself rather than its tuple: the export's own (where the lines keep
 * them), its quantity, costs, account, resource and period, and the costs the kinds of lines sum.
 */
const PER_LINE = new Set([...LINE_COLUMNS, ...KIND_SUMS]);
const ownOfLine = (column: string, exported: readonly string[]) =>
  exported.includes(column) || PER_LINE.has(column);

/**
 * Whether a column of billing_export_read that is not a describing one is the same for every line
 * of a tuple: one the export's query adds (a column the file spells otherwise under the query's
 * name, one it lacks, the hint, billing_amortised) from describing columns or none. The export's
 * own columns apart from those are the lines' (quantity, costs, identities, dates).
 */
function tupleDetermined(request: ScriptRequest, tuple: readonly string[]): (column: string) => boolean {
  const { columns } = request.header;
  const names = inputColumnNames(columns, request.impactColumns);
  const aliasOf = new Map(
    aliasedColumns(request.format, columns).map(([spelled, name]) => [name, names[columns.indexOf(spelled)]]),
  );
  return (column) => {
    const source = aliasOf.get(column);
    return !names.includes(column) && (source === undefined || tuple.includes(source));
  };
}

/**
 * The classified lines as the command gets them, each line joined to its tuple's classes as it is
 * read (Spark): the format's queries run once per distinct tuple of describing columns; each line
 * then computes its tuple's hash, its quantity and costs (the format's first two queries, whose
 * other expressions the engine leaves out) and keeps the export's columns the result writes,
 * joined by the hash to the tuples' classes (a small table, broadcast: the lines are not
 * shuffled). The tuples are the distinct describing columns and the columns they determine, the
 * lines' own columns the format's queries name set NULL (only the lines' values of those are
 * read): Spark groups texts by hash, but MIN or FIRST of a text sorts every line (a sort aggregate).
 */
function joinedTupleSteps(
  request: ScriptRequest,
  classified: readonly Step[],
  exported: readonly string[],
  tuple: readonly string[],
  columns: readonly string[],
  hashing: TupleHashing,
): Step[] {
  const tupleViews = tupleViewsOf(classified);
  const named = new Set(tupleViews.flatMap((step) => namesIn(step.query)));
  const others = exported.filter((column) => !tuple.includes(column) && named.has(column.toLowerCase()));
  const ofTupleAlone = tupleDetermined(request, tuple);
  const tuples = `SELECT DISTINCT ${[
    ...tuple.map(identifier),
    ...others.map((column) =>
      ofTupleAlone(column)
        ? identifier(column)
        : `CASE WHEN FALSE THEN ${identifier(column)} END AS ${identifier(column)}`,
    ),
  ].join(", ")}
FROM ${EXPORT_VIEW}`;
  const hashed = hashing.hash(tuple.map(identifier));
  const perLine = columns.filter((column) => ownOfLine(column, exported));
  const ofTuple = columns.filter((column) => !ownOfLine(column, exported));
  const lineTuples = `(
  SELECT ${LINE_ID}, ${hashed} AS billing_tuple${perLine.map((column) => `, ${identifier(column)}`).join("")}
  FROM billing_usage
)`;
  const lines = linesWithClasses(
    checkedLine(hashing),
    perLine,
    ofTuple,
    lineTuples,
    hashing.broadcastClasses,
  );
  return [
    { name: TUPLES, query: tuples, kind: "table" },
    { name: TUPLE_CLASSES, query: tupleClasses(hashed, ofTuple), kind: "table", with: tupleViews },
    { name: CLASSIFIED_LINES, query: lines, kind: "view" },
  ];
}

/** The keys script's steps: the export's kinds of lines to billing_line_kinds. */
function keySteps(request: ScriptRequest): Step[] {
  const classified = classifiedSteps(request, true);
  const kinds: Step = {
    name: "billing_line_kinds",
    query: lineKindsQuery({ sum: "SUM", lineCount: "COUNT(*)" }),
    kind: "result",
  };
  const hashing = request.dialect.classifiedOnce;
  // DuckDB's keys script reads the export once, each line classified: not yet by tuple
  if (hashing === null || request.dialect.order === "positional") return [...classified, kinds];
  const exported = exportReadColumns(request, classified);
  const read = new Set(namesIn(kinds.query));
  const columns = [...namesGiven(classified, exported)]
    .filter(([lower]) => read.has(lower) && lower !== LINE_ID)
    .map(([, name]) => name);
  const tuple = describingColumns(request, exported, columns);
  if (tuple === null) return [...classified, kinds];
  const registry = classified.filter((step) => step.name.startsWith(carried("")));
  const inline = classified
    .filter((step) => !registry.includes(step))
    .map((step): Step => ({ ...step, inline: true }));
  return [
    ...registry,
    ...inline,
    ...joinedTupleSteps(request, classified, exported, tuple, columns, hashing),
    { ...kinds, tables: new Map([["billing_classified", CLASSIFIED_LINES]]) },
  ];
}

/** The tables a step reads, as the script names them. */
function stepReads(step: Step): string[] {
  return tablesRead(step.query).map((table) => step.tables?.get(table) ?? table);
}

/** The views a step reads, itself or through other views, in the script's order. */
function viewsRead(step: Step, views: readonly Step[]): Step[] {
  const wanted = new Set(stepReads(step));
  for (const view of [...views].reverse()) {
    if (wanted.has(view.name)) for (const table of stepReads(view)) wanted.add(table);
  }
  return views.filter((view) => wanted.has(view.name));
}

/** A step's query for the engine; with the `with` shape, the views it reads as its WITH list. */
function stepStatements(dialect: Dialect, step: Step, views: readonly Step[]): string[] {
  const query = (of: Step) => rendered(of.query, { dialect, tables: of.tables });
  const inline = views.filter((view) => view.inline);
  const withList = (read: readonly Step[]) =>
    read.length > 0
      ? `WITH\n${read.map((view) => `${view.name} AS (\n${query(view)}\n)`).join(",\n")}\n`
      : "";
  if (step.kind === "view")
    return dialect.shape === "views" && step.inline !== true
      ? dialect.view(step.name, `${withList(viewsRead(step, inline))}${query(step)}`)
      : [];
  const read = step.with ?? viewsRead(step, dialect.shape === "with" ? views : inline);
  const write = step.kind === "table" ? dialect.table : dialect.result;
  return write(step.name, `${withList(read)}${query(step)}`);
}

/** The tables a script reads, as its opening comment lists them. */
function expectedTables(request: ScriptRequest, keys: boolean): string[] {
  const exported = `--   billing_export: the export as it is (text or typed) and ${LINE_ID}, each line's number`;
  if (keys) return [exported];
  const typed = (table: string) =>
    (SMALL_TABLE_COLUMNS as Record<string, readonly (readonly [string, string])[]>)[table]
      ?.filter(([, type]) => type !== "VARCHAR")
      .map(([column, type]) => `${column} ${request.dialect.types[type as "DOUBLE"]}`) ?? [];
  const small = smallTableFiles(request.grid)
    .filter((file) => file.table !== "coefficients")
    .map((file) => {
      const types = typed(file.table);
      return `--   ${file.table}: ${file.file}${types.length > 0 ? ` (${types.join(", ")})` : ""}`;
    });
  return [
    exported,
    "--   coefficients: `impact-service coefficients --format parquet`, method_coefficients.parquet's rows appended",
    ...small,
  ];
}

/** The script for the engine: the keys script (`keys`) or the lines script. */
export function billingScript(request: ScriptRequest, keys: boolean): string {
  const steps = keys ? keySteps(request) : lineSteps(request);
  const statements: string[] = [];
  const views: Step[] = [];
  for (const step of steps) {
    statements.push(...stepStatements(request.dialect, step, views));
    if (step.kind === "view") views.push(step);
  }
  const last = steps[steps.length - 1].name;
  const opening = [
    `-- impact-service sql: ${request.format.title} ${keys ? "kinds of lines" : "lines with their impacts"} on ${request.dialect.title}, stored as ${last}.`,
    '-- Reads the tables (docs/billing.md, "Beyond one machine"):',
    ...expectedTables(request, keys),
  ].join("\n");
  return `${opening}\n\n${statements.map((statement) => `${statement};`).join("\n\n")}\n`;
}
