import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bodyJsonBounds, DEFAULT_LIMITS } from "../../src/config/serviceConfig.js";
import { type JsonSteps, parseJsonInSteps, readJsonBody } from "../../src/support/steppedJson.js";
import { longestStretchOf, STRETCH_ATTEMPTS } from "./stretches.js";

/** Small pieces, so that the walk (not JSON.parse alone) reads most of each text. */
const tiny = (pauses: { count: number }): JsonSteps => ({
  pieceChars: 12,
  stepChars: 20,
  pause: async () => {
    pauses.count++;
  },
});

/** The same value, and the same keys in the same order at every level. */
function expectSame(actual: unknown, expected: unknown): void {
  expect(actual).toStrictEqual(expected);
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected));
}

/** JSON text of `value` with JSON whitespace after each of its delimiters (outside strings). */
function spaced(value: unknown, spaces: readonly string[]): string {
  let n = 0;
  const space = () => spaces[n++ % spaces.length];
  let text = space();
  let inString = false;
  const compact = JSON.stringify(value);
  for (let i = 0; i < compact.length; i++) {
    const c = compact[i];
    text += c;
    if (inString && c === "\\") text += compact[++i];
    else if (c === '"') inString = !inString;
    else if (!inString && "[]{},:".includes(c)) text += space();
  }
  return `${space()}${text}`;
}

