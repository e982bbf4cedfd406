/**
 * Rounding of impacts (docs/methodology.md §12), reproducing the original's floating-point behaviour step by step:
 * half-up significant-figure rounding `r_p`, Python's half-even `round()`, the uncertainty-driven rounding
 * of an impact value and the original's way of counting significant digits.
 */

/** §12.3: warning attached to an impact whose value rounds to 0 at the uncertainty's magnitude. */
export const UNCERTAINTY_WARNING =
  "Uncertainty from technical characteristics is very important. Results should be interpreted with caution (see min and max values)";

/**
 * The rounding settings of an edition (§12): `uncertainty` (per cent of the range that sets the
 * rounding magnitude), `maxSigFig` (figures of min and max, and at most of the value) and
 * `minSigFig` (the fallback precision when the uncertainty swallows the value). An edition's
 * settings (`config.yml`, compiled-in settings, an EDITIONS_FILE entry) give them.
 */
export interface RoundingPrecision {
  readonly uncertainty: number;
  readonly maxSigFig: number;
  readonly minSigFig: number;
}

/** The values of the production `config.yml` and of 2.4.1's settings: 10 %, 4 and 1 figures. */
export const DEFAULT_PRECISION: RoundingPrecision = { uncertainty: 10, maxSigFig: 4, minSigFig: 1 };

/**
 * `10^k` as the correctly rounded double, which is what the C library's `pow(10, k)` returns and what
 * the original relies on (§12.2). `10 ** k` is not guaranteed to be correctly rounded in JavaScript.
 */
function pow10(k: number): number {
  return k >= -POW10_OFFSET && k < POW10_OFFSET ? POW10[k + POW10_OFFSET] : Number(`1e${k}`);
}

/** Exactly rounded powers of ten 1e-340 … 1e339, parsed once (hot in every rounding). */
const POW10_OFFSET = 340;
const POW10: readonly number[] = Array.from({ length: 2 * POW10_OFFSET }, (_, i) =>
  Number(`1e${i - POW10_OFFSET}`),
);

/**
 * The double nearest to the decimal `digits × 10^exponent` for an integer-valued `digits`. This is the
 * correctly rounded product/quotient that Python's exact integer arithmetic yields once converted to float.
 */
function scaledInteger(digits: number, exponent: number): number {
  // Fast exact paths: 10^k is exact up to k = 22, a product of exact integers below 2^53 is exact,
  // and IEEE division of exact values is correctly rounded.
  if (Math.abs(digits) <= Number.MAX_SAFE_INTEGER && exponent >= -22 && exponent <= 22) {
    if (exponent < 0) return digits / POW10[POW10_OFFSET - exponent];
    const product = digits * POW10[POW10_OFFSET + exponent];
    if (Math.abs(product) <= Number.MAX_SAFE_INTEGER) return product;
  }
  // Plain integer notation is only guaranteed below 1e21; beyond that fall back to floating arithmetic.
  if (Math.abs(digits) >= 1e21) return exponent >= 0 ? digits * pow10(exponent) : digits / pow10(-exponent);
  return Number(`${digits}e${exponent}`);
}

/**
 * §12.2 `r_p(x)`: round to `p` significant figures, ties (as measured in floating point) going up in
 * magnitude. Emulates the original's port of WebKit's `toPrecision` including its quirks: `trunc(log10)`
 * overestimates the exponent below 1, which step 2 corrects, and step 4 absorbs a carry into a new digit.
 */
export function roundSigFig(x: number, p: number): number {
  if (x === 0) return 0;
  const magnitude = Math.abs(x);
  let e = Math.trunc(Math.log10(magnitude));
  let t = pow10(e - p + 1);
  // Below about 1e-320 the unit 10^(e−p+1) is no double: the original divides by zero there (an
  // HTTP 500). The value is given to p figures of its exact decimal instead.
  if (t === 0) return Number(x.toPrecision(p));
  let n = Math.floor(magnitude / t);
  if (n < pow10(p - 1)) {
    e -= 1;
    t = pow10(e - p + 1);
    if (t === 0) return Number(x.toPrecision(p));
    n = Math.floor(magnitude / t);
  }
  if (Math.abs((n + 1) * t - magnitude) <= Math.abs(n * t - magnitude)) n += 1;
  if (n >= pow10(p)) {
    n /= 10;
    e += 1;
  }
  // The original prints the digits and parses them back: the double nearest to n × 10^(e−p+1).
  const rounded = scaledInteger(n, e - p + 1);
  return x < 0 ? -rounded : rounded;
}

/**
 * Python's `round(x)` (§12.3): nearest integer, exact ties to even (`0.5 → 0`, `2.5 → 2`, `−2.5 → −2`).
 * `Math.round` sends ties towards +∞ and must not be used. Returns +0 rather than −0, like Python's int.
 */
