/**
 * Cloud instance-name resolution of edition 2.4.1 (docs/methodology.md §19.7.2, §7.4): an exact id
 * (blanks trimmed, case-sensitive), else a staged fuzzy match — equal canonical forms, then the
 * best equal-length Hamming similarity, then the best Levenshtein similarity — accepted at or
 * above the edition's threshold.
 */
import { distance } from "fuzzball";
import { flatText } from "../model/flatText.js";

/** How a requested instance type was resolved; `fuzzy` answers carry a top-level warning (§7.3). */
interface InstanceNameMatch {
  readonly id: string;
  readonly fuzzy: boolean;
}

/** The ids of one provider table prepared once for matching (file order kept everywhere). */
export interface InstanceNameIndex {
  readonly ids: readonly string[];
  /** First id per trimmed id: the exact step (§7.2 step 2). */
  readonly exact: ReadonlyMap<string, string>;
  /** Canonical-form sets of each id, in file order (stage 1). */
  readonly forms: readonly (readonly [string, ReadonlySet<string>])[];
  /**
   * Stage 2/3 keys: lower-cased id with blanks and dashes as underscores. Like the reference's
   * dict, a later id with the same key replaces the earlier one but keeps its position.
   */
  readonly keys: ReadonlyMap<string, string>;
}

const STANDARD_PREFIX = "standard_";

/**
 * §7.4 canonical forms, in the order they are tried: the lower-cased trimmed name without an
 * Azure `standard_` prefix, its underscore form, its dash form and its form without separators
 * (dots are kept). The reference iterates a hash set (Appendix E.1); this order is deterministic.
 */
export function canonicalForms(name: string): string[] {
  let base = name.trim().toLowerCase();
  if (base.startsWith(STANDARD_PREFIX)) base = base.slice(STANDARD_PREFIX.length);
  const forms = [base, base.replace(/[ -]/g, "_"), base.replace(/[ _]/g, "-"), base.replace(/[ _-]/g, "")];
  return [...new Set(forms)];
}

function matchingKey(id: string): string {
  return id.toLowerCase().replace(/[ -]/g, "_");
}

export function instanceNameIndex(ids: readonly string[]): InstanceNameIndex {
  const exact = new Map<string, string>();
  const keys = new Map<string, string>();
  for (const id of ids) {
    const trimmed = id.trim();
    if (!exact.has(trimmed)) exact.set(trimmed, id);
    keys.set(matchingKey(id), id);
  }
  return { ids, exact, forms: ids.map((id) => [id, new Set(canonicalForms(id))] as const), keys };
}

/** rapidfuzz's normalized similarity: `1 − distance / maximum` (1 for two empty strings). */
function normalizedSimilarity(dist: number, maximum: number): number {
  return 1 - (maximum === 0 ? 0 : dist / maximum);
}

/** Normalized Hamming similarity of two strings of the same length. */
export function hammingSimilarity(a: string, b: string): number {
  let mismatches = 0;
  for (let i = 0; i < a.length; i++) if (a.charCodeAt(i) !== b.charCodeAt(i)) mismatches++;
  return normalizedSimilarity(mismatches, a.length);
}

/** Normalized Levenshtein similarity (unit costs; the distance comes from fuzzball). */
export function levenshteinSimilarity(a: string, b: string): number {
  return normalizedSimilarity(distance(a, b, { full_process: false }), Math.max(a.length, b.length));
}

interface Best {
  readonly id: string;
  readonly score: number;
}

/** Best key over every request form: strictly better scores win, the first best on ties. */
function bestAcrossForms(
  index: InstanceNameIndex,
  forms: readonly string[],
  score: (form: string, key: string) => number | null,
): Best | null {
  let best: Best | null = null;
  for (const form of forms) {
    let formBest: Best | null = null;
    for (const [key, id] of index.keys) {
      const s = score(form, key);
      if (s !== null && (formBest === null || s > formBest.score)) formBest = { id, score: s };
    }
    if (formBest && (best === null || formBest.score > best.score)) best = formBest;
  }
  return best;
}

/**
 * §7.2 steps 2–3 and §7.4. `threshold` is the edition's percentage (80), compared as a fraction.
 * Kept quirk (Appendix D.14): stage 2 accepts any equal-length key reaching the threshold before
 * a closer key of another length is considered (`a14xlarge` → `a1.xlarge`).
 */
export function matchInstanceName(
  index: InstanceNameIndex,
  requested: string,
  threshold: number,
): InstanceNameMatch | null {
  const exact = index.exact.get(requested.trim());
  if (exact !== undefined) return { id: exact, fuzzy: false };

  const forms = canonicalForms(requested);
  for (const [id, idForms] of index.forms) {
    if (forms.some((form) => idForms.has(form))) return { id, fuzzy: true };
  }

  const cutoff = threshold / 100;
  const hamming = bestAcrossForms(index, forms, (form, key) =>
    key.length === form.length ? hammingSimilarity(form, key) : null,
  );
  if (hamming && hamming.score >= cutoff) return { id: hamming.id, fuzzy: true };

  // The length difference bounds the similarity from above: keys that cannot reach the threshold
  // are not scored (they could neither be accepted nor beat an accepted best).
  const levenshtein = bestAcrossForms(index, forms, (form, key) => {
    const longest = Math.max(form.length, key.length);
    const bound = normalizedSimilarity(Math.abs(form.length - key.length), longest);
    return bound < cutoff ? null : levenshteinSimilarity(form, key);
  });
  if (levenshtein && levenshtein.score >= cutoff) return { id: levenshtein.id, fuzzy: true };
  return null;
}

/** §7.3: the top-level warning of a fuzzy match (flat: it is serialised in the answer, flatText.ts). */
export function fuzzyInstanceWarning(requested: string, matched: string): string {
  return flatText(`Instance '${requested}' not found; using closest match '${matched}' (fuzzy match)`);
}
