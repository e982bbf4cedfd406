/**
 * The markers of sql/ (src/billing/queries.ts): every marker is one the generator knows and each
 * one it knows is used, so that a mistyped marker is refused rather than left in a query.
 */
import { describe, expect, it } from "vitest";
import { splicedSql, spliceProblems, sqlQuery } from "../../src/billing/queries.js";

describe("the markers of sql/", () => {
  it("are all known and all used in the tree as it is", () => {
    expect(spliceProblems()).toEqual([]);
  });

  it("refuses a mistyped standalone marker, naming it and its query", () => {
    const text = "SELECT CASE\n            -- @methd rules\n  END AS x";
    expect(() => splicedSql("classify/billing_methods.sql", text)).toThrow(
      /^sql\/classify\/billing_methods\.sql: unknown marker "-- @methd rules"; the markers are -- @method rules, /,
    );
  });

  it("refuses a marker whose argument its splice does not read", () => {
    expect(() => splicedSql("q.sql", "          -- @catalogue colours of s\n")).toThrow(
      'sql/q.sql: unknown marker "-- @catalogue colours of s"',
    );
  });

  it("refuses a mistyped column mark ending a line of SQL", () => {
    const text = "SELECT\n  h.a * h.b_per_hour AS b, -- impcat\n  1 AS c";
    expect(() => splicedSql("evaluate/billing_impacts.sql", text)).toThrow(
      'sql/evaluate/billing_impacts.sql: unknown marker "h.a * h.b_per_hour AS b, -- impcat"',
    );
  });

  it("names a marker no query uses (a marker written without its @ is prose)", () => {
    const problems = spliceProblems(["evaluate/billing_impacts.sql"]);
    expect(problems).toContain("no query of sql/ uses the marker -- @method rules");
    expect(problems).toContain("no query of sql/ uses the marker -- @focus providers of <expression>");
  });

  it("leaves no marker in a query written", () => {
    const methods = sqlQuery("classify/billing_methods.sql");
    expect(methods).not.toMatch(/^ *-- @/m);
    expect(methods).not.toMatch(/ -- @[a-z]/);
    expect(methods).toContain("WHEN");
  });
});
