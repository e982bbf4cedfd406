/**
 * Issue 86's hostile bodies through each transport (the in-process app): an item that is not JSON
 * (`tru`, `NaN`, `'q'`, `01`, a raw control character) inside a list longer than any input accepts,
 * at it, or short, padded past the size where bodies are read in steps or not, placed where nothing
 * reads it (an undeclared GraphQL variable, `extensions`, a batch line's unknown member): never a
 * 200, always refused as not JSON. A list past the bound is refused by its length, at its field,
 * without being built; a number field given as the text "1e400" is refused at that field.
 */
import { describe, expect, it } from "vitest";
import { evaluateLine } from "../../src/batch/index.js";
import { sharedApp } from "../support/app.js";

const app = sharedApp();

const NOT_JSON = ["tru", "NaN", "'q'", "01", "\u0001", '"a\u0001"', "-", "1.", "[1,]"];
/** Lists of `{}` short, at the longest any input accepts (MAX_FLEET_ITEMS), past it. */
const COUNTS = [3, 10_000, 10_001];
/** None, and more than the 64 K characters past which a body is read in steps. */
const PADDINGS = ["", " ".repeat(70_000)];

const listWith = (item: string, count: number, padding: string) =>
  `[${Array(count).fill("{}").join(",")},${padding}${item}${padding}]`;

async function graphqlStatus(body: string): Promise<{ status: number; text: string }> {
  const answer = await app.yoga.fetch("http://localhost/graphql", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body,
  });
  return { status: answer.status, text: await answer.text() };
}

describe("a body that is not JSON is refused as not JSON, at any size and padding", () => {
  it("/graphql: 400 `POST body sent invalid JSON.`, in an undeclared variable or in `extensions`", async () => {
    for (const item of NOT_JSON) {
      for (const count of COUNTS) {
        for (const padding of PADDINGS) {
          const list = listWith(item, count, padding);
          for (const body of [
            `{"query":"{ __typename }","variables":{"undeclared":${list}}}`,
            `{"query":"{ __typename }","extensions":{"x":${list}}}`,
          ]) {
            const { status, text } = await graphqlStatus(body);
            expect(status, `${item} ×${count} +${padding.length}`).toBe(400);
            expect(text).toContain("POST body sent invalid JSON.");
          }
        }
      }
    }
  });

  it("a REST route: 422 `body is not valid JSON` at the body", async () => {
    for (const item of NOT_JSON) {
      for (const count of COUNTS) {
        for (const padding of PADDINGS) {
          const body = `{"model":{"archetype":"dellR740"},"x":${listWith(item, count, padding)}}`;
          const answer = await app.rest({ method: "POST", url: "/v1/server/?verbose=false", body });
          expect(answer.status, `${item} ×${count} +${padding.length}`).toBe(422);
          expect(JSON.stringify(answer.body)).toMatch(/"loc":\["body"\].*not valid JSON|JSON decode/);
        }
      }
    }
  });

  it("a batch line: 422 `line is not valid JSON`, in the line's unknown member or its body", async () => {
    for (const item of NOT_JSON) {
      for (const count of COUNTS) {
        for (const padding of PADDINGS) {
          const list = listWith(item, count, padding);
          for (const line of [
            `{"path":"/v1/server/?verbose=false","body":{"model":{"archetype":"dellR740"}},"unknown":${list}}`,
            `{"path":"/v1/server/?verbose=false","body":{"model":{"archetype":"dellR740"},"x":${list}}}`,
          ]) {
            const outcome = await evaluateLine((call) => app.rest(call), line, {});
            expect(outcome.status, `${item} ×${count} +${padding.length}`).toBe(422);
            expect(outcome.body).toEqual({
              detail: [{ loc: ["line"], msg: "line is not valid JSON", type: "value_error.jsondecode" }],
            });
          }
        }
      }
    }
  });
});

