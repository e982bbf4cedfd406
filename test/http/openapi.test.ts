/**
 * The OpenAPI description is generated from the shim's route table and body schemas; it is a
 * valid OpenAPI 3.1 document (validated by @seriousme/openapi-schema-validator).
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/main.js";
import { EDITION_IDS } from "../../src/editions/index.js";
import { openApiDocument } from "../../src/rest/openapi/index.js";
import { ROUTES } from "../../src/rest/routes/index.js";
import { testConfig } from "../support/app.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";
import { call } from "../support/rest.js";

// biome-ignore lint/suspicious/noExplicitAny: the document is walked generically
const document: any = openApiDocument({
  serviceVersion: "9.9.9",
  methodology: "1.2.4",
  editions: ["1.2.4", "2.4.1", "2.5.0"],
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

  it("the routes that wait for room in a budget state their 503 and its Retry-After", () => {
    const coefficients = document.paths["/v1/cloud/coefficients"].get.responses["503"];
    expect(coefficients.description).toContain("MAX_CONCURRENT_FLEET_ITEMS");
    expect(coefficients.headers["Retry-After"].schema.type).toBe("integer");
    expect(document.paths["/v1/cloud/coefficients/stream"].get.responses["503"]).toBeDefined();
    expect(document.paths["/v1/server"].post.responses["503"]).toBeUndefined();
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
      description: "The device usage.",
    });
    expect(document.components.schemas.Usage.properties).toHaveProperty("usage_location");
  });

  it("each body field is described by its catalogue field's text, nested ones and lists' items too", () => {
    const { schemas } = document.components;
    expect(schemas.Gpu.properties.heatsink_weight.description).toBe("Mass of the heatsink, kg.");
    expect(schemas.Usage.properties.years_use_time.description).toBe("Use time in years of 8760 h.");
    const model = schemas.Server.properties.model.anyOf[0];
    expect(model.properties.type.description).toBe("rack or blade: sets the case type.");
    const share = schemas.Usage.properties.time_workload.anyOf[0].anyOf[1].items;
    expect(share.properties.load_percentage.description).toBe("CPU load during that share, % (0–100).");
    // An edition-dependent sentence is written from the editions' features.
    expect(schemas.Server.properties.configuration.anyOf[0].properties.gpu.description).toContain(
      "ignored by 1.2.4",
    );
    const undescribed = Object.entries(schemas)
      .filter(([name]) =>
        [
          "Server",
          "Cpu",
          "Gpu",
          "Ram",
          "Disk",
          "Usage",
          "CloudInstance",
          "UserDevice",
          "IotDevice",
          "CpuConsumptionProfile",
        ].includes(name),
      )
      .flatMap(([name, schema]) =>
        Object.entries((schema as { properties: Record<string, { description?: string }> }).properties)
          .filter(([, property]) => !property.description)
          .map(([field]) => `${name}.${field}`),
      );
    expect(undescribed).toEqual([]);
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
        schema: { type: "string", enum: ["1.2.4", "2.4.1", "2.5.0"], default: "1.2.4" },
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

/*
 * What Swagger UI's "Try it out" relies on: every POST carries an example body, answered 200 by
 * the real route in every edition offering it, and every operation states its 200 answer, which
 * the real answers follow (validated with ajv, JSON Schema 2020-12 as the document declares).
 */
