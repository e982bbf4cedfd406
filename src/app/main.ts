import cluster from "node:cluster";
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesPlugin } from "@escape.tech/graphql-armor-max-directives";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import { useDeferStream } from "@graphql-yoga/plugin-defer-stream";
import type { GraphQLError, GraphQLSchema, ValidationContext } from "graphql";
import { createYoga } from "graphql-yoga";
import { type LoadedEdition, loadEditions, StartupDataError } from "../config/referenceData.js";
import { type Config, ConfigError, capacityOf, defaultConfig, loadConfig } from "../config/serviceConfig.js";
import { DEFAULT_EDITION_ID, NEW_WORK_EDITION_ID, newWorkEdition } from "../editions/index.js";
import { commandEntryOf } from "../evaluationProcess/commandEntry.js";
import { createProcessRunner } from "../evaluationProcess/processRunner.js";
import { removeLeftFolders } from "../evaluationProcess/runFolder.js";
import { scanProcessStarter } from "../evaluationProcess/scanProcess.js";
import { documentCaches } from "../http/documentCache.js";
import { createHttpHandler } from "../http/handler.js";
import { graphqlLogging } from "../http/logging.js";
import { createMetrics, type Metrics } from "../http/metrics.js";
import { createReadiness } from "../http/readiness.js";
import { createAssets } from "../http/site/browserAssets.js";
import { evaluatePage } from "../http/site/evaluatePage.js";
import { GRAPHIQL_EXAMPLES } from "../http/site/graphiqlExamples.js";
import { docsPage, graphiqlPage, rootPage, SERVICE_TITLE } from "../http/site/pages.js";
import { loadProjectDocs } from "../http/site/projectDocs.js";
import { streamedAnswers } from "../http/streamedAnswer.js";
import { restEditions } from "../rest/editionChoice.js";
import { restHandlerOf } from "../rest/inProcess.js";
import { openApiDocument } from "../rest/openapi/index.js";
import { createBatchRoute } from "../rest/routes/batch.js";
import { coefficientStreamRoute } from "../rest/routes/coefficientStream.js";
import { createScanSchedule, type ScanSchedule } from "../scan/schedule.js";
import { graphqlErrorOf } from "../schema/errors.js";
import { servedSchema } from "../schema/execution/inProcess.js";
import { possibleTypesOf } from "../schema/introspection/possibleTypes.js";
import { fleetVariablesPlugin } from "../schema/plugins/fleetVariables.js";
import { httpErrorsPlugin } from "../schema/plugins/httpErrors.js";
import { incrementalDeliveryPlugin } from "../schema/plugins/incrementalDelivery.js";
import { inputLimitsPlugin } from "../schema/plugins/inputLimits.js";
import { persistedQueriesPlugin } from "../schema/plugins/persistedQueries.js";
import { streamArgumentsPlugin } from "../schema/plugins/streamArguments.js";
import { CRITERION_SPELLINGS, DEFAULT_CRITERIA } from "../service/criteria.js";
import { createFileEvaluator, FILE_EVALUATION_BOUNDS } from "../service/fileEvaluation.js";
import { openService, type Service } from "../service/open.js";
import { createRequestContext } from "../service/requestState.js";
import { createLogger, type Logger } from "../support/log.js";
import { SERVICE_VERSION } from "../support/serviceVersion.js";
import { runService } from "./lifecycle.js";

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
 * Documents registered by hash (APQ), bounded by their text (8 Mi characters, at most 16 MiB);
 * larger texts, and larger parsed documents (src/http/documentCache.ts), are not kept. The shim's
 * operations are compiled on their own (src/rest/runner.ts); these are the clients' documents,
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
  /** Waits for room for its body's heap, read by the body's parser (MAX_PARSED_BYTES_IN_FLIGHT). */
  readonly admitBodyHeap?: (bytes: number) => Promise<void>;
  /** The HTTP request's id: the unexpected errors of its execution are logged with it. */
  readonly requestId?: string;
}

/** A computation run on first use, its result kept. */
function once<T>(compute: () => T): () => T {
  let result: { value: T } | null = null;
  return () => {
    result ??= { value: compute() };
    return result.value;
  };
}

/** What an app is given besides its configuration. */
export interface AppParts {
  /** Where the JSON log lines go (default: a logger at the configuration's LOG_LEVEL, src/support/log.ts). */
  readonly logger?: Logger;
  /** The editions' data, already loaded and checked (by the start-up); loaded here otherwise. */
  readonly loaded?: readonly LoadedEdition[];
}

/**
 * Wires the reference data of every edition (each loaded and checked once, here, unless given), the
 * GraphQL schema (yoga at /graphql), the v1 REST shim and the HTTP front (src/http).
 * @throws StartupDataError (one line naming file, row and column) for data that cannot be served.
 */
