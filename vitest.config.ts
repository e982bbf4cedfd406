import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";
import LongestFirst from "./test/support/sequencer.js";

const require = createRequire(import.meta.url);

/**
 * The tests that start real servers or processes (a listening socket, a child process, worker
 * threads, a browser): the `process` project. Everything else — engine, data, editions, pure
 * modules, GraphQL and REST through the in-memory app — is the fast `unit` project
 * (docs/testing.md). Membership is by path: a new file under these paths is a
 * process test, any other new file a unit test.
 */
const PROCESS_TESTS = [
  "test/server/**/*.test.ts",
  "test/cli/**/*.test.ts",
  "test/batch/route.test.ts",
  "test/editions/startup.test.ts",
  "test/graphql/stream.test.ts",
  "test/http/browser.test.ts",
  "test/http/evaluatePage.test.ts",
  "test/http/evaluateLayouts.test.ts",
  "test/http/evaluateLimits.test.ts",
  "test/http/evaluateReport.test.ts",
  "test/http/evaluateMonths.test.ts",
  "test/http/evaluateParts.test.ts",
  // Every console block of README.md and docs/*.md, run (the command line, the service)
  "test/docs/consoleBlocks.test.ts",
  // boaviztapi 2.5.0's own document, from its package in Python (scripts/reference.sh openapi)
  "test/http/openapiReference.test.ts",
  "test/http/server.test.ts",
  "test/clients/**/*.test.ts",
  // EcoLogits in its own Python process (scripts/ensure-ecologits.sh)
  "test/reference/**/*.test.ts",
  // moto, AWS's APIs emulated, in its own Python process (scripts/ensure-moto.sh)
  "test/scan/emulator/**/*.test.ts",
  // Spark's session and Trino's server, started once per file (test/billing/engines/)
  "test/billing/engines/**/*.test.ts",
];

/**
 * The unit tests that replace a module for the whole file (`vi.mock`): a module graph shared with
 * other files (the unit project's threads are not isolated) would keep the real module, and lend
 * the replaced one to the files after it; and those that change one of V8's flags, which would hold
 * for the files after them. They run in the `isolated` project, each file in a fork of its own,
 * beside the unit files.
 */
const ISOLATED_TESTS = [
  // A provider added to the registry: every module reading PROVIDERS sees it
  "test/billing/focusNewProvider.test.ts",
  // V8's natives syntax allowed (setFlagsFromString) for V8's predicates on the answers' values
  "test/rest/serialisedOnFastPath.test.ts",
  // V8's gc() exposed (setFlagsFromString) to force a mark-compact while requests are in flight
  "test/http/answersInFlightYoung.test.ts",
  // V8's gc() exposed to measure a parse's heap, and to see entries collected: each collection
  // also walks a shared worker's heap (every module and table the files before it loaded)
  "test/support/jsonScan.test.ts",
  "test/schema/releaseInChunks.test.ts",
];

export default defineConfig({
  resolve: {
    // One graphql instance for everything: Pothos and yoga load graphql's CommonJS build, so the
    // project's sources must too (otherwise "Cannot use GraphQLEnumType from another realm").
    alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }],
  },
  test: {
    // Tests are quiet: an app built without a logger logs at LOG_LEVEL. A test that asserts on
    // logs gives its app its own logger (test/support/httpServer.ts captures them).
    env: { LOG_LEVEL: "silent" },
    // Bounds against a hang, not synchronisation: on a 2-core machine shared with other suites a
    // test or a hook that builds an app takes several times its calm duration.
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // The longest files first, by this checkout's last run or else by the durations a whole run
    // recorded (bench/history/test-files.json): a fresh clone has no vitest cache, and by size
    // alone it started the engines' files among the last (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // The pools' options are set here, for every project using the pool: only `unit` uses threads,
    // only `process` forks.
    poolOptions: {
      // Every core for the unit files: they run before the process files, alone on the machine.
      // Vitest's default in `run` mode is one core fewer than the machine has (its main process is
      // left one), which on the 2-core machine ran every unit file on one thread while the
      // main process, only collecting results, left the second core idle.
      threads: { isolate: false, minThreads: 1, maxThreads: availableParallelism() },
      // The process tests: files not isolated (a fork loads the sources, vitest and the app's
      // modules once, not once per file: collect 10.2 s → 2.9 s over six of these files), a fork
      // per core: their tests mostly wait on a child process or a socket, so a second file runs
      // on the core the first leaves idle; the suite is bound by CPU (docs/testing.md), so no
      // more forks than cores.
      forks: { isolate: false, minForks: 1, maxForks: availableParallelism() },
    },
    projects: [
      {
        // `extends: true`: the alias and the environment above hold in both projects.
        extends: true,
        test: {
          name: "unit",
          sequence: { groupOrder: 0 },
          include: ["test/**/*.test.ts"],
          exclude: [...PROCESS_TESTS, ...ISOLATED_TESTS],
          // Worker threads that are not isolated: the files a worker runs share one module graph,
          // so the app and the reference data are built once per worker (test/support/app.ts)
          // instead of once per file. Unit tests keep no state between files: spies are restored
          // after each test (vi.restoreAllMocks).
          pool: "threads",
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "isolated",
          include: ISOLATED_TESTS,
          // A fork per file, isolated: its module graph, the replaced module included, is its own
          pool: "forks",
          isolate: true,
          poolOptions: { forks: { isolate: true } },
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: "process",
          include: PROCESS_TESTS,
          // Forks, not isolated, one per core (poolOptions.forks above): a file leaves no state behind
          // (its servers closed, its processes killed, spies restored, the environment as it was).
          pool: "forks",
          isolate: false,
          // The service and the command line bundled once (scripts/build.ts) for the files' real starts
          // (test/support/process.ts, test/support/cli.ts), and one Chromium for the files that
          // drive pages, each in a context of its own (test/support/sharedChromium.ts).
          globalSetup: ["test/support/bundle.ts", "test/support/sharedChromium.ts"],
          // After the unit project, not beside it: the process tests keep the machine to
          // themselves, as when every file ran in one pool (tests must pass on a busy 2-core machine).
          sequence: { groupOrder: 1 },
        },
      },
    ],
  },
});
