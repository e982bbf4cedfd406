import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * Typed documents for the REST shim and the tests, generated from the emitted SDL
 * (`npm run schema`) and the operations in `src/rest/operations`.
 */
const config: CodegenConfig = {
  schema: "schema/schema.graphql",
  documents: ["src/rest/operations/*.graphql"],
  generates: {
    "src/rest/generated/graphql.ts": {
      plugins: ["typescript-operations", "typed-document-node"],
      config: {
        scalars: { JSON: "unknown", Edition: "string" },
        useTypeImports: true,
        enumsAsTypes: true,
        avoidOptionals: { field: true, inputValue: false },
      },
    },
  },
};

export default config;
