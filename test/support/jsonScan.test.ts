import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type JsonBounds,
  newJsonScan,
  scanJson,
  scannedJson,
  scanWholeJson,
} from "../../src/support/jsonScan.js";
import { readJsonBody } from "../../src/support/steppedJson.js";

const UNBOUNDED: JsonBounds = { depth: 1e9, members: 1e9, entries: 1e9 };

/** The scan's verdict on `text` scanned `step` characters at a time: its bound passed, or the error's name. */
function verdict(text: string, bounds: JsonBounds, step: number): string {
  try {
    const scan = newJsonScan();
    while (scan.at < text.length) scanJson(text, bounds, scan, scan.at + step);
    return String(scannedJson(text, scan).passed);
  } catch (error) {
    return (error as Error).name;
  }
}

function jsonVerdict(text: string): string {
  try {
    JSON.parse(text);
    return "null";
  } catch (error) {
    return (error as Error).name;
  }
}

describe("scanJson: JSON's grammar, every character", () => {
  it("refuses what JSON.parse refuses and takes what it takes, texts cut, changed or grown, scanned in any steps", () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 4 }),
        fc.nat(),
        fc.integer({ min: 0, max: 0xffff }),
        fc.constantFrom("insert", "delete", "replace", "keep"),
        fc.constantFrom(1, 2, 7, 1e9),
        (value, at, code, change, step) => {
          const text = JSON.stringify(value, null, at % 3);
          const cut = at % (text.length + 1);
          // Half the characters drawn among JSON's own and the ASCII controls
          const c = String.fromCharCode(code % 2 === 0 ? code % 128 : code);
          const changed = {
            insert: `${text.slice(0, cut)}${c}${text.slice(cut)}`,
            delete: `${text.slice(0, cut)}${text.slice(cut + 1)}`,
            replace: `${text.slice(0, cut)}${c}${text.slice(cut + 1)}`,
            keep: text,
          }[change];
          expect(verdict(changed, UNBOUNDED, step), JSON.stringify(changed)).toBe(jsonVerdict(changed));
        },
      ),
      { numRuns: 20_000 },
    );
  });

  it("follows JSON's tokens as JSON.parse does: numbers, escapes, literals, controls, spaces", () => {
    const texts = [
      "0",
      "-0",
      "01",
      "-01",
      "1.",
      ".5",
      "1e",
      "1e+",
      "1E-5",
      "-",
      "+1",
      "0x10",
      "1.5e3.2",
      "NaN",
      "Infinity",
      "-Infinity",
      "tru",
      "true",
      "truex",
      "nul",
      "null",
      "False",
      "'q'",
      '"q"',
      '"\\q"',
      '"\\u12"',
      '"\\u12g4"',
      '"\\u00E9"',
      '"\\/"',
      '"\u0001"',
      '"\u007f"',
      '"\u2028"',
      '"\ud800"',
      "\uFEFF1",
      " \t\r\n1 \n",
      "\u00a01",
      "[1,]",
      "[,1]",
      "{,}",
      '{"a"}',
      '{"a":}',
      '{"a" 1}',
      '{"a":1,}',
      "[1 2]",
      "[]]",
      "[[]",
      "{}}",
      '{"a":[}]',
      "",
      " ",
      "1 2",
      '"a" "b"',
      "[1]x",
    ];
    for (const text of texts) {
      for (const step of [1, 3, 1e9]) expect(verdict(text, UNBOUNDED, step), text).toBe(jsonVerdict(text));
    }
  });

  it("refuses a body that is not JSON as not JSON at any size and padding, whatever bound it also passes", () => {
    const items = ["tru", "NaN", "'q'", "01", '"\u0001"', "\u0001", "[1,]", "Infinity", "-"];
    for (const item of items) {
      for (const padding of ["", " ", " ".repeat(70_000)]) {
        // Past the entries' bound (the list left unbuilt), past the members' and the depth's
        const long = `{"x":[${Array(120).fill("{}").join(",")},${padding}${item}${padding}]}`;
        const wide = `{${Array.from({ length: 1_200 }, (_, i) => `"k${i}":1`).join(",")},"z":${padding}${item}}`;
        const deep = `${"[".repeat(80)}${padding}${item}${"]".repeat(80)}`;
        const bounds = { depth: 64, members: 1_000, entries: 100 };
        for (const text of [long, wide, deep]) {
          expect(verdict(text, bounds, 128 * 1024), `${item} ${text.slice(0, 40)}`).toBe("SyntaxError");
        }
      }
    }
  });
});

