/**
 * Fuzzy string similarity with the rapidfuzz 3.x semantics the original service relies on (docs/methodology.md §11).
 *
 * Every score is an unrounded double in [0, 100]: the callers compare them against thresholds strictly
 * (`> 79.0`, `> 80`, `>= 90`), so the integer-rounded scores of JavaScript ports would change decisions.
 * The ratio formulas are implemented here, including the exact floating-point expression rapidfuzz uses
 * for each of them, over an Indel distance computed bit-parallel (`indelDistance`).
 *
 * Strings are compared as UTF-16 code units while rapidfuzz works on code points; the two only differ for
 * characters outside the Basic Multilingual Plane, which none of the reference data contains.
 */
/**
 * Number of insertions plus deletions turning `a` into `b` (case- and punctuation-sensitive), compared
 * as UTF-16 code units: `|a| + |b| − 2·LCS(a, b)`, as rapidfuzz computes it (no pre-processing, §11).
 *
 * The longest common subsequence is counted bit-parallel (one bit per character of the shorter
 * string, 32 to a word; each character of the longer one updates the words with one addition), so
 * one distance costs `|b| · ⌈|a|/32⌉` word operations instead of the `|a|·|b|` cells of a dynamic
 * programme (fuzzball's Levenshtein with substitutions costing 2, which gives the same numbers and
 * is the tests' reference): name matching scores every row of the CPU table, and with the dynamic
 * programme a 100-character name holds the event loop 15–20 ms per lookup.
 */
export function indelDistance(a: string, b: string): number {
  if (a === b) return 0;
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  if (shorter.length === 0) return longer.length;
  return a.length + b.length - 2 * lcsLength(shorter, longer);
}

const WORD = 32;

/**
 * LCS length by the bit-vector recurrence `V ← (V + (V & M[c])) | (V & ~M[c])` over the characters
 * `c` of `text`, `M[c]` the positions of `c` in `pattern`, `V` starting all ones: the LCS is the
 * number of zero bits among the pattern's positions at the end. `V & M[c]` is a subset of `V`, so
 * the subtraction of the usual formulation is a mask and only the addition carries between words.
 */
function lcsLength(pattern: string, text: string): number {
  return pattern.length <= WORD ? lcsLengthOneWord(pattern, text) : lcsLengthWords(pattern, text);
}

/**
 * Position masks of a pattern of at most 32 code units, by code unit: a scratch table filled for
 * one call and cleared before it returns (the computation is synchronous, so calls never
 * overlap), which spares an allocation per distance — the windows of `partial_ratio` ask for many
 * short ones.
 */
const ONE_WORD_MASKS = new Uint32Array(0x10000);

/** `lcsLength` of a pattern that fits one word. */
function lcsLengthOneWord(pattern: string, text: string): number {
  const m = pattern.length;
  for (let i = 0; i < m; i++) ONE_WORD_MASKS[pattern.charCodeAt(i)] |= 1 << i;
  let v = 0xffffffff;
  for (let j = 0; j < text.length; j++) {
    const matched = (v & ONE_WORD_MASKS[text.charCodeAt(j)]) >>> 0;
    v = ((v + matched) >>> 0) | (v & ~matched);
  }
  for (let i = 0; i < m; i++) ONE_WORD_MASKS[pattern.charCodeAt(i)] = 0;
  let lcs = 0;
  for (let i = 0; i < m; i++) if ((v & (1 << i)) === 0) lcs++;
  return lcs;
}

