/**
 * The layer rules of src/ (docs/architecture.md), checked by dependency-cruiser in the test suite
 * (test/architecture/layers.test.ts): a wrong import fails `npm test`.
 *
 * Layers, top to bottom: transports (src/http, src/rest, src/schema, src/server.ts) → use cases →
 * src/engine (pure computation) → src/data (reference tables). src/editions describes editions (data
 * the engine reads). An arrow may point down, never up; no import circle anywhere.
 *
 * Type-only imports count (tsPreCompilationDeps): a circle of types is still a circle.
 */

/** Paths of the transports: GraphQL schema, REST shim, HTTP front, and the process entry points. */
const TRANSPORTS = "^src/(schema|rest|http)/|^src/(server|lifecycle|config)\\.ts$";

/** npm packages that belong to a transport (GraphQL, its server, HTTP plumbing). */
const TRANSPORT_PACKAGES =
  "(^|/)node_modules/(graphql|graphql-yoga|graphql-jit|@graphql-yoga/[^/]+|@pothos/[^/]+|@escape\\.tech/[^/]+|@whatwg-node/[^/]+|dataloader|prom-client|swagger-ui-dist)/";

/** Node's network modules: the engine and the data layer never talk HTTP. */
const NETWORK_MODULES = "^(node:)?(http|https|http2|net|tls|dgram)$";

/**
 * REST routes that still import the engine directly, each `[from, to]`. A transport should reach
 * the engine through the use cases (GraphQL resolvers, later src/service/); this list is expected to
 * shrink to empty: delete an entry when its import goes (the test fails on an entry that no longer
 * matches an import, and prints the list on each run).
 */
const REST_TO_ENGINE_ALLOW_LIST = [
  ["src/rest/body.ts", "src/engine/model/builtOnce.ts"],
  ["src/rest/body.ts", "src/engine/model/criteria.ts"],
  ["src/rest/cloud.ts", "src/engine/model/builtOnce.ts"],
  ["src/rest/deviceBody.ts", "src/engine/model/builtOnce.ts"],
  ["src/rest/devices.ts", "src/engine/index.ts"],
  ["src/rest/profile.ts", "src/engine/model/builtOnce.ts"],
  ["src/rest/utils.ts", "src/engine/model/criteria.ts"],
  ["src/rest/validation.ts", "src/engine/model/builtOnce.ts"],
];

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
      comment: "src/engine is pure computation: it reads src/data's types and nothing above (no editions, schema, rest, http, server, lifecycle, config, referenceData). An edition's rules reach it through its context.",
      severity: "error",
      from: { path: "^src/engine/" },
      to: { path: "^src/", pathNot: "^src/(engine|data)/" },
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
      comment: "The transports (schema, rest, http, server, lifecycle, config) are the top layer: the engine, the data and the editions never import them.",
      severity: "error",
      from: { path: "^src/(engine|data|editions)/" },
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
      name: "rest-imports-engine-only-from-allow-list",
      comment: "src/rest is a transport over the GraphQL schema: it should not import the engine. The imports that remain are listed in REST_TO_ENGINE_ALLOW_LIST (known violations, expected to shrink to empty).",
      severity: "error",
      from: { path: "^src/rest/" },
      to: { path: "^src/engine/" },
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
    knownViolations: REST_TO_ENGINE_ALLOW_LIST.map(([from, to]) => ({
      type: "dependency",
      from,
      to,
      rule: { name: "rest-imports-engine-only-from-allow-list", severity: "error" },
    })),
  },
};
