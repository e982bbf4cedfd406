import { describe, expect, it } from "vitest";
import { coefficientCriteria, KEY_COLUMNS } from "../../src/service/coefficients.js";
import { call } from "../support/rest.js";
import { app, editionContext, expectClose, routeRaw } from "./support.js";

describe("the coefficient table over REST and GraphQL", () => {
  it("GET /v1/cloud/coefficients answers the rows of an instance type, equal to the single route", async () => {
    const answer = await call(
      app,
      "GET",
      "/v1/cloud/coefficients?edition=2.4.1&provider=aws&instance_type=m5.xlarge&load=30&criteria=gwp",
    );
    expect(answer.status).toBe(200);
    const { columns, rows, edition, load } = answer.body;
    expect(edition).toBe("2.4.1");
    expect(load).toBe(30);
    expect(columns.slice(0, KEY_COLUMNS.length)).toEqual([...KEY_COLUMNS]);
    expect(columns).toContain("gwp_use_kgco2eq_max_per_hour");
    expect(rows.length).toBeGreaterThan(10);
    const paris = rows.find((row: unknown[]) => row[3] === "eu-west-3");
    const criteria = coefficientCriteria(editionContext("2.4.1"), ["gwp"]);
    const route = await routeRaw(
      "2.4.1",
      "aws",
      "m5.xlarge",
      { region: "eu-west-3", usageLocation: "FRA" },
      30,
      1,
      criteria,
    );
    expectClose(paris[columns.indexOf("gwp_use_kgco2eq_per_hour")], route[0].use?.value ?? Number.NaN, "use");
    expectClose(
      paris[columns.indexOf("gwp_embedded_kgco2eq_min_per_hour")],
      route[0].embedded?.min ?? Number.NaN,
      "min",
    );
  });

  it("answers 404 for an unknown instance type and 422 for a load that is not a number", async () => {
    expect((await call(app, "GET", "/v1/cloud/coefficients?provider=aws&instance_type=z9.mega")).status).toBe(
      404,
    );
    expect((await call(app, "GET", "/v1/cloud/coefficients?provider=aws&load=lots")).status).toBe(422);
    expect(
      (await call(app, "GET", "/v1/cloud/coefficients?provider=aws&instance_type=m5.xlarge&load=130")).status,
    ).toBe(422);
  });

  it("is in /openapi.json", async () => {
    const { openApiDocument } = await import("../../src/rest/openapi/index.js");
    const document = openApiDocument({
      serviceVersion: "test",
      methodology: "1.2.4",
      editions: ["1.2.4", "2.4.1", "2.5.0"],
    }) as {
      paths: Record<string, unknown>;
    };
    expect(Object.keys(document.paths)).toContain("/v1/cloud/coefficients");
  });

  it("GraphQL cloudCoefficients answers the same table", async () => {
    const response = await app.yoga.fetch("http://localhost/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `{ cloudCoefficients(edition: "2.4.1", provider: "azure", instanceType: "d4ads_v5") { edition columns rows } }`,
      }),
    });
    const body = (await response.json()) as {
      data: { cloudCoefficients: { columns: string[]; rows: unknown[][] } };
    };
    const table = body.data.cloudCoefficients;
    expect(table.columns).toContain("pe_embedded_mj_per_hour");
    expect(table.rows.every((row) => row[2] === "d4ads_v5")).toBe(true);
    expect(table.rows.some((row) => row[3] === "westeurope")).toBe(true);
  });
});
