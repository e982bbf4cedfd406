/*
 * One scan of a JSON text before anything parses it, in steps a caller can spread over turns of
 * the event loop: the text's grammar checked character by character, every character (a body
 * that is not JSON is refused as not JSON at any size, whatever is built of it afterwards), the
 * bounds that protect what comes after measured (nesting, an object's members, a list's entries),
 * and the heap its parse will build estimated, so that the memory is admitted before it is spent.
 * Iterative (a kind per open level), so no text can overflow the stack here.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const LOWER_E = 0x65;
const UPPER_E = 0x45;
const LOWER_U = 0x75;

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
   * Entries of one list: a longer one is counted, not refused (the scan's `longLists`), so that
   * its refusal can name its field; a parser leaves it unbuilt, and its heap is not counted.
   */
  readonly entries: number;
}

/** The bounds whose passing refuses a text. */
export type JsonRefusal = Exclude<keyof JsonBounds, "entries">;

/** A list longer than a scan's bound: its entries and the index after its `]`. */
export interface LongList {
  readonly entries: number;
  readonly end: number;
}

/*
 * The heap V8 gives what JSON.parse (or the stepped parser, src/support/steppedJson.ts) builds, at
 * most, per piece of text (Node 26 on 64 bits, measured with --expose-gc: test/support/jsonScan.test.ts
 * checks the estimate against the heap for the shapes that cost the most per character). The
 * estimate is an upper bound: an ordinary body is estimated at 3–6 times what it takes (a
 * 10,000-server fleet of 2 MB takes 4 MB), a body of empty records at about what it takes.
 */
const HEAP = {
  /** An object: its header and the four property slots an empty `{}` is given. */
  object: 56,
  /**
   * A member: its slot, and what a key new to the process costs (its internalized string and a
   * map, about 150 bytes) or an object past 127 members (a dictionary, 50–62 bytes a member).
   */
  member: 112,
  /** A list: its header and its elements' header. */
  list: 48,
  /** An entry of a list: its slot, with the slack of a list grown item by item (1.5×). */
  entry: 12,
  /** A string: its header, its characters counted apart (a key's too). */
  string: 24,
  /** A number that is not a small integer. */
  number: 16,
  /** A list left unbuilt: a sparse array of its length, no entry in it. */
  unbuiltList: 160,
} as const;

/**
 * The estimate of what is built, an eighth more: the shapes estimated closest (8 MB of `{}`, lists
 * of one record nested 60 deep) took 93–99 % of their estimate, the collector's timing aside.
 */
const MARGIN = 1.125;

// The scan's states: what the next character may be.
const VALUE = 0; // a value (after `:`, a list's `,`, or at the start)
const FIRST_ENTRY = 1; // a value or `]` (after `[`)
const FIRST_KEY = 2; // a key or `}` (after `{`)
const KEY = 3; // a key (after an object's `,`)
const AFTER_KEY = 4; // `:`
const AFTER_VALUE = 5; // `,` or a closing bracket (or the end, at the top)
const IN_STRING = 6;
const ESCAPE = 7; // after `\` in a string
const HEX = 8; // the digits of a `\u` escape
const NUMBER_SIGN = 9; // after `-`
const NUMBER_ZERO = 10; // a leading 0
const NUMBER_INTEGER = 11;
const NUMBER_DOT = 12;
const NUMBER_FRACTION = 13;
const NUMBER_E = 14;
const NUMBER_EXPONENT_SIGN = 15;
const NUMBER_EXPONENT = 16;
const LITERAL = 17; // inside `true`, `false` or `null`

const IS_OBJECT = 1;
const IS_LIST = 2;

/** The characters after a backslash that make an escape alone: quote, backslash, slash, b, f, n, r, t. */
const SIMPLE_ESCAPES: ReadonlySet<number> = new Set([QUOTE, BACKSLASH, 0x2f, 0x62, 0x66, 0x6e, 0x72, 0x74]);

const LITERALS: Readonly<Record<number, string>> = { 116: "true", 102: "false", 110: "null" };

