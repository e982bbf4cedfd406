import { setImmediate as nextMacrotask } from "node:timers/promises";
import {
  type JsonBounds,
  type JsonRefusal,
  type LongList,
  newJsonScan,
  scanJson,
  scannedJson,
} from "./jsonScan.js";

/*
 * JSON text parsed in steps, with JSON.parse's answer: a large request body (a 10,000-server fleet
 * is 1.3 MB) parsed by one JSON.parse held the event loop for 31–37 ms at load 2 (bench/README.md,
 * "Single requests during fleets"), and every single request waited behind it. Here a container
 * longer than `pieceChars` is split into runs of its members, each run parsed by JSON.parse
 * wrapped in its container's brackets; a string, a key or a number longer than a piece is read in
 * pieces too (a string's pieces joined, a number's digits read as V8 reads them), and so is a run
 * of spaces. Every character looked at counts (a value's end searched, never past a piece; a
 * piece parsed), and the caller's `pause` is awaited whenever `stepChars` have been counted since
 * the last one: no shape holds the thread for more than a step and a piece (one 8 MB string
 * inside 62 levels took 1.4 s in one stretch when a string's end was searched without a bound).
 * Everything else, and every short value, is JSON.parse's work, so escapes and errors are its own.
 * The caller bounds the nesting first (src/support/jsonScan.ts): the walk recurses once per level
 * of containers longer than a piece. The lists the scan counted past its bound are never built,
 * wherever they are: a value holding one is walked, not handed to JSON.parse.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const LETTER_U = 0x75;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

export interface JsonSteps {
  /** A container longer than this is split into runs of its members; a longer value, read in pieces. */
  readonly pieceChars: number;
  /** Characters counted between two pauses, at most. */
  readonly stepChars: number;
  /**
   * Milliseconds between two pauses, at most (checked after each piece): a step of small lists
   * costs JSON.parse several times what a step of a string does (128 K characters of `[],` took
   * 20–40 ms of CPU at load 5, of one string 1–3 ms).
   */
  readonly stepMs?: number;
  /** Awaited between steps (the caller's turn of the event loop). */
  readonly pause: () => Promise<void>;
}

/**
 * A turn of the event loop that lets the I/O arrived meanwhile in: from an I/O callback, a first
 * immediate runs in this turn's check phase, before any new I/O is polled; the second in the next
 * turn's, after it.
 */
export async function aTurn(): Promise<void> {
  await nextMacrotask();
  await nextMacrotask();
}

/**
 * The steps of a request body's parse: runs of members of at most 16 K characters each parsed by
 * JSON.parse, 128 K characters counted or 4 ms a turn, whichever comes first (3–8 ms of the main
 * thread at load 2–13; a 10,000-server fleet's 1.3 MB took 29–51 ms in one JSON.parse, 53 ms in
 * steps).
 */
export const SERVICE_JSON_STEPS: JsonSteps = {
  pieceChars: 16 * 1024,
  stepChars: 128 * 1024,
  stepMs: 4,
  pause: aTurn,
};

const malformed = (at: number) => new SyntaxError(`Unexpected token in JSON at position ${at}`);

/** JSON's whitespace: space, tab, line feed, carriage return. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

const isDigit = (c: number) => c >= ZERO && c <= NINE;

/** The first index from `from` that is no space, or `limit` (at most the text's length). */
function spaceEnd(text: string, from: number, limit: number): number {
  const end = Math.min(limit, text.length);
  let i = from;
  while (i < end && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/**
 * The index after the string opening at `from`, if it closes before `limit`; -1 if it does not.
 * A string the text ends in is malformed.
 */
function stringEnd(text: string, from: number, limit: number): number {
  const end = Math.min(limit, text.length);
  for (let i = from + 1; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  if (end === text.length) throw malformed(text.length);
  return -1;
}

/** Whether `c` ends a value other than a string or a container. */
const endsToken = (c: number) =>
  c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === COLON || isSpace(c);

/**
 * The index after the value starting at `from`, if it ends before `limit`; -1 if it does not (a
 * value longer than a piece). A value other than a string or a container ends at the next
 * delimiter: what it holds is JSON.parse's to judge.
 */
function valueEnd(text: string, from: number, limit: number): number {
  const first = text.charCodeAt(from);
  const end = Math.min(limit, text.length);
  if (first === QUOTE) return stringEnd(text, from, limit);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let i = from;
    while (i < end && !endsToken(text.charCodeAt(i))) i++;
    // No value where one must be (`[1,]`, `{"a":}`): a run could hold none of it to refuse
    if (i === from) throw malformed(from);
    return i === end && end < text.length ? -1 : i;
  }
  let depth = 0;
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      const after = stringEnd(text, i, end);
      if (after < 0) return -1;
      i = after - 1;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      depth++;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      if (--depth === 0) return i + 1;
    }
  }
  if (end === text.length) throw malformed(text.length);
  return -1;
}

