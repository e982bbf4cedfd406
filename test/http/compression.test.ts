import { describe, expect, it } from "vitest";
import { chooseEncoding, isCompressible } from "../../src/http/compression.js";

describe("content negotiation", () => {
  it.each([
    [undefined, null],
    ["", null],
    ["identity", null],
    ["gzip", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0.2, gzip;q=0.8", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["*", "br"],
    ["*;q=0.5, br;q=0", "gzip"],
    ["deflate", null],
  ])("accept-encoding %j → %s", (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });

  it("compresses text, JSON and scripts, not images", () => {
    expect(isCompressible("application/json")).toBe(true);
    expect(isCompressible("application/graphql-response+json; charset=utf-8")).toBe(true);
    expect(isCompressible("text/html; charset=utf-8")).toBe(true);
    expect(isCompressible("image/png")).toBe(false);
    expect(isCompressible("text/event-stream")).toBe(false);
    expect(isCompressible(undefined)).toBe(false);
  });
});
