/**
 * Helpers for the REST tests. Each test file builds its own app once (`createApp()` loads the
 * reference data) and must mock `graphql` to its CommonJS build (see the comment in the files).
 */
import type { createApp } from "../../src/server.js";

export type App = ReturnType<typeof createApp>;

export interface Answer {
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

export const EOL = "End of life is not included in the calculation";
export const UNCERTAINTY =
  "Uncertainty from technical characteristics is very important. Results should be interpreted with caution (see min and max values)";

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
