import { jacobiSvd } from "./svd.js";

// ---------------------------------------------------------------------------------------------------------------
// Bounded Trust Region Reflective least squares (Branch, Coleman & Li 1999), following the behaviour documented for
// SciPy's `least_squares(method='trf', tr_solver='exact', x_scale=1, loss='linear', jac='2-point')`, which is what
// `curve_fit` with bounds runs. SciPy is used only as a black-box oracle in development; the code below is written
// from the published algorithm.
// ---------------------------------------------------------------------------------------------------------------

/** Machine epsilon and the forward-difference relative step √ε = 2⁻²⁶. */
const EPS = 2 ** -52;
const FD_STEP = 2 ** -26;

interface BoundedLeastSquaresOptions {
  /** Relative cost-reduction tolerance (default 1e-8). */
  ftol?: number;
  /** Relative step tolerance (default 1e-8). */
  xtol?: number;
  /** Tolerance on the Coleman–Li scaled gradient ‖v∘g‖∞ (default 1e-8). */
  gtol?: number;
  /** Maximum number of residual evaluations, Jacobian evaluations excluded (default 100·n). */
  maxEvaluations?: number;
}

interface BoundedLeastSquaresResult {
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
export function nextToward(from: number, to: number): number {
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
