/**
 * CPU consumption profile (docs/methodology.md §5.3, §10).
 *
 * The power model is P(x) = a·ln(b·(x + c)) + d with x the load in percent. Parameters come from a table row, the
 * archetype default, or a bounded least-squares fit to workload points (§10.2, §10.3). The original fits with SciPy
 * `curve_fit` (Trust-Region-Reflective). `fitProfile` runs our own TRF implementation (`boundedLeastSquares`, written
 * from the published algorithm) so that the non-identifiable split of K = a·ln b + d into (b, d) lands where SciPy's
 * does, and takes the curve itself from a deterministic variable-projection fit (`fitProfileByProjection`).
 */

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

// ---------------------------------------------------------------------------------------------------------------
// Bounded Trust Region Reflective least squares (Branch, Coleman & Li 1999), following the behaviour documented for
// SciPy's `least_squares(method='trf', tr_solver='exact', x_scale=1, loss='linear', jac='2-point')`, which is what
// `curve_fit` with bounds runs. SciPy is used only as a black-box oracle in development; the code below is written
// from the published algorithm.
// ---------------------------------------------------------------------------------------------------------------

/** Machine epsilon and the forward-difference relative step √ε = 2⁻²⁶. */
const EPS = 2 ** -52;
const FD_STEP = 2 ** -26;

export interface BoundedLeastSquaresOptions {
  /** Relative cost-reduction tolerance (default 1e-8). */
  ftol?: number;
  /** Relative step tolerance (default 1e-8). */
  xtol?: number;
  /** Tolerance on the Coleman–Li scaled gradient ‖v∘g‖∞ (default 1e-8). */
  gtol?: number;
  /** Maximum number of residual evaluations, Jacobian evaluations excluded (default 100·n). */
  maxEvaluations?: number;
}

export interface BoundedLeastSquaresResult {
  x: number[];
  /** 0.5·‖r(x)‖². */
  cost: number;
  /** Residual evaluations spent (finite-difference Jacobians excluded). */
  evaluations: number;
  /**
   * Why the iteration stopped: "gtol" | "ftol" | "xtol" | "ftol+xtol" (converged), "maxEvaluations", or "invalid"
   * (x0 outside the bounds, degenerate bounds or a non-finite start).
   */
  status: "gtol" | "ftol" | "xtol" | "ftol+xtol" | "maxEvaluations" | "invalid";
}

type Residuals = (x: readonly number[]) => number[];

function dot(u: readonly number[], v: readonly number[]): number {
  let s = 0;
  for (let i = 0; i < u.length; i++) s += u[i] * v[i];
  return s;
}

function norm2(u: readonly number[]): number {
  return Math.sqrt(dot(u, u));
}

function allFinite(u: readonly number[]): boolean {
  for (const v of u) if (!Number.isFinite(v)) return false;
  return true;
}

/** J·s for a row-major m×n matrix stored as rows. */
function matVec(rows: readonly number[][], s: readonly number[]): number[] {
  return rows.map((row) => dot(row, s));
}

/**
 * Forward-difference Jacobian (rows = residuals, columns = variables). Step for variable j:
 * h = √ε·max(1, |x_j|), negative when x_j < 0; if x_j + h leaves [lb_j, ub_j] the step is reversed when the
 * reversed step fits, otherwise it goes to the farther bound. The divisor is the step actually taken,
 * (x_j + h) − x_j, so rounding of x_j + h does not bias the quotient.
 */
