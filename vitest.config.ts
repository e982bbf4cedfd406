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
    setupFiles: ["test/support/quietLogs.ts"],
    testTimeout: 20000,
  },
});
