/**
 * Which Accept headers admit an incremental answer (multipart/mixed, text/event-stream): the
 * others get `@defer`/`@stream` documents answered whole (test/clients/graphqlRequest.test.ts
 * runs them through a client against the server).
 */
import { describe, expect, it } from "vitest";
import { acceptsIncremental } from "../../src/schema/plugins/incrementalDelivery.js";

describe("acceptsIncremental", () => {
  it.each([
    [null, true],
    ["", true],
    ["*/*", true],
    ["multipart/mixed", true],
    ["multipart/*", true],
    ["text/event-stream", true],
    ["multipart/mixed;deferSpec=20220824,application/graphql-response+json,application/json;q=0.9", true],
    ["application/json", false],
    ["application/graphql-response+json, application/json", false],
    ["application/json, multipart/mixed;q=0", false],
    ["text/html, application/json;q=0.9", false],
    ["MULTIPART/MIXED", true],
  ])("%s: %s", (accept, expected) => {
    expect(acceptsIncremental(accept)).toBe(expected);
  });
});
