/**
 * The batch's `edition` is resolved once, at the route's edge, and handed to each line's route as
 * the served edition (never written back into the line's path as text): a line naming none is
 * answered in it, a line naming its own keeps it, and a location warning names the batch's.
 */
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { restEditions } from "../../src/rest/editionChoice.js";
import { createBatchRoute } from "../../src/rest/routes/batch.js";
import { sharedApp } from "../support/app.js";

const app = sharedApp();
const CLOUD = "/v1/cloud/instance?verbose=false";

interface SeenCall {
  readonly url: string;
  readonly edition?: string;
}

/** The batch answered by the shim, with every call its lines made (url and handed edition). */
async function batch(url: string, lines: readonly unknown[]) {
  const seen: SeenCall[] = [];
  const route = createBatchRoute({
    evaluate: (call) => {
      seen.push({ url: call.url, ...(call.edition ? { edition: call.edition.edition.id } : {}) });
      return app.rest(call);
    },
    editions: restEditions(app.service),
    maxLineBytes: 1 << 20,
    maxConcurrent: 1,
    maxPerClient: 1,
    bodyLimits: { maxNestingDepth: 32, maxListLength: 100, maxFleetItems: 10_000 },
    lineTimeoutMs: 10_000,
    stopping: new AbortController().signal,
  });
  const reply = route({
    url,
    client: "127.0.0.1",
    body: Readable.from([lines.map((line) => JSON.stringify(line)).join("\n")]),
    signal: new AbortController().signal,
    requestId: "test",
    admitFleetItems: async () => {},
  });
  let text = "";
  if (typeof reply.body === "string") text = reply.body;
  else for await (const piece of reply.body) text += Buffer.from(piece).toString();
  return {
    status: reply.status,
    lines: text
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line)),
    seen,
  };
}

describe("POST /v1/batch?edition=…: the edition resolved once at the edge", () => {
  it("hands the served edition to the lines naming none, their paths untouched", async () => {
    const azure = { path: CLOUD, body: { provider: "azure", instance_type: "Standard_D4ads_v5" } };
    const own = {
      path: `${CLOUD}&edition=1.2.4`,
      body: { provider: "azure", instance_type: "Standard_D4ads_v5" },
    };
    const { status, lines, seen } = await batch("/v1/batch?edition=2.4.1", [azure, own]);
    expect(status).toBe(200);
    // The azure instance exists in 2.4.1 only: the first line is answered in the batch's edition,
    // the second in its own (404 naming where it exists).
    expect(lines.map((line) => line.status)).toEqual([200, 404, undefined]);
    expect(seen.slice(0, 2)).toEqual([
      { url: CLOUD, edition: "2.4.1" },
      { url: `${CLOUD}&edition=1.2.4`, edition: "2.4.1" },
    ]);
  });

  it("names the batch's edition in a line's location warning, the list asked in that edition", async () => {
    const france = {
      path: CLOUD,
      body: { provider: "aws", instance_type: "m5.xlarge", usage: { usage_location: "France" } },
    };
    const { lines, seen } = await batch("/v1/batch?edition=2.4.1", [france]);
    expect(lines[0].warnings).toEqual([
      'usage_location "France" is not a location of edition 2.4.1 (see /v1/utils/country_code): the default location\'s electricity was used',
    ]);
    expect(seen).toContainEqual({ url: "/v1/utils/country_code", edition: "2.4.1" });
  });

  it("refuses an edition it does not serve once, before any line (422 naming the parameter)", async () => {
    const { status, lines, seen } = await batch("/v1/batch?edition=9.9", [{ path: CLOUD, body: {} }]);
    expect(status).toBe(422);
    expect(lines[0].detail[0].loc).toEqual(["query", "edition"]);
    expect(seen).toEqual([]);
  });

  it("leaves the lines to the service's default edition when it names none", async () => {
    const { seen } = await batch("/v1/batch", [
      { path: CLOUD, body: { provider: "aws", instance_type: "m5.xlarge" } },
    ]);
    expect(seen).toEqual([{ url: CLOUD }]);
  });
});