function forwardDifferenceJacobian(
  fun: Residuals,
  x: readonly number[],
  f0: readonly number[],
  lb: readonly number[],
  ub: readonly number[],
): number[][] {
  const m = f0.length;
  const n = x.length;
  const J: number[][] = Array.from({ length: m }, () => new Array<number>(n).fill(0));
  for (let j = 0; j < n; j++) {
    let h = FD_STEP * (x[j] >= 0 ? 1 : -1) * Math.max(1, Math.abs(x[j]));
    const below = x[j] - lb[j];
    const above = ub[j] - x[j];
    const fits = Math.abs(h) <= Math.max(below, above);
    const trial = x[j] + h;
    if (fits) {
      if (trial < lb[j] || trial > ub[j]) h = -h;
    } else {
      h = above >= below ? above : -below;
    }
    const xs = x.slice();
    xs[j] = x[j] + h;
    const step = xs[j] - x[j];
    const fs = fun(xs);
    for (let i = 0; i < m; i++) J[i][j] = (fs[i] - f0[i]) / step;
  }
  return J;
}

/**
 * Thin SVD of an R×n matrix (R ≥ n) by one-sided Jacobi rotations (Hestenes): columns are rotated pairwise until
 * mutually orthogonal; their norms are the singular values and the accumulated rotations form V. Returns s sorted
 * decreasingly, V (n×n, column k = right singular vector k) and the rotated columns W = U·diag(s) (so that
 * Uᵀy = Wᵀy / s without dividing by tiny s).
 */
function jacobiSvd(a: readonly number[][]): { s: number[]; V: number[][]; W: number[][] } {
  const R = a.length;
  const n = a[0].length;
  // Column-major working copy: column j occupies cols[j·R … j·R + R).
  const cols = new Float64Array(R * n);
  for (let i = 0; i < R; i++) for (let j = 0; j < n; j++) cols[j * R + i] = a[i][j];
  // vt[k·n + i] = V[i][k]: row k of vt is the k-th right singular vector.
  const vt = new Float64Array(n * n);
  for (let k = 0; k < n; k++) vt[k * n + k] = 1;
  for (let sweep = 0; sweep < 60; sweep++) {
    let rotated = false;
    for (let p = 0; p < n - 1; p++) {
      for (let q = p + 1; q < n; q++) {
        const op = p * R;
        const oq = q * R;
        let alpha = 0;
        let beta = 0;
        let gamma = 0;
        for (let i = 0; i < R; i++) {
          const u = cols[op + i];
          const w = cols[oq + i];
          alpha += u * u;
          beta += w * w;
          gamma += u * w;
        }
        if (gamma === 0 || Math.abs(gamma) <= EPS * Math.sqrt(alpha * beta)) continue;
        rotated = true;
        const zeta = (beta - alpha) / (2 * gamma);
        const t = (zeta >= 0 ? 1 : -1) / (Math.abs(zeta) + Math.sqrt(1 + zeta * zeta));
        const cs = 1 / Math.sqrt(1 + t * t);
        const sn = cs * t;
        for (let i = 0; i < R; i++) {
          const u = cols[op + i];
          const w = cols[oq + i];
          cols[op + i] = cs * u - sn * w;
          cols[oq + i] = sn * u + cs * w;
        }
        const vp = p * n;
        const vq = q * n;
        for (let i = 0; i < n; i++) {
          const u = vt[vp + i];
          const w = vt[vq + i];
          vt[vp + i] = cs * u - sn * w;
          vt[vq + i] = sn * u + cs * w;
        }
      }
    }
    if (!rotated) break;
  }
  const norms: number[] = [];
  for (let k = 0; k < n; k++) {
    let ss = 0;
    for (let i = 0; i < R; i++) ss += cols[k * R + i] ** 2;
    norms.push(Math.sqrt(ss));
  }
  const order = norms.map((_, k) => k).sort((i, j) => norms[j] - norms[i] || i - j);
  return {
    s: order.map((k) => norms[k]),
    V: Array.from({ length: n }, (_, i) => order.map((k) => vt[k * n + i])),
    W: order.map((k) => Array.from(cols.subarray(k * R, k * R + R))),
  };
}