export function roundHalfEven(x: number): number {
  if (!Number.isFinite(x)) return x;
  // `x % 1` is exact, so a tie is detected exactly; `x / 2` is exact too (no subnormals at this scale).
  const rounded = Math.abs(x % 1) === 0.5 ? 2 * Math.round(x / 2) : Math.round(x);
  return rounded + 0;
}

/**
 * §12.4 rescaling of `|x| < 1`: with `q = 10^k` the smallest of 1e-9, 1e-8, … that does not divide `x`
 * exactly (decimal arithmetic on the shortest repr), return `x · 10^(1−k)` converted back to a double.
 * The shortest repr is read from `String(x)` (`0.00012`, `1.2e-7`) in one pass of its characters, its
 * digits gathered as an integer `d` (exact below 2^53) and its exponent `e`, `x = d × 10^e`: hot in
 * every rounding of a value below 1 without a range. A repr whose digits pass 2^53 (some of 16
 * digits, most of 17) takes the text path.
 */
function rescaleBelowOne(x: number): number {
  if (!(x > 0 && Number.isFinite(x))) throw new RangeError(`Not a finite positive number: ${x}`);
  const text = String(x);
  let digits = 0;
  let fractionLength = 0;
  let afterPoint = false;
  let exponent = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 0x2e) afterPoint = true;
    else if (code === 0x65) {
      exponent = Number(text.slice(i + 1));
      break;
    } else {
      digits = digits * 10 + (code - 0x30);
      if (afterPoint) fractionLength++;
    }
  }
  if (digits > Number.MAX_SAFE_INTEGER) return rescaleFromText(text);
  exponent -= fractionLength;
  // Trailing zeros move into the exponent (exact: digits is an integer below 2^53).
  while (digits % 10 === 0) {
    digits /= 10;
    exponent++;
  }
  // 10^k divides digits × 10^exponent (digits without trailing zeros) exactly iff k <= exponent.
  const k = Math.max(-9, exponent + 1);
  // The double nearest to digits × 10^(exponent + 1 − k), as parsing that decimal gives it.
  return scaledInteger(digits, exponent + 1 - k);
}

/** `rescaleBelowOne` of a repr whose digits do not fit a double exactly, on its text. */
function rescaleFromText(text: string): number {
  const e = text.indexOf("e");
  const mantissa = e === -1 ? text : text.slice(0, e);
  const point = mantissa.indexOf(".");
  const fractionLength = point === -1 ? 0 : mantissa.length - point - 1;
  const all = point === -1 ? mantissa : mantissa.slice(0, point) + mantissa.slice(point + 1);
  let first = 0;
  while (first < all.length && all.charCodeAt(first) === 0x30) first++;
  let end = all.length;
  while (end > first && all.charCodeAt(end - 1) === 0x30) end--;
  const exponent = (e === -1 ? 0 : Number(text.slice(e + 1))) - fractionLength + (all.length - end);
  const significant = all.slice(first, end);
  const k = Math.max(-9, exponent + 1);
  const scale = exponent + 1 - k;
  return scale === 0 ? Number(significant) : Number(`${significant}e${scale}`);
}

/**
 * §12.4 `significant_count(x)` exactly as the original measures it (a 14-digit fixed-point view of the
 * fractional part, after rescaling numbers below 1). It can disagree with a mathematical digit count
 * (float noise beyond 14 digits is ignored); §12.3 depends on this very count.
 */
export function significantCount(x: number): number {
  if (x === 0) return 0;
  const m = Math.abs(x);
  return fixedPointCount(m < 1 ? rescaleBelowOne(m) : m);
}

/** The smallest positive normal double: below it a double holds fewer than 15 significant digits. */
const MIN_NORMAL = 2.2250738585072014e-308;

/**
 * `significantCount(x)` for `x`, the double nearest to `n × 10^s` (an integer `n`), as
 * `scaledInteger(n, s)` makes it: the shortest decimal of a normal double that is the nearest to
 * a decimal of at most 15 significant digits is that decimal (no other decimal of that length or
 * shorter rounds to the same double), so the rescaling of §12.4 reads `n`'s digits instead of
 * printing `x`. Any other case is `significantCount(x)` itself. Hot: every rounded impact value.
 */
export function significantCountOfScaled(x: number, n: number, s: number): number {
  const m = Math.abs(x);
  if (x === 0 || m >= 1 || m < MIN_NORMAL || !(Math.abs(n) < 1e15)) return significantCount(x);
  let digits = Math.abs(n);
  let exponent = s;
  while (digits % 10 === 0) {
    digits /= 10;
    exponent++;
  }
  // As rescaleBelowOne: 10^k (k >= -9) divides digits × 10^exponent exactly iff k <= exponent.
  const k = Math.max(-9, exponent + 1);
  return fixedPointCount(scaledInteger(digits, exponent + 1 - k));
}

