/**
 * The OpenAPI description is generated from the shim's route table and body schemas; it is a
 * valid OpenAPI 3.1 document (validated by @seriousme/openapi-schema-validator).
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/rest/openapi.js";
import { ROUTES } from "../../src/rest/routes.js";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked generically
const document: any = openApiDocument({
  serviceVersion: "9.9.9",
  methodology: "1.2.4",
  editions: ["1.2.4", "2.4.1"],
});

function refsIn(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) refsIn(item, found);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "$ref" && typeof item === "string") found.push(item);
      else refsIn(item, found);
    }
  }
  return found;
}

describe("OpenAPI description", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const result = await new Validator().validate(document);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toBe("9.9.9");
  });

  it("describes every route and method of the shim, and the cloud provider path", () => {
    for (const route of ROUTES) {
      for (const method of Object.keys(route.methods)) {
        expect(document.paths[route.path]?.[method.toLowerCase()], `${method} ${route.path}`).toBeDefined();
      }
    }
    expect(document.paths["/v1/cloud/{provider}"].get.parameters[0]).toMatchObject({
      name: "provider",
      in: "path",
    });
  });

  it("every reference resolves to a component schema", () => {
    const schemas = document.components.schemas;
    for (const ref of new Set(refsIn(document))) {
      expect(ref.startsWith("#/components/schemas/"), ref).toBe(true);
      expect(schemas[ref.slice("#/components/schemas/".length)], ref).toBeDefined();
    }
  });

  it("bodies come from the shim's zod schemas: a POST /v1/server/ takes the Server body", () => {
    const post = document.paths["/v1/server"].post;
    expect(post.requestBody.content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/Server",
    });
    const server = document.components.schemas.Server;
    expect(Object.keys(server.properties)).toEqual(["model", "configuration", "usage"]);
    const cpu = document.components.schemas.Cpu;
    // The field types convert in code (numeric text accepted): documented by the value they give.
    expect(cpu.properties.units.type).toEqual(["integer", "null"]);
    expect(cpu.properties.die_size.type).toEqual(["number", "null"]);
    // A usage validated in a second step (terminals, cloud) is still documented as the Usage schema.
    expect(document.components.schemas.UserDevice.properties.usage).toEqual({
      $ref: "#/components/schemas/Usage",
    });
    expect(document.components.schemas.Usage.properties).toHaveProperty("usage_location");
  });

  it("cloud instance routes take the impact parameters (no archetype) and the instance's", () => {
    const names = document.paths["/v1/cloud/instance"].get.parameters.map((p: { name: string }) => p.name);
    expect(names).toEqual([
      "verbose",
      "criteria",
      "duration",
      "allocation",
      "provider",
      "instance_type",
      "edition",
    ]);
  });

  it("impact routes take the impact query parameters and answer impacts; listings take none", () => {
    const get = document.paths["/v1/component/cpu"].get;
    expect(get.parameters.map((p: { name: string }) => p.name)).toEqual([
      "verbose",
      "criteria",
      "duration",
      "archetype",
      "allocation",
      "edition",
    ]);
    expect(get.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/ImpactAnswer",
    });
    expect(document.paths["/v1/server/archetypes"].get.parameters).toEqual([
      expect.objectContaining({
        name: "edition",
        schema: { type: "string", enum: ["1.2.4", "2.4.1"], default: "1.2.4" },
      }),
    ]);
    const config = document.paths["/v1/server/archetype_config"].get.parameters;
    expect(config[0]).toEqual(expect.objectContaining({ name: "archetype", required: true }));
    expect(document.paths["/v1/server"].get.requestBody).toBeUndefined();
  });

  it("operation ids are unique", () => {
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item as Record<string, { operationId: string }>).map((op) => op.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
  });
});