/** JSON.parse's own way of setting a member: a data property, `__proto__` included. */
function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
}

interface Walk {
  readonly text: string;
  readonly steps: JsonSteps;
  /** The lists a scan counted past its bound (src/support/jsonScan.ts), left unbuilt. */
  readonly longLists: ReadonlyMap<number, LongList>;
  /** Where they start, in order, and the first not yet behind the walk. */
  readonly longListStarts: readonly number[];
  nextLongList: number;
  /** Characters counted since the last pause. */
  counted: number;
  /** When the last pause ended (performance.now()). */
  since: number;
}

/** Counts `chars` of work; the caller's pause once a step's worth is counted or its time spent. */
async function count(walk: Walk, chars: number): Promise<void> {
  const { stepChars, stepMs = Number.POSITIVE_INFINITY } = walk.steps;
  walk.counted += chars;
  if (walk.counted < stepChars && performance.now() - walk.since < stepMs) return;
  await walk.steps.pause();
  walk.counted = 0;
  walk.since = performance.now();
}

async function parsed(walk: Walk, source: string): Promise<unknown> {
  const value: unknown = JSON.parse(source);
  await count(walk, source.length);
  return value;
}

/** The first index from `from` that is no space: a run of spaces longer than a piece is skipped in steps. */
async function spaceSkipped(walk: Walk, from: number): Promise<number> {
  const { text, steps } = walk;
  let i = spaceEnd(text, from, from + steps.pieceChars);
  while (i === from + steps.pieceChars && i < text.length) {
    await count(walk, steps.pieceChars);
    from = i;
    i = spaceEnd(text, from, from + steps.pieceChars);
  }
  return i;
}

/** Whether a list left unbuilt starts from `from` on and before `end` (the walk's calls go forward). */
function holdsLongList(walk: Walk, from: number, end: number): boolean {
  const starts = walk.longListStarts;
  while (walk.nextLongList < starts.length && starts[walk.nextLongList] < from) walk.nextLongList++;
  return walk.nextLongList < starts.length && starts[walk.nextLongList] < end;
}

/**
 * The end of the value starting at `from` if it is a piece (-1 if not: longer, or holding a list
 * left unbuilt), the characters searched counted.
 */
async function pieceEnd(walk: Walk, from: number): Promise<number> {
  const { text, steps } = walk;
  if (from >= text.length) throw malformed(from);
  const end = valueEnd(text, from, from + steps.pieceChars + 1);
  // A piece's characters are counted once parsed; a longer value's search, now.
  if (end < 0 || holdsLongList(walk, from, end)) {
    await count(walk, end < 0 ? steps.pieceChars + 1 : end - from);
    return -1;
  }
  return end;
}

/** The value starting at `from` (no space before it) and the index after it. */
async function valueAt(walk: Walk, from: number): Promise<{ value: unknown; end: number }> {
  const end = await pieceEnd(walk, from);
  if (end >= 0) return { value: await parsed(walk, walk.text.slice(from, end)), end };
  return longValueAt(walk, from);
}

/**
 * A list counted past a scan's bound, its items left unread: a sparse array of its length, no item
 * in it (no time nor memory per entry). Whoever reads such a list refuses it by its length before
 * any item (MAX_LIST_LENGTH, MAX_FLEET_ITEMS); its items' syntax was checked by the scan.
 */
function unbuiltList({ entries }: LongList): unknown[] {
  const list: unknown[] = [];
  // Setting the last index of an empty array makes its elements a dictionary: the length alone
  list[entries - 1] = null;
  delete list[entries - 1];
  return list;
}

/** The value starting at `from`, longer than a piece or holding a list left unbuilt: walked by its kind. */
function longValueAt(walk: Walk, from: number): Promise<{ value: unknown; end: number }> {
  const first = walk.text.charCodeAt(from);
  const counted = walk.longLists.get(from);
  if (counted !== undefined) return Promise.resolve({ value: unbuiltList(counted), end: counted.end });
  if (first === OPEN_BRACKET) return listAt(walk, from);
  if (first === OPEN_BRACE) return recordAt(walk, from);
  if (first === QUOTE) return stringAt(walk, from);
  return numberAt(walk, from);
}

