/**
 * Writes the GraphQL SDL (sorted) to schema/schema.graphql, Apollo's `possibleTypes` to
 * schema/possible-types.json and the types without identity (clients' cache set-up) to
 * schema/unidentified-types.json; the tests check none has drifted.
 */
import { writeFileSync } from "node:fs";
import { printSchema } from "graphql";
import { buildSchema } from "../src/schema/index.js";
import { possibleTypesOf, unidentifiedTypesOf } from "../src/schema/introspection/possibleTypes.js";

const schema = buildSchema();
const sdl = new URL("../schema/schema.graphql", import.meta.url);
writeFileSync(sdl, `${printSchema(schema)}\n`);
console.log(`wrote ${sdl.pathname}`);
const possible = new URL("../schema/possible-types.json", import.meta.url);
writeFileSync(possible, `${JSON.stringify(possibleTypesOf(schema), null, 2)}\n`);
console.log(`wrote ${possible.pathname}`);
const unidentified = new URL("../schema/unidentified-types.json", import.meta.url);
writeFileSync(unidentified, `${JSON.stringify(unidentifiedTypesOf(schema), null, 2)}\n`);
console.log(`wrote ${unidentified.pathname}`);
