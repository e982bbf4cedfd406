import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  DEFAULT_PRECISION,
  ImpactRangeError,
  roundHalfEven,
  roundImpact,
  roundImpactCapped,
  roundSigFig,
  significantCount,
  significantCountOfScaled,
  UNCERTAINTY_WARNING,
} from "../../src/engine/model/rounding.js";

describe("roundSigFig (docs/methodology.md §12.2)", () => {
  it("reproduces the examples", () => {
    expect(roundSigFig(1.0521, 1)).toBe(1);
    expect(roundSigFig(1.0521, 2)).toBe(1.1);
    expect(roundSigFig(1.0521, 3)).toBe(1.05);
    expect(roundSigFig(0.0251, 1)).toBe(0.03);
    expect(roundSigFig(0.0251, 2)).toBe(0.025);
    expect(roundSigFig(14.9318, 4)).toBe(14.93);
    expect(roundSigFig(5419.285, 4)).toBe(5419);
    expect(roundSigFig(2241972.4, 4)).toBe(2242000);
  });

  it("rounds half up in magnitude and keeps the sign", () => {
    expect(roundSigFig(2.5, 1)).toBe(3);
    expect(roundSigFig(-2.5, 1)).toBe(-3);
    expect(roundSigFig(-14.9318, 4)).toBe(-14.93);
    expect(roundSigFig(0, 4)).toBe(0);
  });

  it("absorbs a carry into a new digit and handles exact powers of ten", () => {
    expect(roundSigFig(9.99999, 4)).toBe(10);
    expect(roundSigFig(99.96, 3)).toBe(100);
    expect(roundSigFig(1000, 4)).toBe(1000);
    expect(roundSigFig(0.001, 1)).toBe(0.001);
  });

  it("gives the values used elsewhere in the methodology", () => {
    // §5.5 r5 of the modelled CPU power, §18.1 verbose output.
    expect(roundSigFig(182.230233, 5)).toBe(182.23);
    expect(roundSigFig(9.088, 5)).toBe(9.088);
    // §18 min/max rounding.
    expect(roundSigFig(110.1471012, 4)).toBe(110.1);
    expect(roundSigFig(6.3406418e-5, 4)).toBe(6.341e-5);
    expect(roundSigFig(1.27183984e-3, 4)).toBe(0.001272);
    expect(roundSigFig(10996910.6, 4)).toBe(11000000);
  });

  it("gives a value whose unit is below every double to p figures of its exact decimal", () => {
    // 5e-324 is 4.9406…e-324: its unit 10^(−326) underflows to 0, where the original divides by
    // zero; 4.941e-324 (4 figures) and 5e-324 (1 figure) are both nearest to the same double.
    expect(roundSigFig(5e-324, 4)).toBe(5e-324);
    expect(roundSigFig(-5e-324, 1)).toBe(-5e-324);
    // 3 × 5e-324 = 1.48…e-323: its unit 10^(−323) is still a double (9.88e-324, inexact), and the
    // original's floating arithmetic is kept: 1.48e-323 / 9.88e-324 is a tie, which goes up.
    expect(roundSigFig(1.5e-323, 1)).toBe(2e-323);
  });

  it("gives a finite number for every finite double", () => {
    const anyDouble = fc.double({ noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(anyDouble, fc.integer({ min: 1, max: 15 }), (x, p) => {
        const rounded = roundSigFig(x, p);
        expect(Number.isFinite(rounded)).toBe(true);
        expect(Math.sign(rounded)).toBe(Math.sign(x) + 0);
      }),
      { numRuns: 5_000 },
    );
  });
});

describe("roundHalfEven (Python round, docs/methodology.md §12.3)", () => {
  it("sends exact ties to the even neighbour", () => {
    expect(roundHalfEven(0.5)).toBe(0);
    expect(roundHalfEven(1.5)).toBe(2);
    expect(roundHalfEven(2.5)).toBe(2);
    expect(roundHalfEven(3.5)).toBe(4);
    expect(roundHalfEven(-0.5)).toBe(0);
    expect(roundHalfEven(-1.5)).toBe(-2);
    expect(roundHalfEven(-2.5)).toBe(-2);
  });

  it("rounds non-ties to the nearest integer", () => {
    expect(roundHalfEven(18.198)).toBe(18);
    expect(roundHalfEven(9.4769)).toBe(9);
    expect(roundHalfEven(0.6165)).toBe(1);
    expect(roundHalfEven(0.49999999999999994)).toBe(0);
    expect(roundHalfEven(-2.6)).toBe(-3);
    expect(roundHalfEven(2 ** 53 + 2)).toBe(2 ** 53 + 2);
  });

  it("returns +0, never -0", () => {
    expect(Object.is(roundHalfEven(-0.4), 0)).toBe(true);
    expect(Object.is(roundHalfEven(-0.5), 0)).toBe(true);
  });
});

describe("significantCount (docs/methodology.md §12.4)", () => {
  const cases: Array<[number, number]> = [
    [0, 0],
    [1.0, 1],
    [0.1, 1],
    [0.01, 1],
    [10, 2],
    [1.1, 2],
    [2.02, 3],
    [22.1, 3],
    [0.245, 3],
    [0.0245, 3],
    [4.32e-4, 3],
    [4.32001e-4, 6],
  ];

  it.each(cases)("significant_count(%s) = %s", (x, expected) => {
    expect(significantCount(x)).toBe(expected);
  });

  it("rescales numbers below one as the original does", () => {
    expect(significantCount(0.0003)).toBe(1);
    expect(significantCount(0.00201)).toBe(3);
    expect(significantCount(1.5e-10)).toBe(2);
    expect(significantCount(-0.245)).toBe(3);
  });

  it("counts a rounded value from its integer and exponent as from the printed double", () => {
    // The double nearest to n × 10^s, parsed from its decimal text: what the rounding makes.
    const scaled = fc
      .tuple(fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }), fc.integer({ min: -345, max: 25 }))
      .map(([n, s]) => ({ n, s, x: Number(`${n}e${s}`) }));
    fc.assert(
      fc.property(scaled, ({ n, s, x }) => significantCountOfScaled(x, n, s) === significantCount(x)),
      { numRuns: 20_000 },
    );
    // Trailing zeros of n move into the exponent; subnormal and zero results take the printed path.
    expect(significantCountOfScaled(0.012, 1200, -5)).toBe(significantCount(0.012));
    expect(significantCountOfScaled(Number("123456789012345e-320"), 123456789012345, -320)).toBe(
      significantCount(Number("123456789012345e-320")),
    );
    expect(significantCountOfScaled(0, 0, -3)).toBe(0);
  });

  it("rescales a number below one as the decimal text of its shortest repr says", () => {
    // §12.4 read literally: the digits and exponent of the shortest repr, rescaled by the largest
    // power of ten (at least 1e-9) dividing it, the 14-digit fixed-point count of the result.
    const textCount = (x: number): number => {
      const [mantissa, e = "0"] = String(x).split("e");
      const [whole, fraction = ""] = mantissa.split(".");
      const all = (whole + fraction).replace(/^0+/, "");
      const significant = all.replace(/0+$/, "");
      const exponent = Number(e) - fraction.length + (all.length - significant.length);
      const k = Math.max(-9, exponent + 1);
      const m = Number(`${significant}e${exponent + 1 - k}`);
      const i = Math.trunc(m);
      const mag = i === 0 ? 1 : Math.floor(Math.log10(i)) + 1;
      if (mag >= 14) return mag;
      const scale = Number(`1e${14 - mag}`);
      let f = scale + Math.trunc(scale * (m - i) + 0.5);
      while (f % 10 === 0) f /= 10;
      return mag + Math.floor(Math.log10(f));
    };
    const belowOne = fc.oneof(
      fc.double({ min: Number.MIN_VALUE, max: 1, maxExcluded: true, noNaN: true }),
      // Short decimals, and their neighbours in floating point (17-digit reprs).
      fc
        .tuple(
          fc.integer({ min: 1, max: 99_999 }),
          fc.integer({ min: -330, max: -1 }),
          fc.integer({ min: -2, max: 2 }),
        )
        .map(([n, s, step]) => Number(`${n}e${s}`) * (1 + step * Number.EPSILON))
        .filter((x) => x > 0 && x < 1),
      fc.constantFrom(0.1 + 0.2, 1 / 3, 2 / 3, 0.999999999999, 5e-324, 1e-10, 1.5e-10, 1e-7, 0.000001),
    );
    fc.assert(
      fc.property(
        belowOne,
        (x) => significantCount(x) === textCount(x) && significantCount(-x) === textCount(x),
      ),
      { numRuns: 50_000 },
    );
  });

  it("counts every integer digit, trailing zeros included", () => {
    // Hence ρ = 100000 (6 > 4) goes through r4 while ρ = 1800 (4) is returned as is.
    expect(significantCount(1800)).toBe(4);
    expect(significantCount(100000)).toBe(6);
    expect(significantCount(1819.821672)).toBe(10);
    expect(significantCount(123456789012345)).toBe(15);
  });
});