describe("scanJson: the bounds, in the order of the text", () => {
  const passed = (text: string, bounds: Partial<JsonBounds>) =>
    scanWholeJson(text, { ...UNBOUNDED, ...bounds }).passed;

  it("counts an object's members, not a list's items nor what strings hold; each object apart", () => {
    expect(passed('{"a": 1, "b": 2, "c": 3}', { members: 3 })).toBe(null);
    expect(passed('{"a": 1, "b": 2, "c": 3}', { members: 2 })).toBe("members");
    expect(passed("[1, 2, 3, 4, 5]", { members: 2 })).toBe(null);
    expect(passed('{"a": "1, 2, 3, \\", 4, 5", "b": [1, 2, 3, {"c": 1}], "d": 2}', { members: 3 })).toBe(
      null,
    );
    expect(passed('{"a": [1, 2, 3, {"c": 1, "d": 2, "e": 3}]}', { members: 2 })).toBe("members");
    expect(passed('{"a": {"x": 1, "y": 2}, "b": {"x": 1, "y": 2}}', { members: 2 })).toBe(null);
    expect(passed('{"a": {"x": 1}, "b": 1, "c": {"x": 1}}', { members: 2 })).toBe("members");
  });

  it("counts nesting, not brackets inside strings; the bound met first is the one passed", () => {
    expect(passed('{"a": [[1]]}', { depth: 3 })).toBe(null);
    expect(passed('{"a": [[1]]}', { depth: 2 })).toBe("depth");
    expect(passed('{"a": "[[[[\\"[[[["}', { depth: 1 })).toBe(null);
    expect(passed(`${"[".repeat(100_000)}${"]".repeat(100_000)}`, { depth: 64 })).toBe("depth");
    expect(passed('[[[{"a": 1, "b": 2}]]]', { members: 1 })).toBe("members");
    expect(passed('[[[{"a": 1, "b": 2}]]]', { members: 1, depth: 2 })).toBe("depth");
  });

  it("answers as one scan wherever the steps cut (an escape, a number or a literal included)", () => {
    const texts = [
      '{"a": "[[[[\\"[[[[", "b": [[{"c": "\\\\u00e9"}]], "d": -12.5e+3}',
      `[${'"\\"{",'.repeat(5)}[[true, null, false]], 0.25]`,
    ];
    for (const text of texts) {
      for (const depth of [1, 2, 3, 4]) {
        for (const widest of [1, 2, 5, 1e9]) {
          const bounds = { depth, members: widest, entries: widest + 1 };
          const whole = scanWholeJson(text, bounds);
          for (let step = 1; step <= text.length; step++) {
            const scan = newJsonScan();
            while (scan.at < text.length) scanJson(text, bounds, scan, scan.at + step);
            expect(scannedJson(text, scan), `${text} by ${step}`).toStrictEqual(whole);
          }
        }
      }
    }
  });
});

describe("scanJson: the lists past the entries' bound, left unbuilt", () => {
  const longLists = (text: string, entries: number) =>
    Object.fromEntries(scanWholeJson(text, { ...UNBOUNDED, entries }).longLists);

  it("counts a list's entries, not an object's members nor what strings hold", () => {
    expect(longLists("[1, 2, 3]", 3)).toEqual({});
    expect(longLists("[1, 2, 3]", 2)).toEqual({ 0: { entries: 3, end: 9 } });
    expect(longLists("[[], [], []]", 2)).toEqual({ 0: { entries: 3, end: 12 } });
    expect(longLists('{"a": 1, "b": 2, "c": 3}', 1)).toEqual({});
    expect(longLists('["1, 2, 3, \\", 4", [1, 2], {"a": 1, "b": 2}]', 3)).toEqual({});
  });

  it("keeps the outermost only: a long list inside a long list is never reached", () => {
    expect(longLists("[[1, 2], 3, [4, 5], 6]", 3)).toEqual({ 0: { entries: 4, end: 22 } });
    expect(longLists('{"a": [1, 2, 3, 4]}', 3)).toEqual({ 6: { entries: 4, end: 18 } });
    expect(longLists("[[1, 2, 3], [1, 2, 3, 4]]", 3)).toEqual({ 12: { entries: 4, end: 24 } });
    expect(longLists("[[1, 2, 3, 4], 5, 6, [7, 8, 9, 10]]", 3)).toEqual({ 0: { entries: 4, end: 35 } });
  });
});

/*
 * The heap estimate against the heap V8 gives the parse (the service's: readJsonBody, stepped past
 * 64 K characters), measured with a collection before and after, for the shapes that cost the most
 * per character and an ordinary fleet.
 */

setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

