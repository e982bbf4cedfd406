/**
 * CPU consumption profile (docs/methodology.md §5.3, §10).
 *
 * The power model is P(x) = a·ln(b·(x + c)) + d with x the load in percent. Parameters come from a table row, the
 * archetype default, or a bounded least-squares fit to workload points (§10.2, §10.3). The original fits with SciPy
 * `curve_fit` (Trust-Region-Reflective). `fitProfile` runs our own TRF implementation (`boundedLeastSquares`, written
 * from the published algorithm) so that the non-identifiable split of K = a·ln b + d into (b, d) lands where SciPy's
 * does, and takes the curve itself from a deterministic variable-projection fit (`fitProfileByProjection`).
 */

import { boundedLeastSquares } from "../numeric/boundedLeastSquares.js";

export interface ProfileParams {
  a: number;
  b: number;
  c: number;
  d: number;
}

export interface WorkloadPoint {
  loadPercentage: number;
  powerWatt: number;
}

/**
 * Raw model power a·ln(b·(x + c)) + d (§5.3). Deliberately unclamped: the caller applies the 1 W floor and emits the
 * §13 warning when the raw value falls below it.
 */
export function profilePower(params: ProfileParams, loadPercent: number): number {
  return params.a * Math.log(params.b * (loadPercent + params.c)) + params.d;
}

/**
 * The four synthetic workload points used when only a TDP `tdp` is known (§10.2 step 3). Multiplying the ratio by the
 * TDP (rather than the reverse) yields the same doubles as the original, e.g. 0.12·240 = 28.799999999999997.
 */
export function tdpWorkloads(tdp: number): WorkloadPoint[] {
  return [
    { loadPercentage: 0, powerWatt: 0.12 * tdp },
    { loadPercentage: 10, powerWatt: 0.32 * tdp },
    { loadPercentage: 50, powerWatt: 0.75 * tdp },
    { loadPercentage: 100, powerWatt: 1.02 * tdp },
  ];
}

interface Interval {
  lo: number;
  hi: number;
}

/**
 * `curve_fit` bounds of §10.3: [max(L, p − 2|p|), min(H, p + 2|p|)] with H = +∞, so the upper end is p + 2|p|.
 * L is 0 for a, b, c and −∞ for d.
 */
function boundsAround(p: number, lower: number): Interval {
  return { lo: Math.max(lower, p - 2 * Math.abs(p)), hi: p + 2 * Math.abs(p) };
}

function clamp(v: number, range: Interval): number {
  return Math.min(range.hi, Math.max(range.lo, v));
}

/**
 * The fit works in the identifiable coordinates (a, c, K) with K = a·ln b + d (§10.3). The box on (b, d) becomes, for
 * a given a ≥ 0, the interval K ∈ [a·ln b_lo + d_lo, a·ln b_hi + d_hi]. With b_lo = 0 (every positive b₀) the lower
 * end is −∞. Both ends are linear in a, so the feasible (a, K) set is a convex polygon and the inner problem of the
 * variable projection stays a convex quadratic programme.
 */
interface FitBounds {
  a: Interval;
  b: Interval;
  c: Interval;
  d: Interval;
  /** ln b_hi: slope of the upper K edge (K ≤ a·lnBHi + d_hi). */
  lnBHi: number;
  /** ln b_lo, −∞ when b_lo = 0 (no lower K edge for a > 0). */
  lnBLo: number;
}

function kRange(a: number, bounds: FitBounds): Interval {
  // a = 0 would give 0·(−∞); the closure of the feasible set there is (−∞, d_hi], which is what the limit b → 0
  // reaches, so only a finite ln b_lo contributes a lower edge.
  const lo = Number.isFinite(bounds.lnBLo) ? a * bounds.lnBLo + bounds.d.lo : Number.NEGATIVE_INFINITY;
  return { lo, hi: a * bounds.lnBHi + bounds.d.hi };
}

/** Result of the inner linear problem at a fixed c. */
interface InnerSolution {
  a: number;
  k: number;
  rss: number;
  /** d RSS / d c at the inner optimum (envelope theorem: the (a, K) constraints do not involve c). */
  slope: number;
}

