/*
 * JSON text parsed in steps, with JSON.parse's answer: a large request body (a 10,000-server fleet
 * is 1.3 MB) parsed by one JSON.parse held the event loop for 31–37 ms at load 2 (bench/README.md,
 * "Single requests during fleets"), and every single request waited behind it. Here a container
 * longer than `pieceChars` is split into runs of its members, each run parsed by JSON.parse
 * wrapped in its container's brackets, and the caller's `pause` awaited whenever `stepChars`
 * characters have been parsed since the last one. Only the containers too long to be one piece
 * are walked by this module; everything else, and every value, is JSON.parse's work, so numbers,
 * strings, escapes and errors are its own.
 */

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

export interface JsonSteps {
  /** A container longer than this is split into runs of its members. */
  readonly pieceChars: number;
  /** Characters parsed between two pauses. */
  readonly stepChars: number;
  /** Awaited between steps (the caller's turn of the event loop). */
  readonly pause: () => Promise<void>;
}

const malformed = (at: number) => new SyntaxError(`Unexpected token in JSON at position ${at}`);

/** JSON's whitespace: space, tab, line feed, carriage return. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function skipSpace(text: string, from: number): number {
  let i = from;
  while (i < text.length && isSpace(text.charCodeAt(i))) i++;
  return i;
}

/** The index after the string starting at `from` (its opening quote). */
function stringEnd(text: string, from: number): number {
  for (let i = from + 1; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === BACKSLASH) i++;
    else if (c === QUOTE) return i + 1;
  }
  throw malformed(text.length);
}

/**
 * The index after the value starting at `from`, if it ends before `limit`; -1 if it does not (a
 * container longer than a piece). A value other than a string or a container ends at the next
 * delimiter: what it holds is JSON.parse's to judge.
 */
function valueEnd(text: string, from: number, limit: number): number {
  const first = text.charCodeAt(from);
  if (first === QUOTE) return stringEnd(text, from);
  if (first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let i = from;
    for (; i < text.length; i++) {
      const c = text.charCodeAt(i);
      if (c === COMMA || c === CLOSE_BRACE || c === CLOSE_BRACKET || c === COLON || isSpace(c)) break;
    }
    // No value where one must be (`[1,]`, `{"a":}`): a run could hold none of it to refuse
    if (i === from) throw malformed(from);
    return i;
  }
  let depth = 0;
  const end = Math.min(limit, text.length);
  for (let i = from; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i) - 1;
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
  /** Characters parsed since the last pause. */
  parsed: number;
}

async function parsed(walk: Walk, source: string): Promise<unknown> {
  const value: unknown = JSON.parse(source);
  walk.parsed += source.length;
  if (walk.parsed >= walk.steps.stepChars) {
    walk.parsed = 0;
    await walk.steps.pause();
  }
  return value;
}

/** The value starting at `from` (no space before it) and the index after it. */
async function valueAt(walk: Walk, from: number): Promise<{ value: unknown; end: number }> {
  const { text, steps } = walk;
  if (from >= text.length) throw malformed(from);
  const end = valueEnd(text, from, from + steps.pieceChars + 1);
  if (end >= 0) return { value: await parsed(walk, text.slice(from, end)), end };
  return text.charCodeAt(from) === OPEN_BRACKET ? listAt(walk, from) : recordAt(walk, from);
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
  let i = skipSpace(text, from + 1);
  if (text.charCodeAt(i) === close) return i + 1;
  let runStart = i;
  let runEnd = i;
  const flush = async () => {
    if (runEnd > runStart) take(await parsed(walk, `${open}${text.slice(runStart, runEnd)}${shut}`), false);
  };
  for (;;) {
    const memberStart = i;
    let keyEnd = i;
    if (isRecord) {
      if (text.charCodeAt(i) !== QUOTE) throw malformed(i);
      keyEnd = stringEnd(text, i);
      i = skipSpace(text, keyEnd);
      if (text.charCodeAt(i) !== COLON) throw malformed(i);
      i = skipSpace(text, i + 1);
    }
    if (i >= text.length) throw malformed(i);
    const end = valueEnd(text, i, i + steps.pieceChars + 1);
    if (end >= 0 && end - runStart <= steps.pieceChars) {
      runEnd = end;
    } else if (end >= 0) {
      await flush();
      runStart = memberStart;
      runEnd = end;
    } else {
      await flush();
      const key = isRecord ? (JSON.parse(text.slice(memberStart, keyEnd)) as string) : "";
      const walked = await valueAt(walk, i);
      take(isRecord ? { [key]: walked.value } : walked.value, true);
      runStart = walked.end;
      runEnd = walked.end;
      i = walked.end;
    }
    if (end >= 0) i = end;
    i = skipSpace(text, i);
    const c = text.charCodeAt(i);
    if (c === close) {
      await flush();
      return i + 1;
    }
    if (c !== COMMA) throw malformed(i);
    i = skipSpace(text, i + 1);
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

/** `JSON.parse(text)`, in steps (see the module's comment); a malformed text throws SyntaxError. */
export async function parseJsonInSteps(text: string, steps: JsonSteps): Promise<unknown> {
  const walk: Walk = { text, steps, parsed: 0 };
  const start = skipSpace(text, 0);
  const { value, end } = await valueAt(walk, start);
  if (skipSpace(text, end) !== text.length) throw malformed(end);
  return value;
}