describe("/graphql's other ways in: a query string, a form, a multipart body", () => {
  const get = (query: string) =>
    app.yoga.fetch(`http://localhost/graphql?query=%7B__typename%7D&${query}`, {
      headers: { accept: "application/json" },
    });
  const form = (fields: Record<string, string>) =>
    app.yoga.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ query: "{ __typename }", ...fields }).toString(),
    });

  it("variables or extensions that are not JSON: 400 naming them (they were 500)", async () => {
    for (const item of NOT_JSON) {
      const json = `{"x":[${item}]}`;
      for (const [answer, where] of [
        [await get(`variables=${encodeURIComponent(json)}`), "variables of the query string"],
        [await get(`extensions=${encodeURIComponent(json)}`), "extensions of the query string"],
        [await form({ variables: json }), "variables of the form"],
        [await form({ extensions: json }), "extensions of the form"],
      ] as const) {
        expect(answer.status, `${item} in the ${where}`).toBe(400);
        expect(await answer.json()).toEqual({
          errors: [{ message: `the ${where} are not valid JSON`, extensions: { code: "BAD_REQUEST" } }],
        });
      }
    }
    // JSON read as a body is: within the bounds, answered
    const answer = await form({ variables: '{"x":[1]}' });
    expect(await answer.json()).toEqual({ data: { __typename: "Query" } });
  });

  it("a multipart body is refused 415: no field takes a file", async () => {
    const body = new FormData();
    body.set("operations", JSON.stringify({ query: "{ __typename }", variables: { x: [1] } }));
    const answer = await app.yoga.fetch("http://localhost/graphql", { method: "POST", body });
    expect(answer.status).toBe(415);
    expect(((await answer.json()) as { errors: { message: string }[] }).errors[0].message).toBe(
      "multipart/form-data is not read here (no field takes a file): send the operation as application/json",
    );
  });
});

describe("issue 86's body: 279 lists of exactly 10,000 `{}` (8.37 MB)", () => {
  const list = `[${Array(10_000).fill("{}").join(",")}]`;
  const body = `{"usage":{"x":[${Array(279).fill(list).join(",")}]}}`;

  it("a REST route: 422 at its list of 279, by its length (MAX_LIST_LENGTH), nothing of it built", async () => {
    expect(body.length).toBe(8_370_575);
    const answer = await app.rest({ method: "POST", url: "/v1/server/?verbose=false", body });
    expect(answer.status).toBe(422);
    const [detail] = (answer.body as { detail: { loc: unknown[]; msg: string }[] }).detail;
    expect(detail.loc).toEqual(["body", "usage", "x"]);
    expect(detail.msg).toBe("ensure this value has at most 100 items (MAX_LIST_LENGTH)");
  });

  it("a batch line holding it: 422 at the same field", async () => {
    const line = `{"path":"/v1/server/?verbose=false","body":${body}}`;
    const outcome = await evaluateLine((call) => app.rest(call), line, {});
    expect(outcome.status).toBe(422);
    expect(JSON.stringify(outcome.body)).toContain('"loc":["body","usage","x"],');
  });
});

describe('a number field given as the text "1e400"', () => {
  it("is refused at its field as not finite, as the number 1e400 is, in each dialect", async () => {
    for (const edition of ["1.2.4", "2.4.1"]) {
      const answers = [];
      for (const value of ['"1e400"', "1e400", '"-1e400"']) {
        const body = `{"model":{"archetype":"dellR740"},"usage":{"hours_life_time":${value}}}`;
        answers.push(await app.rest({ method: "POST", url: `/v1/server/?edition=${edition}`, body }));
      }
      for (const answer of answers) {
        expect(answer.status).toBe(422);
        const [detail] = (answer.body as { detail: { loc: unknown[] }[] }).detail;
        expect(detail.loc).toEqual(["body", "usage", "hours_life_time"]);
      }
      expect(JSON.stringify(answers[0].body)).not.toContain("Infinity");
    }
  });
});
