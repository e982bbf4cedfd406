import { describe, expect, it } from "vitest";
import { money, readable, scaleOf } from "../../src/output/readable.js";

describe("figures for a reader", () => {
  it("writes a cost with four figures, whole units from 1,000 up, cents below", () => {
    expect(money(124_341)).toBe("124,300");
    expect(money(1_305)).toBe("1,305");
    // The whole-bill fixture's coverage: 1,236.97 USD
    expect(money(1_236.97)).toBe("1,237");
    expect(money(17.5234)).toBe("17.52");
    expect(money(16)).toBe("16");
    expect(money(0.003)).toBe("< 0.01");
    expect(money(-0.003)).toBe("> −0.01");
  });

  it("writes a mass in its column's scale, or in its own where the column's needs two zeros", () => {
    // 13,090 kgCO2eq is 13.09 tCO2eq; 0.000002094 kgCO2eq is 2.094 mgCO2eq
    expect(scaleOf("kgCO2eq", [13_090])).toEqual({ unit: "tCO2eq", divisor: 1000 });
    expect(readable(13_090, "kgCO2eq")).toBe("13.09");
    expect(readable(0.000002094, "kgCO2eq")).toBe("2.094");
    // In a column of gCO2eq, 0.0000000227 kgCO2eq (0.0000227 g) is written in mg: 0.0227 mgCO2eq
    const grams = scaleOf("kgCO2eq", [0.5]);
    expect(grams.unit).toBe("gCO2eq");
    expect(readable(0.0000000227, "kgCO2eq", grams)).toBe("0.0227 mgCO2eq");
  });
});
