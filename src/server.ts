import cluster from "node:cluster";
import { createServer } from "node:http";
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import type { GraphQLError, ValidationContext } from "graphql";
import { createYoga } from "graphql-yoga";
import { type Config, ConfigError, defaultConfig, loadConfig } from "./config.js";
import { editionDataDir, loadReferenceData } from "./data/load.js";
import { EDITION_IDS, EDITIONS } from "./editions/index.js";
import { type Environment, SettingsError, settingsWithOverrides } from "./editions/settings.js";
import { createAssets } from "./http/assets.js";
import { GRAPHIQL_EXAMPLES } from "./http/graphiqlExamples.js";
import { createHttpHandler } from "./http/handler.js";
import { createLogger, type Logger, yogaLogger } from "./http/logging.js";
import { createMetrics } from "./http/metrics.js";
import { docsPage, graphiqlPage, rootPage, SERVICE_TITLE } from "./http/pages.js";
import { loadProjectDocs } from "./http/projectDocs.js";
import { createReadiness } from "./http/readiness.js";
import { createRestHandler } from "./rest/index.js";
import { openApiDocument } from "./rest/openapi.js";
import { createRequestContext, createService, editionService } from "./schema/context.js";
import { buildSchema } from "./schema/index.js";
import { SERVICE_VERSION } from "./version.js";

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

/** A computation run on first use, its result kept. */
function once<T>(compute: () => T): () => T {
  let result: { value: T } | null = null;
  return () => {
    result ??= { value: compute() };
    return result.value;
  };
}

/**
 * Wires the reference data of every edition (each loaded once, here), the GraphQL schema (yoga at
 * /graphql), the v1 REST shim and the HTTP front. `config.EDITION` answers requests that name no
 * edition; `env` holds the editions' settings overrides (`BOAVIZTA_<KEY>`).
 */
export function createApp(
  config: Config = defaultConfig(),
  logger: Logger = createLogger(config.LOG_LEVEL),
  env: Environment = {},
) {
  const readiness = createReadiness();
  const metrics = createMetrics();
  const service = createService(
    EDITIONS.map((edition) =>
      editionService(edition, loadReferenceData(edition, editionDataDir(edition), env)),
    ),
    config.EDITION,
  );
  const schema = buildSchema();
  const yoga = createYoga({
    schema,
    context: () => createRequestContext(service),
    graphqlEndpoint: "/graphql",
    landingPage: false,
    graphiql: {
      title: SERVICE_TITLE,
      defaultTabs: [...GRAPHIQL_EXAMPLES],
      defaultQuery: GRAPHIQL_EXAMPLES[0].query,
    },
    renderGraphiQL: graphiqlPage,
    // CORS is the HTTP front's (one policy for /v1 and /graphql).
    cors: false,
    logging: yogaLogger(logger),
    // Unexpected errors are masked; GraphQLErrors raised on purpose (codes) pass through.
    maskedErrors: true,
    plugins: [...abuseProtection(), metrics.fleetPlugin],
  });
  const rest = createRestHandler(schema, service, (error) =>
    logger.error({ err: error }, "REST handler failed"),
  );
  const versions = { serviceVersion: SERVICE_VERSION, methodology: config.EDITION, editions: EDITION_IDS };
  const projectDocs = loadProjectDocs();
  const handle = createHttpHandler({
    config,
    logger,
    metrics,
    readiness,
    yoga,
    rest,
    assets: createAssets(),
    pages: { root: rootPage({ ...versions, docs: [...projectDocs.keys()] }), docs: docsPage() },
    // Made on first request (start-up stays short); the document never changes afterwards.
    openApi: once(() => JSON.stringify(openApiDocument(versions))),
    projectDocs,
  });
  readiness.markReady();
  return { service, schema, yoga, rest, handle, readiness, metrics, logger };
}

export function startServer(config: Config, env: Environment = {}) {
  const app = createApp(config, createLogger(config.LOG_LEVEL), env);
  const server = createServer((request, response) => {
    app.handle(request, response).catch((error: unknown) => {
      app.logger.error({ err: error }, "request failed");
      if (!response.headersSent) response.writeHead(500, { "content-type": "text/plain" });
      response.end("Internal Server Error");
    });
  });
  server.listen(config.PORT, config.HOST, () => {
    const address = server.address();
    const bound =
      address !== null && typeof address === "object"
        ? `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`
        : String(address);
    app.logger.info(
      { address: bound, edition: config.EDITION },
      `listening on ${bound} (GraphQL at /graphql, REST under /v1, docs at /docs; default edition ${config.EDITION})`,
    );
  });
  // Graceful stop: not ready any more, finish the requests in flight, then exit (so exit hooks such as --cpu-prof run).
  const stop = () => {
    app.readiness.markStopping();
    server.close(() => process.exit(0));
    server.closeIdleConnections();
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  return server;
}

/** `WORKERS=N` runs N worker processes sharing the port (node:cluster); default 1, in-process. */
function main(): void {
  // A bad variable (an unknown EDITION, an unreadable settings override…) stops the start-up
  // before any worker is forked, with one line naming it.
  let config: Config;
  try {
    config = loadConfig(process.env);
    for (const { settings } of EDITIONS) {
      if ("values" in settings)
        settingsWithOverrides(settings.values, settings.environmentPrefix, process.env);
    }
  } catch (error) {
    if (!(error instanceof ConfigError || error instanceof SettingsError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
  if (config.WORKERS === 1 || !cluster.isPrimary) {
    startServer(config, process.env);
    return;
  }
  for (let i = 0; i < config.WORKERS; i++) cluster.fork();
  cluster.on("exit", (worker, code, signal) => {
    console.error(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
    cluster.fork();
  });
}

if (import.meta.url === `file://${process.argv[1]}`) main();
