/**
 * What the HTTP service keeps of the answers in flight must not hold later requests' objects
 * through V8's young collections once a mark-compact has moved it to the old generation
 * (src/app/openConnections.ts; bench/README.md, "The collector's two regimes"). A mark-compact
 * is forced while requests are in flight; the old generation's growth over the requests after it
 * is then measured: each request's objects promoted would add kilobytes a request.
 *
 * V8's gc() comes from a context made after `--expose-gc` is set: a flag change, so this file runs
 * in a fork of its own (the `isolated` project, vitest.config.ts).
 */
import { Agent, type IncomingMessage, request, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { constants, PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpService } from "../../src/app/lifecycle.js";
import { createLogger } from "../../src/support/log.js";

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const CONNECTIONS = 10;
/** Requests before the mark-compact (the code warmed), and measured after it. */
const WARM_UP = 2_000;
const MEASURED = 4_000;

const oldSpaceUsed = () =>
  getHeapSpaceStatistics().find((space) => space.space_name === "old_space")?.space_used_size ?? 0;

/** A request's own objects, about 20 KB: what a promotion of each request would carry. */
function requestObjects(): { readonly rows: readonly { readonly at: number; readonly text: string }[] } {
  return { rows: Array.from({ length: 200 }, (_, at) => ({ at, text: `row ${at}` })) };
}

interface Served {
  readonly url: string;
  /** Makes the next request's handler run a mark-compact while the others are in flight. */
  collectDuringNext(): void;
  /** The old generation's bytes right after that mark-compact. */
  afterCollection(): number;
  close(): Promise<void>;
}

async function serve(): Promise<Served> {
  let collectNext = false;
  let collected = Number.NaN;
  const handler = {
    async handle(_request: IncomingMessage, response: ServerResponse) {
      const objects = requestObjects();
      // Answered a turn later, so the requests read together are in flight together.
      await new Promise((resolve) => setImmediate(resolve));
      if (collectNext) {
        collectNext = false;
        collectGarbage();
        collected = oldSpaceUsed();
      }
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ rows: objects.rows.length }));
    },
  };
  const { server } = createHttpService(handler, createLogger("silent"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    collectDuringNext: () => {
      collectNext = true;
    },
    afterCollection: () => collected,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `count` requests on CONNECTIONS kept-alive connections, each connection asking back to back. */
async function ask(url: string, agent: Agent, count: number): Promise<void> {
  let left = count;
  const connection = async () => {
    while (left > 0) {
      left -= 1;
      await new Promise<void>((resolve, reject) => {
        request(url, { agent }, (response) => {
          response.resume();
          response.on("end", resolve);
        })
          .on("error", reject)
          .end();
      });
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, connection));
}

/** The old generation's growth a request after a mark-compact forced under load, and the collections. */
async function afterForcedCollection(served: Served, agent: Agent, measured: number) {
  const kinds: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries())
      kinds.push((entry as unknown as { readonly detail: { readonly kind: number } }).detail.kind);
  });
  observer.observe({ entryTypes: ["gc"] });
  served.collectDuringNext();
  await ask(served.url, agent, measured);
  const grownPerRequest = (oldSpaceUsed() - served.afterCollection()) / measured;
  observer.disconnect();
  const count = (kind: number) => kinds.filter((seen) => seen === kind).length;
  return {
    grownPerRequest,
    young: count(constants.NODE_PERFORMANCE_GC_MINOR),
    markCompacts: count(constants.NODE_PERFORMANCE_GC_MAJOR),
  };
}

describe("what the service keeps of the answers in flight, after a mark-compact under load", () => {
  let served: Served;
  beforeAll(async () => {
    served = await serve();
  });
  afterAll(async () => {
    await served.close();
  });

  it("leaves later requests' objects to die young on kept-alive connections: the old generation grows by less than 100 bytes a request", async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
    try {
      await ask(served.url, agent, WARM_UP);
      const after = await afterForcedCollection(served, agent, MEASURED);
      // Young collections ran in the window: the measure means something.
      expect(after.young).toBeGreaterThanOrEqual(3);
      // Answers kept in one server-wide Set make each request's objects promoted: about 2.3 KB a request.
      expect(after.grownPerRequest).toBeLessThan(100);
      // And no mark-compact but the forced one: promoted garbage is what calls for them.
      expect(after.markCompacts).toBe(1);
    } finally {
      agent.destroy();
    }
  });
});
