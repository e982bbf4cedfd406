/**
 * Helpers for the REST tests, over the in-memory app (`sharedApp()` of test/support/app.ts: built
 * on first use, once per worker).
 */
import type { createApp } from "../../src/app/main.js";
import { END_OF_LIFE_WARNING as EOL, UNCERTAINTY_WARNING as UNCERTAINTY } from "./warnings.js";

type App = ReturnType<typeof createApp>;

interface Answer {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: REST bodies are checked field by field in the tests
  readonly body: any;
}

/** Runs one REST call; an object body is sent as JSON, a string body as is. */
export async function call(app: App, method: string, url: string, body: unknown = ""): Promise<Answer> {
  const text = typeof body === "string" ? body : JSON.stringify(body);
  const answer = await app.rest({ method, url, body: text });
  return { status: answer.status, body: answer.body };
}

export { EOL, UNCERTAINTY };

/** §18.4: `GET /v1/server/?verbose=false` on the default archetype, production data. */
export const EMPTY_SERVER_IMPACTS = {
  gwp: {
    unit: "kgCO2eq",
    description: "Total climate change",
    embedded: { value: 900, min: 459.9, max: 2087, warnings: [EOL] },
    use: { value: 8000, min: 405.2, max: 28890 },
  },
  adp: {
    unit: "kgSbeq",
    description: "Use of minerals and fossil ressources",
    embedded: { value: 0.14, min: 0.09758, max: 0.2132, warnings: [EOL] },
    use: { value: 0.0013, min: 0.0002333, max: 0.00678 },
  },
  pe: {
    unit: "MJ",
    description: "Consumption of primary energy",
    embedded: { value: 13000, min: 6112, max: 27070, warnings: [EOL] },
    use: { value: 300000, min: 229, max: 11950000, warnings: [UNCERTAINTY] },
  },
};