/**
 * Trust-region subproblem min ‖Ĵp + f̂‖ s.t. ‖p‖ ≤ Δ through the SVD of the (augmented, scaled) Jacobian, with the
 * Levenberg–Marquardt parameter α found by Moré's safeguarded Newton iteration on φ(α) = ‖p(α)‖ − Δ
 * (Moré 1978, "The Levenberg–Marquardt algorithm: implementation and theory"), stopping when |φ| < 0.01·Δ or after
 * 10 iterations. `m` is the number of residuals of the original problem: with m < n the model is treated as rank
 * deficient (no Gauss–Newton shortcut, α bracket starting at 0). Returns the step (scaled to norm Δ when α > 0)
 * and the final α, reused as the next initial guess.
 */
function trustRegionStep(
  m: number,
  svd: { s: number[]; V: number[][] },
  suf: readonly number[],
  delta: number,
  initialAlpha: number,
): { p: number[]; alpha: number } {
  const { s, V } = svd;
  const n = s.length;
  const combine = (coef: (k: number) => number): number[] => {
    const p = new Array<number>(n).fill(0);
    for (let k = 0; k < n; k++) {
      const w = coef(k);
      for (let i = 0; i < n; i++) p[i] -= V[i][k] * w;
    }
    return p;
  };
  const fullRank = m >= n && s[n - 1] > EPS * m * s[0];
  if (fullRank) {
    const p = combine((k) => suf[k] / (s[k] * s[k]));
    if (norm2(p) <= delta) return { p, alpha: 0 };
  }
  const phiAt = (alpha: number): { phi: number; dphi: number } => {
    let pp = 0;
    let q = 0;
    for (let k = 0; k < n; k++) {
      const den = s[k] * s[k] + alpha;
      pp += (suf[k] / den) ** 2;
      q += (suf[k] * suf[k]) / (den * den * den);
    }
    const pn = Math.sqrt(pp);
    return { phi: pn - delta, dphi: -q / pn };
  };
  let upper = norm2(suf) / delta;
  let lower = 0;
  if (fullRank) {
    const { phi, dphi } = phiAt(0);
    lower = -phi / dphi;
  }
  const restart = (): number => Math.max(0.001 * upper, Math.sqrt(lower * upper));
  let alpha = !fullRank && initialAlpha === 0 ? restart() : initialAlpha;
  for (let it = 0; it < 10; it++) {
    if (alpha < lower || alpha > upper) alpha = restart();
    const { phi, dphi } = phiAt(alpha);
    if (phi < 0) upper = alpha;
    const ratio = phi / dphi;
    lower = Math.max(lower, alpha - ratio);
    alpha -= ((phi + delta) * ratio) / delta;
    if (Math.abs(phi) < 0.01 * delta) break;
  }
  const p = combine((k) => suf[k] / (s[k] * s[k] + alpha));
  const scale = delta / norm2(p);
  return { p: p.map((v) => v * scale), alpha };
}

/** Largest t ≥ 0 keeping x + t·s inside [lb, ub] (∞ when s = 0), and the sign of s on the components hit first. */
function strideToBound(
  x: readonly number[],
  s: readonly number[],
  lb: readonly number[],
  ub: readonly number[],
): { t: number; hits: number[] } {
  const steps = x.map((xi, i) =>
    s[i] === 0 ? Number.POSITIVE_INFINITY : Math.max((lb[i] - xi) / s[i], (ub[i] - xi) / s[i]),
  );
  const t = Math.min(...steps);
  return { t, hits: steps.map((v, i) => (v === t ? Math.sign(s[i]) : 0)) };
}

/** Positive root t of ‖z + t·s‖ = Δ for ‖z‖ ≤ Δ (stable quadratic formula). */
function toTrustRegion(z: readonly number[], s: readonly number[], delta: number): number {
  const a = dot(s, s);
  const b = dot(z, s);
  const c = dot(z, z) - delta * delta;
  const disc = Math.sqrt(Math.max(0, b * b - a * c));
  const q = -(b + (b >= 0 ? disc : -disc));
  if (q === 0) return 0;
  return Math.max(q / a, c / q);
}

