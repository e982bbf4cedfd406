/**
 * Our OpenAPI document of edition 2.5.0 against boaviztapi 2.5.0's own: the released package
 * installed by the project's script (scripts/reference.sh: pinned, every file's sha256 checked,
 * wheels only, into a cache outside the repository) and its FastAPI app asked for openapi(). Field
 * by field: every operation it describes, every query parameter, every field of every request
 * body (their JSON types) is in ours; what is not — or differs — is exactly what docs/DEVIATIONS.md
 * lists ("The OpenAPI document against boaviztapi 2.5.0's"), each with its reason.
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { editionById } from "../../src/editions/index.js";
import { openApiDocument } from "../../src/rest/openapi/index.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** The install's bound (scripts/reference.sh bounds each step too): a first install takes about 80 s. */
const INSTALL_MS = 20 * 60_000;

type Json = Record<string, unknown>;

/** A node of a document, its `$ref` followed (null when it is no object). */
function resolved(document: Json, node: unknown): Json | null {
  if (node === null || typeof node !== "object") return null;
  const ref = (node as Json).$ref;
  if (typeof ref !== "string") return node as Json;
  const name = ref.split("/").pop() as string;
  return resolved(document, ((document.components as Json).schemas as Json)[name]);
}

/** The JSON types a schema node allows, its branches' included, null left out. */
function typesOf(document: Json, node: unknown, seen = new Set<unknown>()): Set<string> {
  const types = new Set<string>();
  const schema = resolved(document, node);
  if (schema === null || seen.has(schema)) return types;
  seen.add(schema);
  const type = schema.type;
  for (const one of Array.isArray(type) ? type : type === undefined ? [] : [type]) {
    if (one !== "null") types.add(String(one));
  }
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    for (const branch of (schema[key] as unknown[] | undefined) ?? []) {
      for (const one of typesOf(document, branch, seen)) types.add(one);
    }
  }
  return types;
}

/**
 * Every field a body schema describes, by its path (`configuration.ram[].capacity`), with the
 * JSON types it allows: properties, a list's items (`[]`), the branches of anyOf/oneOf/allOf.
 */
function fieldsOf(
  document: Json,
  node: unknown,
  at = "",
  seen: readonly Json[] = [],
): Map<string, Set<string>> {
  const fields = new Map<string, Set<string>>();
  const schema = resolved(document, node);
  if (schema === null || seen.includes(schema)) return fields;
  const within = [...seen, schema];
  const add = (more: Map<string, Set<string>>) => {
    for (const [path, types] of more) fields.set(path, new Set([...(fields.get(path) ?? []), ...types]));
  };
  for (const key of ["anyOf", "oneOf", "allOf"]) {
    for (const branch of (schema[key] as unknown[] | undefined) ?? [])
      add(fieldsOf(document, branch, at, within));
  }
  if (schema.items !== undefined) add(fieldsOf(document, schema.items, `${at}[]`, within));
  for (const [name, property] of Object.entries((schema.properties as Json | undefined) ?? {})) {
    const path = at === "" ? name : `${at}.${name}`;
    add(new Map([[path, typesOf(document, property)]]));
    add(fieldsOf(document, property, path, within));
  }
  return fields;
}

/** Each operation of a document by `METHOD /path` (a trailing slash is the same path to both services). */
function operationsOf(document: Json): Map<string, Json> {
  const operations = new Map<string, Json>();
  for (const [path, item] of Object.entries(document.paths as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      operations.set(`${method.toUpperCase()} ${path.replace(/(.)\/$/, "$1")}`, operation as Json);
    }
  }
  return operations;
}

const queryOf = (operation: Json) =>
  ((operation.parameters as Json[] | undefined) ?? [])
    .filter((p) => p.in === "query")
    .map((p) => String(p.name));

function bodyOf(document: Json, operation: Json): Map<string, Set<string>> | null {
  const content = ((operation.requestBody as Json | undefined)?.content as Json | undefined)?.[
    "application/json"
  ];
  return content === undefined ? null : fieldsOf(document, (content as Json).schema);
}

/**
 * What the reference's document describes that ours does not, or describes otherwise, one line
 * each: an operation, a query parameter, a body field, a body field's types.
 */
function differences(reference: Json, ours: Json): string[] {
  const found: string[] = [];
  const mine = operationsOf(ours);
  for (const [key, operation] of operationsOf(reference)) {
    const own = mine.get(key);
    if (own === undefined) {
      found.push(`${key}: no such operation`);
      continue;
    }
    for (const name of queryOf(operation)) {
      if (!queryOf(own).includes(name)) found.push(`${key}: no query parameter ${name}`);
    }
    const theirs = bodyOf(reference, operation);
    if (theirs === null) continue;
    const ourBody = bodyOf(ours, own) ?? new Map();
    for (const [path, types] of theirs) {
      const given = ourBody.get(path);
      if (given === undefined) found.push(`${key}: no body field ${path}`);
      else if ([...types].some((type) => !given.has(type)))
        found.push(
          `${key}: body field ${path} is ${[...given].sort().join("|")}, not ${[...types].sort().join("|")}`,
        );
    }
  }
  return found.sort();
}

/** The differences docs/DEVIATIONS.md lists, each a backquoted line of its marked list. */
function listedDifferences(): string[] {
  const text = readFileSync(new URL("docs/DEVIATIONS.md", `file://${ROOT}`), "utf8");
  const list = text.split("<!-- openapi-differences -->")[1]?.split("<!-- /openapi-differences -->")[0] ?? "";
  return [...list.matchAll(/^- `([^`]+)`/gm)].map((match) => match[1]).sort();
}

let reference: Json;
const ours = openApiDocument({
  serviceVersion: "0.0.0",
  methodology: "1.2.4",
  editions: ["1.2.4", "2.4.1", "2.5.0"],
  described: editionById("2.5.0"),
}) as Json;

beforeAll(async () => {
  const { stdout } = await promisify(execFile)("bash", ["scripts/reference.sh", "openapi"], {
    cwd: ROOT,
    maxBuffer: 64 * 1024 * 1024,
    timeout: INSTALL_MS,
  });
  reference = JSON.parse(stdout);
}, INSTALL_MS);

describe("the OpenAPI document of edition 2.5.0 against boaviztapi 2.5.0's own", () => {
  it("is boaviztapi 2.5.0's, whole: its routes, their parameters and bodies", () => {
    expect((reference.info as Json).version).toBe("2.5.0");
    expect(operationsOf(reference).size).toBeGreaterThan(100);
    const server = operationsOf(reference).get("POST /v1/server") as Json;
    expect([...(bodyOf(reference, server)?.keys() ?? [])]).toContain("configuration.ram[].capacity");
  });

  it("describes every operation, query parameter and body field of it, but those docs/DEVIATIONS.md lists", () => {
    expect(differences(reference, ours)).toEqual(listedDifferences());
  });

  it("finds a field taken out of ours (the comparison can fail)", () => {
    const trimmed = structuredClone(ours);
    const schemas = (trimmed.components as Json).schemas as Json;
    delete ((schemas.Ram as Json).properties as Json).model;
    expect(differences(reference, trimmed)).toContain("POST /v1/component/ram: no body field model");
  });
});
