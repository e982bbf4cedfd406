/**
 * The layer rules of src/ (docs/architecture.md), checked by dependency-cruiser in the test suite
 * (test/architecture/layers.test.ts): a wrong import fails `npm test`.
 *
 * Layers, top to bottom: transports (src/http, src/rest, src/schema, src/app) → use cases
 * (src/service) → src/engine (pure computation) → src/data (reference tables). src/editions describes
 * editions (data the engine reads); src/inputs is the catalogue of input fields (what a request may
 * give, described once: every layer derives its part from it); src/support holds generic helpers
 * (no methodology) any layer may use. src/evaluationProcess is an adapter beside the transports: it
 * implements a port of the use cases (a file's evaluation, run by the command line in a child
 * process), and src/app alone wires it. An arrow may point down, never up; no import circle anywhere.
 *
 * Type-only imports count (tsPreCompilationDeps): a circle of types is still a circle.
 */

/** Paths of the transports: GraphQL schema, REST shim, HTTP front, and the process entry points. */
const TRANSPORTS = "^src/(schema|rest|http|app|config)/";

/**
 * What the use-case layer may not import: the transports above it. (src/config, the service's
 * settings and reference data, is read by the service: a request's limits are part of what it may ask.)
 */
const ABOVE_SERVICE = "^src/(schema|rest|http|app)/";

/**
 * npm packages that belong to a transport (GraphQL, its server, HTTP plumbing). Not `dataloader`:
 * batching and caching by key, with no GraphQL in it, is how the use cases read reference rows
 * (src/service/loaders.ts).
 */
const TRANSPORT_PACKAGES =
  "(^|/)node_modules/(graphql|graphql-yoga|graphql-jit|@graphql-yoga/[^/]+|@pothos/[^/]+|@escape\\.tech/[^/]+|@whatwg-node/[^/]+|prom-client|swagger-ui-dist)/";

/** The AWS SDK (and the Smithy runtime under it): packages that talk to an AWS account. */
const AWS_PACKAGES = "(^|/)node_modules/(@aws-sdk|@smithy|@aws-crypto|@aws)/";

/** Node's network modules: the engine and the data layer never talk HTTP. */
const NETWORK_MODULES = "^(node:)?(http|https|http2|net|tls|dgram)$";

