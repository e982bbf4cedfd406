/**
 * Writes the GraphQL SDL (sorted) to schema/schema.graphql and Apollo's `possibleTypes` to
 * schema/possible-types.json; the tests check neither has drifted.
 */
import { writeFileSync } from "node:fs";
import { printSchema } from "graphql";
import { buildSchema } from "../src/schema/index.js";
import { possibleTypesOf } from "../src/schema/possibleTypes.js";

const schema = buildSchema();
const sdl = new URL("../schema/schema.graphql", import.meta.url);
writeFileSync(sdl, `${printSchema(schema)}\n`);
console.log(`wrote ${sdl.pathname}`);
const possible = new URL("../schema/possible-types.json", import.meta.url);
writeFileSync(possible, `${JSON.stringify(possibleTypesOf(schema), null, 2)}\n`);
console.log(`wrote ${possible.pathname}`);
