import { describe, expect, it } from "vitest";
import { gridSeriesOf, weightedIntensity, zoneSpan } from "../../src/grid/weighting.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 1);

/** FRA hourly from T0: 40, 50, 60, 70; DEU one interval of two hours at 300. */
const series = gridSeriesOf([
  ...[40, 50, 60, 70].map((gco2PerKwh, i) => ({
    zone: "FRA",
    start: T0 + i * HOUR,
    end: T0 + (i + 1) * HOUR,
    gco2PerKwh,
  })),
  { zone: "DEU", start: T0, end: T0 + 2 * HOUR, gco2PerKwh: 300 },
]);

describe("weightedIntensity", () => {
  it("is the interval's intensity inside one interval", () => {
    expect(weightedIntensity(series, "FRA", T0 + 1.25 * HOUR, T0 + 1.75 * HOUR)).toEqual({
      gco2PerKwh: 50,
      coveredHours: 0.5,
      spanHours: 0.5,
    });
  });

  it("weighs each interval by its overlap", () => {
    // 0.5 h × 40 + 1 h × 50 + 0.5 h × 60 = 100 over 2 h.
    const weighted = weightedIntensity(series, "FRA", T0 + 0.5 * HOUR, T0 + 2.5 * HOUR);
    expect(weighted.gco2PerKwh).toBeCloseTo(50, 12);
    expect(weighted.coveredHours).toBeCloseTo(2, 12);
    // The whole series: (40 + 50 + 60 + 70) / 4.
    expect(weightedIntensity(series, "FRA", T0, T0 + 4 * HOUR).gco2PerKwh).toBeCloseTo(55, 12);
  });

  it("says how much of the span is covered, and averages over that part only", () => {
    // From 3:00 to 6:00: only the 3:00 hour (70) is in the series.
    expect(weightedIntensity(series, "FRA", T0 + 3 * HOUR, T0 + 6 * HOUR)).toEqual({
      gco2PerKwh: 70,
      coveredHours: 1,
      spanHours: 3,
    });
    // Before the series: 23:00 to 01:00 covers one hour of DEU.
    expect(weightedIntensity(series, "DEU", T0 - HOUR, T0 + HOUR)).toEqual({
      gco2PerKwh: 300,
      coveredHours: 1,
      spanHours: 2,
    });
  });

  it("has no intensity for a zone the series lacks, a span outside it, or an empty span", () => {
    expect(weightedIntensity(series, "USA", T0, T0 + HOUR)).toEqual({
      gco2PerKwh: null,
      coveredHours: 0,
      spanHours: 1,
    });
    expect(weightedIntensity(series, "FRA", T0 + 5 * HOUR, T0 + 6 * HOUR).gco2PerKwh).toBeNull();
    expect(weightedIntensity(series, "FRA", T0 + HOUR, T0 + HOUR).gco2PerKwh).toBeNull();
  });

  it("leaves gaps between intervals out of the weighting", () => {
    const gapped = gridSeriesOf([
      { zone: "Z", start: T0, end: T0 + HOUR, gco2PerKwh: 100 },
      { zone: "Z", start: T0 + 3 * HOUR, end: T0 + 4 * HOUR, gco2PerKwh: 200 },
    ]);
    expect(weightedIntensity(gapped, "Z", T0, T0 + 4 * HOUR)).toEqual({
      gco2PerKwh: 150,
      coveredHours: 2,
      spanHours: 4,
    });
  });

  it("equals the sum over hours of a long span, computed hour by hour", () => {
    const values = Array.from({ length: 8760 }, (_, i) => 100 + ((i * 37) % 400));
    const year = gridSeriesOf(
      values.map((v, i) => ({ zone: "Y", start: T0 + i * HOUR, end: T0 + (i + 1) * HOUR, gco2PerKwh: v })),
    );
    const from = 1000;
    const to = 5000;
    const expected = values.slice(from, to).reduce((sum, v) => sum + v, 0) / (to - from);
    expect(weightedIntensity(year, "Y", T0 + from * HOUR, T0 + to * HOUR).gco2PerKwh).toBeCloseTo(
      expected,
      9,
    );
    expect(zoneSpan(year, "Y")).toEqual([T0, T0 + 8760 * HOUR]);
  });
});