/** The quadratic model q(s) = ½(‖Ĵs‖² + sᵀ diag(h) s) + ĝᵀs in scaled variables. */
interface ScaledModel {
  Jh: number[][];
  diag: number[];
  gh: number[];
}

function modelValue(model: ScaledModel, s: readonly number[]): number {
  const js = matVec(model.Jh, s);
  let q = dot(js, js);
  for (let i = 0; i < s.length; i++) q += model.diag[i] * s[i] * s[i];
  return 0.5 * q + dot(model.gh, s);
}

/** q(s0 + t·s) = A t² + B t + C. */
function modelAlong(
  model: ScaledModel,
  s: readonly number[],
  s0?: readonly number[],
): [number, number, number] {
  const js = matVec(model.Jh, s);
  let A = dot(js, js);
  for (let i = 0; i < s.length; i++) A += model.diag[i] * s[i] * s[i];
  A *= 0.5;
  let B = dot(model.gh, s);
  let C = 0;
  if (s0) {
    const j0 = matVec(model.Jh, s0);
    B += dot(j0, js);
    C = 0.5 * dot(j0, j0) + dot(model.gh, s0);
    for (let i = 0; i < s.length; i++) {
      B += model.diag[i] * s0[i] * s[i];
      C += 0.5 * model.diag[i] * s0[i] * s0[i];
    }
  }
  return [A, B, C];
}

/** Minimiser of A t² + B t + C on [lo, hi] (first of lo, hi, interior vertex on ties). */
function minimizeOnSegment(
  A: number,
  B: number,
  C: number,
  lo: number,
  hi: number,
): { t: number; value: number } {
  const ts = [lo, hi];
  if (A !== 0) {
    const vertex = (-0.5 * B) / A;
    if (vertex > lo && vertex < hi) ts.push(vertex);
  }
  let best = { t: ts[0], value: ts[0] * (A * ts[0] + B) + C };
  for (let k = 1; k < ts.length; k++) {
    const value = ts[k] * (A * ts[k] + B) + C;
    if (value < best.value) best = { t: ts[k], value };
  }
  return best;
}

/**
 * Reflective step selection of Branch–Coleman–Li: if the trust-region step p stays feasible it is taken. Otherwise
 * three candidates compete on the quadratic model: p truncated at the first bound it meets and shortened by θ;
 * the reflection of p at that bound (searched between a small fraction of the path and θ·(distance to the next
 * bound) or the trust-region boundary); and the scaled steepest-descent (Cauchy-like) step limited by θ·bound and
 * the trust region. Returns the step in original and scaled variables and the predicted reduction.
 */