describe("examples and answers", () => {
  const app = createApp(testConfig());
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  ajv.addSchema({ $id: "openapi.json", components: document.components });
  /** The 200 answer's schema, JSON or (the batch) NDJSON lines. */
  const answerSchema = (operation: Operation) =>
    Object.values(operation.responses["200"]?.content ?? {})[0]?.schema as { $ref?: string } | undefined;
  const validates = (operation: Operation, answer: unknown) => {
    const validate = ajv.compile({ $ref: `openapi.json${answerSchema(operation)?.$ref}` });
    return validate(answer) ? [] : (validate.errors ?? []).slice(0, 3);
  };
  const operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, operation]) => ({
      path,
      method: method.toUpperCase(),
      operation,
    })),
  );
  /** The route exists in the edition: its GET is not a 404 (a required parameter missing is a 422). */
  const offered = async (path: string, edition: string) =>
    (await call(app, "GET", `${path.replace("{provider}", "aws")}?edition=${edition}`)).status !== 404;

  it("every operation states a 200 answer schema among the components", () => {
    expect(operations.length).toBeGreaterThan(100);
    for (const { path, method, operation } of operations) {
      const ref = answerSchema(operation)?.$ref;
      expect(ref, `${method} ${path}`).toMatch(/^#\/components\/schemas\/\w+$/);
      expect(document.components.schemas[ref?.split("/").pop() ?? ""], `${method} ${path}`).toBeDefined();
    }
    // The schemas do refuse what they do not describe.
    const server = operations.find(
      (o) => o.path === "/v1/server" && o.method === "POST",
    ) as (typeof operations)[0];
    expect(validates(server.operation, { verbose: {} })).not.toEqual([]);
    expect(validates(server.operation, { impacts: { gwp: { embedded: "x" } } })).not.toEqual([]);
    const profile = operations.find((o) => o.path === "/v1/consumption_profile/cpu" && o.method === "POST");
    expect(validates(profile?.operation as Operation, { a: 1, b: 2, c: 3 })).not.toEqual([]);
  });

  it.each(EDITION_IDS)(
    "every POST example is answered 200 in edition %s, as its schema says",
    async (edition) => {
      const posts = operations.filter((o) => o.method === "POST");
      expect(posts.length).toBeGreaterThan(20);
      let sent = 0;
      for (const { path, operation } of posts) {
        const [mediaType, body] = Object.entries(operation.requestBody?.content ?? {})[0] ?? [];
        const example = body?.example;
        expect(example, `POST ${path}: example`).toBeDefined();
        // A file to evaluate: the HTTP front's route, not the shim's (test/http/evaluatePage.test.ts).
        if (mediaType === "application/octet-stream") continue;
        if (mediaType === "application/x-ndjson") {
          // The batch (outside the route table): each line is answered 200 by its own route.
          for (const text of String(example).split("\n")) {
            const line = JSON.parse(text);
            const answer = await call(
              app,
              line.method ?? "POST",
              `${line.path}&edition=${edition}`,
              line.body,
            );
            expect(answer.status, `${path}: ${text}`).toBe(200);
            expect(validates(operation, { status: answer.status, body: answer.body }), text).toEqual([]);
          }
          continue;
        }
        if (!(await offered(path, edition))) continue;
        const answer = await call(app, "POST", `${path}?edition=${edition}`, example);
        expect(answer.status, `POST ${path} ${JSON.stringify(answer.body).slice(0, 300)}`).toBe(200);
        expect(validates(operation, answer.body), `POST ${path}`).toEqual([]);
        sent += 1;
      }
      expect(sent).toBeGreaterThan(20);
    },
  );

  it.each(EDITION_IDS)("GET answers follow their 200 schema in edition %s", async (edition) => {
    let checked = 0;
    for (const { path, method, operation } of operations.filter((o) => o.method === "GET")) {
      const query = new URLSearchParams({ edition });
      for (const parameter of operation.parameters) {
        if (parameter.required && parameter.in === "query" && parameter.example !== undefined)
          query.set(parameter.name, String(parameter.example));
      }
      if (operation.parameters.some((p) => p.name === "archetype" && p.required)) {
        // An archetype of the route's own listing (none: the kind has no archetypes).
        const listing = await call(
          app,
          "GET",
          `${path.replace(/archetype_config$/, "archetypes")}?edition=${edition}`,
        );
        if (listing.status !== 200 || listing.body.length === 0) continue;
        query.set("archetype", listing.body[0]);
      }
      const answer = await call(app, method, `${path.replace("{provider}", "aws")}?${query}`);
      if (answer.status === 404 && !(await offered(path, edition))) continue;
      expect(answer.status, `GET ${path}?${query}`).toBe(200);
      expect(validates(operation, answer.body), `GET ${path}`).toEqual([]);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(80);
  });
});

interface Operation {
  readonly parameters: { name: string; in: string; required?: boolean; example?: unknown }[];
  readonly requestBody?: { content: Record<string, { example?: unknown }> };
  readonly responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
}

describe("one document per served edition", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: "silent" });
  });
  afterAll(() => server.close());
  const fetched = async (query: string) => {
    const answer = await fetch(`${server.url}/openapi.json${query}`);
    return { status: answer.status, body: await answer.json() };
  };

  it("describes each edition's routes, /openapi.json the service's default's; an edition not served is a 404", async () => {
    const [plain, v124, v250, none] = await Promise.all([
      fetched(""),
      fetched("?edition=1.2.4"),
      fetched("?edition=2.5.0"),
      fetched("?edition=9.9.9"),
    ]);
    expect(plain).toEqual(v124);
    expect(v124.body.info.title).toMatch(/edition 1\.2\.4$/);
    expect(v250.body.info.title).toMatch(/edition 2\.5\.0$/);
    // 1.2.4's data has no GPU names nor cloud regions: those routes are 2.5.0's only.
    for (const path of ["/v1/utils/gpu_name", "/v1/utils/name_to_gpu", "/v1/utils/cloud_regions"]) {
      expect(v124.body.paths[path], path).toBeUndefined();
      expect(v250.body.paths[path], path).toBeDefined();
    }
    // Every document has the page's route and names the served editions, "Try it out" filling its own.
    for (const [edition, document] of [
      ["1.2.4", v124.body],
      ["2.5.0", v250.body],
    ] as const) {
      expect(document.paths["/v1/evaluate"].post.operationId).toBe("post_v1_evaluate");
      const parameter = document.paths["/v1/server"].get.parameters.find(
        (p: { name: string }) => p.name === "edition",
      );
      expect(parameter.schema).toMatchObject({ enum: ["1.2.4", "2.4.1", "2.5.0"], default: "1.2.4" });
      expect(parameter.example).toBe(edition);
    }
    expect(none).toEqual({ status: 404, body: { detail: 'no edition "9.9.9" is served' } });
  });
});
