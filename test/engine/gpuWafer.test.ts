import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { effectiveDieArea, VRAM_MM2_PER_GB, vramSurface } from "../../src/engine/components/gpu.js";

describe("GPU wafer model (METHOD-2.4.1 §5.2)", () => {
  it("gives the reference's effective areas to the last bit (they are shown in verbose)", () => {
    expect(effectiveDieArea(814)).toBe(2808.445102929598);
    expect(effectiveDieArea(0)).toBe(0.04032983055982616);
    expect(vramSurface(80, 6)).toBe(2343.1715216882158);
    expect(vramSurface(24, 12)).toBe(506.6304769903343);
    expect(vramSurface(24, 6)).toBe(546.5128267230234);
  });

  it("makes a zero VRAM still cost the kerf of its empty dies (Appendix D.6)", () => {
    expect(vramSurface(0, 6)).toBe(0.24197898335895696);
    expect(vramSurface(0, 6)).toBeCloseTo(6 * effectiveDieArea(0), 15);
  });

  it("costs more wafer than the die itself, and more for a larger die (kerf, edge loss, yield)", () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 2000, noNaN: true }),
        fc.double({ min: 1, max: 2000, noNaN: true }),
        (a, b) => {
          expect(effectiveDieArea(a)).toBeGreaterThan(a);
          const [small, large] = a < b ? [a, b] : [b, a];
          if (large - small > 1e-6) {
            expect(effectiveDieArea(large)).toBeGreaterThan(effectiveDieArea(small));
          }
        },
      ),
    );
  });

  it("shares the VRAM size among its dies at 15.5 mm² per GB", () => {
    expect(VRAM_MM2_PER_GB).toBe(15.5);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 24 }), (vram, dies) => {
        expect(vramSurface(vram, dies)).toBeCloseTo(dies * effectiveDieArea((vram * 15.5) / dies), 6);
      }),
    );
  });
});
