import { RestError } from "./graphqlErrors.js";

/*
 * The request target of a v1 call, read without the URL parser when it is plain: its path
 * without trailing slashes and its query parameters as the reference reads them.
 */

/** The parts of a request target the shim reads. */
interface Target {
  readonly pathname: string;
  readonly searchParams: URLSearchParams;
}

/** A request target that is not a path (e.g. `//` or `//host:port`) is answered 400. */
export function parseTarget(target: string): Target {
  if (!target.startsWith("/") || target.startsWith("//")) throw new RestError(400, { detail: "Bad Request" });
  const query = plainQueryStart(target);
  if (query !== -1) {
    return {
      pathname: target.slice(0, query),
      searchParams: new URLSearchParams(query < target.length ? target.slice(query + 1) : ""),
    };
  }
  try {
    return new URL(target, "http://localhost");
  } catch {
    throw new RestError(400, { detail: "Bad Request" });
  }
}

const isAlphanumeric = (c: number) =>
  (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
/** `_ - /` (no dot: no dot segments to resolve, no backslash, no percent-encoding). */
const isPlainPathCharacter = (c: number) => isAlphanumeric(c) || c === 0x5f || c === 0x2d || c === 0x2f;
/** `_ - . ~ % = & + , :`: characters the URL parser leaves as they are in a query. */
const isPlainQueryCharacter = (c: number) =>
  isAlphanumeric(c) ||
  c === 0x5f ||
  c === 0x2d ||
  c === 0x2e ||
  c === 0x7e ||
  c === 0x25 ||
  c === 0x3d ||
  c === 0x26 ||
  c === 0x2b ||
  c === 0x2c ||
  c === 0x3a;

/**
 * Where the query of a plain target starts (the index of its `?`, or its length when it has
 * none), or -1. A plain target is one the URL parser would leave as it is — its path and its
 * query made of the characters above, no fragment —, so its path and query are read without it
 * (`new URL` is 4 % of the CPU of a kept GET answer); any other target goes through the parser.
 */
function plainQueryStart(target: string): number {
  let i = 0;
  while (i < target.length && isPlainPathCharacter(target.charCodeAt(i))) i++;
  if (i === target.length) return i;
  if (target.charCodeAt(i) !== 0x3f) return -1;
  for (let j = i + 1; j < target.length; j++) if (!isPlainQueryCharacter(target.charCodeAt(j))) return -1;
  return i;
}

/**
 * A v1 path without its trailing slashes (`/v1/server/` is `/v1/server`). Scanned from the end:
 * the pattern `/\/+$/` retried from every slash of a run, quadratic in a path of many slashes.
 */
export function routePath(pathname: string): string {
  let end = pathname.length;
  while (end > 1 && pathname.charCodeAt(end - 1) === 0x2f) end--;
  return end === pathname.length ? pathname : pathname.slice(0, end);
}

/**
 * FastAPI reads a repeated single-valued parameter (`?archetype=a&archetype=b`) as its last value;
 * only `criteria` is a list.
 */
export function singleValued(params: URLSearchParams): URLSearchParams {
  if (params.size <= 1 || !hasRepeatedKey(params)) return params;
  const out = new URLSearchParams();
  for (const key of new Set(params.keys())) {
    const values = params.getAll(key);
    if (key === "criteria") for (const value of values) out.append(key, value);
    else out.set(key, values[values.length - 1]);
  }
  return out;
}

/** Whether a key is given twice (most targets give each once: their parameters are read as they are). */
function hasRepeatedKey(params: URLSearchParams): boolean {
  const seen = new Set<string>();
  for (const key of params.keys()) {
    if (seen.has(key)) return true;
    seen.add(key);
  }
  return false;
}