export function createApp(config: Config = defaultConfig(), given: AppParts = {}) {
  const logger = given.logger ?? createLogger(config.LOG_LEVEL);
  const service = openService(config, null, { logger, loaded: given.loaded });
  const readiness = createReadiness();
  /** Aborted when the process starts stopping: running batches end with an interrupted summary. */
  const stopping = new AbortController();
  const metrics = createMetrics();
  const fileEvaluator = createFileEvaluator({
    runner: createProcessRunner({ environment: process.env }),
    accepted: { editions: [...service.editions.keys()], criteria: CRITERION_SPELLINGS },
    stopping: stopping.signal,
  });
  const scan = scanScheduleOf(config, logger);
  const schema = servedSchema();
  const yoga = graphqlServer(config, { service, schema, metrics, logger });
  const rest = restHandlerOf(schema, service, logger);
  const handle = createHttpHandler({
    allowedOrigins: config.ALLOWED_ORIGINS,
    compressionMinBytes: config.COMPRESSION_MIN_BYTES,
    limits: service.limits,
    capacity: capacityOf(config),
    logger,
    metrics,
    readiness,
    yoga,
    rest,
    ...siteOf(config, service, schema),
    coefficientStream: coefficientStreamRoute(service, config.MAX_CONCURRENT_STREAMS),
    batch: batchRouteOf(config, { service, rest, stopping: stopping.signal }),
    fileEvaluator,
    scan,
  });
  return {
    service,
    schema,
    yoga,
    rest,
    handle,
    readiness,
    logger,
    /** The scanned AWS account (SCAN_AWS_REGIONS), null when none is. */
    scan,
    /** Not ready any more (`/readyz` 503): called when the process starts shutting down. */
    markStopping: () => {
      readiness.markStopping();
      scan?.stop();
      stopping.abort(new Error("the service is stopping (SIGTERM or SIGINT)"));
    },
    // Which command /evaluate starts (bundled beside the server, or the bin through tsx).
    description: `default edition ${service.defaultEdition} (REST, GraphQL), ${newWorkEdition(config)} (files); ${fileEvaluator.command}`,
  };
}

/**
 * The scan of an AWS account the configuration asks for (SCAN_AWS_REGIONS, docs/scan.md): the
 * command line's `scan aws` run at SCAN_INTERVAL_SECONDS in a child process; null without regions.
 */
function scanScheduleOf(config: Config, logger: Logger): ScanSchedule | null {
  const list = (text: string | undefined) =>
    (text ?? "")
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "");
  const regions = list(config.SCAN_AWS_REGIONS);
  if (regions.length === 0) return null;
  const entry = commandEntryOf(import.meta.url);
  if ("missing" in entry) {
    logger.error(`SCAN_AWS_REGIONS: no scan, the command line is missing (${entry.missing}: npm run build)`);
    return null;
  }
  return createScanSchedule({
    start: scanProcessStarter(entry.path, process.env),
    regions,
    filters: list(config.SCAN_FILTER_TAGS),
    hours: config.SCAN_HOURS,
    edition: config.SCAN_EDITION ?? null,
    intervalMs: config.SCAN_INTERVAL_SECONDS * 1000,
    timeoutMs: config.SCAN_TIMEOUT_SECONDS * 1000,
    say: (line) => logger.warn(line),
  });
}

/** What `/graphql` is made of besides the configuration. */
interface GraphqlParts {
  readonly service: Service;
  readonly schema: GraphQLSchema;
  readonly metrics: Metrics;
  readonly logger: Logger;
}

/** graphql-yoga at `/graphql`: the schema, its request context, GraphiQL and the plugins. */
function graphqlServer(config: Config, { service, schema, metrics, logger }: GraphqlParts) {
  const parsed = documentCaches({
    maxBytes: config.DOCUMENT_CACHE_BYTES,
    maxDocumentChars: DOCUMENT_CACHE.maxDocumentChars,
  });
  metrics.observeDocumentCache(parsed.bytes);
  const graphqlLog = graphqlLogging(logger);
  return createYoga<TransportContext>({
    schema,
    context: ({ signal, admitFleetItems }) =>
      createRequestContext(service, { signal, admitFleetItems, spellError: graphqlErrorOf }),
    graphqlEndpoint: "/graphql",
    parserAndValidationCache: { documentCache: parsed.documents, errorCache: parsed.syntaxErrors },
    landingPage: false,
    graphiql: {
      title: SERVICE_TITLE,
      defaultTabs: [...GRAPHIQL_EXAMPLES],
      defaultQuery: GRAPHIQL_EXAMPLES[0].query,
    },
    renderGraphiQL: graphiqlPage,
    // CORS is the HTTP front's (one policy for /v1 and /graphql).
    cors: false,
    logging: graphqlLog.logger,
    // Unexpected errors are masked; GraphQLErrors raised on purpose (codes) pass through.
    maskedErrors: true,
    plugins: [graphqlLog.plugin, ...graphqlPlugins(config, service, metrics)],
  });
}

/**
 * yoga's plugins in the order they run. Input bounds first: nesting before parsing, list lengths
 * before variables are coerced, then a large fleet's variables coerced in slices of the turns
 * (fleetVariables.ts); persisted queries before them: a document sent by its hash is
 * checked as if sent whole. @defer and @stream: a fleet's `items @stream` are sent as their
 * chunks are evaluated (multipart/mixed or text/event-stream), instead of in one answer at the
 * end. The errors plugin comes before yoga's masking (which yoga adds after these): it sees an
 * unexpected error as it was raised, logs it with the request's id, and gives errors the
 * GraphQL-over-HTTP statuses and codes (httpErrors.ts).
 */