async function settled(): Promise<number> {
  for (let round = 0; round < 3; round++) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

/** The heap a text's parse keeps (its text counted once, as the estimate counts it) and the estimate. */
async function heapOf(text: string): Promise<{ heap: number; estimate: number }> {
  let estimate = Number.NaN;
  const before = await settled();
  let kept: unknown = await readJsonBody(
    text,
    { depth: 100, members: 1_000, entries: 1e9 },
    {
      admit: async (bytes) => {
        estimate = bytes;
      },
    },
  );
  const heap = (await settled()) - before + text.length;
  expect(kept).toHaveProperty("value");
  kept = null;
  return { heap, estimate };
}

const ITEMS = 150_000;
const listOf = (item: (i: number) => string, count = ITEMS) =>
  `[${Array.from({ length: count }, (_, i) => item(i)).join(",")}]`;
const members = (count: number, prefix: string) =>
  `{${Array.from({ length: count }, (_, k) => `"${prefix}${k}":0`).join(",")}}`;

const COSTLY: Record<string, string> = {
  "empty records": listOf(() => "{}"),
  "lists of one record": listOf(() => "[{}]"),
  "one record 30 lists deep": listOf(() => `${"[".repeat(30)}{}${"]".repeat(30)}`, 20_000),
  "empty lists": listOf(() => "[]"),
  "records of a record": listOf(() => '{"a":{}}'),
  "a key new to each record": listOf((i) => `{"${i.toString(36)}":0}`),
  "two new keys and a fraction": listOf((i) => `{"${i.toString(36)}":0,"x${i.toString(36)}":1.5}`),
  "records of 200 members (dictionaries)": listOf((i) => members(200, `k${i}_`), 1_500),
  "strings, wide strings, escapes": listOf((i) => `"abc${i}","€${i}","\\u00e9\\n${i}"`, 50_000),
  "mixed lists of fractions": listOf((i) => `[1.5,"a",${i}.25]`),
  "long strings": listOf((i) => `"${"y".repeat(20_000)}${i}"`, 100),
};

const CPU_NAMES = ["Intel Xeon Gold 6134", "AMD EPYC 7763"];
/** A 10,000-server fleet's body (2 MB), the largest ordinary body. */
const FLEET = JSON.stringify({
  query: "query ($inputs: [ServerItemInput!]!) { servers(inputs: $inputs) { count } }",
  variables: {
    inputs: Array.from({ length: 10_000 }, (_, i) => ({
      configuration: {
        cpu: { units: 2, name: CPU_NAMES[i % 2] },
        ram: [{ units: 1 + (i % 16), capacity: 32 }],
        disk: [{ units: 2, type: "ssd", capacity: 960 }],
      },
      usage: { usageLocation: "FRA", timeWorkload: i % 100 },
    })),
  },
});

describe("scannedJson's heap estimate: at least what the parse keeps", () => {
  for (const [name, text] of Object.entries(COSTLY)) {
    it(`${name}: the estimate is not below the heap measured`, { timeout: 120_000 }, async () => {
      const { heap, estimate } = await heapOf(text);
      expect(estimate).toBeGreaterThanOrEqual(heap);
    });
  }

  it("an ordinary fleet: estimated at most 6 times what it keeps (about 28 MB for 6 MB)", async () => {
    const { heap, estimate } = await heapOf(FLEET);
    expect(estimate).toBeGreaterThanOrEqual(heap);
    expect(estimate).toBeLessThanOrEqual(6 * heap);
  });

  it("a list left unbuilt costs none of its items: 2.8 million `{}` past the bound, the text and a few bytes", () => {
    const text = `{"x":[${Array(2_800_000).fill("{}").join(",")}]}`;
    const { heapBytes, longLists } = scanWholeJson(text, { depth: 64, members: 1_000, entries: 10_000 });
    expect(longLists.size).toBe(1);
    expect(heapBytes).toBeLessThan(text.length + 1_000);
    // The same list at the bound is built, and counted: 10,000 records, not their text alone
    const atBound = `{"x":[${Array(10_000).fill("{}").join(",")}]}`;
    expect(scanWholeJson(atBound, { depth: 64, members: 1_000, entries: 10_000 }).heapBytes).toBeGreaterThan(
      10_000 * 64,
    );
  });

  it("counts a text holding a character past U+00FF two bytes a character, as V8 holds it", () => {
    const plain = scanWholeJson(`["${"a".repeat(1_000)}"]`, UNBOUNDED).heapBytes;
    const wide = scanWholeJson(`["${"a".repeat(999)}€"]`, UNBOUNDED).heapBytes;
    expect(wide - plain).toBeGreaterThanOrEqual(2_000);
  });
});
