import { describe, expect, it } from "vitest";
import {
  fitProfile,
  fitProfileByProjection,
  type ProfileParams,
  profilePower,
  tdpWorkloads,
  type WorkloadPoint,
} from "../../src/engine/components/consumptionProfile.js";

// Bases of docs/methodology.md §10.1 (archetype default and table rows).
const DEFAULT: ProfileParams = { a: 171.2, b: 0.0354, c: 36.89, d: -10.13 };
const XEON_PLATINUM: ProfileParams = { a: 171.1813, b: 0.0354, c: 36.8953, d: -10.1336 };
const XEON_GOLD: ProfileParams = { a: 35.5688, b: 0.2438, c: 9.6694, d: -0.6087 };
const XEON_SILVER: ProfileParams = { a: 20.7794, b: 0.3043, c: 8.4241, d: 0.8613 };

const K = (p: ProfileParams): number => p.a * Math.log(p.b) + p.d;

function expectFinite(p: ProfileParams): void {
  for (const v of [p.a, p.b, p.c, p.d]) expect(Number.isFinite(v)).toBe(true);
}

function expectWithinBounds(p: ProfileParams, start: ProfileParams): void {
  const within = (v: number, s: number, lower: number): void => {
    expect(v).toBeGreaterThanOrEqual(Math.max(lower, s - 2 * Math.abs(s)));
    expect(v).toBeLessThanOrEqual(s + 2 * Math.abs(s));
  };
  within(p.a, start.a, 0);
  within(p.b, start.b, 0);
  within(p.c, start.c, 0);
  within(p.d, start.d, Number.NEGATIVE_INFINITY);
  expect(p.b).toBeGreaterThan(0);
}

describe("profilePower (§5.3)", () => {
  it("evaluates a·ln(b·(x+c)) + d without clamping", () => {
    expect(profilePower(DEFAULT, 50)).toBeCloseTo(171.2 * Math.log(0.0354 * 86.89) - 10.13, 12);
    // Below 1 W and even negative: the 1 W floor is the caller's job.
    expect(profilePower({ a: 1, b: 0.01, c: 1, d: 0 }, 0)).toBeCloseTo(Math.log(0.01), 12);
  });
});

describe("tdpWorkloads (§10.2)", () => {
  it("returns the four TDP ratios with the original's doubles", () => {
    expect(tdpWorkloads(240)).toEqual([
      { loadPercentage: 0, powerWatt: 28.799999999999997 },
      { loadPercentage: 10, powerWatt: 76.8 },
      { loadPercentage: 50, powerWatt: 180 },
      { loadPercentage: 100, powerWatt: 244.8 },
    ]);
  });
});

describe("fitProfile on TDP points (§10.3)", () => {
  it("reproduces the universal curve without active bounds (T = 40 and T = 200, default base)", () => {
    for (const [tdp, p50] of [
      [40, 29.9273],
      [200, 149.636],
    ]) {
      const fit = fitProfile(tdpWorkloads(tdp), DEFAULT);
      expectWithinBounds(fit, DEFAULT);
      expect(profilePower(fit, 50)).toBeCloseTo(p50, 3);
      expect(profilePower(fit, 50) / tdp).toBeCloseTo(0.7481824, 6);
      expect(fit.a / tdp).toBeCloseTo(0.5084793409, 8);
      expect(fit.c).toBeCloseTo(20.4511032, 6);
      expect(K(fit) / tdp).toBeCloseTo(-1.4153559614, 8);
    }
    const fit40 = fitProfile(tdpWorkloads(40), DEFAULT);
    expect(fit40.a).toBeCloseTo(20.3392, 4);
    expect(fit40.c).toBeCloseTo(20.4511, 4);
  });

  it("is the same curve from another base when no bound is active (Xeon Platinum, T = 240)", () => {
    const fit = fitProfile(tdpWorkloads(240), XEON_PLATINUM);
    expect(fit.a / 240).toBeCloseTo(0.5084793409, 8);
    expect(fit.c).toBeCloseTo(20.4511032, 6);
    expect(K(fit) / 240).toBeCloseTo(-1.4153559614, 8);
  });

  it("finds the constrained optimum when the a-bound is active (Xeon Silver, T = 150)", () => {
    const fit = fitProfile(tdpWorkloads(150), XEON_SILVER);
    expectWithinBounds(fit, XEON_SILVER);
    expect(fit.a).toBeCloseTo(62.3382, 10); // = 3·a₀
    expect(fit.c).toBeCloseTo(13.1852, 4);
    const expected = [16.1526, 51.3374, 113.8348, 150.1752];
    [0, 10, 50, 100].forEach((x, i) => {
      expect(profilePower(fit, x)).toBeCloseTo(expected[i], 3);
    });
  });

  it("activates the Xeon Gold a-bound only above T = 209.85 W", () => {
    const below = fitProfile(tdpWorkloads(209), XEON_GOLD);
    expect(below.a).toBeLessThan(3 * XEON_GOLD.a);
    expect(below.a / 209).toBeCloseTo(0.5084793409, 8);
    const above = fitProfile(tdpWorkloads(211), XEON_GOLD);
    expect(above.a).toBeCloseTo(3 * XEON_GOLD.a, 10);
    expect(above.c).not.toBeCloseTo(20.4511032, 3);
  });

  it("returns TRF's split of K = a·ln b + d (reference values of the original service)", () => {
    // Same (b, d) as SciPy's curve_fit in the original within the 1e-3 conformance tolerance. (b, d) are decided by
    // finite-difference noise along the flat direction, so this holds case by case, not in general (§10.3).
    const cases: Array<[WorkloadPoint[], ProfileParams, ProfileParams]> = [
      [
        tdpWorkloads(28),
        DEFAULT,
        { a: 14.23742151144734, b: 0.07632281446326249, c: 20.45110311812151, d: -3.0001653753535957 },
      ],
      [
        tdpWorkloads(35),
        DEFAULT,
        { a: 17.79677691467583, b: 0.07305423511372744, c: 20.4511031810521, d: -2.971245565663951 },
      ],
      [
        tdpWorkloads(165),
        XEON_PLATINUM,
        { a: 83.8990910688697, b: 0.06639186882688106, c: 20.451103128630553, d: -5.984238231831078 },
      ],
    ];
    for (const [points, start, expected] of cases) {
      const fit = fitProfile(points, start);
      expectWithinBounds(fit, start);
      for (const k of ["a", "b", "c", "d"] as const) {
        expect(Math.abs(fit[k] - expected[k])).toBeLessThanOrEqual(1e-3 * Math.abs(expected[k]));
      }
    }
  });

  it("never returns a worse curve than the variable projection", () => {
    const rss = (p: ProfileParams, data: WorkloadPoint[]): number =>
      data.reduce((s, q) => s + (profilePower(p, q.loadPercentage) - q.powerWatt) ** 2, 0);
    for (const start of [DEFAULT, XEON_PLATINUM, XEON_GOLD, XEON_SILVER]) {
      for (const tdp of [10, 28, 65, 150, 210, 400]) {
        const data = tdpWorkloads(tdp);
        expect(rss(fitProfile(data, start), data)).toBeLessThanOrEqual(
          rss(fitProfileByProjection(data, start), data) * (1 + 1e-9) + 1e-18,
        );
      }
    }
  });

  it("is deterministic", () => {
    expect(fitProfile(tdpWorkloads(165), XEON_PLATINUM)).toEqual(
      fitProfile(tdpWorkloads(165), XEON_PLATINUM),
    );
  });
});

