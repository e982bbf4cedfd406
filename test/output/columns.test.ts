import { describe, expect, it } from "vitest";
import { formatNumber, impactColumn, unitSlug } from "../../src/output/columns.js";

describe("impact columns", () => {
  it("name the criterion, the phase and the unit, then the bound", () => {
    expect(impactColumn("gwp", "kgCO2eq", "embedded")).toBe("gwp_embedded_kgco2eq");
    expect(impactColumn("gwp", "kgCO2eq", "use", "min")).toBe("gwp_use_kgco2eq_min");
    expect(impactColumn("CTUh_c", "CTUh", "use", "max")).toBe("ctuh_c_use_ctuh_max");
    expect(impactColumn("lu", "No dimension", "embedded")).toBe("lu_embedded");
  });

  it("slug units to letters and digits", () => {
    expect(unitSlug("kg CO2 eq.")).toBe("kgco2eq");
    expect(unitSlug("m3 eq.")).toBe("m3eq");
    expect(unitSlug("mol H+ eq.")).toBe("molheq");
  });
});

describe("formatNumber", () => {
  it("drops float noise and keeps ten significant digits", () => {
    expect(formatNumber(0.0012000000000000001)).toBe("0.0012");
    expect(formatNumber(130492994.93300073)).toBe("130492994.9");
    expect(formatNumber(0.1 + 0.2)).toBe("0.3");
    expect(formatNumber(1234)).toBe("1234");
    expect(formatNumber(-2.5e-12)).toBe("-2.5e-12");
  });

  it("writes nothing for a number that is not finite", () => {
    expect(formatNumber(Number.NaN)).toBe("");
    expect(formatNumber(Number.POSITIVE_INFINITY)).toBe("");
  });
});