describe("an impact without a range (docs/methodology.md §12.3)", () => {
  // §12.3 read literally for Δ = 0: the value is kept at most maxSigFig figures by §12.4's count,
  // else rounded to maxSigFig figures; 0 gets the uncertainty warning (not generated here).
  const literal = (v: number, maxSigFig: number): number =>
    significantCount(v) > maxSigFig ? roundSigFig(v, maxSigFig) : v;
  const values = fc.oneof(
    fc.double({ min: -1, max: 1, noNaN: true }).filter((v) => v !== 0),
    fc.double({ min: 1e-12, max: 1e3, noNaN: true }),
    // Short decimals and their neighbours in floating point, where the count and the repr part.
    fc
      .tuple(
        fc.integer({ min: 1, max: 9_999_999 }),
        fc.integer({ min: -20, max: 2 }),
        fc.integer({ min: -40, max: 40 }),
      )
      .map(([n, s, step]) => Number(`${n}e${s}`) * (1 + step * Number.EPSILON)),
    // Long reprs near short decimals (1.0000000000000001e-7 keeps its 17 figures: a kept quirk).
    fc
      .tuple(
        fc.integer({ min: 1, max: 9_999 }),
        fc.integer({ min: 1, max: 99 }),
        fc.integer({ min: -14, max: -1 }),
      )
      .map(([n, tail, s]) => Number(`${n}0000000000${tail}e${s - 12}`)),
  );
  it.each([
    ["1.2.4", roundImpact],
    ["2.4.1", roundImpactCapped],
  ] as const)("%s: rounds as §12.4's count decides, whatever the magnitude and precision", (_, round) => {
    fc.assert(
      fc.property(values, fc.integer({ min: 1, max: 15 }), (v, maxSigFig) => {
        const precision = { ...DEFAULT_PRECISION, maxSigFig };
        const rounded = round(v, v, v, precision);
        return (
          Object.is(rounded.value, literal(v, maxSigFig)) &&
          Object.is(rounded.min, roundSigFig(v, maxSigFig)) &&
          Object.is(rounded.max, rounded.min) &&
          rounded.warnings.length === 0
        );
      }),
      { numRuns: 100_000 },
    );
    // The quirk itself: within 5e-14 of 1e-7 the count is 4 and the value stays unrounded.
    expect(round(1.0000000000000001e-7, 1.0000000000000001e-7, 1.0000000000000001e-7).value).toBe(
      1.0000000000000001e-7,
    );
  });
});