/**
 * The string opening at `from`, read in pieces of whole characters and escapes, each parsed by
 * JSON.parse in quotes (which refuses what it refuses in the whole string) and joined.
 */
async function stringAt(walk: Walk, from: number): Promise<{ value: string; end: number }> {
  const { text, steps } = walk;
  const pieces: string[] = [];
  let start = from + 1;
  for (;;) {
    const limit = Math.min(start + steps.pieceChars, text.length);
    let i = start;
    while (i < limit) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      i += c !== BACKSLASH ? 1 : text.charCodeAt(i + 1) === LETTER_U ? 6 : 2;
    }
    if (i >= text.length) throw malformed(text.length);
    pieces.push((await parsed(walk, `"${text.slice(start, i)}"`)) as string);
    if (i < limit) return { value: pieces.join(""), end: i + 1 };
    start = i;
  }
}

/**
 * The members of the container opening at `from`, in runs: each run of members that are pieces
 * is parsed at once in the container's brackets; a member too long for a piece is walked.
 */
async function membersAt(
  walk: Walk,
  from: number,
  close: number,
  take: (run: unknown, walked: boolean) => void,
): Promise<number> {
  const { text, steps } = walk;
  const isRecord = close === CLOSE_BRACE;
  const [open, shut] = isRecord ? ["{", "}"] : ["[", "]"];
  let i = await spaceSkipped(walk, from + 1);
  if (text.charCodeAt(i) === close) return i + 1;
  let runStart = i;
  let runEnd = i;
  const flush = async () => {
    if (runEnd > runStart) take(await parsed(walk, `${open}${text.slice(runStart, runEnd)}${shut}`), false);
    runStart = runEnd;
  };
  for (;;) {
    const memberStart = i;
    let key: string | null = null;
    let keyEnd = i;
    if (isRecord) {
      if (text.charCodeAt(i) !== QUOTE) throw malformed(i);
      keyEnd = await pieceEnd(walk, i);
      if (keyEnd < 0) {
        await flush();
        ({ value: key, end: i } = await stringAt(walk, i));
      } else {
        i = keyEnd;
      }
      i = await spaceSkipped(walk, i);
      if (text.charCodeAt(i) !== COLON) throw malformed(i);
      i = await spaceSkipped(walk, i + 1);
    }
    const end = key === null ? await pieceEnd(walk, i) : -1;
    if (end >= 0) {
      if (end - runStart > steps.pieceChars) await flush();
      if (runEnd === runStart) runStart = memberStart;
      runEnd = end;
      i = end;
    } else {
      await flush();
      const walked = key === null ? await longValueAt(walk, i) : await valueAt(walk, i);
      key ??= isRecord ? (JSON.parse(text.slice(memberStart, keyEnd)) as string) : "";
      take(isRecord ? { [key]: walked.value } : walked.value, true);
      runStart = runEnd = i = walked.end;
    }
    i = await spaceSkipped(walk, i);
    const c = text.charCodeAt(i);
    if (c === close) {
      await flush();
      return i + 1;
    }
    if (c !== COMMA) throw malformed(i);
    i = await spaceSkipped(walk, i + 1);
    if (runEnd === runStart) runStart = runEnd = i;
  }
}

async function listAt(walk: Walk, from: number): Promise<{ value: unknown[]; end: number }> {
  const list: unknown[] = [];
  const end = await membersAt(walk, from, CLOSE_BRACKET, (run, walked) => {
    if (walked) list.push(run);
    else for (const item of run as unknown[]) list.push(item);
  });
  return { value: list, end };
}

async function recordAt(walk: Walk, from: number): Promise<{ value: Record<string, unknown>; end: number }> {
  const record: Record<string, unknown> = {};
  const end = await membersAt(walk, from, CLOSE_BRACE, (run) => {
    // A walked member comes as a one-key object built with a computed key: read back the same way.
    for (const [key, value] of Object.entries(run as Record<string, unknown>)) setMember(record, key, value);
  });
  return { value: record, end };
}

/** The end of the run of characters from `from` that `keep` accepts, searched in pieces, counted. */
async function runEnd(walk: Walk, from: number, keep: (c: number) => boolean): Promise<number> {
  const { text, steps } = walk;
  let i = from;
  for (;;) {
    const limit = Math.min(i + steps.pieceChars, text.length);
    const start = i;
    while (i < limit && keep(text.charCodeAt(i))) i++;
    await count(walk, i - start);
    if (i < limit || limit === text.length) return i;
  }
}