interface Data {
  xs: number[];
  ys: number[];
  /** Number of distinct loads: 3 or more determine (a, c, K); fewer leave a solution manifold (§10.3). */
  distinct: number;
}

function residualSumOfSquares(data: Data, logs: number[], a: number, k: number): number {
  let rss = 0;
  for (let i = 0; i < data.ys.length; i++) {
    const r = data.ys[i] - a * logs[i] - k;
    rss += r * r;
  }
  return rss;
}

/**
 * Linear least squares for (a, K) in y ≈ a·u + K with u = ln(x + c), under a ∈ [a_lo, a_hi] and the K edges of
 * `kRange`. The objective is a convex quadratic on a convex polygon: its minimum is the unconstrained optimum when
 * that is feasible, otherwise the best of the 1-D minima on the edges (each the clamp of the unconstrained 1-D
 * minimiser onto the edge segment). When the u are all equal (a single distinct load) a is not determined and is held
 * at `aFixed`.
 */
function solveInner(data: Data, c: number, bounds: FitBounds, aFixed: number): InnerSolution {
  const n = data.ys.length;
  const logs = data.xs.map((x) => Math.log(x + c));
  let meanU = 0;
  let meanY = 0;
  for (let i = 0; i < n; i++) {
    meanU += logs[i];
    meanY += data.ys[i];
  }
  meanU /= n;
  meanY /= n;
  let suu = 0;
  let suy = 0;
  for (let i = 0; i < n; i++) {
    const du = logs[i] - meanU;
    suu += du * du;
    suy += du * (data.ys[i] - meanY);
  }

  const candidates: Array<{ a: number; k: number }> = [];
  const atFixedA = (a: number): void => {
    candidates.push({ a, k: clamp(meanY - a * meanU, kRange(a, bounds)) });
  };
  if (data.distinct < 2 || !(suu > 0)) {
    atFixedA(clamp(aFixed, bounds.a));
  } else {
    const a = suy / suu;
    const k = meanY - a * meanU;
    const kr = kRange(a, bounds);
    if (a >= bounds.a.lo && a <= bounds.a.hi && k >= kr.lo && k <= kr.hi) {
      candidates.push({ a, k });
    } else {
      atFixedA(bounds.a.lo);
      atFixedA(bounds.a.hi);
      // Edge K = a·s + t: y − t ≈ a·(u + s), a one-parameter regression through the origin.
      const edge = (s: number, t: number): void => {
        let sww = 0;
        let swy = 0;
        for (let i = 0; i < n; i++) {
          const w = logs[i] + s;
          sww += w * w;
          swy += w * (data.ys[i] - t);
        }
        const ae = clamp(sww > 0 ? swy / sww : aFixed, bounds.a);
        candidates.push({ a: ae, k: ae * s + t });
      };
      edge(bounds.lnBHi, bounds.d.hi);
      if (Number.isFinite(bounds.lnBLo)) edge(bounds.lnBLo, bounds.d.lo);
    }
  }

  let best = candidates[0];
  let bestRss = residualSumOfSquares(data, logs, best.a, best.k);
  for (let j = 1; j < candidates.length; j++) {
    const rss = residualSumOfSquares(data, logs, candidates[j].a, candidates[j].k);
    if (rss < bestRss) {
      best = candidates[j];
      bestRss = rss;
    }
  }
  let slope = 0;
  for (let i = 0; i < n; i++) {
    slope += (data.ys[i] - best.a * logs[i] - best.k) / (data.xs[i] + c);
  }
  return { a: best.a, k: best.k, rss: bestRss, slope: -2 * best.a * slope };
}

const GRID_INTERVALS = 64;
const GOLDEN = (Math.sqrt(5) - 1) / 2;

/**
 * Minimises the profiled RSS(c) over [cLo, cHi]: a uniform grid locates the basin, then the sign change of
 * dRSS/dc is bisected to full double precision (the RSS itself is flat to √ε near its minimum, its derivative is
 * not). Golden-section search on RSS is the fallback when the grid minimum is not bracketed by a sign change.
 * Deterministic, and about 130 inner solves of a handful of points: a few microseconds per fit.
 */
