/**
 * Singular value decomposition for small dense matrices (the bounded least-squares solver's trust-region
 * subproblem, ./boundedLeastSquares.ts). Pure numerics: no methodology.
 */

/** Machine epsilon. */
const EPS = 2 ** -52;

/**
 * The plane rotation (cs, sn) of two vectors of `length` entries stored in `values` from `p` and
 * from `q`: the columns being orthogonalised, and the same rotation accumulated in V.
 */
function rotate(values: Float64Array, p: number, q: number, length: number, cs: number, sn: number): void {
  for (let i = 0; i < length; i++) {
    const u = values[p + i];
    const w = values[q + i];
    values[p + i] = cs * u - sn * w;
    values[q + i] = sn * u + cs * w;
  }
}

/**
 * Thin SVD of an R×n matrix (R ≥ n) by one-sided Jacobi rotations (Hestenes): columns are rotated pairwise until
 * mutually orthogonal; their norms are the singular values and the accumulated rotations form V. Returns s sorted
 * decreasingly, V (n×n, column k = right singular vector k) and the rotated columns W = U·diag(s) (so that
 * Uᵀy = Wᵀy / s without dividing by tiny s).
 */
export function jacobiSvd(a: readonly number[][]): { s: number[]; V: number[][]; W: number[][] } {
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
        rotate(cols, op, oq, R, cs, sn);
        rotate(vt, p * n, q * n, n, cs, sn);
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