/** Significant digits kept of a long number: past V8's 772, a digit that is not 0 is all that counts. */
const SIGNIFICANT_DIGITS = 800;

/**
 * The number written from `from`, longer than a piece: its grammar checked (`-`, an integer part
 * without a leading zero, a fraction, an exponent) and its value read as V8 reads JSON's numbers,
 * in steps: the first SIGNIFICANT_DIGITS significant digits, a `1` after them where a digit past
 * them is not 0 (V8 keeps 772 and whether any other is), an exponent past 15 digits saturated.
 */
async function numberAt(walk: Walk, from: number): Promise<{ value: number; end: number }> {
  const { text } = walk;
  const at = (i: number) => (i < text.length ? text.charCodeAt(i) : -1);
  let i = from + (at(from) === MINUS ? 1 : 0);
  const whole = { start: i, end: await runEnd(walk, i, isDigit) };
  if (whole.end === whole.start || (at(whole.start) === ZERO && whole.end - whole.start > 1)) {
    throw malformed(whole.start);
  }
  i = whole.end;
  let fraction = { start: i, end: i };
  if (at(i) === DOT) {
    fraction = { start: i + 1, end: await runEnd(walk, i + 1, isDigit) };
    if (fraction.end === fraction.start) throw malformed(fraction.start);
    i = fraction.end;
  }
  let exponent = 0;
  if (at(i) === 0x65 || at(i) === 0x45) {
    i += 1;
    const sign = at(i) === MINUS ? -1 : 1;
    if (at(i) === MINUS || at(i) === PLUS) i += 1;
    const digits = await runEnd(walk, i, isDigit);
    if (digits === i) throw malformed(i);
    const significant = await runEnd(walk, i, (c) => c === ZERO);
    exponent =
      sign *
      (digits - significant > 15 ? Number.POSITIVE_INFINITY : Number(text.slice(significant, digits) || 0));
    i = digits;
  }
  if (i < text.length && !endsToken(at(i))) throw malformed(i);
  const magnitude = await decimalValue(walk, whole, fraction, exponent);
  return { value: at(from) === MINUS ? -magnitude : magnitude, end: i };
}

interface Span {
  readonly start: number;
  readonly end: number;
}

/** The value of the digits `whole`.`fraction` times 10^`exponent`, read in steps. */
async function decimalValue(walk: Walk, whole: Span, fraction: Span, exponent: number): Promise<number> {
  const { text } = walk;
  const isZero = (c: number) => c === ZERO;
  // The first significant digit, and the power of ten of the digit before it
  let first = await runEnd(walk, whole.start, isZero);
  let power = whole.end - first;
  if (first === whole.end) {
    first = await runEnd(walk, fraction.start, isZero);
    power = fraction.start - first;
    if (first === fraction.end) return 0;
  }
  if (exponent === Number.POSITIVE_INFINITY) return Number.POSITIVE_INFINITY;
  if (exponent === Number.NEGATIVE_INFINITY) return 0;
  let digits = text.slice(
    first,
    Math.min(first + SIGNIFICANT_DIGITS, first < whole.end ? whole.end : fraction.end),
  );
  let rest: Span = { start: first + digits.length, end: first < whole.end ? whole.end : fraction.end };
  if (first < whole.end && digits.length < SIGNIFICANT_DIGITS) {
    const more = text.slice(
      fraction.start,
      Math.min(fraction.end, fraction.start + SIGNIFICANT_DIGITS - digits.length),
    );
    digits += more;
    rest = { start: fraction.start + more.length, end: fraction.end };
  }
  const zerosToEnd = async (span: Span) => (await runEnd(walk, span.start, isZero)) >= span.end;
  const restIsZero =
    (await zerosToEnd(rest)) &&
    (first >= whole.end || rest.end === fraction.end || (await zerosToEnd(fraction)));
  // Past ±10,000, the power gives Infinity or 0 whatever the 800 digits
  const shown = Math.max(-10_000, Math.min(10_000, power + exponent));
  return Number(`0.${digits}${restIsZero ? "" : "1"}e${shown}`);
}

/**
 * `JSON.parse(text)`, in steps (see the module's comment); a malformed text throws SyntaxError.
 * The lists of `longLists` (a scan's, by the index of their `[`) are left unbuilt (unbuiltList).
 */