/** Where a scan of JSON text stands (opaque to its callers but for `at`). */
export interface JsonScan {
  /** The next index to scan. */
  at: number;
  state: number;
  /** Levels open. */
  depth: number;
  /** The kind of each level open (IS_OBJECT, IS_LIST), grown as needed. */
  kinds: Uint8Array;
  /** Per level open within the bounds: its members or entries so far, its `[`, the heap counted at its opening. */
  readonly counts: number[];
  readonly opened: number[];
  readonly heapAtOpening: number[];
  /** The first bound passed, in the order of the text. */
  passed: JsonRefusal | null;
  /** The heap estimated so far. */
  heap: number;
  /** Whether a string holds a character past U+00FF (the text is then held two bytes a character). */
  wide: boolean;
  /** The string being read: whether it is a key, where it started, whether it is wide. */
  key: boolean;
  stringStart: number;
  stringWide: boolean;
  /** The `\u` digits still expected, the literal being read and how far. */
  hexLeft: number;
  literal: string;
  literalAt: number;
  /** The outermost lists longer than `JsonBounds.entries` so far, in the order they closed. */
  readonly longLists: (LongList & { readonly start: number })[];
}

export function newJsonScan(): JsonScan {
  return {
    at: 0,
    state: VALUE,
    depth: 0,
    kinds: new Uint8Array(64),
    counts: [],
    opened: [],
    heapAtOpening: [],
    passed: null,
    heap: 0,
    wide: false,
    key: false,
    stringStart: 0,
    stringWide: false,
    hexLeft: 0,
    literal: "",
    literalAt: 0,
    longLists: [],
  };
}

/** The text's grammar broken at `at`: what JSON.parse throws. */
const malformed = (at: number) => new SyntaxError(`Unexpected token in JSON at position ${at}`);

const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
const isDigit = (c: number) => c >= ZERO && c <= NINE;
const isHexDigit = (c: number) => isDigit(c) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);

/** A level opened at `at` (`{` or `[`). */
function open(scan: JsonScan, bounds: JsonBounds, kind: number, at: number): void {
  const depth = scan.depth++;
  if (depth >= scan.kinds.length) {
    const kinds = new Uint8Array(scan.kinds.length * 2);
    kinds.set(scan.kinds);
    scan.kinds = kinds;
  }
  scan.kinds[depth] = kind;
  scan.state = kind === IS_OBJECT ? FIRST_KEY : FIRST_ENTRY;
  if (scan.depth > bounds.depth) scan.passed ??= "depth";
  scan.heap += kind === IS_OBJECT ? HEAP.object : HEAP.list;
  // Past a bound, only the grammar is followed
  if (scan.passed !== null) return;
  scan.counts.push(0);
  scan.opened.push(at);
  scan.heapAtOpening.push(scan.heap);
}

/** The level open closed at `at` by `c`, if `c` closes its kind. */
function close(scan: JsonScan, bounds: JsonBounds, c: number, at: number): void {
  const kind = c === CLOSE_BRACE ? IS_OBJECT : IS_LIST;
  if (scan.depth === 0 || scan.kinds[scan.depth - 1] !== kind) throw malformed(at);
  scan.depth--;
  scan.state = AFTER_VALUE;
  if (scan.passed !== null) return;
  const entries = scan.counts.pop() ?? 0;
  const start = scan.opened.pop() ?? 0;
  const heapAtOpening = scan.heapAtOpening.pop() ?? 0;
  if (kind !== IS_LIST || entries <= bounds.entries) return;
  // Left unbuilt: what it holds is not counted, nor the long lists inside it
  scan.heap = heapAtOpening - HEAP.list + HEAP.unbuiltList;
  const { longLists } = scan;
  while (longLists.length > 0 && longLists[longLists.length - 1].start > start) longLists.pop();
  longLists.push({ start, entries, end: at + 1 });
}

/** A value starts at `at` with `c` (an entry counted if a list holds it). */
function valueStart(scan: JsonScan, bounds: JsonBounds, c: number, at: number): void {
  if (scan.passed === null && scan.depth > 0 && scan.kinds[scan.depth - 1] === IS_LIST) {
    scan.counts[scan.counts.length - 1]++;
    scan.heap += HEAP.entry;
  }
  if (c === OPEN_BRACE) open(scan, bounds, IS_OBJECT, at);
  else if (c === OPEN_BRACKET) open(scan, bounds, IS_LIST, at);
  else if (c === QUOTE) startString(scan, false, at);
  else if (c === MINUS) scan.state = NUMBER_SIGN;
  else if (c === ZERO) scan.state = NUMBER_ZERO;
  else if (isDigit(c)) scan.state = NUMBER_INTEGER;
  else if (LITERALS[c] !== undefined) {
    scan.literal = LITERALS[c];
    scan.literalAt = 1;
    scan.state = LITERAL;
  } else throw malformed(at);
}