describe("roundImpact (docs/methodology.md §12.3 and §18)", () => {
  it("CPU use gwp: Δ = 530.9, s = 2 ⇒ 1800", () => {
    expect(roundImpact(1819.821672, 110.1471012, 5419.285269)).toEqual({
      value: 1800,
      min: 110.1,
      max: 5419,
      warnings: [],
    });
  });

  it("CPU use pe: s = 5, round(0.6165) = 1 ⇒ 100000", () => {
    expect(roundImpact(61648.85364, 62.2570572, 2241972.40986)).toEqual({
      value: 100000,
      min: 62.26,
      max: 2242000,
      warnings: [],
    });
  });

  it("CPU use adp: s = -4 ⇒ 0.0003", () => {
    expect(roundImpact(3.0760589e-4, 6.3406418e-5, 1.27183984e-3)).toEqual({
      value: 0.0003,
      min: 6.341e-5,
      max: 0.001272,
      warnings: [],
    });
  });

  it("RAM use pe: ρ = 0 ⇒ raw value to 1 significant figure plus the uncertainty warning", () => {
    expect(roundImpact(442726.93, 447.0947, 16100568.06)).toEqual({
      value: 400000,
      min: 447.1,
      max: 16100000,
      warnings: [UNCERTAINTY_WARNING],
    });
  });

  it("server embedded sums (§18.3, §18.4)", () => {
    expect(roundImpact(947.68661, 459.88341, 2087.04868)).toMatchObject({
      value: 900,
      min: 459.9,
      max: 2087,
    });
    expect(roundImpact(1137.62746, 1073.52746, 1137.62746)).toMatchObject({
      value: 1138,
      min: 1074,
      max: 1138,
    });
    expect(roundImpact(0.25359782, 0.25359782, 0.26106982)).toMatchObject({
      value: 0.2536,
      min: 0.2536,
      max: 0.2611,
    });
    expect(roundImpact(251360.5, 229.029, 10996910.6)).toEqual({
      value: 300000,
      min: 229,
      max: 11000000,
      warnings: [UNCERTAINTY_WARNING],
    });
  });

  it("Δ = 0 keeps the raw value, rounded to 4 figures when it has more", () => {
    expect(roundImpact(14.9318, 14.9318, 14.9318)).toEqual({
      value: 14.93,
      min: 14.93,
      max: 14.93,
      warnings: [],
    });
    expect(roundImpact(0.0204017052, 0.0204017052, 0.0204017052).value).toBe(0.0204);
    expect(roundImpact(233.91, 233.91, 233.91).value).toBe(233.9);
    expect(roundImpact(6.68, 6.68, 6.68).value).toBe(6.68);
  });

  it("an all-zero impact (D = 0) is 0 with the uncertainty warning", () => {
    expect(roundImpact(0, 0, 0)).toEqual({ value: 0, min: 0, max: 0, warnings: [UNCERTAINTY_WARNING] });
  });

  it("cloud examples (§18.5)", () => {
    expect(roundImpact(456.2661, 260.54061, 635.627)).toMatchObject({ value: 460, min: 260.5, max: 635.6 });
    expect(roundImpact(23405.996, 21.3265, 1024001.8)).toEqual({
      value: 20000,
      min: 21.33,
      max: 1024000,
      warnings: [UNCERTAINTY_WARNING],
    });
  });

  it("honours another uncertainty percentage", () => {
    // Δ = (5419.285269 − 110.1471012)/5 = 1061.8 ⇒ s = 3 ⇒ round(1.8198) = 2 ⇒ 2000.
    expect(
      roundImpact(1819.821672, 110.1471012, 5419.285269, { ...DEFAULT_PRECISION, uncertainty: 20 }).value,
    ).toBe(2000);
  });

  it("keeps every digit of a value whose uncertainty is below every double", () => {
    // Δ = (5e-323 − 0)/10 = 4.94e-324 ⇒ s = −324, and 10^(−324) is no double (the original divides
    // by zero): ρ is v itself, of one figure.
    for (const round of [roundImpact, roundImpactCapped]) {
      expect(round(3e-323, 0, 5e-323)).toEqual({ value: 3e-323, min: 0, max: 5e-323, warnings: [] });
    }
  });

  it("gives finite numbers for every finite triple, subnormal ones included", () => {
    const anyDouble = fc.double({ noNaN: true, min: -1e300, max: 1e300 });
    const tiny = fc.double({ noNaN: true, min: -1e-300, max: 1e-300 });
    const triple = fc.tuple(fc.oneof(anyDouble, tiny), fc.oneof(anyDouble, tiny), fc.oneof(anyDouble, tiny));
    fc.assert(
      fc.property(triple, ([a, b, c]) => {
        const [min, value, max] = [a, b, c].sort((x, y) => x - y);
        for (const round of [roundImpact, roundImpactCapped]) {
          const rounded = round(value, min, max);
          expect([rounded.value, rounded.min, rounded.max].every(Number.isFinite)).toBe(true);
        }
      }),
      { numRuns: 5_000 },
    );
  });

  it("throws a typed error when max < min", () => {
    expect(() => roundImpact(1, 2, 1)).toThrow(ImpactRangeError);
    try {
      roundImpact(5, 10, 3);
    } catch (error) {
      expect(error).toBeInstanceOf(ImpactRangeError);
      expect(error).toMatchObject({ value: 5, min: 10, max: 3, name: "ImpactRangeError" });
    }
  });
});