async function outcome(text: string, steps: JsonSteps): Promise<{ value: unknown } | { error: string }> {
  try {
    return { value: await parseJsonInSteps(text, steps) };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

function jsonOutcome(text: string): { value: unknown } | { error: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (error) {
    return { error: (error as Error).name };
  }
}

describe("parseJsonInSteps", () => {
  it("answers JSON.parse's value for any JSON text, whatever its spacing", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.jsonValue({ maxDepth: 5 }),
        fc.array(fc.constantFrom("", " ", "\n", "\t", "\r\n  "), { minLength: 1, maxLength: 5 }),
        async (value, spaces) => {
          // Strings that hold JSON's delimiters, escapes and quotes are in jsonValue's draw.
          const text = spaced(value, spaces);
          expectSame(await parseJsonInSteps(text, tiny({ count: 0 })), JSON.parse(text));
        },
      ),
      { numRuns: 400 },
    );
  });

  it("refuses what JSON.parse refuses and reads what it reads, for texts cut or with a character changed", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.json({ maxDepth: 4 }),
        fc.nat(),
        fc.constantFrom("", ",", "]", "}", ":", '"', "[", "{", "1", " ", "\\", "x"),
        async (text, at, character) => {
          const cut = at % (text.length + 1);
          const changed = `${text.slice(0, cut)}${character}${text.slice(cut + 1)}`;
          expect(await outcome(changed, tiny({ count: 0 }))).toStrictEqual(jsonOutcome(changed));
        },
      ),
      { numRuns: 1_000 },
    );
  });

  it("refuses a member missing between delimiters, as JSON.parse does", async () => {
    // Found by the property above: a run emptied by the walk held the trailing comma of `[…,1e10,]`
    for (const text of [
      '[null, "      ", 1.5e+10,]',
      "[,1, 2, 3, 4, 5, 6, 7]",
      '{"a": [1, 2, 3, 4, 5], "b": }',
    ]) {
      expect(await outcome(text, tiny({ count: 0 }))).toStrictEqual({ error: "SyntaxError" });
    }
  });

  it("keeps JSON.parse's own properties: __proto__ a member, the last of a repeated key, integer keys first", async () => {
    const text = `{"b": [1, 2, 3, 4, 5, 6, 7], "__proto__": {"polluted": [true, true, true, true]}, "b": [8, 9, 10, 11, 12], "2": "two", "a:b": {"c": [0, 0, 0, 0, 0, 0, 0]}}`;
    const value = (await parseJsonInSteps(text, tiny({ count: 0 }))) as Record<string, unknown>;
    expectSame(value, JSON.parse(text));
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(["2", "b", "__proto__", "a:b"]);
    expect(value.b).toEqual([8, 9, 10, 11, 12]);
  });

  it("reads a number longer than a piece as JSON.parse does: its digits, zeros, exponent and sign", async () => {
    const digits = (min: number, max: number) =>
      fc.array(fc.constantFrom(..."0123456789"), { minLength: min, maxLength: max }).map((d) => d.join(""));
    const number = fc
      .tuple(
        fc.constantFrom("", "-"),
        fc.oneof(
          fc.constant("0"),
          fc.tuple(fc.constantFrom(..."123456789"), digits(0, 900)).map(([a, b]) => a + b),
        ),
        fc.option(
          fc.oneof(
            digits(1, 900),
            digits(0, 400).map((d) => `${"0".repeat(400)}${d}`),
          ),
          { nil: undefined },
        ),
        fc.option(
          fc.tuple(
            fc.constantFrom("e", "E"),
            fc.constantFrom("", "+", "-"),
            fc.oneof(digits(1, 4), digits(1, 30)),
          ),
          {
            nil: undefined,
          },
        ),
      )
      .map(([sign, whole, fraction, exponent]) =>
        [sign, whole, fraction === undefined ? "" : `.${fraction}`, exponent?.join("") ?? ""].join(""),
      );
    const read = fc.oneof(
      number,
      fc
        .double()
        .map(String)
        .filter((text) => /^-?\d/.test(text)),
    );
    await fc.assert(
      fc.asyncProperty(read, fc.constantFrom("", " ", "]"), async (text, after) => {
        const listed = `[${text}${after === "]" ? "" : after}]`;
        expect(
          Object.is(
            ((await parseJsonInSteps(listed, tiny({ count: 0 }))) as number[])[0],
            JSON.parse(listed)[0],
          ),
        ).toBe(true);
      }),
      { numRuns: 2_000 },
    );
    for (const text of [
      "01234567890123",
      "-0123456789012345",
      "1234567890123.",
      "-",
      "12345678901234e",
      "+12345678901234",
      ".123456789012345",
      "1234567890123e+",
      "--12345678901234",
      "12345678901234x",
      "1234567890123.5.5",
      "123456789012345e5e5",
    ]) {
      expect(await outcome(text, tiny({ count: 0 })), text).toStrictEqual({ error: "SyntaxError" });
    }
    // 0 whatever its exponent; a nonzero digit past the 800th still rounds up
    expect(
      Object.is(await parseJsonInSteps(`-0.${"0".repeat(40)}e999999999999999999999`, tiny({ count: 0 })), -0),
    ).toBe(true);
    const halfway = `9007199254740993${"0".repeat(900)}1e-900`;
    expect(await parseJsonInSteps(halfway, tiny({ count: 0 }))).toBe(JSON.parse(halfway));
  });

  it("reads a string or a key longer than a piece as JSON.parse does: escapes, surrogates, refusals", async () => {
    const pieces = fc.array(
      fc.oneof(
        fc.string({ unit: "grapheme", maxLength: 30 }),
        fc.constantFrom("\\", '\\"', "\\u00e9", "\\ud83d\\ude00", "\\n", '"', "\\"),
      ),
      { maxLength: 20 },
    );
    await fc.assert(
      fc.asyncProperty(pieces, fc.boolean(), async (parts, asKey) => {
        const inner = parts.join("");
        const text = asKey ? `{"${inner}": [1, 2, 3]}` : `["${inner}"]`;
        expect(await outcome(text, tiny({ count: 0 }))).toStrictEqual(jsonOutcome(text));
      }),
      { numRuns: 2_000 },
    );
  });

  it("parses a 10,000-server fleet's body in steps of about `stepChars`, pausing between them", async () => {
    const servers = Array.from({ length: 10_000 }, (_, i) => ({
      model: { archetype: "dellR740" },
      configuration: { cpu: { units: 2, coreUnits: 4 + (i % 20) }, ram: [{ units: 12, capacity: 32 }] },
      usage: { usageLocation: ["FRA", "DEU", "USA"][i % 3], hoursLifeTime: 35_040.5 },
    }));
    const text = JSON.stringify({
      query: "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count } }",
      variables: { inputs: servers },
    });
    const pauses = { count: 0 };
    const value = await parseJsonInSteps(text, {
      pieceChars: 16 * 1024,
      stepChars: 128 * 1024,
      pause: async () => {
        pauses.count++;
      },
    });
    expectSame(value, JSON.parse(text));
    // A step ends with the piece (at most 16 K characters, and a run's brackets) that takes it past
    // 128 K characters: between one pause per 144 K and one per 128 K of the text.
    expect(text.length).toBeGreaterThan(1_500_000);
    expect(pauses.count).toBeGreaterThanOrEqual(Math.floor(text.length / (144 * 1024 + 2)));
    expect(pauses.count).toBeLessThanOrEqual(Math.floor(text.length / (128 * 1024)));
  });
});