function selectStep(
  x: readonly number[],
  model: ScaledModel,
  p: readonly number[],
  ph: readonly number[],
  dScale: readonly number[],
  delta: number,
  lb: readonly number[],
  ub: readonly number[],
  theta: number,
): { step: number[]; stepH: number[]; predicted: number } {
  const n = x.length;
  let feasible = true;
  for (let i = 0; i < n; i++) {
    const xi = x[i] + p[i];
    if (!(xi >= lb[i] && xi <= ub[i])) feasible = false;
  }
  if (feasible) return { step: p.slice(), stepH: ph.slice(), predicted: -modelValue(model, ph) };

  const { t: pStride, hits } = strideToBound(x, p, lb, ub);
  const rH = ph.map((v, i) => (hits[i] !== 0 ? -v : v));
  const r = rH.map((v, i) => v * dScale[i]);
  const pB = p.map((v) => v * pStride);
  const pHB = ph.map((v) => v * pStride);
  const xB = x.map((v, i) => v + pB[i]);

  // Reflected candidate.
  const toTr = toTrustRegion(pHB, rH, delta);
  const toBound = strideToBound(xB, r, lb, ub).t;
  const rStride = Math.min(toBound, toTr);
  let rLo = 0;
  let rHi = -1;
  if (rStride > 0) {
    rLo = ((1 - theta) * pStride) / rStride;
    rHi = rStride === toBound ? theta * toBound : toTr;
  }
  let rValue = Number.POSITIVE_INFINITY;
  let rStepH: number[] = rH;
  if (rLo <= rHi) {
    const [A, B, C] = modelAlong(model, rH, pHB);
    const best = minimizeOnSegment(A, B, C, rLo, rHi);
    rValue = best.value;
    rStepH = rH.map((v, i) => v * best.t + pHB[i]);
  }

  // Truncated candidate.
  const pT = pB.map((v) => v * theta);
  const pTH = pHB.map((v) => v * theta);
  const pValue = modelValue(model, pTH);

  // Scaled steepest descent.
  const agH = model.gh.map((v) => -v);
  const ag = agH.map((v, i) => v * dScale[i]);
  const agToTr = delta / norm2(agH);
  const agToBound = strideToBound(x, ag, lb, ub).t;
  const agMax = agToBound < agToTr ? theta * agToBound : agToTr;
  const [A, B] = modelAlong(model, agH);
  const agBest = minimizeOnSegment(A, B, 0, 0, agMax);

  if (pValue < rValue && pValue < agBest.value) return { step: pT, stepH: pTH, predicted: -pValue };
  if (rValue < pValue && rValue < agBest.value) {
    return { step: rStepH.map((v, i) => v * dScale[i]), stepH: rStepH, predicted: -rValue };
  }
  return {
    step: ag.map((v) => v * agBest.t),
    stepH: agH.map((v) => v * agBest.t),
    predicted: -agBest.value,
  };
}

/** Coleman–Li scaling: distance to the bound the negative gradient points at (1 if that bound is infinite). */
function colemanLi(
  x: readonly number[],
  g: readonly number[],
  lb: readonly number[],
  ub: readonly number[],
): { v: number[]; dv: number[] } {
  const v = new Array<number>(x.length).fill(1);
  const dv = new Array<number>(x.length).fill(0);
  for (let i = 0; i < x.length; i++) {
    if (g[i] < 0 && Number.isFinite(ub[i])) {
      v[i] = ub[i] - x[i];
      dv[i] = -1;
    } else if (g[i] > 0 && Number.isFinite(lb[i])) {
      v[i] = x[i] - lb[i];
      dv[i] = 1;
    }
  }
  return { v, dv };
}

/** Moves components lying on (or beyond) a bound to the adjacent representable interior double. */
function strictlyInside(x: readonly number[], lb: readonly number[], ub: readonly number[]): number[] {
  return x.map((v, i) => {
    let w = v;
    if (v <= lb[i]) w = nextToward(lb[i], ub[i]);
    else if (v >= ub[i]) w = nextToward(ub[i], lb[i]);
    return w < lb[i] || w > ub[i] ? 0.5 * (lb[i] + ub[i]) : w;
  });
}

const scratch = new DataView(new ArrayBuffer(8));

/** The double adjacent to `from` in the direction of `to` (C's nextafter). */
function nextToward(from: number, to: number): number {
  if (Number.isNaN(from) || Number.isNaN(to)) return Number.NaN;
  if (from === to) return to;
  if (from === 0) return to > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
  scratch.setFloat64(0, from);
  let bits = scratch.getBigUint64(0);
  bits += to > from === from > 0 ? 1n : -1n;
  scratch.setBigUint64(0, bits);
  return scratch.getFloat64(0);
}

/**
 * Minimises ½‖fun(x)‖² subject to lb ≤ x ≤ ub with the Trust Region Reflective method and a forward-difference
 * Jacobian (x_scale = 1, exact subproblem). Iterates stay strictly feasible. The initial radius is ‖x0 / √v‖ (v the
 * Coleman–Li vector at x0; 1 if that is 0). A step with ratio actual/predicted reduction < 0.25 shrinks the radius
 * to a quarter of the scaled step length; a ratio > 0.75 with a step longer than 0.95·Δ doubles it. Stops when
 * ‖v∘g‖∞ < gtol, when the reduction is below ftol·cost (with ratio > 0.25), when ‖step‖ < xtol·(xtol + ‖x‖), or
 * after `maxEvaluations` residual evaluations.
 */
