import cluster from "node:cluster";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import type { GraphQLError, ValidationContext } from "graphql";
import { createYoga } from "graphql-yoga";
import { editionDataDir, loadReferenceData } from "./data/load.js";
import { DEFAULT_EDITION_ID, defaultEditionFromEnv, EDITIONS } from "./editions/index.js";
import { type Environment, SettingsError, settingsWithOverrides } from "./editions/settings.js";
import { createRestHandler } from "./rest/index.js";
import { createRequestContext, createService, editionService } from "./schema/context.js";
import { buildSchema } from "./schema/index.js";

/**
 * Limits on `/graphql` documents (graphql-armor). Fleets travel in variables, so every
 * legitimate query — including the shim's verbose operations and 10,000-item batches — stays
 * far below them.
 */
export const GRAPHQL_LIMITS = {
  maxDepth: 15,
  maxAliases: 30,
  maxTokens: 20_000,
  maxCost: 20_000,
  maxDirectives: 50,
} as const;

function abuseProtection() {
  // Report rejections as validation errors (400, GRAPHQL_VALIDATION_FAILED) rather than throwing.
  const asValidationError = {
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
  };
  return [
    maxDepthPlugin({ n: GRAPHQL_LIMITS.maxDepth, ...asValidationError }),
    maxAliasesPlugin({ n: GRAPHQL_LIMITS.maxAliases, ...asValidationError }),
    maxTokensPlugin({ n: GRAPHQL_LIMITS.maxTokens }),
    costLimitPlugin({ maxCost: GRAPHQL_LIMITS.maxCost, ...asValidationError }),
    maxDirectivesPlugin({ n: GRAPHQL_LIMITS.maxDirectives, ...asValidationError }),
  ];
}

/**
 * Wires the reference data of every edition (each loaded once, here), the GraphQL schema (yoga at
 * /graphql) and the v1 REST shim. `defaultEdition` answers requests that name no edition.
 */
export function createApp(defaultEdition: string = DEFAULT_EDITION_ID, env: Environment = {}) {
  const service = createService(
    EDITIONS.map((edition) =>
      editionService(edition, loadReferenceData(edition, editionDataDir(edition), env)),
    ),
    defaultEdition,
  );
  const schema = buildSchema();
  const yoga = createYoga({
    schema,
    context: () => createRequestContext(service),
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: true,
    // Unexpected errors are masked; GraphQLErrors raised on purpose (codes) pass through.
    maskedErrors: true,
    plugins: abuseProtection(),
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
      "content-length": Buffer.byteLength(text),
    });
    response.end(text);
  }

  return { service, schema, yoga, rest, handle };
}

export function startServer(
  port: number,
  defaultEdition: string = DEFAULT_EDITION_ID,
  env: Environment = {},
) {
  const app = createApp(defaultEdition, env);
  const server = createServer((request, response) => {
    app.handle(request, response).catch((error: unknown) => {
      console.error(error);
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end("Internal Server Error");
    });
  });
  server.listen(port, () =>
    console.log(
      `listening on http://127.0.0.1:${port} (GraphQL at /graphql; default edition ${defaultEdition})`,
    ),
  );
  // Graceful stop: finish the requests in flight, then exit (so exit hooks such as --cpu-prof run).
  const stop = () => {
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return server;
}

/** `WORKERS=N` runs N worker processes sharing the port (node:cluster); default 1, in-process. */
function main(): void {
  const port = Number(process.env.PORT ?? 8080);
  // An unknown EDITION or an unreadable settings override stops the start-up (before any worker
  // is forked) with a message naming the variable.
  let defaultEdition: string;
  try {
    defaultEdition = defaultEditionFromEnv(process.env);
    for (const { settings } of EDITIONS) {
      if ("values" in settings)
        settingsWithOverrides(settings.values, settings.environmentPrefix, process.env);
    }
  } catch (error) {
    const message = (error as Error).message;
    console.error(error instanceof SettingsError ? message : `EDITION: ${message}`);
    process.exit(1);
  }
  const workers = Math.max(1, Math.trunc(Number(process.env.WORKERS ?? 1)) || 1);
  if (workers === 1 || !cluster.isPrimary) {
    startServer(port, defaultEdition, process.env);
    return;
  }
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
}

if (import.meta.url === `file://${process.argv[1]}`) main();