/** `lcsLength` of a longer pattern, 32 positions per word. */
function lcsLengthWords(pattern: string, text: string): number {
  const words = Math.ceil(pattern.length / WORD);
  const masks = new Map<number, Uint32Array>();
  for (let i = 0; i < pattern.length; i++) {
    const code = pattern.charCodeAt(i);
    let mask = masks.get(code);
    if (!mask) {
      mask = new Uint32Array(words);
      masks.set(code, mask);
    }
    mask[i >>> 5] |= 1 << (i & 31);
  }
  const v = new Uint32Array(words).fill(0xffffffff);
  for (let j = 0; j < text.length; j++) {
    const mask = masks.get(text.charCodeAt(j));
    // A character absent from the pattern leaves V unchanged.
    if (!mask) continue;
    let carry = 0;
    for (let w = 0; w < words; w++) {
      const vw = v[w];
      const matched = (vw & mask[w]) >>> 0;
      const sum = vw + matched + carry;
      carry = sum > 0xffffffff ? 1 : 0;
      v[w] = (sum >>> 0) | (vw & ~matched);
    }
  }
  let lcs = 0;
  for (let i = 0; i < pattern.length; i++) if ((v[i >>> 5] & (1 << (i & 31))) === 0) lcs++;
  return lcs;
}

/**
 * rapidfuzz's normalized Indel similarity scaled to percent: `(1 − dist/lensum) · 100`. Used by `ratio`
 * and by the windows of `partial_ratio` (rapidfuzz `CachedRatio::similarity`).
 */
function similarityPercent(dist: number, lensum: number): number {
  return lensum === 0 ? 100 : (1 - dist / lensum) * 100;
}

/**
 * rapidfuzz's `norm_distance` used inside `token_set_ratio`: `100 − 100·dist/lensum`. It differs from
 * `similarityPercent` in the last bit for some inputs (e.g. dist/lensum = 1/3), which matters when a
 * score lands exactly on a threshold, so both expressions are kept.
 */
function normDistancePercent(dist: number, lensum: number): number {
  return lensum === 0 ? 100 : 100 - (100 * dist) / lensum;
}

/** §11: `ratio(s, t) = 100·(1 − Indel(s, t)/(|s| + |t|))`; two empty strings score 100. */
export function ratio(s: string, t: string): number {
  return similarityPercent(indelDistance(s, t), s.length + t.length);
}

/**
 * Python's `str.split()` separators (`str.isspace`), which rapidfuzz also uses in C++. JavaScript's `\s`
 * differs: it includes U+FEFF and lacks U+001C–U+001F and U+0085.
 */
function isPythonWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d) || (code >= 0x1c && code <= 0x1f);
  if (code < 0x85) return false;
  return (
    code === 0x85 ||
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000
  );
}

/** §11: tokens are the maximal runs of non-whitespace, in order of appearance (duplicates kept). */
export function tokenize(s: string): string[] {
  const tokens: string[] = [];
  let start = -1;
  for (let i = 0; i < s.length; i++) {
    if (isPythonWhitespace(s.charCodeAt(i))) {
      if (start >= 0) {
        tokens.push(s.slice(start, i));
        start = -1;
      }
    } else if (start < 0) {
      start = i;
    }
  }
  if (start >= 0) tokens.push(s.slice(start));
  return tokens;
}

/**
 * Tokenisation of one string, reusable across many comparisons (e.g. the ~1800 `cpu_specs.csv` names scored
 * against each query, §11.1).
 */
export interface TokenProfile {
  /** All tokens (duplicates kept) sorted and joined by one space: `sorted(s)` of §11. */
  readonly sorted: string;
  /** Number of tokens, duplicates included. */
  readonly tokenCount: number;
  /** Distinct tokens in sorted order. */
  readonly unique: readonly string[];
  /** The distinct tokens as a set, for membership tests. */
  readonly set: ReadonlySet<string>;
}

/** Builds the reusable token profile of `s` (plain JS sort: UTF-16 order, code-point order within the BMP). */
export function prepareTokens(s: string): TokenProfile {
  const tokens = tokenize(s).sort();
  const unique: string[] = [];
  for (const token of tokens) {
    if (unique.length === 0 || unique[unique.length - 1] !== token) unique.push(token);
  }
  return { sorted: tokens.join(" "), tokenCount: tokens.length, unique, set: new Set(unique) };
}