/*
 * The longest stretch of the thread a body's read holds, over shapes of the size a body may have
 * (MAX_BODY_BYTES, 8 MiB): its CPU time between two turns (test/support/stretches.ts), with the
 * service's steps and bounds.
 */

const BODY_CHARS = 8 * 1024 * 1024 - 1024;

/**
 * The bounds of the service's largest lists: GraphQL's variables, a list of MAX_FLEET_ITEMS by
 * default. A longer list is counted and left unbuilt (readJsonBody): 2.8 million `[]` built would be
 * one array whose growths copy its 15–22 MB of entries at once, 20–27 ms of CPU here and 75–80 ms
 * on a loaded run, which no step can split.
 */
const SERVICE_BOUNDS = bodyJsonBounds(DEFAULT_LIMITS, "fleets");
/** The bound a stretch is held to (the 50 ms of CPU; a step is a few ms on a quiet machine). */
const LONGEST_STRETCH_MS = 50;

type Shape =
  | { kind: "string"; depth: number; escaped: boolean }
  | { kind: "number"; depth: number; form: "integer" | "fraction" | "exponent" }
  | { kind: "key"; depth: number }
  | { kind: "wide"; item: "[]" | "{}" | "1" | '"a"' | '{"k":[1]}' }
  | { kind: "fleet" }
  | { kind: "space"; depth: number };

/** `inner` nested `depth` levels deep, lists and records alternating. */
function nested(inner: string, depth: number): string {
  let text = inner;
  for (let level = 0; level < depth; level++) text = level % 2 === 0 ? `[${text}]` : `{"k":${text}}`;
  return text;
}

/** A JSON text of about BODY_CHARS characters of the shape drawn. */
function textOf(shape: Shape): string {
  const room = BODY_CHARS - 8 * 64;
  switch (shape.kind) {
    case "string":
      return nested(`"${shape.escaped ? "\\u00e9\\n".repeat(room / 8) : "x".repeat(room)}"`, shape.depth);
    case "number": {
      const digits = "7".repeat(room / 2);
      const number = {
        integer: `-${digits}${digits}`,
        fraction: `0.${digits}${digits}`,
        exponent: `1.${digits}e-${digits.slice(0, 12)}`,
      }[shape.form];
      return nested(number, shape.depth);
    }
    case "key":
      return nested(`{"${"k".repeat(room)}":[1,2]}`, shape.depth);
    case "wide":
      return `[${Array.from({ length: Math.floor(room / (shape.item.length + 1)) }, () => shape.item).join(",")}]`;
    case "space":
      return nested(`${" ".repeat(room)}true`, shape.depth);
    case "fleet": {
      // The longest list the service builds, each of its records as long as the body allows
      const record = `{"k":"${"x".repeat(Math.floor(room / SERVICE_BOUNDS.entries) - 9)}"}`;
      return `[${Array.from({ length: SERVICE_BOUNDS.entries }, () => record).join(",")}]`;
    }
  }
}

