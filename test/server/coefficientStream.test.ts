/**
 * `GET /v1/cloud/coefficients/stream` through a real process: the table streamed as CSV and as
 * NDJSON holds the rows of the JSON route (`GET /v1/cloud/coefficients`), in its order; the
 * answer comes in pieces, the first before the last row is computed (a client that leaves after
 * the first piece has received a part of the table only, and the service goes on answering);
 * a bad query is answered before the first byte, as JSON. Every wait is for a line the process
 * prints or an answer.
 */
import { request as httpRequest } from "node:http";
import { describe, expect, it } from "vitest";
import { portOf, serviceStarter } from "../support/process.js";

const service = serviceStarter();
const LISTENING = /^listening on http:\/\//;
const QUERY = "edition=2.4.1&provider=azure&criteria=gwp&load=50";

interface Answer {
  readonly status: number;
  readonly type: string;
  /** The pieces as they arrived (no compression asked). */
  readonly pieces: string[];
}

/** The answer to a GET, piece by piece; with `leaveAfterFirst`, the client leaves once the first piece came. */
function get(port: number, path: string, leaveAfterFirst = false): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest({ host: "127.0.0.1", port, path }, (response) => {
      const pieces: string[] = [];
      const done = () =>
        resolve({ status: response.statusCode ?? 0, type: String(response.headers["content-type"]), pieces });
      response.setEncoding("utf8");
      response.on("data", (piece: string) => {
        pieces.push(piece);
        if (leaveAfterFirst && pieces.length === 1) {
          request.destroy();
          done();
        }
      });
      response.on("end", done);
      response.on("error", (error) => (leaveAfterFirst ? done() : reject(error)));
    });
    request.on("error", (error) => (leaveAfterFirst ? undefined : reject(error)));
    request.end();
  });
}

describe("GET /v1/cloud/coefficients/stream", () => {
  it("streams the JSON route's rows as CSV and NDJSON, checks the query first, and stops when the client leaves", async () => {
    const process = service({});
    const port = portOf((await process.waitFor(LISTENING))[0]);
    const json = await get(port, `/v1/cloud/coefficients?${QUERY}`);
    expect(json.status).toBe(200);
    const { columns, rows } = JSON.parse(json.pieces.join("")) as {
      columns: string[];
      rows: (string | number | null)[][];
    };
    expect(rows.length).toBeGreaterThan(1000);

    const csv = await get(port, `/v1/cloud/coefficients/stream?${QUERY}&format=csv`);
    expect(csv.status).toBe(200);
    expect(csv.type).toMatch(/^text\/csv/);
    expect(csv.pieces.length).toBeGreaterThan(1);
    const lines = csv.pieces.join("").trimEnd().split("\n");
    expect(lines[0]).toBe(columns.join(","));
    expect(lines.slice(1)).toEqual(
      rows.map((row) => row.map((cell) => (cell === null ? "" : String(cell))).join(",")),
    );

    const ndjson = await get(port, `/v1/cloud/coefficients/stream?${QUERY}&format=ndjson`);
    expect(ndjson.status).toBe(200);
    expect(ndjson.type).toBe("application/x-ndjson");
    const objects = ndjson.pieces
      .join("")
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(objects).toEqual(
      rows.map((row) => Object.fromEntries(columns.map((column, index) => [column, row[index]]))),
    );

    // The first piece is sent before the table is computed: a client leaving then has a part of it.
    const left = await get(port, `/v1/cloud/coefficients/stream?${QUERY}&format=csv`, true);
    expect(left.pieces[0].startsWith(columns.join(","))).toBe(true);
    expect(left.pieces.join("").split("\n").length).toBeLessThan(rows.length);
    expect((await get(port, "/healthz")).status).toBe(200);

    for (const [query, status] of [
      ["format=xml", 422],
      ["provider=nimbus", 404],
      ["load=lots", 422],
      ["criteria=nonsense", 422],
      ["edition=0.1", 422],
    ] as const) {
      const refused = await get(port, `/v1/cloud/coefficients/stream?${query}`);
      expect(refused.status, query).toBe(status);
      expect(refused.type, query).toBe("application/json");
      expect(JSON.parse(refused.pieces.join("")), query).toHaveProperty("detail");
    }

    const openApi = JSON.parse((await get(port, "/openapi.json")).pieces.join(""));
    expect(Object.keys(openApi.paths["/v1/cloud/coefficients/stream"].get.responses["200"].content)).toEqual([
      "text/csv",
      "application/x-ndjson",
    ]);
  });
});