describe("fitProfile on user workloads", () => {
  const pts = (...xy: Array<[number, number]>): WorkloadPoint[] =>
    xy.map(([loadPercentage, powerWatt]) => ({ loadPercentage, powerWatt }));

  it("interpolates two points at SciPy's point of the solution manifold (underdetermined, §10.3)", () => {
    const fit = fitProfile(pts([0, 25.3], [100, 211.8]), XEON_PLATINUM);
    expectFinite(fit);
    expectWithinBounds(fit, XEON_PLATINUM);
    // Production example of §10.3: a = 157.8043, b = 0.028273, c = 44.2404, d = −10.0147.
    expect(fit.a).toBeCloseTo(157.8043, 4);
    expect(fit.b).toBeCloseTo(0.028273, 6);
    expect(fit.c).toBeCloseTo(44.2404, 4);
    expect(fit.d).toBeCloseTo(-10.0147, 4);
    expect(profilePower(fit, 0)).toBeCloseTo(25.3, 6);
    expect(profilePower(fit, 100)).toBeCloseTo(211.8, 6);
  });

  it("follows TRF with a single distinct load or a single point", () => {
    const fit = fitProfile(pts([50, 100], [50, 120]), DEFAULT);
    expectFinite(fit);
    expect(profilePower(fit, 50)).toBeCloseTo(110, 9);
    // SciPy 1.17 (x_scale = 1) from the same start: (171.186907325402, 0.02321800060901539, 36.88482806161842,
    // −10.131441633416854).
    expect(fit.a).toBeCloseTo(171.186907325402, 9);
    expect(fit.b).toBeCloseTo(0.02321800060901539, 12);
    expect(fit.c).toBeCloseTo(36.88482806161842, 9);
    expect(fit.d).toBeCloseTo(-10.131441633416854, 9);
    const one = fitProfile(pts([0, 10]), DEFAULT);
    expect(profilePower(one, 0)).toBeCloseTo(10, 6);
    expect(one.a).toBeCloseTo(167.0004466, 5);
    expect(one.c).toBeCloseTo(34.398594, 5);
  });

  it("answers TRF's stopping point where the projection would interpolate exactly", () => {
    // Two distinct loads: the projection interpolates exactly with c = c₀; TRF creeps along the solution
    // manifold and stops on xtol before interpolating. SciPy 1.17.1 curve_fit answers that stopping point:
    // a 358.5217121194603, b 0.03930630920695204, c 25.254263591328986, d −10.034181193560766.
    const scipy = {
      a: 358.5217121194603,
      b: 0.03930630920695204,
      c: 25.254263591328986,
      d: -10.034181193560766,
    };
    const fit = fitProfile(pts([3, 27.6], [45, 354.1]), DEFAULT);
    expect(fit.a).toBeCloseTo(scipy.a, 3);
    expect(fit.c).toBeCloseTo(scipy.c, 3);
    for (const load of [0, 3, 45, 100])
      expect(profilePower(fit, load)).toBeCloseTo(profilePower(scipy, load), 3);
    expect(Math.abs(profilePower(fit, 3) - 27.6)).toBeGreaterThan(0.01);
  });

  it("keeps c strictly inside its bound where the optimum lies on c = 0", () => {
    // SciPy 1.17.1 curve_fit: a 87.84035568581815, c 8.720268818618773e-17 (its last iterate, not the bound).
    const fit = fitProfile(pts([33, 46.5], [47, 391.2], [87, 194.3], [69, 211.1]), XEON_GOLD);
    expect(fit.c).toBeGreaterThan(0);
    expect(fit.c).toBeLessThan(1e-15);
    expect(fit.a).toBeCloseTo(87.84036, 4);
    expect(Number.isFinite(profilePower(fit, 0))).toBe(true);
  });

  it("matches the original on user workloads (consumption_profile reference)", () => {
    const fit = fitProfile(pts([0, 30], [50, 100], [100, 150]), DEFAULT);
    const expected = {
      a: 176.64160932540284,
      b: 0.012300254786186049,
      c: 102.8194500456784,
      d: -11.482380483020387,
    };
    for (const k of ["a", "b", "c", "d"] as const) {
      expect(Math.abs(fit[k] - expected[k])).toBeLessThanOrEqual(1e-5 * Math.abs(expected[k]));
    }
  });

  it("fits three or more distinct loads through the bounded search", () => {
    const data = pts([0, 50], [10, 90], [50, 180], [100, 240]);
    const fit = fitProfile(data, XEON_GOLD);
    expectWithinBounds(fit, XEON_GOLD);
    // The a-bound 3·a₀ is active here; the fit must still beat nearby feasible curves.
    expect(fit.a).toBeCloseTo(3 * XEON_GOLD.a, 10);
    const rss = (p: ProfileParams): number =>
      data.reduce((s, q) => s + (profilePower(p, q.loadPercentage) - q.powerWatt) ** 2, 0);
    for (const dc of [-0.01, 0.01]) {
      const a = fit.a * 0.999;
      const c = fit.c + dc;
      const mean =
        data.reduce((s, q) => s + q.powerWatt - a * Math.log(q.loadPercentage + c), 0) / data.length;
      expect(rss(fit)).toBeLessThan(rss({ a, b: 1, c, d: mean }));
    }
  });

  it("handles degenerate input without NaN or throwing", () => {
    expect(fitProfile([], DEFAULT)).toEqual(DEFAULT);
    expect(fitProfile(pts([Number.NaN, 10], [50, Number.POSITIVE_INFINITY]), DEFAULT)).toEqual(DEFAULT);
    const cases: Array<[WorkloadPoint[], ProfileParams]> = [
      [pts([0, 10]), DEFAULT],
      [pts([0, 0], [50, 0], [100, 0]), DEFAULT],
      [pts([0, 100], [50, 50], [100, 10]), DEFAULT], // decreasing: a pinned at 0
      [pts([0, -5], [50, -5], [100, -5]), XEON_SILVER],
      [pts([0, 1e6], [50, 2e6], [100, 3e6]), XEON_GOLD],
      [pts([0, 30], [0, 31], [100, 150], [Number.NaN, 3]), XEON_GOLD],
      [pts([-20, 10], [50, 90], [100, 120]), DEFAULT], // x + c must stay positive
      [pts([0, 30], [50, 100], [100, 150]), { a: 0, b: 0.1, c: 10, d: 0 }],
    ];
    for (const [data, start] of cases) {
      const fit = fitProfile(data, start);
      expectFinite(fit);
      for (const q of data) {
        if (Number.isFinite(q.loadPercentage))
          expect(Number.isNaN(profilePower(fit, q.loadPercentage))).toBe(false);
      }
    }
    // Flat data: TRF stops on a flat curve (gtol) where c has drifted; that point, not the projection's
    // c₀, is SciPy's answer (scipy 1.17.1 least_squares: a 2.61e-15, c 107.0908).
    const flat = fitProfile(pts([0, 0], [50, 0], [100, 0]), DEFAULT);
    expect(flat.a).toBeGreaterThanOrEqual(0);
    expect(flat.a).toBeLessThan(1e-12);
    expect(flat.c).toBeCloseTo(107.0908, 3);
    expect(Math.abs(profilePower(flat, 30))).toBeLessThan(1e-12);
    // No c inside [0, 3c₀] makes x + c positive for a load of −200: the start is returned as is.
    expect(fitProfile(pts([-200, 10], [50, 90], [100, 120]), DEFAULT)).toEqual(DEFAULT);
    // b₀ = 0 leaves no valid b.
    const noB = { a: 1, b: 0, c: 1, d: 1 };
    expect(fitProfile(pts([0, 1], [50, 2], [100, 3]), noB)).toEqual(noB);
  });
});