/** Length of `tokens.join(" ")` without building the string. */
function joinedLength(tokens: readonly string[]): number {
  let length = tokens.length > 0 ? tokens.length - 1 : 0;
  for (const token of tokens) length += token.length;
  return length;
}

function sharesToken(a: TokenProfile, b: TokenProfile): boolean {
  const [small, large] = a.unique.length <= b.unique.length ? [a, b] : [b, a];
  for (const token of small.unique) if (large.set.has(token)) return true;
  return false;
}

/** §11: `token_sort_ratio(s, t) = ratio(sorted(s), sorted(t))`. */
export function tokenSortRatio(s: string, t: string): number {
  return ratio(prepareTokens(s).sorted, prepareTokens(t).sorted);
}

/**
 * `token_set_ratio` on prepared profiles (rapidfuzz `fuzz_detail::token_set_ratio`, §11).
 *
 * The three ratios of §11 are obtained without building `sect + " " + ab` and `sect + " " + ba`: both
 * strings share the prefix `sect + " "`, so their Indel distance is the one between `ab` and `ba`, and the
 * distance from `sect` to `sect + " " + x` is `1 + |x|`. Scores use rapidfuzz's `100 − 100·d/L` form.
 */
export function tokenSetRatioPrepared(a: TokenProfile, b: TokenProfile): number {
  // rapidfuzz returns 0 when either side has no token (fuzzywuzzy compatibility).
  if (a.unique.length === 0 || b.unique.length === 0) return 0;

  const intersection: string[] = [];
  const diffAB: string[] = [];
  for (const token of a.unique) (b.set.has(token) ? intersection : diffAB).push(token);
  const diffBA = b.unique.filter((token) => !a.set.has(token));

  // One token set contains the other: the "subset rule" that makes `i7-8565U` match `Intel Core i7-8565U`.
  if (intersection.length > 0 && (diffAB.length === 0 || diffBA.length === 0)) return 100;

  const abJoined = diffAB.join(" ");
  const baJoined = diffBA.join(" ");
  const sectLen = joinedLength(intersection);
  const separator = sectLen > 0 ? 1 : 0;
  const sectAbLen = sectLen + separator + abJoined.length;
  const sectBaLen = sectLen + separator + baJoined.length;

  const result = normDistancePercent(indelDistance(abJoined, baJoined), sectAbLen + sectBaLen);
  if (sectLen === 0) return result;

  const sectAbRatio = normDistancePercent(separator + abJoined.length, sectLen + sectAbLen);
  const sectBaRatio = normDistancePercent(separator + baJoined.length, sectLen + sectBaLen);
  return Math.max(result, sectAbRatio, sectBaRatio);
}

/** §11: `token_set_ratio(s, t)` (token sets, subset rule, best of the three set-based ratios). */
export function tokenSetRatio(s: string, t: string): number {
  return tokenSetRatioPrepared(prepareTokens(s), prepareTokens(t));
}

/**
 * rapidfuzz `_partial_ratio_impl` for `needle.length <= haystack.length`: best similarity of the needle
 * against the haystack's prefixes shorter than the needle, every full-length window, and every suffix
 * (the windows "hanging over" either end). Windows whose outer character does not occur in the needle are
 * skipped as rapidfuzz does; that never changes the maximum, because dropping such a character keeps the
 * LCS and shortens the window.
 */
function partialRatioImpl(needle: string, haystack: string): number {
  const len1 = needle.length;
  const len2 = haystack.length;
  // Code units, like the indices below (a string's own iterator would yield code points).
  const needleChars = new Set<number>();
  for (let i = 0; i < len1; i++) needleChars.add(needle.charCodeAt(i));
  let best = 0;

  const consider = (window: string): boolean => {
    const score = ratio(needle, window);
    if (score > best) best = score;
    return best === 100;
  };

  for (let i = 1; i < len1; i++) {
    if (!needleChars.has(haystack.charCodeAt(i - 1))) continue;
    if (consider(haystack.slice(0, i))) return 100;
  }
  for (let i = 0; i < len2 - len1; i++) {
    if (!needleChars.has(haystack.charCodeAt(i + len1 - 1))) continue;
    if (consider(haystack.slice(i, i + len1))) return 100;
  }
  for (let i = len2 - len1; i < len2; i++) {
    if (!needleChars.has(haystack.charCodeAt(i))) continue;
    if (consider(haystack.slice(i))) return 100;
  }
  return best;
}