function graphqlPlugins(config: Config, { limits, turns }: Service, metrics: Metrics) {
  return [
    persistedQueriesPlugin(DOCUMENT_CACHE, config.PERSISTED_ONLY === "true" ? config.trustedDocuments : null),
    inputLimitsPlugin(limits, turns),
    fleetVariablesPlugin(),
    ...abuseProtection(),
    metrics.fleetPlugin,
    useDeferStream(),
    incrementalDeliveryPlugin(),
    streamArgumentsPlugin(),
    streamedAnswers(),
    httpErrorsPlugin(),
  ];
}

/** Each served edition's OpenAPI document, serialized on its first request (null: an edition not served). */
function openApiDocuments(service: Service): (edition: string | null) => string | null {
  const documents = new Map<string, string>();
  return (edition) => {
    const id = edition ?? service.defaultEdition;
    const served = service.editions.get(id);
    if (served === undefined) return null;
    let document = documents.get(id);
    if (document === undefined) {
      document = JSON.stringify(
        openApiDocument({
          serviceVersion: SERVICE_VERSION,
          methodology: service.defaultEdition,
          editions: [...service.editions.keys()],
          described: served.edition,
        }),
      );
      documents.set(id, document);
    }
    return document;
  };
}

/** The pages, documents and assets of the HTTP front: what they say of the service's editions. */
function siteOf(config: Config, service: Service, schema: GraphQLSchema) {
  const defaultServed = service.editions.get(service.defaultEdition);
  const versions = {
    serviceVersion: SERVICE_VERSION,
    methodology: service.defaultEdition,
    editions: [...service.editions.keys()],
    requestValidation: defaultServed?.edition.requestValidation,
  };
  const projectDocs = loadProjectDocs();
  return {
    assets: createAssets(),
    pages: {
      root: rootPage({
        ...versions,
        fileEdition: newWorkEdition(config),
        docs: [...projectDocs.documents.keys()],
      }),
      docs: docsPage(versions),
      evaluate: evaluatePage({
        editions: versions.editions,
        // The command the page runs decides the same way (its environment is the service's).
        defaultEdition: newWorkEdition(config),
        newWorkEdition: NEW_WORK_EDITION_ID,
        specificationEdition: DEFAULT_EDITION_ID,
        criteria: DEFAULT_CRITERIA,
        bounds: FILE_EVALUATION_BOUNDS,
      }),
    },
    // Made on first request (start-up stays short); the document never changes afterwards.
    openApi: openApiDocuments(service),
    projectDocs,
    possibleTypes: once(() => possibleTypesOf(schema)),
  };
}

/** What the batch route is made of besides the configuration. */
interface BatchParts {
  readonly service: Service;
  readonly rest: ReturnType<typeof restHandlerOf>;
  /** Aborted when the process starts stopping. */
  readonly stopping: AbortSignal;
}

/** `POST /v1/batch`: each line through the shim's dispatch, within the request's bounds. */
function batchRouteOf(config: Config, { service, rest, stopping }: BatchParts) {
  const { limits } = service;
  return createBatchRoute({
    evaluate: rest,
    editions: restEditions(service),
    maxLineBytes: limits.maxBodyBytes,
    maxConcurrent: config.MAX_CONCURRENT_BATCHES,
    maxPerClient: config.MAX_BATCHES_PER_CLIENT,
    bodyLimits: limits,
    lineTimeoutMs: limits.bodyTimeoutMs,
    stopping,
    turns: service.turns,
  });
}

export type App = ReturnType<typeof createApp>;

/**
 * Reads the configuration (one clear line on stderr and exit 2 when it is wrong: the logger does
 * not exist yet), then runs the service with the configured logger.
 */
function main(): void {
  let config: Config;
  try {
    config = loadConfig(process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(2);
  }
  // The data of every edition is read and checked before anything is served: a problem is one
  // line on stderr and exit 2, like a wrong variable (with WORKERS > 1 the primary checks it).
  // A worker reads the data itself (its primary checked it); in-process the checked data is served.
  let given: LoadedEdition[] | undefined;
  if (cluster.isPrimary) {
    try {
      const loaded = loadEditions(config.customEditions, config.settingsOverrides);
      if (config.WORKERS <= 1) given = loaded;
    } catch (error) {
      if (!(error instanceof StartupDataError)) throw error;
      process.stderr.write(`invalid data: ${error.message}\n`);
      process.exit(2);
    }
  }
  const logger = createLogger(config.LOG_LEVEL);
  runService(config, logger, () => {
    // The run folders of /evaluate a process gone left behind (killed mid-run), before serving.
    const removed = removeLeftFolders();
    if (removed.length > 0)
      logger.warn({ folders: removed.length }, "removed the run folders of a process gone");
    const app = createApp(config, { logger, loaded: given });
    given = undefined;
    return app;
  });
}

if (import.meta.url === `file://${process.argv[1]}`) main();