function searchC(data: Data, cRange: Interval, bounds: FitBounds, aFixed: number): number {
  const { lo: cLo, hi: cHi } = cRange;
  if (!(cHi > cLo)) return cLo;
  const at = (i: number): number => (i === GRID_INTERVALS ? cHi : cLo + ((cHi - cLo) * i) / GRID_INTERVALS);
  let bestIndex = 0;
  let bestRss = Number.POSITIVE_INFINITY;
  for (let i = 0; i <= GRID_INTERVALS; i++) {
    const rss = solveInner(data, at(i), bounds, aFixed).rss;
    if (rss < bestRss) {
      bestRss = rss;
      bestIndex = i;
    }
  }
  let lo = at(Math.max(0, bestIndex - 1));
  let hi = at(Math.min(GRID_INTERVALS, bestIndex + 1));
  const slopeLo = solveInner(data, lo, bounds, aFixed).slope;
  const slopeHi = solveInner(data, hi, bounds, aFixed).slope;
  if (bestIndex === 0 && slopeLo >= 0) return cLo;
  if (bestIndex === GRID_INTERVALS && slopeHi <= 0) return cHi;
  if (slopeLo < 0 && slopeHi > 0) {
    for (let iter = 0; iter < 200; iter++) {
      const mid = 0.5 * (lo + hi);
      if (mid <= lo || mid >= hi) break;
      const s = solveInner(data, mid, bounds, aFixed).slope;
      if (s === 0) return mid;
      if (s < 0) lo = mid;
      else hi = mid;
    }
    const rssLo = solveInner(data, lo, bounds, aFixed).rss;
    const rssHi = solveInner(data, hi, bounds, aFixed).rss;
    return rssHi < rssLo ? hi : lo;
  }
  // Fallback: golden-section search on the RSS itself.
  let x1 = hi - GOLDEN * (hi - lo);
  let x2 = lo + GOLDEN * (hi - lo);
  let f1 = solveInner(data, x1, bounds, aFixed).rss;
  let f2 = solveInner(data, x2, bounds, aFixed).rss;
  for (let iter = 0; iter < 100 && hi - lo > 1e-12 * Math.max(1, Math.abs(lo)); iter++) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - GOLDEN * (hi - lo);
      f1 = solveInner(data, x1, bounds, aFixed).rss;
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + GOLDEN * (hi - lo);
      f2 = solveInner(data, x2, bounds, aFixed).rss;
    }
  }
  return f1 <= f2 ? x1 : x2;
}

/**
 * Splits K = a·ln b + d into (b, d) inside their bounds.
 *
 * Only K is determined by the data; SciPy's (b, d) is wherever TRF drifted along the flat direction
 * (Δd = −a·Δb/b), and that drift is driven by finite-difference noise: perturbing the workload by 1e-13 already moves
 * SciPy's d in the 3rd digit (§10.3, "two SciPy versions already disagree"). No rule can reproduce those digits, so
 * we pick a simple one: keep d at d₀ and let b absorb K. Compared with the alternative "keep b = b₀, move d" (which
 * for TDP fits pushes d onto its bound in almost every case), this stays close to what TRF returns: b within a few
 * percent for the Xeon Platinum/default bases and within ~0.5 % for Xeon Gold. If b would leave its bounds it is
 * clamped and d takes up the rest (still inside its bounds because K is feasible).
 */
function splitK(a: number, k: number, start: ProfileParams, bounds: FitBounds): { b: number; d: number } {
  const bPositive: Interval = { lo: Math.max(bounds.b.lo, Number.MIN_VALUE), hi: bounds.b.hi };
  if (!(a > 0)) {
    // Constant curve: b plays no role, d carries the level.
    return { b: clamp(start.b, bPositive), d: clamp(k, bounds.d) };
  }
  const d0 = clamp(start.d, bounds.d);
  const b = Math.exp((k - d0) / a);
  if (b >= bPositive.lo && b <= bPositive.hi) return { b, d: d0 };
  const bClamped = clamp(b, bPositive);
  return { b: bClamped, d: clamp(k - a * Math.log(bClamped), bounds.d) };
}