export async function parseJsonInSteps(
  text: string,
  steps: JsonSteps,
  longLists: ReadonlyMap<number, LongList> = new Map(),
): Promise<unknown> {
  const longListStarts = [...longLists.keys()].sort((a, b) => a - b);
  const walk: Walk = {
    text,
    steps,
    longLists,
    longListStarts,
    nextLongList: 0,
    counted: 0,
    since: performance.now(),
  };
  const start = await spaceSkipped(walk, 0);
  const { value, end } = await valueAt(walk, start);
  if ((await spaceSkipped(walk, end)) !== text.length) throw malformed(end);
  return value;
}

/**
 * A request body this long or longer (a fleet's: 10,000 servers are 1.3 MB) is read in steps, each
 * in a turn of the event loop of its own — scanned, then parsed — so that it is not one stretch of
 * the main thread that every other request waits behind (bench/README.md, "Single requests during
 * fleets"); a shorter one is one scan and one JSON.parse, about a millisecond.
 */
export const STEPPED_BODY_CHARS = 64 * 1024;

/**
 * The characters of a stepped body's scan per turn: 2–5 ms of the main thread (its grammar
 * followed character by character: 8 MB of `{},` took 88 ms of CPU in all, at load 10).
 */
const SCANNED_CHARS_PER_TURN = 128 * 1024;

/**
 * Awaited with the heap a body will take — its text and what its parse builds, estimated by its
 * scan (src/support/jsonScan.ts) — before anything is built: the memory admitted before it is
 * spent. Rejects to refuse the body (BodyMemoryRefused, or the reason of a wait given up).
 */
export type HeapAdmission = (bytes: number) => Promise<void>;

/**
 * A body whose memory was not admitted: 503 when there is no room now (retried after
 * `retryAfterSeconds`), 413 when it would take more than the whole budget (`limit`).
 */
export class BodyMemoryRefused extends Error {
  constructor(
    message: string,
    readonly status: 413 | 503,
    readonly limit: string,
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }
}

/** How a request body is read besides its bounds. */
export interface BodyReading {
  /** Awaited with the heap its parse will take before anything is built (HeapAdmission). */
  readonly admit?: HeapAdmission;
  /**
   * Awaited between two steps of a long body: the turns the service's background work shares
   * (src/service/chunks.ts, TurnShare), so that a turn holds one slice of body work however many
   * bodies are read at once; without it, a turn of the event loop of its own per step.
   */
  readonly pause?: () => Promise<void>;
}

/**
 * The JSON value of a request body, or the bound it passes, found by one scan before it is parsed
 * (src/support/jsonScan.ts: the parsers and the walks after them recurse once per level, and list
 * an object's keys in one stretch). A text that is not JSON throws SyntaxError, whatever its size
 * and whatever the bounds it passes. Its heap is then admitted (`admit`), and only then built. A
 * body of STEPPED_BODY_CHARS or more is scanned and parsed in steps (SERVICE_JSON_STEPS, each after
 * `pause`), a pause after the last; its lists longer than `bounds.entries` are left unbuilt at any
 * size (their length alone: 2.8 million `{}` in 8 MB grew a 150 MB heap whose collections and
 * growths held the event loop 20–68 ms at once, for a list refused by its length afterwards).
 */
export async function readJsonBody(
  text: string,
  bounds: JsonBounds,
  { admit, pause = aTurn }: BodyReading = {},
): Promise<{ readonly value: unknown } | { readonly passed: JsonRefusal }> {
  const scan = newJsonScan();
  const stepped = text.length >= STEPPED_BODY_CHARS;
  // A pause first: the body was just read and decoded (8 MB: a concatenation, a copy and a UTF-8
  // decoding in one stretch, 20-37 ms at load 11), its scan comes after what arrived meanwhile
  if (stepped) await pause();
  while (scan.at < text.length) {
    scanJson(text, bounds, scan, stepped ? scan.at + SCANNED_CHARS_PER_TURN : text.length);
    if (stepped) await pause();
  }
  const { passed, heapBytes, longLists } = scannedJson(text, scan);
  if (passed !== null) return { passed };
  await admit?.(heapBytes);
  if (!stepped && longLists.size === 0) return { value: JSON.parse(text) };
  const value = await parseJsonInSteps(text, { ...SERVICE_JSON_STEPS, pause }, longLists);
  if (stepped) await pause();
  return { value };
}