/**
 * §11 / rapidfuzz `partial_ratio`: the shorter string is aligned against the longer one (ties: the first
 * argument is the needle). With equal lengths rapidfuzz also tries the other direction, so the result can
 * exceed `ratio` (e.g. `abcd` vs `bcde` scores 85.71 through the overhanging windows).
 */
export function partialRatio(s: string, t: string): number {
  if (s.length === 0 || t.length === 0) return s.length === t.length ? 100 : 0;
  const [shorter, longer] = s.length <= t.length ? [s, t] : [t, s];
  const score = partialRatioImpl(shorter, longer);
  if (score !== 100 && s.length === t.length) return Math.max(score, partialRatioImpl(longer, shorter));
  return score;
}

/**
 * §11: 100 when the token sets share a token; otherwise the best `partial_ratio` of the sorted token lists
 * and of the sorted set differences (these only differ when a string repeats a token).
 */
export function partialTokenRatio(s: string, t: string): number {
  const a = prepareTokens(s);
  const b = prepareTokens(t);
  if (sharesToken(a, b)) return 100;
  const result = partialRatio(a.sorted, b.sorted);
  if (a.tokenCount === a.unique.length && b.tokenCount === b.unique.length) return result;
  return Math.max(result, partialRatio(a.unique.join(" "), b.unique.join(" ")));
}

const UNBASE_SCALE = 0.95;

/**
 * §11 / rapidfuzz `WRatio`, case-sensitive. The multiplications keep rapidfuzz's evaluation order
 * (`partial_token_ratio · 0.95 · scale`) so products round identically.
 */
export function wRatio(s: string, t: string): number {
  if (s.length === 0 || t.length === 0) return 0;
  const lenRatio = s.length > t.length ? s.length / t.length : t.length / s.length;
  const base = ratio(s, t);

  if (lenRatio < 1.5) {
    const a = prepareTokens(s);
    const b = prepareTokens(t);
    const tokenRatio = Math.max(tokenSetRatioPrepared(a, b), ratio(a.sorted, b.sorted));
    return Math.max(base, tokenRatio * UNBASE_SCALE);
  }

  const partialScale = lenRatio < 8 ? 0.9 : 0.6;
  const withPartial = Math.max(base, partialRatio(s, t) * partialScale);
  return Math.max(withPartial, partialTokenRatio(s, t) * UNBASE_SCALE * partialScale);
}

/** Result of `extractOne`: the accepted candidate, its WRatio score and its position in the input list. */
interface ExtractResult {
  match: string;
  score: number;
  index: number;
}

/**
 * §11.2 `process.extractOne` with the WRatio scorer: the best-scoring candidate, the first one on ties,
 * accepted only when its score is strictly greater than `cutoff` (callers pass 79.0). `query` is the first
 * argument of every comparison, as in rapidfuzz.
 */
export function extractOne(
  query: string,
  candidates: readonly string[],
  cutoff: number,
): ExtractResult | null {
  let bestIndex = -1;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (let index = 0; index < candidates.length; index++) {
    const score = wRatio(query, candidates[index]);
    if (score > bestScore) {
      bestScore = score;
      bestIndex = index;
      // Nothing can beat 100 strictly, and ties keep the first candidate.
      if (score === 100) break;
    }
  }
  if (bestIndex < 0 || !(bestScore > cutoff)) return null;
  return { match: candidates[bestIndex], score: bestScore, index: bestIndex };
}
