/**
 * Every answer the shim computes is one V8's JSON.stringify takes on its fast path: each object
 * with fast properties (not a dictionary) and each text flat (not a rope of joined parts). One
 * exception anywhere sends the whole answer down the slow path, at about half the speed
 * (src/engine/model/flatText.ts; bench/README.md, "Answers on JSON.stringify's fast path"). The
 * requests are the rebuilt reference's corpus (every route family), in each published edition.
 * V8's own predicates are read through its natives syntax, allowed for this file's functions
 * alone: the file runs in a fork of its own (vitest.config.ts, the `isolated` project).
 */
import { setFlagsFromString } from "node:v8";
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { recordedCases, recordedRequest } from "../support/referenceCorpus.js";

setFlagsFromString("--allow-natives-syntax");
const isFlat = new Function("text", "return %StringIsFlat(text)") as (text: string) => boolean;
const hasFastProperties = new Function("object", "return %HasFastProperties(object)") as (
  object: object,
) => boolean;

const cases = recordedCases();

const app = sharedApp();

/** The places of `value` that keep JSON.stringify off its fast path, by their path. */
function slowPlaces(value: unknown, path: string, found: string[]): string[] {
  if (typeof value === "string") {
    if (!isFlat(value)) found.push(`${path}: a text joined from parts`);
  } else if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) slowPlaces(item, `${path}[${index}]`, found);
  } else if (value !== null && typeof value === "object") {
    if (!hasFastProperties(value)) found.push(`${path}: an object held as a dictionary`);
    for (const [key, item] of Object.entries(value)) slowPlaces(item, `${path}.${key}`, found);
  }
  return found;
}

describe("the shim's answers are serialised on JSON.stringify's fast path", () => {
  it("reads V8's predicates: a joined text and a dictionary are told apart", () => {
    const parts = ["Average of ", String(cases.length), " rows and their sources"];
    expect(isFlat(`${parts[0]}${parts[1]}${parts[2]}`)).toBe(false);
    expect(isFlat(parts.join(""))).toBe(true);
    const keyed: Record<string, number> = {};
    for (let index = 0; index < 40; index += 1) keyed[`attribute_${index}`] = index;
    expect(hasFastProperties(keyed)).toBe(false);
    expect(hasFastProperties(Object.fromEntries(Object.entries(keyed)))).toBe(true);
  });

  for (const edition of ["1.2.4", "2.4.1", "2.5.0"]) {
    it(`in edition ${edition}, for every request of the corpus answered 2xx`, async () => {
      const found: string[] = [];
      let answered = 0;
      for (const recorded of cases) {
        const answer = await app.rest(recordedRequest(recorded, `edition=${edition}`));
        if (answer.status >= 300 || answer.serialized !== undefined) continue;
        answered += 1;
        slowPlaces(answer.body, recorded.id, found);
      }
      expect(answered).toBeGreaterThan(100);
      expect(found).toEqual([]);
    });
  }
});
