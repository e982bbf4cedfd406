import type { CodegenConfig } from "@graphql-codegen/cli";

/**
 * Typed documents generated from the emitted SDL (`npm run schema`): the REST shim's and the tests'
 * (`src/rest/operations`) and the Impact Framework plugins' (`src/if/operations`).
 */
const GENERATED = {
  plugins: ["typescript-operations", "typed-document-node"],
  config: {
    scalars: { JSON: "unknown", Edition: "string" },
    useTypeImports: true,
    enumsAsTypes: true,
    avoidOptionals: { field: true, inputValue: false },
  },
};

const config: CodegenConfig = {
  schema: "schema/schema.graphql",
  generates: {
    "src/rest/generated/graphql.ts": { documents: ["src/rest/operations/*.graphql"], ...GENERATED },
    "src/if/generated/graphql.ts": { documents: ["src/if/operations/*.graphql"], ...GENERATED },
  },
};

export default config;
