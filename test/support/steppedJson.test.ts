import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type JsonSteps, parseJsonInSteps } from "../../src/support/steppedJson.js";

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