/**
 * Variable-projection fit of power(w) = a·ln(b·(w + c)) + d to workload points, starting from `start`
 * (the base model, §10.2), with the `curve_fit` bounds of §10.3. Gives the optimal curve; its (b, d) split (keep
 * d = d₀) is not SciPy's — `fitProfile` uses it as the curve reference and fallback.
 *
 * Identifiability: a·ln(b·(x + c)) + d = a·ln(x + c) + K with K = a·ln b + d, so only (a, c, K), i.e. the curve, is
 * determined by the data (given ≥ 3 distinct loads); (b, d) are a choice along a one-dimensional manifold (`splitK`).
 * We use variable projection (§10.3 recommendation): for a trial c, (a, K) solve a linear least-squares problem
 * (with a and the induced K edges as constraints), and the profiled RSS is minimised over c ∈ [c_lo, c_hi]. SciPy
 * returns a local optimum reached from p₀; on every checked case it is the same curve as this global 1-D search.
 *
 * Degenerate inputs (SciPy's answer is then an arbitrary point of a solution manifold, §10.3):
 * - 2 distinct loads: c is held at c₀ (clamped into its bounds) and (a, K) are solved, so the curve interpolates
 *   both points when the bounds allow;
 * - 1 distinct load: c = c₀ and a = a₀ (clamped), K is the mean residual;
 * - no usable point (non-finite values are ignored), or bounds that leave no valid model (b_hi ≤ 0, or no c in its
 *   bounds with x + c > 0 for every load): `start` is returned unchanged.
 */
export function fitProfileByProjection(
  points: readonly WorkloadPoint[],
  start: ProfileParams,
): ProfileParams {
  const usable = points.filter((p) => Number.isFinite(p.loadPercentage) && Number.isFinite(p.powerWatt));
  const { a: a0, b: b0, c: c0, d: d0 } = start;
  if (usable.length === 0 || ![a0, b0, c0, d0].every(Number.isFinite)) return { ...start };

  const b = boundsAround(b0, 0);
  if (!(b.hi > 0)) return { ...start };
  const bounds: FitBounds = {
    a: boundsAround(a0, 0),
    b,
    c: boundsAround(c0, 0),
    d: boundsAround(d0, Number.NEGATIVE_INFINITY),
    lnBHi: Math.log(b.hi),
    lnBLo: b.lo > 0 ? Math.log(b.lo) : Number.NEGATIVE_INFINITY,
  };

  const xs = usable.map((p) => p.loadPercentage);
  const ys = usable.map((p) => p.powerWatt);
  const data: Data = { xs, ys, distinct: new Set(xs).size };

  // ln(x + c) needs x + c > 0 for every point. With c_lo = 0 and a load of 0 the RSS is still finite in the limit,
  // so start a hair inside (TRF likewise keeps its iterates strictly feasible).
  const xMin = Math.min(...xs);
  const margin = 1e-9 * Math.max(1, Math.abs(bounds.c.hi), Math.abs(xMin));
  const cRange: Interval = { lo: Math.max(bounds.c.lo, -xMin + margin), hi: bounds.c.hi };
  if (!(cRange.hi >= cRange.lo)) return { ...start };

  let c = data.distinct >= 3 ? searchC(data, cRange, bounds, a0) : clamp(c0, cRange);
  const inner = solveInner(data, c, bounds, a0);
  // With a = 0 (flat or decreasing data pin a at its lower bound) the curve is the constant K and c is as
  // unidentifiable as b: report c₀ rather than wherever the search stopped on a flat RSS.
  if (inner.a === 0) c = clamp(c0, cRange);
  const { b: bFit, d: dFit } = splitK(inner.a, inner.k, start, bounds);
  return { a: inner.a, b: bFit, c, d: dFit };
}

/** Relative agreement of two fits' curves below which they are one optimum reached to different last digits. */
const SAME_CURVE = 1e-3;

function close(x: number, y: number): boolean {
  return Math.abs(x - y) <= SAME_CURVE * Math.max(Math.abs(x), Math.abs(y), 1e-9);
}

/** Same a, c and power at the loads the methodology reads (0, 10, 50, 100 %). */
function sameCurve(p: ProfileParams, q: ProfileParams): boolean {
  return (
    close(p.a, q.a) &&
    close(p.c, q.c) &&
    [0, 10, 50, 100].every((x) => close(profilePower(p, x), profilePower(q, x)))
  );
}

