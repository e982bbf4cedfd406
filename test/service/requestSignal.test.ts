/**
 * The request context's signal is read from its cancellation only when the execution asks for it
 * (src/service/requestState.ts): a REST answer reads none; a fleet reads it and stops once cancelled.
 */
// The executor the service serves GraphQL with (graphql-yoga's): it completes a fleet's items
// handed out as an async iterable (src/schema/execution/scheduling.ts), which graphql-js's does not.
import { execute } from "@graphql-tools/executor";
import { type ExecutionResult, parse } from "graphql";
import { describe, expect, it } from "vitest";
import { graphqlErrorOf } from "../../src/schema/errors.js";
import { createRequestContext } from "../../src/service/requestState.js";
import { sharedApp } from "../support/app.js";

const app = sharedApp();

/** A cancellation whose signal reads are counted. */
function countedCancellation() {
  const controller = new AbortController();
  const counted = {
    reads: 0,
    controller,
    get signal() {
      counted.reads += 1;
      return controller.signal;
    },
  };
  return counted;
}

const FLEET = `query ($inputs: [ServerItemInput!]!) {
  servers(inputs: $inputs) { count items { impacts(criteria: [gwp]) { embedded { ... on Impact { value } } } } }
}`;

describe("the request context's signal", () => {
  it("is not asked for by a REST answer", async () => {
    const cancellation = countedCancellation();
    const answer = await app.rest({
      method: "POST",
      url: "/v1/server/?verbose=true",
      body: JSON.stringify({ usage: { usage_location: "FRA" } }),
      cancellation,
    });
    expect(answer.status).toBe(200);
    expect(cancellation.reads).toBe(0);
  });

  it("is read by a fleet, which answers CANCELLED once the request is cancelled", async () => {
    const cancellation = countedCancellation();
    const context = createRequestContext(app.service, { cancellation, spellError: graphqlErrorOf });
    cancellation.controller.abort(new Error("the client disconnected"));
    const result = (await execute({
      schema: app.schema,
      document: parse(FLEET),
      variableValues: { inputs: [{}, {}] },
      contextValue: context,
    })) as ExecutionResult;
    expect(cancellation.reads).toBeGreaterThan(0);
    expect(result.errors?.[0]?.extensions?.code).toBe("CANCELLED");
    expect(result.errors?.[0]?.message).toContain("the client disconnected");
  });

  it("defaults to a signal never aborted when the request gives none", async () => {
    const context = createRequestContext(app.service, { spellError: graphqlErrorOf });
    expect(context.signal.aborted).toBe(false);
    expect(context.signal).toBe(context.signal);
    const result = (await execute({
      schema: app.schema,
      document: parse(FLEET),
      variableValues: { inputs: [{}, {}] },
      contextValue: context,
    })) as ExecutionResult<{ servers: { count: number } }>;
    expect(result.errors).toBeUndefined();
    expect(result.data?.servers.count).toBe(2);
  });
});