function startString(scan: JsonScan, key: boolean, at: number): void {
  scan.key = key;
  scan.stringStart = at;
  scan.stringWide = false;
  scan.state = IN_STRING;
}

/** The string ending with its quote at `at`: a key then awaits its `:`, a value is done. */
function endString(scan: JsonScan, at: number): void {
  const chars = (at - scan.stringStart - 1) * (scan.stringWide ? 2 : 1);
  scan.heap += HEAP.string + chars;
  scan.wide ||= scan.stringWide;
  scan.state = scan.key ? AFTER_KEY : AFTER_VALUE;
}

/** A member's key starts at `at` (counted against the members' bound). */
function keyStart(scan: JsonScan, bounds: JsonBounds, at: number): void {
  if (scan.passed === null) {
    const members = ++scan.counts[scan.counts.length - 1];
    if (members > bounds.members) scan.passed = "members";
    scan.heap += HEAP.member;
  }
  startString(scan, true, at);
}

/** Whether a number may end in `state` (not after a sign, a dot or an exponent's mark). */
function numberEnds(state: number): boolean {
  return (
    state === NUMBER_ZERO ||
    state === NUMBER_INTEGER ||
    state === NUMBER_FRACTION ||
    state === NUMBER_EXPONENT
  );
}

/** The next number state after `c`, or -1 when `c` is not part of the number. */
function numberStep(state: number, c: number): number {
  switch (state) {
    case NUMBER_SIGN:
      return c === ZERO ? NUMBER_ZERO : isDigit(c) ? NUMBER_INTEGER : -1;
    case NUMBER_ZERO:
      return c === DOT ? NUMBER_DOT : c === LOWER_E || c === UPPER_E ? NUMBER_E : -1;
    case NUMBER_INTEGER:
      return isDigit(c)
        ? NUMBER_INTEGER
        : c === DOT
          ? NUMBER_DOT
          : c === LOWER_E || c === UPPER_E
            ? NUMBER_E
            : -1;
    case NUMBER_DOT:
      return isDigit(c) ? NUMBER_FRACTION : -1;
    case NUMBER_FRACTION:
      return isDigit(c) ? NUMBER_FRACTION : c === LOWER_E || c === UPPER_E ? NUMBER_E : -1;
    case NUMBER_E:
      return c === MINUS || c === PLUS ? NUMBER_EXPONENT_SIGN : isDigit(c) ? NUMBER_EXPONENT : -1;
    default:
      return isDigit(c) ? NUMBER_EXPONENT : -1;
  }
}

/** The index after the run of string characters from `from` (no quote, backslash or control character) before `end`. */
function stringRunEnd(scan: JsonScan, text: string, from: number, end: number): number {
  let i = from;
  let wide = false;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE || c === BACKSLASH || c < 0x20) break;
    if (c > 0xff) wide = true;
  }
  if (wide) scan.stringWide = true;
  return i;
}

/** The character `c` at `at` in the structure (outside strings, numbers and literals). */
function structural(scan: JsonScan, bounds: JsonBounds, c: number, at: number): void {
  const state = scan.state;
  if (state === VALUE || state === FIRST_ENTRY) {
    if (state === FIRST_ENTRY && c === CLOSE_BRACKET) close(scan, bounds, c, at);
    else valueStart(scan, bounds, c, at);
  } else if (state === FIRST_KEY || state === KEY) {
    if (c === QUOTE) keyStart(scan, bounds, at);
    else if (state === FIRST_KEY && c === CLOSE_BRACE) close(scan, bounds, c, at);
    else throw malformed(at);
  } else if (state === AFTER_KEY) {
    if (c !== COLON) throw malformed(at);
    scan.state = VALUE;
  } else {
    // AFTER_VALUE: at the top, only spaces may follow
    if (scan.depth === 0) throw malformed(at);
    if (c === COMMA) scan.state = scan.kinds[scan.depth - 1] === IS_OBJECT ? KEY : VALUE;
    else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) close(scan, bounds, c, at);
    else throw malformed(at);
  }
}