const shapes: fc.Arbitrary<Shape> = fc.oneof(
  fc.record({
    kind: fc.constant("string" as const),
    depth: fc.integer({ min: 0, max: 62 }),
    escaped: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant("number" as const),
    depth: fc.integer({ min: 0, max: 62 }),
    form: fc.constantFrom("integer" as const, "fraction" as const, "exponent" as const),
  }),
  fc.record({ kind: fc.constant("key" as const), depth: fc.integer({ min: 0, max: 62 }) }),
  fc.record({
    kind: fc.constant("wide" as const),
    item: fc.constantFrom("[]" as const, "{}" as const, "1" as const, '"a"' as const, '{"k":[1]}' as const),
  }),
  fc.record({ kind: fc.constant("space" as const), depth: fc.integer({ min: 0, max: 62 }) }),
  fc.constant({ kind: "fleet" as const }),
);

/** The body read as the service reads it, in its steps, and the longest stretch of CPU between two turns (ms). */
const readInTurns = (text: string) =>
  longestStretchOf(async () => {
    const read = await readJsonBody(text, SERVICE_BOUNDS);
    if (!("value" in read)) throw new Error(`refused: ${read.passed}`);
    return read.value;
  });

/** The value read is JSON.parse's, a list past the bounds left as its length alone. */
function expectRead(value: unknown, text: string): void {
  const parsed: unknown = JSON.parse(text);
  if (Array.isArray(parsed) && parsed.length > SERVICE_BOUNDS.entries) {
    expect((value as unknown[]).length).toBe(parsed.length);
    expect(Object.keys(value as unknown[])).toEqual([]);
  } else expect(JSON.stringify(value)).toBe(JSON.stringify(parsed));
}

describe("a body's read in the service's steps (readJsonBody), its longest stretch, for bodies of 8 MiB", () => {
  it("holds the main thread at most 50 ms of CPU at once, whatever the shape: deep, wide, long strings, keys, numbers, spaces", {
    ...STRETCH_ATTEMPTS,
    timeout: 600_000,
  }, async () => {
    await fc.assert(
      fc.asyncProperty(shapes, async (shape) => {
        const text = textOf(shape);
        const { value, longestMs } = await readInTurns(text);
        expectRead(value, text);
        expect(longestMs, JSON.stringify(shape)).toBeLessThanOrEqual(LONGEST_STRETCH_MS);
      }),
      { numRuns: 24 },
    );
  });

  it("parses one 8 MB string inside 62 levels in steps (1,427 ms in one stretch before)", {
    ...STRETCH_ATTEMPTS,
    timeout: 60_000,
  }, async () => {
    const text = textOf({ kind: "string", depth: 62, escaped: false });
    const { value, longestMs } = await readInTurns(text);
    expectRead(value, text);
    expect(longestMs).toBeLessThanOrEqual(LONGEST_STRETCH_MS);
  });
});

describe("readJsonBody: a list past the longest any input accepts", () => {
  const bounds = { depth: 64, members: 1_000, entries: 10_000 };

  it("is counted, not built: its length alone, no item in it, whatever its items", async () => {
    const items = Array(100_000).fill('{"a":[1,2]}').join(",");
    const text = `{"fleet":[${items}],"kept":[${Array(10_000).fill("1").join(",")}]}`;
    const read = await readJsonBody(text, bounds);
    expect("value" in read).toBe(true);
    const { fleet, kept } = (read as { value: { fleet: unknown[]; kept: number[] } }).value;
    expect(Array.isArray(fleet)).toBe(true);
    expect(fleet.length).toBe(100_000);
    expect(Object.keys(fleet)).toEqual([]);
    // A list within the bound is built as JSON.parse builds it
    expect(kept).toEqual(JSON.parse(`[${Array(10_000).fill("1").join(",")}]`));
  });

  it(
    "holds the event loop no longer than a list of small lists does, 2.8 million `{}` in 8 MB",
    STRETCH_ATTEMPTS,
    async () => {
      const text = `{"x":[${Array(2_800_000).fill("{}").join(",")}]}`;
      const { value, longestMs } = await longestStretchOf(() => readJsonBody(text, bounds));
      expect((value as { value: { x: unknown[] } }).value.x.length).toBe(2_800_000);
      expect(longestMs).toBeLessThanOrEqual(50);
    },
  );
});

