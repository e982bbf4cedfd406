import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { createYoga } from "graphql-yoga";
import { loadReferenceData } from "./data/load.js";
import { createRestHandler } from "./rest/index.js";
import { createRequestContext, createService } from "./schema/context.js";
import { buildSchema } from "./schema/index.js";

/** Wires the reference data, the GraphQL schema (yoga at /graphql) and the v1 REST shim. */
export function createApp() {
  const service = createService(loadReferenceData());
  const schema = buildSchema();
  const yoga = createYoga({
    schema,
    context: () => createRequestContext(service),
    graphqlEndpoint: "/graphql",
    landingPage: false,
  });
  const rest = createRestHandler(schema, service);

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = request.url ?? "/";
    if (url.startsWith("/graphql")) {
      await yoga(request, response);
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const answer = await rest({
      method: request.method ?? "GET",
      url,
      body: Buffer.concat(chunks).toString("utf8"),
    });
    if (answer.html !== undefined) {
      response.writeHead(answer.status, { "content-type": "text/html; charset=utf-8" });
      response.end(answer.html);
      return;
    }
    const text =
      typeof answer.body === "string" && answer.status >= 500 ? answer.body : JSON.stringify(answer.body);
    response.writeHead(answer.status, {
      "content-type": answer.status >= 500 ? "text/plain; charset=utf-8" : "application/json",
    });
    response.end(text);
  }

  return { service, schema, yoga, rest, handle };
}

export function startServer(port: number) {
  const app = createApp();
  const server = createServer((request, response) => {
    app.handle(request, response).catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end("Internal Server Error");
    });
  });
  server.listen(port, () => console.log(`listening on http://127.0.0.1:${port} (GraphQL at /graphql)`));
  return server;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  startServer(Number(process.env.PORT ?? 8080));
}
