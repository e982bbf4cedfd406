/**
 * GraphQL over yoga's `fetch` for the tests: POST /graphql, JSON in and out.
 */
import type { createApp } from "../../src/app/main.js";

interface GraphQLErrorAnswer {
  readonly message: string;
  readonly path?: readonly (string | number)[];
  readonly extensions?: Record<string, unknown>;
}

interface GraphQLAnswer {
  readonly status: number;
  /** The raw answer text. */
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: response data is checked field by field in the tests
  readonly data?: any;
  readonly errors?: readonly GraphQLErrorAnswer[];
}

type GraphQLClient = (
  query: string,
  variables?: Record<string, unknown>,
  accept?: string,
) => Promise<GraphQLAnswer>;

export function graphqlClient(app: ReturnType<typeof createApp>): GraphQLClient {
  return async (query, variables, accept) => {
    const response = await app.yoga.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", ...(accept ? { accept } : {}) },
      body: JSON.stringify({ query, variables }),
    });
    const text = await response.text();
    return { status: response.status, text, ...(JSON.parse(text) as Omit<GraphQLAnswer, "status" | "text">) };
  };
}