/**
 * Scans `text` from `scan.at` up to index `until` (or the text's end), the scan moved on; throws
 * SyntaxError at the first character that breaks JSON's grammar (JSON.parse's: RFC 8259, no
 * leading zeros, no control character in a string). Bounds passed and lists past `bounds.entries`
 * are recorded in the scan (see `scannedJson`), the grammar followed to the end whatever they are.
 */
export function scanJson(text: string, bounds: JsonBounds, scan: JsonScan, until: number): void {
  const end = Math.min(until, text.length);
  let i = scan.at;
  while (i < end) {
    const c = text.charCodeAt(i);
    const state = scan.state;
    if (state === IN_STRING) {
      i = stringRunEnd(scan, text, i, end);
      if (i === end) break;
      const d = text.charCodeAt(i);
      if (d === QUOTE) endString(scan, i);
      else if (d === BACKSLASH) scan.state = ESCAPE;
      else throw malformed(i);
      i++;
    } else if (state === ESCAPE) {
      if (c === LOWER_U) {
        scan.hexLeft = 4;
        // A `\u` escape may name any character: the string is counted as two bytes a character
        scan.stringWide = true;
        scan.state = HEX;
      } else if (SIMPLE_ESCAPES.has(c)) {
        scan.state = IN_STRING;
      } else throw malformed(i);
      i++;
    } else if (state === HEX) {
      if (!isHexDigit(c)) throw malformed(i);
      if (--scan.hexLeft === 0) scan.state = IN_STRING;
      i++;
    } else if (state === LITERAL) {
      if (c !== scan.literal.charCodeAt(scan.literalAt)) throw malformed(i);
      if (++scan.literalAt === scan.literal.length) scan.state = AFTER_VALUE;
      i++;
    } else if (state >= NUMBER_SIGN) {
      let next = numberStep(state, c);
      while (next >= 0 && ++i < end) {
        scan.state = next;
        next = numberStep(next, text.charCodeAt(i));
      }
      if (next >= 0) {
        scan.state = next;
        break;
      }
      // The number ends before `c`, which is read again in the structure
      if (!numberEnds(scan.state)) throw malformed(i);
      scan.heap += HEAP.number;
      scan.state = AFTER_VALUE;
    } else if (isSpace(c)) {
      i++;
    } else {
      structural(scan, bounds, c, i);
      i++;
    }
  }
  scan.at = i;
}

/** What a whole scan found: the bound passed first (null when none), the heap estimate, the long lists. */
export interface ScannedJson {
  readonly passed: JsonRefusal | null;
  /**
   * The heap the text and its parse take, at most, in bytes: the text (one or two bytes a
   * character, as V8 holds it) and what is built of it, the long lists left unbuilt.
   */
  readonly heapBytes: number;
  /** The outermost lists past `JsonBounds.entries`, by the index of their `[`. */
  readonly longLists: ReadonlyMap<number, LongList>;
}

/**
 * The verdict of a scan that has reached the text's end (scanJson up to `text.length`); throws
 * SyntaxError if the text ends before its value does (or holds none).
 */
export function scannedJson(text: string, scan: JsonScan): ScannedJson {
  if (scan.at < text.length) throw new Error("the scan has not reached the text's end");
  let { state, heap } = scan;
  if (numberEnds(state)) {
    heap += HEAP.number;
    state = AFTER_VALUE;
  }
  if (scan.depth !== 0 || state !== AFTER_VALUE) throw malformed(text.length);
  const longLists = new Map(scan.longLists.map(({ start, entries, end }) => [start, { entries, end }]));
  const built = heap * MARGIN;
  return { passed: scan.passed, heapBytes: Math.ceil(built) + text.length * (scan.wide ? 2 : 1), longLists };
}

/** `scanJson` over the whole text at once, and its verdict (a short text, or a command's line). */
export function scanWholeJson(text: string, bounds: JsonBounds): ScannedJson {
  const scan = newJsonScan();
  scanJson(text, bounds, scan, text.length);
  return scannedJson(text, scan);
}
