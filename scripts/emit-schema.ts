/** Writes the GraphQL SDL (sorted) to schema/schema.graphql; the tests check it has not drifted. */
import { writeFileSync } from "node:fs";
import { printSchema } from "graphql";
import { buildSchema } from "../src/schema/index.js";

const target = new URL("../schema/schema.graphql", import.meta.url);
writeFileSync(target, `${printSchema(buildSchema())}\n`);
console.log(`wrote ${target.pathname}`);
