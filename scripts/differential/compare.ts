/**
 * How an answer of the service is judged against the reference's, for the differential harness and
 * the replay of its recorded corpus (test/editions/reference250.test.ts). The project's conformance
 * rules (shared/conformance/compare.py, with `--curve`):
 *
 * - the reference answered < 400: same status, same JSON — numbers within a relative 1e-3
 *   (absolute 1e-12), strings, booleans, null and keys exactly, arrays in order except `warnings`
 *   (a set); a CPU power profile `{a, b, c, d}` is compared by `a`, `c` and the curve it describes
 *   at 0, 10, 50 and 100 % (`b` and `d` alone are not identifiable);
 * - the reference answered 4xx: any 4xx agrees (another 4xx code is noted);
 * - the reference failed (5xx): any answer below 500 agrees — a kept difference, named
 *   "reference crash answered" in the report and in docs/DEVIATIONS.md.
 *
 * A 422 of the service where the reference answered is a difference under these rules; it is named
 * apart ("refused by a bound"): the service's own input bounds (docs/DEVIATIONS.md, "Bounds the
 * reference does not have"), kept on purpose. So is a difference where the reference contradicts
 * itself ("reference unstable", ./stability.ts): its answer moves by more than the tolerance when an
 * input moves by one unit in the last place.
 */

const REL_TOL = 1e-3;
const ABS_TOL = 1e-12;

export interface Answer {
  readonly status: number;
  /** Parsed JSON, or the text when the answer is not JSON. */
  readonly body: unknown;
}

/** One request's verdict. */
export type Verdict =
  | { readonly kind: "agree" }
  | { readonly kind: "reference crash answered"; readonly status: number }
  | { readonly kind: "other 4xx"; readonly reference: number; readonly service: number }
  | { readonly kind: "refused by a bound"; readonly field: string }
  | { readonly kind: "differ"; readonly differences: readonly string[] }
  | {
      readonly kind: "reference unstable";
      /** How the service's answer differs from the reference's. */
      readonly differences: readonly string[];
      /** The nudge of the inputs that moved the reference's own answer, and how far. */
      readonly probe: string;
      readonly spread: readonly string[];
    };

function isNumber(x: unknown): x is number {
  return typeof x === "number";
}

function numbersEqual(a: number, b: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return Number.isNaN(a) && Number.isNaN(b);
  if (a === b) return true;
  return Math.abs(a - b) <= Math.max(ABS_TOL, REL_TOL * Math.max(Math.abs(a), Math.abs(b)));
}

type Profile = { a: number; b: number; c: number; d: number };

function isProfile(x: unknown): x is Profile {
  if (x === null || typeof x !== "object" || Array.isArray(x)) return false;
  const keys = Object.keys(x).sort();
  return keys.join() === "a,b,c,d" && keys.every((k) => isNumber((x as Record<string, unknown>)[k]));
}

function profilePower(p: Profile, load: number): number {
  const inner = p.b * (load + p.c);
  return inner > 0 ? p.a * Math.log(inner) + p.d : Number.NaN;
}

function short(x: unknown): string {
  const text = JSON.stringify(x) ?? String(x);
  return text.length <= 120 ? text : `${text.slice(0, 120)}...`;
}