/** §12.4's count of a positive number after its rescaling: the 14-digit fixed-point view. */
function fixedPointCount(m: number): number {
  const i = Math.trunc(m);
  const mag = i === 0 ? 1 : Math.floor(Math.log10(i)) + 1;
  if (mag >= 14) return mag;
  const scale = pow10(14 - mag);
  let f = scale + Math.trunc(scale * (m - i) + 0.5);
  while (f % 10 === 0) f /= 10;
  return mag + Math.floor(Math.log10(f));
}

/** The original rejects an impact whose max is below its min (HTTP 500, §12.3 step 1). */
export class ImpactRangeError extends Error {
  constructor(
    readonly value: number,
    readonly min: number,
    readonly max: number,
  ) {
    super(`Impact max (${max}) is lower than its min (${min}) for value ${value}`);
    this.name = "ImpactRangeError";
  }
}

/** A rounded impact triple plus the warnings the rounding produced (sorted in code-point order). */
export interface RoundedImpact {
  value: number;
  min: number;
  max: number;
  warnings: string[];
}

/**
 * §12.3: the uncertainty Δ = (max − min)/(100/uncertainty) of an impact's range, which sets the
 * value's rounding magnitude.
 * @throws ImpactRangeError when `vmax < vmin`.
 */
function uncertaintyOf(v: number, vmin: number, vmax: number, precision: RoundingPrecision): number {
  if (vmax < vmin) throw new ImpactRangeError(v, vmin, vmax);
  return (vmax - vmin) / (100 / precision.uncertainty);
}

/** Below this magnitude the rescaling of §12.4 stops at 1e-9 and its count reads leading zeros. */
const LEAST_PLAIN_BELOW_ONE = 1e-10;

/**
 * §12.3 for an impact without a range (Δ = 0, most components' impacts) and `1e-10 <= |v| < 1`: the
 * value is `r_p(v)` (p = `maxSigFig` <= 13) in every case the count of §12.4 decides without printing
 * `v`; null when it must be counted. Why: the count keeps `v` when at most `p` figures, and `v` then
 * is the double nearest to a decimal of at most `p` figures, so `r_p(v) = v`; otherwise it rounds to
 * `r_p(v)`. A count above `p` is certain when `v` is more than 1e-11 of itself away from `r_p(v)`:
 * the count of a repr ending at 1e-10 or above is its number of figures (a decimal of more than `p`
 * figures there differs from its `p`-figure rounding by 1e-10 of itself at least); a longer repr is
 * rescaled to a number of at least one integer digit whose 14-digit fixed-point view keeps at most
 * `p` figures only within 5e-14 of itself of a `p`-figure decimal. In between (5e-14 to 1e-11, or
 * below 1e-10, where the count reads leading zeros), it is counted.
 */
function roundedWithoutRange(v: number, maxSigFig: number): number | null {
  const m = Math.abs(v);
  if (!(m >= LEAST_PLAIN_BELOW_ONE && m < 1) || maxSigFig > 13) return null;
  const rounded = roundSigFig(v, maxSigFig);
  return rounded === v || Math.abs(v - rounded) > 1e-11 * m ? rounded : null;
}

/** §12.3: the rounded value with min and max rounded to `maxSigFig` figures, whatever the value's rounding. */
function withRoundedRange(
  value: number,
  vmin: number,
  vmax: number,
  maxSigFig: number,
  warnings: string[],
  /** `vmin` rounded to `maxSigFig` figures, when the caller has it already. */
  min: number = roundSigFig(vmin, maxSigFig),
): RoundedImpact {
  // An impact without a range (most components' impacts) rounds its one bound once.
  return { value, min, max: vmax === vmin ? min : roundSigFig(vmax, maxSigFig), warnings };
}

/**
 * §12.3 for an impact without a range whose value `roundedWithoutRange` knows without printing it
 * (no warning: the value is not 0); null for any other impact.
 * @throws ImpactRangeError when `vmax < vmin`.
 */
function roundedAtOnce(
  v: number,
  vmin: number,
  vmax: number,
  precision: RoundingPrecision,
): RoundedImpact | null {
  if (uncertaintyOf(v, vmin, vmax, precision) !== 0) return null;
  const value = roundedWithoutRange(v, precision.maxSigFig);
  if (value === null) return null;
  // The value is v rounded to maxSigFig figures: the bound's rounding when v is the bound.
  return withRoundedRange(value, vmin, vmax, precision.maxSigFig, [], vmin === v ? value : undefined);
}

