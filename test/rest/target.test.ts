/**
 * The request target as the shim reads it (src/rest/target.ts `parseTarget`): plain targets are
 * split without the URL parser, and must read exactly as the URL parser reads them.
 */
import { describe, expect, it } from "vitest";
import { RestError } from "../../src/rest/graphqlErrors.js";
import { parseTarget } from "../../src/rest/target.js";

/** Path and query parameters as the URL parser reads them. */
function byUrlParser(target: string) {
  const url = new URL(target, "http://localhost");
  return { pathname: url.pathname, params: [...url.searchParams] };
}

const TARGETS = [
  "/v1/server/",
  "/v1/server",
  "/v1/server/?",
  "/v1/server/?archetype=dellR740",
  "/v1/server/?archetype=dellR740&verbose=false&criteria=gwp&criteria=pe",
  "/v1/cloud/instance?provider=aws&instance_type=m5.xlarge&edition=2.4.1",
  "/v1/server/?a=1+2&b=%20x&c=%zz&&d&=e&f==g",
  "/v1/cloud/instance?instance_type=a1.4xlarge&duration=1.5e3&x=~,:",
  "/v1//server//?verbose=true",
  // Not plain: read by the URL parser.
  "/v1/../v1/server/?archetype=dellR740",
  "/v1/server/./?verbose=false",
  "/v1/server/?archetype=dell R740",
  "/v1/server/?archetype=a#fragment",
  "/v1/%73erver/?archetype=dellR740",
  "/v1/server\\x?q=1",
  '/v1/server/?name=Xeon "Gold" <6134>',
  "/v1/server/?name=é&x='y'",
];

describe("parseTarget", () => {
  it("reads every target as the URL parser does", () => {
    for (const target of TARGETS) {
      const parsed = parseTarget(target);
      expect({ pathname: parsed.pathname, params: [...parsed.searchParams] }, target).toEqual(
        byUrlParser(target),
      );
    }
  });

  it("refuses a target that is not a path", () => {
    for (const target of ["", "v1/server", "//host:80/v1/server", "http://localhost/v1/server"]) {
      expect(() => parseTarget(target), target).toThrow(RestError);
    }
  });
});
