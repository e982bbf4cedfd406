/**
 * The REST handler of this tree and the serialisation of its answers, timed request by request
 * without HTTP: what `bench/inProcess.ts` measures, and what `bench/compareBuilds.ts` bundles from
 * each build it compares (so it imports only the application, never the other bench files).
 */

import { createApp } from "../src/app/main.js";
import { defaultConfig } from "../src/config/serviceConfig.js";
import { createLogger } from "../src/support/log.js";

/** One scenario's requests, made before any timing (the varied bodies already serialised). */
interface TimedRequests {
  readonly method: string;
  readonly path: string;
  /** One request per body ("" for a GET). */
  readonly bodies: readonly string[];
}

/** A round over every request; resolves with the µs per request of the handler and serialisation. */
export type TimedRound = () => Promise<number>;

/**
 * A timer over `requests` for a fresh application of this tree. `between` runs between two
 * requests, outside the timing (bench/inProcess.ts's HTTP round trip). Every answer must be a 200.
 */
export function handlerTimer(requests: TimedRequests, between?: () => Promise<void>): TimedRound {
  const app = createApp(defaultConfig(), { logger: createLogger("silent") });
  return async () => {
    let spent = 0;
    for (const body of requests.bodies) {
      if (between) await between();
      const started = performance.now();
      const answer = await app.rest({ method: requests.method, url: requests.path, body });
      if (answer.status !== 200) throw new Error(`answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      answer.serialized ?? Buffer.from(JSON.stringify(answer.body));
      spent += performance.now() - started;
    }
    return (spent * 1000) / requests.bodies.length;
  };
}
