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

/** The bounds one scan of a JSON text checks before anything parses it. */
export interface JsonBounds {
  /** Levels of nesting of objects and lists. */
  readonly depth: number;
  /** Members of one object. */
  readonly members: number;
  /**
   * Entries of one list: a longer one is counted, not refused (JsonScan's `longLists`), so that
   * its refusal can name its field; a parser may leave it unbuilt.
   */
  readonly entries: number;
}

const UNBOUNDED = Number.POSITIVE_INFINITY;

/** Whether JSON text nests objects and lists more than `max` levels deep (strings skipped). */
export function jsonNestingExceeds(text: string, max: number): boolean {
  const bounds = { depth: max, members: UNBOUNDED, entries: UNBOUNDED };
  return jsonBoundPassed(text, bounds, newJsonScan(), text.length) === "depth";
}

/** Where a scan of JSON text stands: the next index, the depth there, inside a string or not. */
export interface JsonScan {
  at: number;
  depth: number;
  inString: boolean;
  /** Per open container, the innermost last: an object's commas so far, or -1 less a list's. */
  readonly commas: number[];
  /** Per open container, the innermost last: the index of its opening bracket. */
  readonly opened: number[];
  /** The lists of more than `JsonBounds.entries` entries, by the index of their `[`. */
  readonly longLists: Map<number, LongList>;
}

/** A list longer than a scan's bound: its entries and the index after its `]`. */
export interface LongList {
  readonly entries: number;
  readonly end: number;
}

export function newJsonScan(): JsonScan {
  return { at: 0, depth: 0, inString: false, commas: [], opened: [], longLists: new Map() };
}

/** The bounds whose passing refuses a text (JsonBounds). */
export type JsonRefusal = Exclude<keyof JsonBounds, "entries">;

/** The bound a JSON text passes; null when it passes none. */
export type JsonBound = JsonRefusal | null;

/**
 * The first bound JSON text passes, scanned from `scan` up to index `until` (or the text's end),
 * the scan moved on (a long text is scanned in steps, each in a turn of its own): nesting deeper or
 * an object with more members than `bounds`; the lists with more entries are recorded in the scan
 * (commas counted, strings skipped).
 */
export function jsonBoundPassed(text: string, bounds: JsonBounds, scan: JsonScan, until: number): JsonBound {
  let { depth, inString } = scan;
  const { commas, opened, longLists } = scan;
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
      if (top < 0) continue;
      if (commas[top] < 0) commas[top]--;
      else if (++commas[top] >= bounds.members) return "members";
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > bounds.depth) return "depth";
      commas.push(c === OPEN_BRACE ? 0 : -1);
      opened.push(i);
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
      // A list's entries are its commas and one (a list of more than one entry has a comma)
      const entries = -(commas.pop() ?? 0);
      const at = opened.pop() ?? 0;
      if (c === CLOSE_BRACKET && entries > bounds.entries) longLists.set(at, { entries, end: i + 1 });
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