export function boundedLeastSquares(
  fun: Residuals,
  x0: readonly number[],
  lb: readonly number[],
  ub: readonly number[],
  options: BoundedLeastSquaresOptions = {},
): BoundedLeastSquaresResult {
  const n = x0.length;
  const ftol = options.ftol ?? 1e-8;
  const xtol = options.xtol ?? 1e-8;
  const gtol = options.gtol ?? 1e-8;
  const maxEvaluations = options.maxEvaluations ?? 100 * n;
  let x = x0.slice();
  const invalid = (): BoundedLeastSquaresResult => ({
    x,
    cost: Number.NaN,
    evaluations: 0,
    status: "invalid",
  });
  for (let i = 0; i < n; i++) {
    if (!(lb[i] < ub[i]) || !(x[i] >= lb[i] && x[i] <= ub[i]) || !Number.isFinite(x[i])) return invalid();
  }
  let f = fun(x);
  let evaluations = 1;
  if (!allFinite(f)) return invalid();
  const m = f.length;
  let cost = 0.5 * dot(f, f);
  let J = forwardDifferenceJacobian(fun, x, f, lb, ub);
  const gradient = (): number[] => {
    const g = new Array<number>(n).fill(0);
    for (let i = 0; i < m; i++) for (let j = 0; j < n; j++) g[j] += J[i][j] * f[i];
    return g;
  };
  let g = gradient();

  let delta: number;
  {
    const { v } = colemanLi(x, g, lb, ub);
    delta = norm2(x.map((xi, i) => xi / Math.sqrt(v[i])));
    if (delta === 0) delta = 1;
  }
  let alpha = 0;
  let status: BoundedLeastSquaresResult["status"] | undefined;

  for (;;) {
    const { v, dv } = colemanLi(x, g, lb, ub);
    let gNorm = 0;
    for (let i = 0; i < n; i++) gNorm = Math.max(gNorm, Math.abs(g[i] * v[i]));
    if (gNorm < gtol) status = "gtol";
    if (status !== undefined) break;
    if (evaluations >= maxEvaluations) {
      status = "maxEvaluations";
      break;
    }

    // Scaled variables x = x_k + D·ŝ with D = diag(√v); the bound-distance curvature diag(g∘dv) joins the model.
    const dScale = v.map((vi) => Math.sqrt(vi));
    const model: ScaledModel = {
      Jh: J.map((row) => row.map((jij, j) => jij * dScale[j])),
      diag: g.map((gi, i) => gi * dv[i]),
      gh: g.map((gi, i) => gi * dScale[i]),
    };
    const augmented = model.Jh.map((row) => row.slice());
    const fAug = f.slice();
    for (let i = 0; i < n; i++) {
      const row = new Array<number>(n).fill(0);
      row[i] = Math.sqrt(model.diag[i]);
      augmented.push(row);
      fAug.push(0);
    }
    const svd = jacobiSvd(augmented);
    const suf = svd.W.map((col) => dot(col, fAug));
    const theta = Math.max(0.995, 1 - gNorm);

    let reduction = -1;
    let xNew = x;
    let fNew = f;
    let costNew = cost;
    while (reduction <= 0 && evaluations < maxEvaluations) {
      const tr = trustRegionStep(m, svd, suf, delta, alpha);
      alpha = tr.alpha;
      const pH = tr.p;
      const p = pH.map((v2, i) => v2 * dScale[i]);
      const { step, stepH, predicted } = selectStep(x, model, p, pH, dScale, delta, lb, ub, theta);
      xNew = strictlyInside(
        x.map((xi, i) => xi + step[i]),
        lb,
        ub,
      );
      fNew = fun(xNew);
      evaluations++;
      const stepHNorm = norm2(stepH);
      if (!allFinite(fNew)) {
        delta = 0.25 * stepHNorm;
        continue;
      }
      costNew = 0.5 * dot(fNew, fNew);
      reduction = cost - costNew;
      let ratio: number;
      if (predicted > 0) ratio = reduction / predicted;
      else if (predicted === 0 && reduction === 0) ratio = 1;
      else ratio = 0;
      let deltaNew = delta;
      if (ratio < 0.25) deltaNew = 0.25 * stepHNorm;
      else if (ratio > 0.75 && stepHNorm > 0.95 * delta) deltaNew = 2 * delta;

      const ftolMet = reduction < ftol * cost && ratio > 0.25;
      const xtolMet = norm2(step) < xtol * (xtol + norm2(x));
      if (ftolMet || xtolMet) {
        status = ftolMet && xtolMet ? "ftol+xtol" : ftolMet ? "ftol" : "xtol";
        break;
      }
      alpha *= delta / deltaNew;
      delta = deltaNew;
    }
    if (reduction > 0) {
      x = xNew;
      f = fNew;
      cost = costNew;
      J = forwardDifferenceJacobian(fun, x, f, lb, ub);
      g = gradient();
    }
  }
  return { x, cost, evaluations, status };
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

function residualSum(points: readonly WorkloadPoint[], params: ProfileParams): number {
  let rss = 0;
  for (const p of points) rss += (profilePower(params, p.loadPercentage) - p.powerWatt) ** 2;
  return rss;
}

/**
 * Bounded least-squares fit of power(w) = a·ln(b·(w + c)) + d to workload points, starting from `start` (the base
 * model, §10.2), with the `curve_fit` bounds of §10.3, as SciPy computes it: Trust Region Reflective
 * (`boundedLeastSquares`) from p₀ with the residuals f(x; p) − y. Because b and d are not separately identifiable,
 * the reported (b, d) is wherever TRF's path ends on the solution manifold; following the same algorithm is what
 * reproduces SciPy's split (§10.3).
 *
 * Safety net: the result is compared with the variable-projection fit (`fitProfileByProjection`). If TRF's residual
 * sum of squares is worse than it by more than a relative 1e-7 (plus 1e-16·Σy²), the curve (a, c, K = a·ln b + d) of
 * the projection is used, keeping TRF's b when the induced d stays inside its bounds. TRF is also skipped (projection
 * result returned) when SciPy would refuse the problem: a degenerate bound interval (p₀ component 0) or a start
 * where the model is not finite.
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

  if (new Set(xs).size < 3) {
    // Underdetermined: every point of a solution manifold fits; TRF's is SciPy's. Keep it unless it fits worse.
    const scale = ys.reduce((acc, y) => acc + y * y, 0);
    return residualSum(usable, trf) <= residualSum(usable, projected) * (1 + 1e-7) + 1e-12 * scale
      ? trf
      : projected;
  }
  // The curve is identified: take the projection's optimum (a, c, K) — TRF stops at ftol = 1e-8 a few 1e-9 short
  // of it, or may stall in a worse local minimum — and place it on TRF's b, i.e. d = K − a·ln b_TRF.
  if (!(projected.a > 0)) return projected;
  const k = projected.a * Math.log(projected.b) + projected.d;
  const d = k - projected.a * Math.log(trf.b);
  if (d >= lb[3] && d <= ub[3]) return { a: projected.a, b: trf.b, c: projected.c, d };
  // d would leave its bounds: clamp it and let b take up the rest (feasible because K is).
  const dClamped = Math.min(ub[3], Math.max(lb[3], d));
  const b = Math.exp((k - dClamped) / projected.a);
  return b > 0 && b <= ub[1] ? { a: projected.a, b, c: projected.c, d: dClamped } : projected;
}
