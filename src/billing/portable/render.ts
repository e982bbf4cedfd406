/*
 * A query of sql/ rendered for an engine (dialects.ts). The query is read as tokens (texts, quoted
 * names, numbers, words, symbols, comments), and only a few well-defined tokens are rewritten:
 * a type name after AS inside CAST or TRY_CAST, TRY_CAST itself, a decimal literal, a text
 * literal, a quoted name, REGEXP_EXTRACT's group argument, and the tables a query reads (after FROM
 * or JOIN) when a script names them otherwise. Everything else is written as it is. Why tokens and
 * not placeholders: the canonical files stay plain SQL that DuckDB runs as written (the command
 * and its tests read them so), and what an engine would read otherwise is a token's spelling, never
 * the shape of a query.
 *
 * What the engines do not share is refused here rather than rendered wrong: DuckDB's `::` cast,
 * `//` division, lists (`[`), and functions or clauses of DuckDB only; a REGEXP_EXTRACT whose
 * pattern is not a literal with exactly one capturing group, or whose group is not 1 (BigQuery
 * returns the one group and reads a third argument as a position).
 */

import { CANONICAL_TYPES, type CanonicalType, type Dialect } from "./dialects.js";

type TokenKind = "space" | "comment" | "text" | "name" | "number" | "word" | "symbol";

interface Token {
  readonly kind: TokenKind;
  readonly text: string;
}

/** Each token's form, tried in this order at a position (sticky: no search, no backtracking across tokens). */
const TOKEN_FORMS: readonly (readonly [TokenKind, RegExp])[] = [
  ["space", /\s+/y],
  ["comment", /--[^\n]*/y],
  ["text", /'(?:[^']|'')*'/y],
  ["name", /"(?:[^"]|"")*"/y],
  ["number", /\d+(?:\.\d+)?(?:[eE][-+]?\d+)?/y],
  ["word", /[A-Za-z_][A-Za-z0-9_]*/y],
  ["symbol", /::|\/\/|<>|<=|>=|!=|\|\||[^\sA-Za-z0-9_'"]/y],
];

export class PortabilityError extends Error {}

export function tokens(sql: string): Token[] {
  const found: Token[] = [];
  let at = 0;
  while (at < sql.length) {
    const token = nextToken(sql, at);
    found.push(token);
    at += token.text.length;
  }
  return found;
}

function nextToken(sql: string, at: number): Token {
  for (const [kind, form] of TOKEN_FORMS) {
    form.lastIndex = at;
    const match = form.exec(sql);
    if (match !== null) return { kind, text: match[0] };
  }
  throw new PortabilityError(`sql: cannot read from "${sql.slice(at, at + 20)}" (an unclosed quote?)`);
}

/** Words of DuckDB only (functions and clauses), refused in a portable query. */
const DUCKDB_ONLY = new Set([
  "EXCLUDE",
  "FSUM",
  "LIST",
  "LIST_CONTAINS",
  "ENUM_CODE",
  "PRINTF",
  "REGEXP_MATCHES",
  "EPOCH",
  "RANGE",
  "STRFTIME",
  "ILIKE",
  "STRUCT_PACK",
  "COLUMNS",
]);

const DUCKDB_ONLY_SYMBOLS = new Set(["::", "//", "[", "]"]);

/** Capturing groups of a regular expression: `(` not escaped, not `(?`, outside a bracket class. */
export function capturingGroups(pattern: string): number {
  let groups = 0;
  let inClass = false;
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === "\\") index++;
    else if (inClass) inClass = character !== "]";
    else if (character === "[") {
      inClass = true;
      // A `]` first in a class is the character itself.
      if (pattern[index + 1] === "]") index++;
    } else if (character === "(" && pattern[index + 1] !== "?") groups++;
  }
  return groups;
}

/** An open parenthesis: the function it calls (upper case; null for none), its arguments so far. */
interface Open {
  readonly call: string | null;
  commas: number;
  /** Tokens up to its `)` are left out (BigQuery's REGEXP_EXTRACT group argument). */
  dropping: boolean;
}

/** How a script reads a query: the dialect, and the tables it names otherwise. */
export interface Rendering {
  readonly dialect: Dialect;
  /** Table names read (after FROM or JOIN) → the script's names. */
  readonly tables?: ReadonlyMap<string, string>;
}

const textValue = (literal: string) => literal.slice(1, -1).replaceAll("''", "'");

