/*
 * Nesting depth of GraphQL documents and of values parsed elsewhere, measured before anything
 * walks them: graphql-js's recursive descent and the walks over variables recurse once per level,
 * so a text nested thousands of levels deep would overflow the stack (a 500) instead of being
 * refused (MAX_NESTING_DEPTH). A JSON text's nesting is measured by its scan (jsonScan.ts).
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