describe("readJsonBody: a list past the bound is never built, short or long", () => {
  const bounds = { depth: 64, members: 1_000, entries: 2 };

  it("leaves unbuilt a long list inside a short body, or inside a piece of a long one", async () => {
    const read = (await readJsonBody('{"a":[1,2,3],"b":[[1,2],[3,4,5]]}', bounds)) as {
      value: { a: unknown[]; b: unknown[][] };
    };
    expect(read.value.a.length).toBe(3);
    expect(Object.keys(read.value.a)).toEqual([]);
    expect(read.value.b).toHaveLength(2);
    expect(read.value.b[0]).toEqual([1, 2]);
    expect(Object.keys(read.value.b[1])).toEqual([]);
    // Past 64 K characters: a short list past the bound, among members parsed whole, or in one
    const text = `{"pad":"${"x".repeat(70_000)}","l":[1,2,3],"m":[4,5],"n":{"k":[6,7,8],"j":[9]}}`;
    const long = (await readJsonBody(text, bounds)) as {
      value: { l: unknown[]; m: number[]; n: { k: unknown[]; j: number[] } };
    };
    expect(long.value.l.length).toBe(3);
    expect(Object.keys(long.value.l)).toEqual([]);
    expect(long.value.m).toEqual([4, 5]);
    expect(long.value.n.k.length).toBe(3);
    expect(Object.keys(long.value.n.k)).toEqual([]);
    expect(long.value.n.j).toEqual([9]);
  });
});

describe("readJsonBody: a text that is not JSON, and the heap admitted before anything is built", () => {
  const bounds = { depth: 64, members: 1_000, entries: 10_000 };
  const ITEMS = ["tru", "NaN", "'q'", "01", "\u0001", '"\u0001"'];

  it("refuses a text that is not JSON at any size, inside a list past the bound or at it, without admitting it", async () => {
    for (const item of ITEMS) {
      for (const count of [10, 10_000, 20_000]) {
        for (const padding of ["", " ".repeat(70_000)]) {
          const text = `{"query":"{ __typename }","variables":{"x":[${Array(count).fill("{}").join(",")},${padding}${item}]}}`;
          let admitted = false;
          const read = readJsonBody(text, bounds, {
            admit: async () => {
              admitted = true;
            },
          });
          await expect(read, `${item} after ${count}`).rejects.toThrow(SyntaxError);
          expect(admitted).toBe(false);
        }
      }
    }
  });

  it("asks for the estimate once before building, and builds nothing when refused", async () => {
    const text = `{"x":[${Array(30_000).fill('{"a":1}').join(",")}]}`;
    const asked: number[] = [];
    const read = await readJsonBody(
      text,
      { ...bounds, entries: 30_000 },
      {
        admit: async (bytes) => {
          asked.push(bytes);
        },
      },
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toBeGreaterThan(text.length);
    expect((read as { value: { x: unknown[] } }).value.x).toHaveLength(30_000);
    const refusal = new Error("no room");
    await expect(
      readJsonBody(
        text,
        { ...bounds, entries: 30_000 },
        {
          admit: async () => {
            throw refusal;
          },
        },
      ),
    ).rejects.toBe(refusal);
  });
});