/** The query rendered for the dialect. */
export function rendered(sql: string, how: Rendering): string {
  const all = tokens(sql);
  const out: string[] = [];
  const open: Open[] = [];
  let previous: Token | null = null;
  // The blanks between two tokens, written once the next token is.
  let between = "";
  for (let index = 0; index < all.length; index++) {
    const token = all[index];
    if (token.kind === "space" || token.kind === "comment") {
      // Comments are left out: the canonical files keep them, the script is what runs.
      if (token.kind === "space") between += token.text;
      continue;
    }
    const top = open.at(-1);
    const dropping = open.some((entry) => entry.dropping);
    const dropped = dropping && !(token.text === ")" && open.length === depthOfDrop(open));
    const written = renderedToken(token, {
      previous,
      top,
      how,
      next: nextSignificant(all, index),
    });
    if (token.text === "(")
      open.push({
        call: previous?.kind === "word" ? previous.text.toUpperCase() : null,
        commas: 0,
        dropping: false,
      });
    else if (token.text === ")") open.pop();
    else if (token.text === "," && top !== undefined) {
      top.commas++;
      if (top.call === "REGEXP_EXTRACT" && top.commas === 1 && nextSignificant(all, index)?.kind !== "text") {
        throw new PortabilityError("sql: REGEXP_EXTRACT's pattern is not a literal");
      }
      if (top.call === "REGEXP_EXTRACT" && top.commas === 2) {
        const group = nextSignificant(all, index);
        if (group?.text !== "1") {
          throw new PortabilityError(
            `sql: REGEXP_EXTRACT's group is ${group?.text ?? "missing"}; write one group, 1`,
          );
        }
        if (!how.dialect.regexpGroup) top.dropping = true;
      }
    }
    if (!dropped && !(top?.dropping === true && token.text === ",")) out.push(blanks(between), written);
    between = "";
    previous = token;
  }
  if (open.length > 0) throw new PortabilityError("sql: a parenthesis is not closed");
  return out.join("").trim();
}

/** Blanks between two tokens, a line left empty by a comment left out written as none. */
function blanks(text: string): string {
  const lastLine = text.lastIndexOf("\n");
  return lastLine < 0 ? text : `\n${text.slice(lastLine + 1)}`;
}

/** The tables a query reads (the names after FROM and JOIN), in order. */
export function tablesRead(sql: string): string[] {
  const words = tokens(sql).filter((token) => token.kind !== "space" && token.kind !== "comment");
  return words.flatMap((token, index) => {
    const previous = words[index - 1]?.text.toUpperCase();
    return token.kind === "word" && (previous === "FROM" || previous === "JOIN") ? [token.text] : [];
  });
}

/** The depth at which tokens are being left out. */
function depthOfDrop(open: readonly Open[]): number {
  return open.findIndex((entry) => entry.dropping) + 1;
}

function nextSignificant(all: readonly Token[], index: number): Token | undefined {
  for (let next = index + 1; next < all.length; next++) {
    if (all[next].kind !== "space" && all[next].kind !== "comment") return all[next];
  }
  return undefined;
}

interface Around {
  readonly previous: Token | null;
  readonly top: Open | undefined;
  readonly how: Rendering;
  readonly next: Token | undefined;
}

function renderedToken(token: Token, around: Around): string {
  const { dialect } = around.how;
  switch (token.kind) {
    case "text":
      checkPattern(token, around);
      return dialect.text(textValue(token.text));
    case "name":
      return dialect.quoted(token.text.slice(1, -1).replaceAll('""', '"'));
    case "number":
      return /^\d+\.\d+$/.test(token.text) ? dialect.double(token.text) : token.text;
    case "symbol":
      if (DUCKDB_ONLY_SYMBOLS.has(token.text)) {
        throw new PortabilityError(`sql: ${token.text} is DuckDB's own; write what every engine reads`);
      }
      return token.text;
    default:
      return renderedWord(token.text, around);
  }
}

function renderedWord(word: string, around: Around): string {
  const { dialect, tables } = around.how;
  const upper = word.toUpperCase();
  const previous = around.previous?.text.toUpperCase();
  if (DUCKDB_ONLY.has(upper) && around.next?.text === "(") {
    throw new PortabilityError(`sql: ${word}(…) is DuckDB's own; write what every engine reads`);
  }
  if (upper === "ALL" && previous === "BY") throw new PortabilityError("sql: BY ALL is DuckDB's own");
  if (upper === "TRY_CAST") return dialect.safeCast;
  const cast = around.top?.call === "CAST" || around.top?.call === "TRY_CAST";
  if (cast && previous === "AS" && (CANONICAL_TYPES as readonly string[]).includes(upper)) {
    return dialect.types[upper as CanonicalType];
  }
  if ((previous === "FROM" || previous === "JOIN") && tables?.has(word)) return tables.get(word) as string;
  return word;
}

/** A REGEXP_EXTRACT's pattern (its second argument): a literal with one capturing group. */
function checkPattern(token: Token, around: Around): void {
  if (around.top?.call !== "REGEXP_EXTRACT" || around.top.commas !== 1) return;
  const groups = capturingGroups(textValue(token.text));
  if (groups !== 1) {
    throw new PortabilityError(
      `sql: REGEXP_EXTRACT's pattern ${token.text} has ${groups} capturing groups; write one ((?:…) for the others)`,
    );
  }
}
