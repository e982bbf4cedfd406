/**
 * The HTTP front through a real server: probes, pages, CORS, request ids and logs, metrics,
 * compression, version, malformed requests.
 */
import { request as httpRequest } from "node:http";
import { connect } from "node:net";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { EDITION_IDS } from "../../src/editions/index.js";
import { Server } from "../../src/engine/assets/server.js";
import { SERVICE_VERSION } from "../../src/support/serviceVersion.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers });

/** A raw GET (no automatic decompression): status, headers and body bytes. */
function rawGet(path: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>(
    (resolve, reject) => {
      const request = httpRequest(`${server.url}${path}`, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            body: Buffer.concat(chunks),
          }),
        );
      });
      request.on("error", reject);
      request.end();
    },
  );
}

describe("probes", () => {
  it("/healthz answers while the process is alive", async () => {
    const response = await get("/healthz");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("/readyz is ready once the data is loaded, and 503 once shutting down", async () => {
    const other = await startTestServer();
    try {
      expect((await fetch(`${other.url}/readyz`)).status).toBe(200);
      other.app.readiness.markStopping();
      const response = await fetch(`${other.url}/readyz`);
      expect(response.status).toBe(503);
      expect(await response.json()).toEqual({ status: "stopping" });
    } finally {
      await other.close();
    }
  });
});

describe("pages", () => {
  it("/ links GraphiQL, the REST docs, the OpenAPI description and the project documentation", async () => {
    const html = await (await get("/")).text();
    for (const link of ['href="/graphql"', 'href="/docs"', 'href="/openapi.json"', 'href="/README.md"']) {
      expect(html).toContain(link);
    }
  });

  it("/ names the batch route and the command line, and links each document as a page", async () => {
    const html = await (await get("/")).text();
    expect(html).toContain("POST /v1/batch");
    expect(html).toContain('href="/docs/api#batch"');
    expect(html).toContain('href="/docs/inventory#command-line"');
    expect(html).toContain('href="/docs/methodology"');
  });

  it("renders each document as HTML whose links point at the other pages and whose headings carry anchors", async () => {
    const response = await get("/README");
    expect(response.headers.get("content-type")).toContain("text/html");
    const html = await response.text();
    expect(html).toMatch(/<h2 id="configuration">Configuration<\/h2>/);
    expect(html).toContain('href="docs/methodology"');
    expect(html).not.toContain('href="docs/methodology.md"');
    const methodology = await (await get("/docs/architecture")).text();
    expect(methodology).toContain('href="methodology"');
  });

  it("serves the project documentation it links", async () => {
    const response = await get("/README.md");
    expect(response.headers.get("content-type")).toContain("text/markdown");
    expect(await response.text()).toContain("## Configuration");
  });

  it("GraphiQL loads its scripts and styles from this service only", async () => {
    const html = await (await get("/graphql", { accept: "text/html" })).text();
    expect(html).toContain("/assets/graphiql/dist/yoga-graphiql.umd.js");
    expect(html).not.toMatch(/https?:\/\//);
    const script = await get("/assets/graphiql/dist/yoga-graphiql.umd.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toContain("javascript");
  });

  it("/openapi.json is served (same document on every call), readable from another origin", async () => {
    const first = await get("/openapi.json", { origin: "https://dashboard.example" });
    expect(first.headers.get("access-control-allow-origin")).toBe("*");
    const document = await first.json();
    expect(document.openapi).toBe("3.1.0");
    expect(document.paths["/v1/server"].post).toBeDefined();
    expect(await (await get("/openapi.json")).json()).toEqual(document);
  });

  it("/docs is Swagger UI on each edition's /openapi.json, its assets served locally", async () => {
    const html = await (await get("/docs")).text();
    for (const edition of ["1.2.4", "2.4.1", "2.5.0"])
      expect(html).toContain(`"/openapi.json?edition=${edition}"`);
    expect(html).not.toMatch(/https?:\/\//);
    expect((await get("/assets/swagger-ui/swagger-ui-bundle.js")).status).toBe(200);
    expect((await get("/assets/swagger-ui/nothing.js")).status).toBe(404);
  });
});

describe("CORS (as boaviztapi: any origin by default, preflights answered)", () => {
  it("answers a cross-origin preflight on /v1/server/", async () => {
    const response = await fetch(`${server.url}/v1/server/`, {
      method: "OPTIONS",
      headers: {
        origin: "https://dashboard.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type",
      },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    expect(response.headers.get("access-control-allow-headers")).toBe("content-type");
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("the same policy on /graphql: *, without credentials", async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { origin: "https://dashboard.example", "content-type": "application/json" },
      body: JSON.stringify({ query: "{ version { service } }" }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-allow-credentials")).toBeNull();
  });

  it("with ALLOWED_ORIGINS, echoes an allowed origin and refuses the others", async () => {
    const restricted = await startTestServer({ ALLOWED_ORIGINS: ["https://ok.example"] });
    try {
      const preflight = (origin: string) =>
        fetch(`${restricted.url}/graphql`, {
          method: "OPTIONS",
          headers: { origin, "access-control-request-method": "POST" },
        });
      const allowed = await preflight("https://ok.example");
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get("access-control-allow-origin")).toBe("https://ok.example");
      expect(allowed.headers.get("vary")).toContain("Origin");
      const refused = await preflight("https://evil.example");
      expect(refused.status).toBe(400);
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
      const simple = await fetch(`${restricted.url}/v1/utils/case_type`, {
        headers: { origin: "https://evil.example" },
      });
      expect(simple.status).toBe(200);
      expect(simple.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      await restricted.close();
    }
  });
});

describe("request ids and logs", () => {
  it("honours x-request-id, echoes it and logs one JSON line per request", async () => {
    const response = await get("/v1/cloud/aws?instance_type=m5.xlarge&verbose=false", {
      "x-request-id": "trace-42",
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("x-request-id")).toBe("trace-42");
    await response.arrayBuffer();
    const line = server.logs.find((entry) => entry.requestId === "trace-42");
    expect(line).toMatchObject({
      msg: "request",
      method: "GET",
      route: "/v1/cloud/{provider}",
      path: "/v1/cloud/aws",
      status: 200,
    });
    expect(typeof line?.durationMs).toBe("number");
  });

  it("an unexpected error is logged with its stack and the id of the request it happened in", async () => {
    const spy = vi.spyOn(Server.prototype, "embeddedImpact").mockImplementation(() => {
      throw new Error("boom inside a resolver");
    });
    try {
      const response = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": "err-7" },
        body: JSON.stringify({
          query: "{ server { impacts(criteria: [gwp]) { embedded { __typename } } } }",
        }),
      });
      expect((await response.json()).errors[0].message).toBe("Unexpected error.");
    } finally {
      spy.mockRestore();
    }
    const errors = server.logs.filter((entry) => entry.level === 50 && entry.requestId === "err-7");
    expect(errors.length).toBeGreaterThan(0);
    expect(JSON.stringify(errors)).toContain("boom inside a resolver");
    expect(JSON.stringify(errors)).toMatch(/at .*server/);
    // No line about it without the id (yoga logs the error it masks: not twice).
    const aboutIt = server.logs.filter(
      (entry) => entry.level === 50 && JSON.stringify(entry).includes("boom inside a resolver"),
    );
    expect(aboutIt.every((entry) => entry.requestId === "err-7")).toBe(true);
  });

  it("a REST route's unexpected error and a batch line's are logged with their request's id", async () => {
    const spy = vi.spyOn(Server.prototype, "embeddedImpact").mockImplementation(() => {
      throw new Error("boom behind the shim");
    });
    try {
      const single = await fetch(`${server.url}/v1/server/?verbose=false`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": "rest-500" },
        body: "{}",
      });
      expect(single.status).toBe(500);
      await single.arrayBuffer();
      const batch = await fetch(`${server.url}/v1/batch`, {
        method: "POST",
        headers: { "content-type": "application/x-ndjson", "x-request-id": "batch-500" },
        body: `${JSON.stringify({ path: "/v1/server/?verbose=false", body: {} })}\n`,
      });
      expect((await batch.text()).split("\n")[0]).toContain('"status":500');
    } finally {
      spy.mockRestore();
    }
    for (const id of ["rest-500", "batch-500"]) {
      const errors = server.logs.filter((entry) => entry.level === 50 && entry.requestId === id);
      expect(JSON.stringify(errors)).toContain("boom behind the shim");
    }
  });

  it("makes an id when the client gives none (or an implausible one)", async () => {
    const first = (await get("/healthz")).headers.get("x-request-id");
    const second = (await get("/healthz", { "x-request-id": "bad id with spaces" })).headers.get(
      "x-request-id",
    );
    expect(first).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).toMatch(/^[0-9a-f-]{36}$/);
    expect(second).not.toBe(first);
  });
});

describe("metrics", () => {
  it("counts requests by route template and status, with latency histograms and fleet sizes", async () => {
    await (await get("/v1/cloud/aws?instance_type=c5.large&verbose=false")).arrayBuffer();
    await (await get("/v1/nothing/here")).arrayBuffer();
    const fleet = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: "query ($f: [CloudInstanceItemInput!]!) { cloudInstances(inputs: $f) { count } }",
        variables: {
          f: [{ instanceType: "m5.xlarge" }, { instanceType: "c5.large" }, { instanceType: "c5.large" }],
        },
      }),
    });
    expect(await fleet.json()).toEqual({ data: { cloudInstances: { count: 3 } } });
    const text = await (await get("/metrics")).text();
    expect(text).toMatch(
      /http_requests_total\{method="GET",route="\/v1\/cloud\/\{provider\}",status="200"\} \d+/,
    );
    expect(text).toMatch(/http_requests_total\{method="GET",route="unmatched",status="404"\} \d+/);
    expect(text).not.toContain("/v1/nothing/here");
    expect(text).toContain(
      'http_request_duration_seconds_bucket{le="0.1",method="GET",route="/v1/cloud/{provider}"}',
    );
    expect(text).toMatch(/graphql_fleet_items_sum\{field="cloudInstances"\} 3\b/);
    expect(text).toContain("nodejs_eventloop_lag_seconds");
    expect(text).toContain("process_resident_memory_bytes");
  });
});

describe("a GET answered from the kept answers (src/rest/index.ts)", () => {
  it("has its own request id, log line and count in the metrics, and the same bytes and headers", async () => {
    const url = "/v1/server/archetype_config?archetype=dellR740";
    const counted = async () => {
      const text = await (await get("/metrics")).text();
      const line =
        /http_requests_total\{method="GET",route="\/v1\/server\/archetype_config",status="200"\} (\d+)/.exec(
          text,
        );
      return line ? Number(line[1]) : 0;
    };
    const before = await counted();
    const first = await rawGet(url, { "x-request-id": "kept-1" });
    const second = await rawGet(url, { "x-request-id": "kept-2" });
    expect(first.status).toBe(200);
    expect(second.status).toBe(200);
    expect(second.body.equals(first.body)).toBe(true);
    expect(first.headers["x-request-id"]).toBe("kept-1");
    expect(second.headers["x-request-id"]).toBe("kept-2");
    for (const name of ["content-type", "content-length", "vary"]) {
      expect(second.headers[name], name).toBe(first.headers[name]);
    }
    for (const id of ["kept-1", "kept-2"]) {
      expect(server.logs.find((entry) => entry.requestId === id)).toMatchObject({
        msg: "request",
        route: "/v1/server/archetype_config",
        status: 200,
      });
    }
    expect(await counted()).toBe(before + 2);
  });
});

describe("compression", () => {
  const bigAnswer = "/v1/server/?verbose=true";

  it("gzip and br give the same bytes as the identity answer", async () => {
    const plain = await rawGet(bigAnswer, {});
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    const gzip = await rawGet(bigAnswer, { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
    expect(gzip.body.length).toBeLessThan(plain.body.length);
    const br = await rawGet(bigAnswer, { "accept-encoding": "gzip;q=0.5, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
  });

  it("leaves small answers alone", async () => {
    const small = await rawGet("/healthz", { "accept-encoding": "gzip, br" });
    expect(small.headers["content-encoding"]).toBeUndefined();
  });

  it("compresses GraphQL answers as they stream", async () => {
    const body = JSON.stringify({ query: "{ cpuNames }" });
    const answer = await new Promise<{ encoding: unknown; body: Buffer }>((resolve, reject) => {
      const request = httpRequest(
        `${server.url}/graphql`,
        {
          method: "POST",
          headers: { "content-type": "application/json", "accept-encoding": "br" },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({ encoding: response.headers["content-encoding"], body: Buffer.concat(chunks) }),
          );
        },
      );
      request.on("error", reject);
      request.end(body);
    });
    expect(answer.encoding).toBe("br");
    const data = JSON.parse(brotliDecompressSync(answer.body).toString("utf8"));
    expect(data.data.cpuNames).toContain("Intel Xeon Gold 6134");
  });
});

describe("version", () => {
  it("/v1/utils/version answers the methodology version (the edition) as a JSON string", async () => {
    expect(await (await get("/v1/utils/version")).json()).toBe("1.2.4");
    expect(await (await get("/v1/utils/version?edition=2.4.1")).json()).toBe("2.4.1");
  });

  it("GraphQL version: the service version of package.json and the methodology versions", async () => {
    const response = await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ version { service methodology methodologies } }" }),
    });
    const { data } = await response.json();
    expect(data.version).toEqual({
      service: SERVICE_VERSION,
      methodology: "1.2.4",
      methodologies: EDITION_IDS,
    });
    expect(SERVICE_VERSION).toMatch(/^\d+\.\d+\.\d+/);
  });
});

/**
 * Writes `requests` on one connection, each once the previous answer's bytes have ended (an answer
 * whose headers say `content-length`), and returns every byte the server wrote until it closed.
 */
function onOneConnection(port: number, requests: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    let received = "";
    let sent = 0;
    const sendNext = () => {
      if (sent < requests.length) socket.write(requests[sent++]);
    };
    /** Whether the bytes received hold `sent` whole answers. */
    const answersEnded = () => {
      let at = 0;
      for (let answer = 0; answer < sent; answer++) {
        const headEnd = received.indexOf("\r\n\r\n", at);
        const length = /content-length: (\d+)/i.exec(received.slice(at, headEnd));
        if (headEnd === -1 || length === null) return false;
        at = headEnd + 4 + Number(length[1]);
        if (received.length < at) return false;
      }
      return true;
    };
    socket.on("connect", sendNext);
    socket.on("data", (chunk: Buffer) => {
      received += chunk.toString("latin1");
      if (answersEnded()) sendNext();
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
  });
}

describe("malformed requests (refused as node refuses them)", () => {
  it("a malformed request is answered 400 and its connection closed", async () => {
    const written = await onOneConnection(server.port, ["NOT HTTP\r\n\r\n"]);
    expect(written).toBe("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
  });

  it("after a request answered on the same connection too: the 400 follows the first answer", async () => {
    const written = await onOneConnection(server.port, [
      "GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n",
      "NOT HTTP\r\n\r\n",
    ]);
    const answers = written.split(/(?=HTTP\/1\.1 )/);
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(answers[0]).toMatch(/\r\n\r\n\{"status":"ok"\}$/);
    expect(answers[1]).toBe("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
  });
});