/** How an edition rounds an impact triple (docs/methodology.md §12.3, docs/methodology.md §19.2). */
export type ImpactRounding = (
  v: number,
  vmin: number,
  vmax: number,
  precision?: RoundingPrecision,
) => RoundedImpact;

/**
 * An edition's rounding, preceded by `roundedAtOnce` for an impact without a range (both
 * editions round such an impact alike: no warning, the value kept or rounded as §12.4 counts).
 */
function atOnceWithoutRange(round: ImpactRounding): ImpactRounding {
  return (v, vmin, vmax, precision = DEFAULT_PRECISION) =>
    roundedAtOnce(v, vmin, vmax, precision) ?? round(v, vmin, vmax, precision);
}

/**
 * §12.3: round an impact value with its range. ρ keeps the digits above the uncertainty Δ: it is
 * rounded half-even at the magnitude `s = floor(log10 Δ)`, the correctly rounded decimal
 * `n × 10^s` with `n = round(v/10^s)` (what the original's exact integer power, s > 0, or division
 * by the exact integer `10^(−s)`, s ≤ 0, produce). The value keeps only those digits (at most
 * `maxSigFig`, 4, significant figures, counted from `n` and `s`); when that leaves 0, the raw value
 * is given to `minSigFig` (1) significant figure with the uncertainty warning. min and max are
 * rounded to `maxSigFig` figures.
 * @throws ImpactRangeError when `vmax < vmin`.
 */
export const roundImpact: ImpactRounding = atOnceWithoutRange(
  (v, vmin, vmax, precision = DEFAULT_PRECISION) => {
    const { maxSigFig, minSigFig } = precision;
    const delta = uncertaintyOf(v, vmin, vmax, precision);
    // ρ = n × 10^s; n is NaN while ρ is v itself (Δ = 0), which significantCountOfScaled reads as such.
    let rho = v;
    let n = Number.NaN;
    let s = 0;
    if (delta !== 0) {
      s = Math.floor(Math.log10(delta));
      // A magnitude below every double (Δ under about 1e-323) keeps every digit of v: ρ is v.
      if (pow10(s) !== 0) {
        n = roundHalfEven(v / pow10(s));
        rho = scaledInteger(n, s);
      }
    }
    const warnings: string[] = [];
    let value: number;
    if (significantCountOfScaled(rho, n, s) > maxSigFig) {
      value = roundSigFig(rho, maxSigFig);
    } else if (rho === 0) {
      warnings.push(UNCERTAINTY_WARNING);
      value = roundSigFig(v, minSigFig);
    } else {
      value = rho;
    }
    return withRoundedRange(value, vmin, vmax, maxSigFig, warnings.sort());
  },
);

/**
 * docs/methodology.md §19.2 ("less aggressive rounding"): as §12.3, but the rounding magnitude is capped at
 * the value's own order of magnitude, so the value keeps at least one significant figure (ties to
 * even: `2.5e4 → 20000`, a kept quirk, Appendix D.10). The uncertainty warning fires where it fired
 * before (the value rounds to 0 at the uncapped magnitude). Where the reference fails on a negative
 * value with a range (the logarithm of a negative number, Appendix D.9) the magnitude of |v| is used.
 * @throws ImpactRangeError when `vmax < vmin`.
 */
export const roundImpactCapped: ImpactRounding = atOnceWithoutRange(
  (v, vmin, vmax, precision = DEFAULT_PRECISION) => {
    const { maxSigFig, minSigFig } = precision;
    const delta = uncertaintyOf(v, vmin, vmax, precision);
    const warnings: string[] = [];
    let rho = v;
    // ρ = n × 10^s; n is NaN while ρ is v itself (Δ = 0), which significantCountOfScaled reads as such.
    let n = Number.NaN;
    let s = 0;
    if (delta !== 0) {
      const uncapped = Math.floor(Math.log10(delta));
      s = v === 0 ? uncapped : Math.min(uncapped, Math.floor(Math.log10(Math.abs(v))));
      // As in §12.3: a magnitude below every double keeps every digit of v.
      if (pow10(s) !== 0) {
        n = roundHalfEven(v / pow10(s));
        rho = scaledInteger(n, s);
      }
      if (v !== 0 && vmax > vmin && roundHalfEven(v / pow10(uncapped)) === 0)
        warnings.push(UNCERTAINTY_WARNING);
    }
    let value: number;
    if (rho === 0) {
      if (warnings.length === 0) warnings.push(UNCERTAINTY_WARNING);
      value = roundSigFig(v, minSigFig);
    } else {
      value = significantCountOfScaled(rho, n, s) > maxSigFig ? roundSigFig(rho, maxSigFig) : rho;
    }
    return withRoundedRange(value, vmin, vmax, maxSigFig, warnings);
  },
);