/** Up to `limit` differences between an expected and an actual JSON value, as `path: what`. */
export function differences(
  expected: unknown,
  actual: unknown,
  path = "$",
  key: string | null = null,
  out: string[] = [],
  limit = 20,
): string[] {
  if (out.length >= limit) return out;
  if (isProfile(expected) && isProfile(actual)) {
    for (const k of ["a", "c"] as const) {
      if (!numbersEqual(expected[k], actual[k]))
        out.push(`${path}.${k}: expected ${expected[k]}, got ${actual[k]}`);
    }
    for (const load of [0, 10, 50, 100]) {
      const e = profilePower(expected, load);
      const a = profilePower(actual, load);
      if (!numbersEqual(e, a)) out.push(`${path}: power at ${load}% expected ${e}, got ${a}`);
    }
    return out;
  }
  if (isNumber(expected) && isNumber(actual)) {
    if (!numbersEqual(expected, actual)) out.push(`${path}: expected ${expected}, got ${actual}`);
    return out;
  }
  if (Array.isArray(expected) && Array.isArray(actual)) {
    if (key === "warnings") {
      const e = new Set(expected.map((x) => JSON.stringify(x)));
      const a = new Set(actual.map((x) => JSON.stringify(x)));
      const missing = [...e].filter((x) => !a.has(x));
      const extra = [...a].filter((x) => !e.has(x));
      if (missing.length > 0 || extra.length > 0)
        out.push(`${path}: warnings differ; missing ${missing}, unexpected ${extra}`);
      return out;
    }
    if (expected.length !== actual.length) {
      out.push(`${path}: expected ${expected.length} items, got ${actual.length}`);
      return out;
    }
    for (let i = 0; i < expected.length; i++)
      differences(expected[i], actual[i], `${path}[${i}]`, null, out, limit);
    return out;
  }
  if (
    expected !== null &&
    actual !== null &&
    typeof expected === "object" &&
    typeof actual === "object" &&
    !Array.isArray(expected) &&
    !Array.isArray(actual)
  ) {
    const e = expected as Record<string, unknown>;
    const a = actual as Record<string, unknown>;
    for (const k of Object.keys(e).sort()) if (!(k in a)) out.push(`${path}.${k}: missing`);
    for (const k of Object.keys(a).sort()) if (!(k in e)) out.push(`${path}.${k}: unexpected key`);
    for (const k of Object.keys(e)) if (k in a) differences(e[k], a[k], `${path}.${k}`, k, out, limit);
    return out;
  }
  if (expected !== actual) out.push(`${path}: expected ${short(expected)}, got ${short(actual)}`);
  return out;
}

/** The verdict on the service's answer to one request, the reference's being `reference`. */
export function judge(reference: Answer, service: Answer): Verdict {
  if (reference.status >= 500) {
    return service.status < 500
      ? { kind: "reference crash answered", status: service.status }
      : { kind: "differ", differences: [`both failed: ${service.status}`] };
  }
  if (reference.status >= 400) {
    if (service.status >= 400 && service.status < 500) {
      return service.status === reference.status
        ? { kind: "agree" }
        : { kind: "other 4xx", reference: reference.status, service: service.status };
    }
    return { kind: "differ", differences: [`status: expected ${reference.status}, got ${service.status}`] };
  }
  if (service.status === 422) {
    const detail = (service.body as { detail?: { loc?: unknown[] }[] } | null)?.detail;
    const field = Array.isArray(detail) ? (detail[0]?.loc ?? []).join(".") : "";
    return { kind: "refused by a bound", field };
  }
  if (service.status !== reference.status) {
    return {
      kind: "differ",
      differences: [`status: expected ${reference.status}, got ${service.status} ${short(service.body)}`],
    };
  }
  const found = differences(reference.body, service.body);
  return found.length === 0 ? { kind: "agree" } : { kind: "differ", differences: found };
}

/** Whether a verdict counts as agreement under the conformance rules (a crash answered, another 4xx included). */
export function agrees(verdict: Verdict): boolean {
  return (
    verdict.kind === "agree" || verdict.kind === "reference crash answered" || verdict.kind === "other 4xx"
  );
}

/**
 * A difference's signature, for grouping: its path without array indices and component numbers
 * (`$.verbose.RAM-2.avg_power.max: expected 3, got 4` → `$.verbose.RAM-n.avg_power.max`).
 */
export function signature(difference: string): string {
  const path = difference.split(":")[0];
  return path.replace(/\[\d+\]/g, "[i]").replace(/-\d+\b/g, "-n");
}
