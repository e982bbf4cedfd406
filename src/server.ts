import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import type { DocumentNode, GraphQLError, ValidationContext } from "graphql";
import { createYoga } from "graphql-yoga";
import {
  type Capacity,
  type Config,
  ConfigError,
  capacityOf,
  defaultConfig,
  type Limits,
  limitsOf,
  loadConfig,
} from "./config.js";
import { editionDataDir, loadReferenceData } from "./data/load.js";
import { EDITION_IDS, EDITIONS } from "./editions/index.js";
import type { Environment } from "./editions/settings.js";
import { createAssets } from "./http/assets.js";
import type { AllowedOrigins } from "./http/cors.js";
import { documentCache } from "./http/documentCache.js";
import { GRAPHIQL_EXAMPLES } from "./http/graphiqlExamples.js";
import { createHttpHandler } from "./http/handler.js";
import { yogaLogger } from "./http/logging.js";
import { createMetrics } from "./http/metrics.js";
import { docsPage, graphiqlPage, rootPage, SERVICE_TITLE } from "./http/pages.js";
import { loadProjectDocs } from "./http/projectDocs.js";
import { createReadiness } from "./http/readiness.js";
import { streamedAnswers } from "./http/streamedAnswer.js";
import { runService } from "./lifecycle.js";
import { createLogger, type Logger } from "./log.js";
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

/**
 * Parsed documents kept (yoga's cache, bounded by size: src/http/documentCache.ts). The shim's
 * operations are compiled on their own (src/rest/common.ts); these are the clients' documents,
 * GraphiQL's and the fleets' queries, a few kilobytes each.
 */
const DOCUMENT_CACHE = { maxChars: 8 * 1024 * 1024, maxDocumentChars: 64 * 1024 } as const;

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

/** What the transport passes to each GraphQL execution. */
interface TransportContext {
  /** Aborted when the request is cancelled (client gone, execution budget spent). */
  readonly signal?: AbortSignal;
  /** Waits for room for the request's fleet items (MAX_CONCURRENT_FLEET_ITEMS). */
  readonly admitFleetItems?: (items: number) => Promise<void>;
}

/** A computation run on first use, its result kept. */
function once<T>(compute: () => T): () => T {
  let result: { value: T } | null = null;
  return () => {
    result ??= { value: compute() };
    return result.value;
  };
}

export interface AppOptions {
  /** The edition of requests that name none (`EDITION`). */
  readonly defaultEdition?: string;
  readonly limits?: Limits;
  /** The work taken at once, all requests together (admission budgets). */
  readonly capacity?: Capacity;
  /** Edition settings overrides (`BOAVIZTA_<KEY>`, docs/methodology.md §19.1.2), validated by loadConfig. */
  readonly settingsOverrides?: Environment;
  /** CORS origins of /v1 and /graphql (`ALLOWED_ORIGINS`; default any). */
  readonly allowedOrigins?: AllowedOrigins;
  /** Answers smaller than this are not compressed (`COMPRESSION_MIN_BYTES`). */
  readonly compressionMinBytes?: number;
  /** Where the JSON log lines go (default: the process's logger, src/log.ts). */
  readonly logger?: Logger;
}

/** The app's options for a configuration: one mapping, for the start-up and the tests alike. */
export function appOptionsOf(config: Config): Required<Omit<AppOptions, "logger">> {
  return {
    defaultEdition: config.EDITION,
    limits: limitsOf(config),
    capacity: capacityOf(config),
    settingsOverrides: config.settingsOverrides,
    allowedOrigins: config.ALLOWED_ORIGINS,
    compressionMinBytes: config.COMPRESSION_MIN_BYTES,
  };
}

/** The options of an unconfigured app: the defaults of the configuration (src/config.ts). */
const UNCONFIGURED = appOptionsOf(defaultConfig());

/**
 * Wires the reference data of every edition (each loaded once, here), the GraphQL schema (yoga at
 * /graphql), the v1 REST shim and the HTTP front (src/http).
 */
export function createApp(options: AppOptions = {}) {
  const { defaultEdition, limits, capacity, settingsOverrides, allowedOrigins, compressionMinBytes } = {
    ...UNCONFIGURED,
    ...options,
  };
  // Without a logger (tests, the benchmark), one at the level of the environment's LOG_LEVEL.
  const logger = options.logger ?? createLogger(loadConfig().LOG_LEVEL);
  const readiness = createReadiness();
  const metrics = createMetrics();
  const service = createService(
    EDITIONS.map((edition) =>
      editionService(edition, loadReferenceData(edition, editionDataDir(edition), settingsOverrides), limits),
    ),
    defaultEdition,
    limits,
  );
  const schema = buildSchema();
  const documents = documentCache<DocumentNode>(DOCUMENT_CACHE);
  const syntaxErrors = documentCache<unknown>(DOCUMENT_CACHE);
  metrics.observeDocumentCache(() => documents.size() + syntaxErrors.size());
  const yoga = createYoga<TransportContext>({
    schema,
    context: ({ signal, admitFleetItems }) => createRequestContext(service, { signal, admitFleetItems }),
    graphqlEndpoint: "/graphql",
    parserAndValidationCache: { documentCache: documents, errorCache: syntaxErrors },
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
    plugins: [...abuseProtection(), metrics.fleetPlugin, streamedAnswers()],
  });
  const rest = createRestHandler(schema, service, (message, error) => logger.error({ err: error }, message));
  const versions = { serviceVersion: SERVICE_VERSION, methodology: defaultEdition, editions: EDITION_IDS };
  const projectDocs = loadProjectDocs();
  const handle = createHttpHandler({
    allowedOrigins,
    compressionMinBytes,
    limits,
    capacity,
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
  return {
    service,
    schema,
    yoga,
    rest,
    handle,
    readiness,
    logger,
    /** Not ready any more (`/readyz` 503): called when the process starts shutting down. */
    markStopping: readiness.markStopping,
    description: `default edition ${defaultEdition}`,
  };
}

export type App = ReturnType<typeof createApp>;

/**
 * Reads the configuration (one clear line on stderr and exit 2 when it is wrong: the logger does
 * not exist yet), then runs the service with the configured logger.
 */
function main(): void {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  const logger = createLogger(config.LOG_LEVEL);
  runService(config, logger, () => createApp({ ...appOptionsOf(config), logger }));
}

if (import.meta.url === `file://${process.argv[1]}`) main();
