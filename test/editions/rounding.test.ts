/**
 * docs/methodology.md §19.2: the capped ("less aggressive") rounding of edition 2.4.1, on the worked examples
 * of the section and on properties relating it to the 1.2.4 rounding.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { roundImpact, roundImpactCapped, UNCERTAINTY_WARNING } from "../../src/engine/model/rounding.js";

describe("capped rounding (2.4.1)", () => {
  it.each([
    // v, min, max → 1.2.4 value, 2.4.1 value, 2.4.1 warning
    [61648.853641, 62.2570572, 2241972.40986, 100000, 60000, false],
    [0.668, 0.0002162, 37.4, 1, 0.7, false],
    [1819.821672, 110.1471, 5419.2853, 1800, 1800, false],
    [20.29217, 10.91891, 81.81527, 20, 20, false],
    [0.00030760589, 6.34e-6, 0.00127184, 0.0003, 0.0003, false],
    [306.0165, 179.9295, 1133.6115, 310, 310, false],
    [0, -100, 100, 0, 0, true],
    [442726.93, 447.09, 16100568, 400000, 400000, true],
  ])("%d (%d…%d): 1.2.4 gives %d, 2.4.1 gives %d", (v, min, max, old, capped, warned) => {
    expect(roundImpact(v, min, max).value).toBe(old);
    const result = roundImpactCapped(v, min, max);
    expect(result.value).toBe(capped);
    expect(result.warnings).toEqual(warned ? [UNCERTAINTY_WARNING] : []);
  });

  it("ties at one significant figure go to even (Appendix D.10: 2.5e4 → 20000, 1.2.4 gave 30000)", () => {
    expect(roundImpactCapped(25000, 0, 1_000_000).value).toBe(20000);
    expect(roundImpact(25000, 0, 1_000_000).value).toBe(30000);
  });

  it("the worked example of §14.1 (CPU pe use): 60000 and no warning", () => {
    expect(roundImpactCapped(61648.85, 12.15, 3199395)).toEqual({
      value: 60000,
      min: 12.15,
      max: 3199000,
      warnings: [],
    });
  });

  it("a negative value with a range gets an answer (the reference fails, Appendix D.9)", () => {
    const result = roundImpactCapped(-3710, -4000, -3000);
    expect(result.value).toBe(-3700);
    expect(result.min).toBe(-4000);
  });

  it("properties: equal to 1.2.4 when the uncertainty is below the value's magnitude; one figure kept otherwise", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1e-6, max: 1e9, noNaN: true }),
        fc.double({ min: 0, max: 1e3, noNaN: true }),
        fc.double({ min: 0, max: 1e3, noNaN: true }),
        (v, down, up) => {
          const min = v / (1 + down);
          const max = v * (1 + up);
          const capped = roundImpactCapped(v, min, max);
          const old = roundImpact(v, min, max);
          const delta = (max - min) / 10;
          if (delta > 0 && Math.floor(Math.log10(delta)) <= Math.floor(Math.log10(v))) {
            expect(capped.value).toBe(old.value);
          }
          // The value is never rounded away, and stays within half a unit of its leading figure.
          expect(capped.value).not.toBe(0);
          const lead = 10 ** Math.floor(Math.log10(v));
          expect(Math.abs(capped.value - v)).toBeLessThanOrEqual(lead / 2 + v * 1e-12);
          expect(capped.warnings.length > 0).toBe(old.warnings.length > 0);
        },
      ),
    );
  });
});