/** Node's modules that start or talk to other processes. */
const PROCESS_MODULES = "^(node:)?(child_process|cluster|worker_threads)$";

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "No import circle anywhere in src/ (type-only imports included): each module can be read, tested and moved on its own.",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "data-imports-only-data",
      comment: "src/data (reference tables: reading, checking, typing them) is the bottom layer: it imports nothing else of src/ (no engine, editions, schema, rest, http, server). What it needs of an edition is passed in (DataSetToLoad).",
      severity: "error",
      from: { path: "^src/data/" },
      to: { path: "^src/", pathNot: "^src/data/" },
    },
    {
      name: "engine-imports-only-engine-and-data",
      comment: "src/engine is pure computation: it reads src/data's types (and src/support's generic helpers) and nothing above (no editions, service, schema, rest, http, server, lifecycle, config, referenceData). An edition's rules reach it through its context.",
      severity: "error",
      from: { path: "^src/engine/" },
      to: { path: "^src/", pathNot: "^src/(engine|data|support|inputs)/" },
    },
    {
      name: "engine-through-its-index",
      comment: "Outside src/engine, the engine is read through src/engine/index.ts only: its folders (assets, components, lookups, model, numeric) can be rearranged without touching a consumer.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/engine/" },
      to: { path: "^src/engine/", pathNot: "^src/engine/index\\.ts$" },
    },
    {
      name: "only-the-server-imports-its-composition-root",
      comment: "src/app composes the HTTP server (yoga, the HTTP front, the site, the batch route). The command line and the Impact Framework plugins run GraphQL in their own process through src/schema/execution/inProcess.ts (and the CLI through src/rest/inProcess.ts), never through the server's composition root.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/app/" },
      to: { path: "^src/app/" },
    },
    {
      name: "numeric-imports-nothing-of-the-project",
      comment: "src/engine/numeric holds general numerical methods (bounded least squares, SVD): no methodology, so no import of any other module of src/.",
      severity: "error",
      from: { path: "^src/engine/numeric/" },
      to: { path: "^src/", pathNot: "^src/engine/numeric/" },
    },
    {
      name: "transports-not-imported-from-below",
      comment: "The transports (schema, rest, http, server, lifecycle, config) are the top layer: the engine, the data, the editions and the generic helpers never import them.",
      severity: "error",
      from: { path: "^src/(engine|data|editions|support|inputs)/" },
      to: { path: TRANSPORTS },
    },
    {
      name: "no-transport-packages-below",
      comment: "No GraphQL (graphql, graphql-yoga, @pothos, graphql-jit, armor plugins), HTTP plumbing or network module in src/engine or src/data: they compute and read tables, whoever asks.",
      severity: "error",
      from: { path: "^src/(engine|data)/" },
      to: { path: `${TRANSPORT_PACKAGES}|${NETWORK_MODULES}` },
    },
    {
      name: "inputs-import-nothing-of-the-project",
      comment: "src/inputs, the catalogue of input fields, is a description: every layer derives its part from it (GraphQL input types, v1 bodies, the service's checks, the engine's input types), so it imports nothing of src/ (no edition, no engine, no GraphQL).",
      severity: "error",
      from: { path: "^src/inputs/" },
      to: { path: "^src/" , pathNot: "^src/inputs/" },
    },
    {
      name: "support-imports-nothing-of-the-project",
      comment: "src/support holds generic helpers (memoisation per key object): no methodology, no layer, so no import of any other module of src/; every layer may use them.",
      severity: "error",
      from: { path: "^src/support/" },
      to: { path: "^src/", pathNot: "^src/support/" },
    },
    {
      name: "output-imports-nothing-of-the-project",
      comment: "src/output says how impacts are written in tabular output (column names with units, numbers without float noise): shared by the command line's inventory and billing outputs, it depends on no layer but src/support's generic helpers (the terminal's printable text) and the engine's vocabulary through its index (the phases of an impact, described once there).",
      severity: "error",
      from: { path: "^src/output/" },
      to: { path: "^src/", pathNot: "^src/(output|support)/|^src/engine/index\\.ts$" },
    },
    {
      name: "duckdb-imports-nothing-of-the-project",
      comment: "src/duckdb (the embedded engine: a database with its memory bound, files named literally, a CSV header, a file unreadable to its end said in one line) serves billing exports and grid series alike: it knows neither, so it imports no other module of src/ but the generic helpers of src/support (what a file is by its first bytes).",
      severity: "error",
      from: { path: "^src/duckdb/" },
      to: { path: "^src/", pathNot: "^src/(duckdb|support)/" },
    },
    {
      name: "billing-below-the-command-line",
      comment: "src/billing (billing exports joined with the coefficient table on DuckDB) is a use case of the command line beside the transports: it reads the use cases of src/service (the coefficient table, instance matching) and the engine's catalogue, and never a transport (schema, rest, http, server, lifecycle) nor the command line; nothing below the command line imports it.",
      severity: "error",
      from: { path: "^src/billing/" },
      to: { path: `${ABOVE_SERVICE}|^src/cli/|${TRANSPORT_PACKAGES}|${NETWORK_MODULES}` },
    },
    {
      name: "billing-imported-only-by-the-command-line",
      comment: "Only the command line (src/cli) runs billing exports; the service, engine, data and transports do not import src/billing (the REST route and GraphQL field of the coefficient table go through src/service).",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(billing|cli|grid)/" },
      to: { path: "^src/billing/", pathNot: "^src/billing/registry/regions\\.ts$" },
    },
    {
      name: "billing-report-above-the-stages",
      comment: "A bill's report (src/billing/report: its figures read back from the written lines, its model, the run's account on stderr) reads what the stages (src/billing/stages) made; the stages never import the report, so the two folders are one way: the write stage reads the report's data through the reader the run's entry (src/billing/bill.ts) hands it.",
      severity: "error",
      from: { path: "^src/billing/stages/" },
      to: { path: "^src/billing/report/" },
    },
    {
      name: "billing-regions-read-by-the-command-line-and-the-scan",
      comment: "The billing registry's regions (each provider's region and its country) are read beyond billing by the command line and the scan (src/scan: an AWS region's country), nothing else.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(billing|cli|grid|scan)/" },
      to: { path: "^src/billing/registry/regions\\.ts$" },
    },
    {
      name: "billing-rules-language-imports-nothing",
      comment: "src/billing/rules holds the language a rule's condition is written in (words of a line's text, its provider, its unit; conditionSql writes it for every engine): the providers' modules and the registry both write conditions in it, so it sits below both and imports nothing else of src/.",
      severity: "error",
      from: { path: "^src/billing/rules/" },
      to: { path: "^src/", pathNot: "^src/billing/rules/" },
    },
    {
      name: "billing-providers-below-the-registry",
      comment: "src/billing/providers describes each cloud provider once (its regions, grammar, registry rows, partitions, billed spellings, rule words); the registry, the stages and the report read it, never the other way: a provider's module imports only its folder and the rules' language (src/billing/rules), so no folder circle joins the providers and the registry.",
      severity: "error",
      from: { path: "^src/billing/providers/" },
      to: { path: "^src/", pathNot: "^src/billing/(providers|rules)/" },
    },
    {
      name: "scan-below-the-transports",
      comment: "src/scan (an AWS account read, cloud-scanner's shapes, their impacts and gauges) is a use case beside the command line: it imports no transport (schema, rest, http, app) and not the command line; the REST shim, the HTTP front and the command line import it.",
      severity: "error",
      from: { path: "^src/scan/" },
      to: { path: `${ABOVE_SERVICE}|^src/cli/` },
    },
    {
      name: "scan-imported-by-the-transports-only",
      comment: "Only the transports and the command line use src/scan; the service, engine, data, billing and grid never do.",
      severity: "error",
      from: { path: "^src/(service|engine|data|billing|grid|editions|inputs|support|output|duckdb|batch|config)/" },
      to: { path: "^src/scan/" },
    },
    {
      name: "aws-sdk-only-in-the-account-reader",
      comment: "The AWS SDK is a network package: only src/scan/aws (the account's reading, run by the command line) imports it, never the service, engine, data or the server's own modules.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/scan/aws/" },
      to: { path: AWS_PACKAGES },
    },
    {
      name: "account-reader-loaded-by-the-command-line",
      comment: "src/scan/aws is loaded by the command line alone (`impact-service scan aws`): the server scans an account by running that command in a child process (src/scan/schedule.ts, through src/evaluationProcess/scanProcess.ts), so the SDK, its credentials and its calls never live in the server's process.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(scan/aws|cli)/" },
      to: { path: "^src/scan/aws/" },
    },
    {
      name: "scan-starts-no-process",
      comment: "src/scan starts no process: the server's scan runs the command line through the service's runner of commands (src/evaluationProcess/scanProcess.ts, the start, the heap, the time and memory bounds a file's evaluation has), which src/app gives the schedule (its port, ScanStarter in src/scan/schedule.ts).",
      severity: "error",
      from: { path: "^src/scan/" },
      to: { path: PROCESS_MODULES },
    },
    {
      name: "grid-below-the-command-line",
      comment: "src/grid (grid intensity series and the zone table, read on DuckDB through src/duckdb) is a use case of the command line like src/billing: it never imports a transport nor the command line.",
      severity: "error",
      from: { path: "^src/grid/" },
      to: { path: `${ABOVE_SERVICE}|^src/cli/|${TRANSPORT_PACKAGES}|${NETWORK_MODULES}` },
    },
    {
      name: "grid-imported-only-by-the-command-line",
      comment: "Only the command line and its billing path evaluate with a grid series: the service, engine, data and transports do not import src/grid.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(billing|cli|grid)/" },
      to: { path: "^src/grid/" },
    },
    {
      name: "transports-reach-engine-through-service",
      comment: "src/rest and src/schema are transports over the use-case layer (src/service): what they need of the engine (criteria, component kinds, evaluations) comes through src/service, never from src/engine.",
      severity: "error",
      from: { path: "^src/(rest|schema)/" },
      to: { path: "^src/engine/" },
    },
    {
      name: "service-imports-no-transport",
      comment: "src/service (the use cases: request context, domain errors, what the transports ask of the engine) is below the transports: it never imports src/schema, src/rest, src/http or the process entry points; a transport spells its domain errors (e.g. graphqlErrorOf).",
      severity: "error",
      from: { path: "^src/service/" },
      to: { path: ABOVE_SERVICE },
    },
    {
      name: "no-transport-packages-in-service",
      comment: "No GraphQL (graphql, graphql-yoga, @pothos, graphql-jit, armor plugins) or HTTP plumbing in src/service: the use cases are the same whichever transport asks.",
      severity: "error",
      from: { path: "^src/service/" },
      to: { path: `${TRANSPORT_PACKAGES}|${NETWORK_MODULES}` },
    },
    {
      name: "no-child-process-in-service",
      comment: "src/service starts no process: file evaluation (src/service/fileEvaluation.ts) asks its port (fileEvaluation/evaluationRunner.ts) to run the command line on a file, and the adapter that does it with a child process is src/evaluationProcess.",
      severity: "error",
      from: { path: "^src/service/" },
      to: { path: PROCESS_MODULES },
    },
    {
      name: "evaluation-process-below-the-transports",
      comment: "src/evaluationProcess (the runner of the command line in child processes: a file's evaluation with its run folder and slots, the server's scan of an account; each bounded, its memory and files watched) implements the port of src/service/fileEvaluation and the scan's (ScanStarter, src/scan/schedule.ts, matched by its shape): it imports src/service and src/support, never a transport (schema, rest, http, app), no network module, and none of the command line's modules (src/cli, src/billing, src/grid, src/scan): it runs the command as a process, never in its own.",
      severity: "error",
      from: { path: "^src/evaluationProcess/" },
      to: { path: `${ABOVE_SERVICE}|^src/(cli|billing|grid|scan)/|${TRANSPORT_PACKAGES}|${NETWORK_MODULES}` },
    },
    {
      name: "evaluation-process-wired-by-the-composition-root",
      comment: "Only src/app (the composition root) imports src/evaluationProcess, to give its runner to the use case: the HTTP edge (src/http/fileEvaluation) and the use case know the port alone.",
      severity: "error",
      from: { path: "^src/", pathNot: "^src/(app|evaluationProcess)/" },
      to: { path: "^src/evaluationProcess/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensionAlias: { ".js": [".ts", ".js"] },
    },
  },
};