/**
 * Bounded least-squares fit of power(w) = a·ln(b·(w + c)) + d to workload points, starting from `start` (the base
 * model, §10.2), with the `curve_fit` bounds of §10.3, as SciPy computes it: Trust Region Reflective
 * (`boundedLeastSquares`) from p₀ with the residuals f(x; p) − y. Because b and d are not separately identifiable,
 * the reported (b, d) is wherever TRF's path ends on the solution manifold; following the same algorithm is what
 * reproduces SciPy's split (§10.3).
 *
 * With 3 or more distinct loads, where TRF has reached the variable-projection fit's curve (`fitProfileByProjection`,
 * same a, c and powers within 1e-3), that curve (a, c, K = a·ln b + d) is used, keeping TRF's b when the induced d
 * stays inside its bounds; where TRF stops on another curve (flat data, c pinned at its 0 bound), TRF's point is
 * returned, because it is what SciPy answers; so is TRF's point where the optimum has c on its bound 0 (SciPy's last
 * iterate, strictly inside). With fewer distinct loads TRF's point is returned: it is SciPy's point of the solution
 * manifold, even where TRF stops (xtol) before interpolating the points. TRF is also skipped (projection result
 * returned) when SciPy would refuse the problem: a degenerate bound interval (p₀ component 0) or a start where the
 * model is not finite.
 */
export function fitProfile(points: readonly WorkloadPoint[], start: ProfileParams): ProfileParams {
  const projected = fitProfileByProjection(points, start);
  const usable = points.filter((p) => Number.isFinite(p.loadPercentage) && Number.isFinite(p.powerWatt));
  const p0 = [start.a, start.b, start.c, start.d];
  if (usable.length === 0 || !p0.every(Number.isFinite)) return projected;
  const lower = [0, 0, 0, Number.NEGATIVE_INFINITY];
  const lb = p0.map((p, i) => Math.max(lower[i], p - 2 * Math.abs(p)));
  const ub = p0.map((p) => p + 2 * Math.abs(p));
  const xs = usable.map((p) => p.loadPercentage);
  const ys = usable.map((p) => p.powerWatt);
  const residuals = (q: readonly number[]): number[] =>
    xs.map((x, i) => q[0] * Math.log(q[1] * (x + q[2])) + q[3] - ys[i]);
  const res = boundedLeastSquares(residuals, p0, lb, ub);
  if (res.status === "invalid" || !res.x.every(Number.isFinite)) return projected;
  const trf: ProfileParams = { a: res.x[0], b: res.x[1], c: res.x[2], d: res.x[3] };

  // Fewer than 3 distinct loads leave a solution manifold: every point of it fits, TRF's is SciPy's.
  if (new Set(xs).size < 3) return trf;
  // The curve is identified: take the projection's optimum (a, c, K) — TRF stops at ftol = 1e-8 a few 1e-9 short
  // of it, or may stall in a worse local minimum — and place it on TRF's b, i.e. d = K − a·ln b_TRF.
  // Where TRF stops on another curve (a flat or degenerate optimum, a bound it cannot leave), that curve is
  // SciPy's answer: the projection only polishes an optimum TRF has reached. Where the optimum has c on its
  // bound 0, SciPy answers its last iterate, strictly inside (c > 0), never the bound itself.
  if (!(projected.c > lb[2])) return trf;
  if (!sameCurve(trf, projected)) return trf;
  if (!(projected.a > 0)) return projected;
  const k = projected.a * Math.log(projected.b) + projected.d;
  const d = k - projected.a * Math.log(trf.b);
  if (d >= lb[3] && d <= ub[3]) return { a: projected.a, b: trf.b, c: projected.c, d };
  // d would leave its bounds: clamp it and let b take up the rest (feasible because K is).
  const dClamped = Math.min(ub[3], Math.max(lb[3], d));
  const b = Math.exp((k - dClamped) / projected.a);
  return b > 0 && b <= ub[1] ? { a: projected.a, b, c: projected.c, d: dClamped } : projected;
}
