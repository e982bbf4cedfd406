import { describe, expect, it } from "vitest";
import { jacobiSvd } from "../../../src/engine/numeric/svd.js";

/** U·diag(s)·Vᵀ = W·Vᵀ (W holds the columns U·diag(s)). */
function reconstruct(W: number[][], V: number[][]): number[][] {
  const rows = W[0].length;
  const n = V.length;
  return Array.from({ length: rows }, (_, i) =>
    Array.from({ length: n }, (_, j) => W.reduce((acc, column, k) => acc + column[i] * V[j][k], 0)),
  );
}

describe("jacobiSvd", () => {
  const A = [
    [4, 1, -2],
    [2, 3, 0],
    [-1, 0.5, 5],
    [0, 2, 1],
  ];

  it("reconstructs its matrix", () => {
    const { W, V } = jacobiSvd(A);
    const back = reconstruct(W, V);
    for (let i = 0; i < A.length; i++)
      for (let j = 0; j < 3; j++) expect(back[i][j]).toBeCloseTo(A[i][j], 12);
  });

  it("gives singular values in decreasing order and an orthogonal V", () => {
    const { s, V } = jacobiSvd(A);
    expect([...s].sort((x, y) => y - x)).toEqual(s);
    for (let p = 0; p < 3; p++)
      for (let q = 0; q < 3; q++) {
        const dot = V.reduce((acc, row) => acc + row[p] * row[q], 0);
        expect(dot).toBeCloseTo(p === q ? 1 : 0, 12);
      }
    // The Frobenius norm is the root of the sum of squared singular values.
    const frobenius = A.flat().reduce((acc, v) => acc + v * v, 0);
    expect(s.reduce((acc, v) => acc + v * v, 0)).toBeCloseTo(frobenius, 10);
  });

  it("finds the known singular values of a diagonal matrix, and a zero one for a rank-deficient matrix", () => {
    expect(
      jacobiSvd([
        [3, 0],
        [0, -5],
        [0, 0],
      ]).s,
    ).toEqual([5, 3]);
    const { s } = jacobiSvd([
      [1, 2],
      [2, 4],
      [3, 6],
    ]);
    expect(s[0]).toBeCloseTo(Math.sqrt(70), 12);
    expect(s[1]).toBeCloseTo(0, 12);
  });
});
