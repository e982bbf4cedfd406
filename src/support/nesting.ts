/*
 * Nesting depth of request texts, measured by one linear scan before anything parses them: the
 * parsers and everything after them (graphql-js's recursive descent, JSON.stringify of a 422's
 * echoed input, the walks over variables) recurse once per level, so a text nested thousands of
 * levels deep would overflow the stack (a 500) instead of being refused (MAX_NESTING_DEPTH).
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const HASH = 0x23;
const LINE_FEED = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const OPEN_PAREN = 0x28;
const CLOSE_PAREN = 0x29;
const COMMA = 0x2c;

/**
 * Members of one JSON object, at most: past it, a body is refused before it is parsed. Listing an
 * object's keys is one stretch of the main thread that no turn can cut (for…in, Object.keys,
 * graphql-js's check of unknown fields): 700,000 keys in an 8 MB body took 0.3–1.3 s. The widest
 * object an input has is a server's, about 30 fields (a fixed bound: no legitimate body nears it).
 */
export const MAX_OBJECT_MEMBERS = 1_000;

/** Whether JSON text nests objects and lists more than `max` levels deep (strings skipped). */
export function jsonNestingExceeds(text: string, max: number): boolean {
  return jsonBoundPassed(text, max, Number.POSITIVE_INFINITY, newJsonScan(), text.length) === "depth";
}

/** Where a scan of JSON text stands: the next index, the depth there, inside a string or not. */
export interface JsonScan {
  at: number;
  depth: number;
  inString: boolean;
  /** Per open container, the innermost last: its commas so far when an object, -1 when a list. */
  readonly commas: number[];
}

export function newJsonScan(): JsonScan {
  return { at: 0, depth: 0, inString: false, commas: [] };
}

/** The bound a JSON text passes: its nesting, an object's members; null when it passes neither. */
export type JsonBound = "depth" | "members" | null;

/**
 * The first bound JSON text passes, scanned from `scan` up to index `until` (or the text's end),
 * the scan moved on (a long text is scanned in steps, each in a turn of its own): nesting more than
 * `max` levels deep, or an object of more than `maxMembers` members (its commas counted).
 */
export function jsonBoundPassed(
  text: string,
  max: number,
  maxMembers: number,
  scan: JsonScan,
  until: number,
): JsonBound {
  let { depth, inString } = scan;
  const { commas } = scan;
  const end = Math.min(until, text.length);
  let i = scan.at;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === COMMA) {
      const top = commas.length - 1;
      if (top >= 0 && commas[top] >= 0 && ++commas[top] >= maxMembers) return "members";
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return "depth";
      commas.push(c === OPEN_BRACE ? 0 : -1);
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      commas.pop();
    }
  }
  scan.at = i;
  scan.depth = depth;
  scan.inString = inString;
  return null;
}

/**
 * Whether a GraphQL document nests selection sets, arguments and list or object values (`{`,
 * `(`, `[`) more than `max` levels deep. Strings, block strings and comments are skipped; an
 * unterminated one ends the scan (the parser then reports the syntax error).
 */
export function documentNestingExceeds(source: string, max: number): boolean {
  let depth = 0;
  const length = source.length;
  for (let i = 0; i < length; i++) {
    const c = source.charCodeAt(i);
    if (c === HASH) {
      while (i + 1 < length && !isLineEnd(source.charCodeAt(i + 1))) i++;
    } else if (c === QUOTE) {
      i = source.startsWith('"""', i) ? blockStringEnd(source, i + 3) : stringEnd(source, i + 1);
    } else if (c === OPEN_BRACE || c === OPEN_PAREN || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_PAREN || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

function isLineEnd(c: number): boolean {
  return c === LINE_FEED || c === CARRIAGE_RETURN;
}

/** Index of the quote closing a string whose content starts at `from` (or of the text's end). */
function stringEnd(source: string, from: number): number {
  let i = from;
  while (i < source.length) {
    const c = source.charCodeAt(i);
    if (c === QUOTE || isLineEnd(c)) return i;
    i += c === BACKSLASH ? 2 : 1;
  }
  return source.length;
}

/** Index of the last quote closing a block string whose content starts at `from`. */
function blockStringEnd(source: string, from: number): number {
  let i = from;
  while (i < source.length) {
    if (source.startsWith('\\"""', i)) i += 4;
    else if (source.startsWith('"""', i)) return i + 2;
    else i++;
  }
  return source.length;
}

/**
 * Whether an already parsed value (GraphQL variables read from a query string or a form) nests
 * more than `max` levels deep: iterative, so the check itself cannot overflow.
 */
export function valueNestingExceeds(value: unknown, max: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [node, depth] = pending.pop() as [unknown, number];
    if (node === null || typeof node !== "object") continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(node)) {
      if (child !== null && typeof child === "object") pending.push([child, depth + 1]);
    }
  }
  return false;
}
