/**
 * Bodies of MAX_BODY_BYTES (8 MiB) of hostile shapes, legal all (nested within MAX_NESTING_DEPTH):
 * through `/graphql`, a REST route and a batch line, each holds the event loop at most 50 ms of
 * CPU at once (test/support/stretches.ts: the thread's own CPU between two turns, GC pauses
 * aside). One 8 MB string inside 62 levels took 1,427 ms in one stretch in the service's stepped
 * parser; REST bodies and batch lines were one JSON.parse (430–886 ms for 8 MB of small lists,
 * records or keys; a batch line 663 ms, then as long again written and read back).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { evaluateLine } from "../../src/batch/index.js";
import { sharedApp } from "../support/app.js";
import { longestStretchOf, STRETCH_ATTEMPTS } from "../support/stretches.js";

const app = sharedApp();

const LONGEST_STRETCH_MS = 50;
/** Room for a shape inside a body of 8 MiB, its envelope aside. */
const ROOM = 8 * 1024 * 1024 - 4096;

/** `inner` nested `depth` levels deep, lists and records alternating. */
function nested(inner: string, depth: number): string {
  let text = inner;
  for (let level = 0; level < depth; level++) text = level % 2 === 0 ? `[${text}]` : `{"k":${text}}`;
  return text;
}

const SHAPES: Record<string, string> = {
  // Inside the envelope's 2 levels (`{"variables":{"v":`, `{"x":`): 62 in all
  "an 8 MB string inside 62 levels": nested(`"${"x".repeat(ROOM)}"`, 60),
  "2.8 million empty records": `[${Array(Math.floor(ROOM / 3))
    .fill("{}")
    .join(",")}]`,
  // Refused before it is parsed (MAX_OBJECT_MEMBERS): listing its keys is one stretch
  "700,000 keys": `{${Array.from({ length: Math.floor(ROOM / 13) }, (_, i) => `"k${i}":1`).join(",")}}`,
  // 100 lists of 100 lists of 100 empty lists: every list within MAX_LIST_LENGTH, a million walked
  "a million lists of 100": `[${Array(100)
    .fill(
      `[${Array(100)
        .fill(`[${Array(100).fill("[]").join(",")}]`)
        .join(",")}]`,
    )
    .join(",")}]`,
};

const TRANSPORTS: Record<string, (shape: string) => Promise<number>> = {
  "/graphql": async (shape) => {
    const answer = await app.yoga.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: `{"query":"{ __typename }","variables":{"v":${shape}}}`,
    });
    await answer.text();
    return answer.status;
  },
  "POST /v1/server/": async (shape) => {
    const body = `{"model":{"archetype":"dellR740"},"x":${shape}}`;
    return (await app.rest({ method: "POST", url: "/v1/server/?verbose=false", body })).status;
  },
  "a batch line": async (shape) => {
    const line = `{"path":"/v1/server/?verbose=false","body":{"x":${shape}}}`;
    return (await evaluateLine((call) => app.rest(call), line, {})).status;
  },
};

describe("a body of 8 MiB holds the event loop at most 50 ms of CPU at once", () => {
  beforeAll(async () => {
    // The app built and each path run once, outside the measures
    for (const send of Object.values(TRANSPORTS)) await send("[]");
  });

  for (const [transport, send] of Object.entries(TRANSPORTS)) {
    for (const [name, shape] of Object.entries(SHAPES)) {
      it(`${transport}: ${name}`, STRETCH_ATTEMPTS, async () => {
        const { value: status, longestMs } = await longestStretchOf(() => send(shape));
        // Answered (a list past MAX_LIST_LENGTH is a 422), never a 5xx
        expect(status).toBeLessThan(500);
        expect(longestMs).toBeLessThanOrEqual(LONGEST_STRETCH_MS);
      });
    }
  }
});

describe("an object of more than MAX_OBJECT_MEMBERS members is refused before the body is parsed", () => {
  const wide = `{${Array.from({ length: 1_001 }, (_, i) => `"k${i}":1`).join(",")}}`;
  const widest = `{${Array.from({ length: 1_000 }, (_, i) => `"k${i}":1`).join(",")}}`;

  it("/graphql: 400 LIMIT_EXCEEDED naming MAX_OBJECT_MEMBERS", async () => {
    const post = (v: string) =>
      app.yoga.fetch("http://localhost/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: `{"query":"{ __typename }","variables":{"v":${v}}}`,
      });
    const refused = await post(wide);
    expect(refused.status).toBe(400);
    const { errors } = (await refused.json()) as {
      errors: { message: string; extensions: { limit: string } }[];
    };
    expect(errors[0].message).toBe(
      "the JSON body has an object of more than 1,000 members (MAX_OBJECT_MEMBERS)",
    );
    expect(errors[0].extensions.limit).toBe("MAX_OBJECT_MEMBERS");
    expect((await post(widest)).status).toBe(200);
  });

  it("a REST route: 422 at the body naming MAX_OBJECT_MEMBERS; a batch line: 422 at the line", async () => {
    const rest = await app.rest({ method: "POST", url: "/v1/server/", body: `{"x":${wide}}` });
    expect(rest.status).toBe(422);
    expect(JSON.stringify(rest.body)).toContain("the JSON body has an object of more than 1,000 members");
    expect(JSON.stringify(rest.body)).toContain('"loc":["body"]');
    expect((await app.rest({ method: "POST", url: "/v1/server/", body: `{"x":${widest}}` })).status).toBe(
      200,
    );
    const line = await evaluateLine(
      (call) => app.rest(call),
      `{"path":"/v1/server/","body":{"x":${wide}}}`,
      {},
    );
    expect(line).toEqual({
      status: 422,
      body: {
        detail: [
          {
            loc: ["line"],
            msg: "the line has an object of more than 1,000 members (MAX_OBJECT_MEMBERS)",
            type: "value_error",
          },
        ],
      },
      quantity: 1,
    });
  });
});
