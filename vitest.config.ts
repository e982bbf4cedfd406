import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // One graphql instance for everything: Pothos and yoga load graphql's CommonJS build, so the
    // project's sources must too (otherwise "Cannot use GraphQLEnumType from another realm").
    alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }],
  },
  test: {
    include: ["test/**/*.test.ts"],
    // Tests are quiet: an app built without a logger logs at LOG_LEVEL. A test that asserts on
    // logs gives its app its own logger (test/support/httpServer.ts captures them).
    env: { LOG_LEVEL: "silent" },
    testTimeout: 20000,
  },
});
