import { describe, expect, it } from "vitest";
import { boundedLeastSquares } from "../../../src/engine/numeric/boundedLeastSquares.js";

describe("boundedLeastSquares (Trust Region Reflective)", () => {
  it("solves a linear problem exactly when no bound is active", () => {
    const xs = [0, 1, 2, 3];
    const ys = [1, 3, 5, 7];
    const res = boundedLeastSquares(
      (p) => xs.map((x, i) => p[0] * x + p[1] - ys[i]),
      [0.5, 0.5],
      [-10, -10],
      [10, 10],
    );
    expect(res.status).not.toBe("maxEvaluations");
    expect(res.x[0]).toBeCloseTo(2, 6);
    expect(res.x[1]).toBeCloseTo(1, 6);
  });

  it("keeps iterates strictly feasible and stops at an active bound", () => {
    const res = boundedLeastSquares((p) => [p[0] - 3, p[1] + 1], [1, 1], [0, 0], [2, 5]);
    expect(res.x[0]).toBeLessThan(2);
    expect(res.x[0]).toBeCloseTo(2, 6);
    expect(res.x[1]).toBeGreaterThan(0);
    expect(res.x[1]).toBeCloseTo(0, 6);
  });

  it("handles more unknowns than residuals and rejects invalid starts", () => {
    const res = boundedLeastSquares((p) => [p[0] + p[1] + p[2] - 1], [0, 0, 0], [-1, -1, -1], [1, 1, 1]);
    expect(res.cost).toBeLessThan(1e-12);
    expect(res.x.every(Number.isFinite)).toBe(true);
    expect(boundedLeastSquares((p) => [p[0]], [2], [0], [1]).status).toBe("invalid");
    expect(boundedLeastSquares((p) => [p[0]], [0], [0], [0]).status).toBe("invalid");
  });

  it("fits a known exponential model exactly from a distant start", () => {
    // y = 2.5·exp(−0.7·x) + 0.3, sampled without noise: the minimum is the model itself.
    const xs = [0, 0.5, 1, 1.5, 2, 3, 4, 6];
    const ys = xs.map((x) => 2.5 * Math.exp(-0.7 * x) + 0.3);
    const res = boundedLeastSquares(
      (p) => xs.map((x, i) => p[0] * Math.exp(-p[1] * x) + p[2] - ys[i]),
      [1, 0.2, 0],
      [0, 0, -5],
      [10, 5, 5],
    );
    expect(["gtol", "ftol", "xtol", "ftol+xtol"]).toContain(res.status);
    expect(res.x[0]).toBeCloseTo(2.5, 6);
    expect(res.x[1]).toBeCloseTo(0.7, 6);
    expect(res.x[2]).toBeCloseTo(0.3, 6);
    expect(res.cost).toBeLessThan(1e-14);
  });

  it("respects its bounds when the unconstrained minimum lies outside them", () => {
    // The line y = 2x + 1 with the slope capped at 1.5: the best fit has slope 1.5 and the
    // intercept that minimises the residuals given it (mean of y − 1.5x).
    const xs = [0, 1, 2, 3];
    const ys = xs.map((x) => 2 * x + 1);
    const res = boundedLeastSquares(
      (p) => xs.map((x, i) => p[0] * x + p[1] - ys[i]),
      [0.5, 0],
      [0, -10],
      [1.5, 10],
    );
    expect(res.x[0]).toBeLessThanOrEqual(1.5);
    expect(res.x[0]).toBeCloseTo(1.5, 6);
    const intercept = xs.reduce((acc, x, i) => acc + ys[i] - 1.5 * x, 0) / xs.length;
    expect(res.x[1]).toBeCloseTo(intercept, 5);
    for (const [i, v] of res.x.entries()) {
      expect(v).toBeGreaterThanOrEqual([0, -10][i]);
      expect(v).toBeLessThanOrEqual([1.5, 10][i]);
    }
  });
});
