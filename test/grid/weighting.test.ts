import { describe, expect, it } from "vitest";
import {
  addUseByTime,
  emptyUseByTime,
  gridSeriesOf,
  useByMonth,
  weightedIntensity,
  zoneSpan,
} from "../../src/grid/weighting.js";

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

  it("covers a period inside the series whole, whatever its minutes (no share left to the edition)", () => {
    const year = gridSeriesOf(
      Array.from({ length: 8784 }, (_, i) => ({
        zone: "Y",
        start: T0 + i * HOUR,
        end: T0 + (i + 1) * HOUR,
        gco2PerKwh: 100 + (i % 24),
      })),
    );
    const minute = 60_000;
    for (let i = 0; i < 200; i++) {
      const start = T0 + (i * 37 + 1) * 7 * minute;
      const end = Date.UTC(2024, 11, 31) - i * 13 * minute;
      const { coveredHours, spanHours } = weightedIntensity(year, "Y", start, end);
      expect(coveredHours).toBe(spanHours);
    }
  });
});

/** The totals of one row, with the hours of day and months as plain lists. */
function useOf(
  of: typeof series,
  zone: string,
  span: readonly [number, number],
  energyKwh: number,
  otherGco2PerKwh: number,
) {
  const totals = emptyUseByTime();
  addUseByTime(totals, of, zone, span, energyKwh, otherGco2PerKwh);
  return { byHour: [...totals.byHour], byMonth: useByMonth(totals) };
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

describe("addUseByTime", () => {
  it("puts each hour's energy × intensity in its hour of day", () => {
    // 00:30 to 03:00, 5 kWh: 2 kWh an hour; half an hour at 40, an hour at 50, an hour at 60.
    const { byHour, byMonth } = useOf(series, "FRA", [T0 + 0.5 * HOUR, T0 + 3 * HOUR], 5, 98);
    expect(byHour.slice(0, 4).map((kg) => Number(kg.toFixed(12)))).toEqual([0.04, 0.1, 0.12, 0]);
    expect(sum(byHour.slice(4))).toBe(0);
    // The row's gwp use: 5 kWh × 52 g/kWh (weightedIntensity) ÷ 1000.
    expect(sum(byHour)).toBeCloseTo(0.26, 12);
    expect(byMonth).toHaveLength(1);
    expect(byMonth[0]?.[0]).toBe("2024-01");
    expect(byMonth[0]?.[1]).toBeCloseTo(0.26, 12);
  });

  it("puts the part the series lacks at the other factor, in the hours it falls in", () => {
    // 03:00 to 05:00, 2 kWh: 03:00 at 70 (the series), 04:00 at 98 (the edition's).
    const { byHour } = useOf(series, "FRA", [T0 + 3 * HOUR, T0 + 5 * HOUR], 2, 98);
    expect(byHour[3]).toBeCloseTo(0.07, 12);
    expect(byHour[4]).toBeCloseTo(0.098, 12);
    // The gridRows rule: covered share × the series' 70 + the rest × 98.
    expect(sum(byHour)).toBeCloseTo((2 * (0.5 * 70 + 0.5 * 98)) / 1000, 12);
  });

  it("splits a row spanning two months of a monthly series by the days in each", () => {
    const monthly = gridSeriesOf([
      { zone: "FRA", start: Date.UTC(2024, 0, 1), end: Date.UTC(2024, 1, 1), gco2PerKwh: 31 },
      { zone: "FRA", start: Date.UTC(2024, 1, 1), end: Date.UTC(2024, 2, 1), gco2PerKwh: 29 },
    ]);
    // 15 January to 15 February: 31 days, 744 kWh, 1 kWh an hour.
    const { byHour, byMonth } = useOf(
      monthly,
      "FRA",
      [Date.UTC(2024, 0, 15), Date.UTC(2024, 1, 15)],
      744,
      98,
    );
    expect(byMonth.map(([month]) => month)).toEqual(["2024-01", "2024-02"]);
    // 17 days × 24 kWh × 31 g/kWh, 14 days × 24 kWh × 29 g/kWh.
    expect(byMonth[0]?.[1]).toBeCloseTo(12.648, 9);
    expect(byMonth[1]?.[1]).toBeCloseTo(9.744, 9);
    // Every hour of day: 17 hours at 31, 14 at 29.
    for (const kg of byHour) expect(kg).toBeCloseTo(0.933, 12);
    const weighted = weightedIntensity(monthly, "FRA", Date.UTC(2024, 0, 15), Date.UTC(2024, 1, 15));
    expect(sum(byHour)).toBeCloseTo((744 * (weighted.gco2PerKwh ?? 0)) / 1000, 9);
  });

  it("matches an hour-by-hour walk over a gapped year, its sums the row's gwp use", () => {
    const values = Array.from({ length: 8760 }, (_, i) => 100 + ((i * 37) % 400));
    // Every 7th hour missing from the series.
    const year = gridSeriesOf(
      values.flatMap((v, i) =>
        i % 7 === 3 ? [] : [{ zone: "Y", start: T0 + i * HOUR, end: T0 + (i + 1) * HOUR, gco2PerKwh: v }],
      ),
    );
    const other = 250;
    // From 20 minutes before the series to 5:30 into an hour of July; 3 kWh an hour.
    const span = [T0 - HOUR / 3, T0 + 4500.5 * HOUR] as const;
    const hours = (span[1] - span[0]) / HOUR;
    const { byHour, byMonth } = useOf(year, "Y", span, 3 * hours, other);
    const expected = new Array<number>(24).fill(0);
    expected[23] += (3 * other) / 3 / 1000;
    for (let i = 0; i <= 4500; i++) {
      const intensity = i % 7 === 3 ? other : (values[i] ?? 0);
      expected[i % 24] += (3 * intensity * (i === 4500 ? 0.5 : 1)) / 1000;
    }
    byHour.forEach((kg, hour) => {
      expect(kg).toBeCloseTo(expected[hour] ?? 0, 9);
    });
    expect(byMonth.map(([month]) => month)).toEqual([
      "2023-12",
      "2024-01",
      "2024-02",
      "2024-03",
      "2024-04",
      "2024-05",
      "2024-06",
      "2024-07",
    ]);
    // What weightedIntensity's coverage and the other factor make of the row (src/grid/inventoryRows.ts).
    const weighted = weightedIntensity(year, "Y", span[0], span[1]);
    const share = weighted.coveredHours / weighted.spanHours;
    const applied = share * (weighted.gco2PerKwh ?? 0) + (1 - share) * other;
    expect(sum(byHour)).toBeCloseTo((3 * hours * applied) / 1000, 6);
    expect(sum(byMonth.map(([, kg]) => kg))).toBeCloseTo(sum(byHour), 6);
  });

  it("lists the months between two rows' at 0, and adds rows into the same totals", () => {
    const totals = emptyUseByTime();
    addUseByTime(totals, series, "FRA", [Date.UTC(2023, 11, 31, 23), Date.UTC(2024, 0, 1, 1)], 2, 100);
    addUseByTime(totals, series, "USA", [Date.UTC(2024, 2, 10), Date.UTC(2024, 2, 10, 1)], 1, 400);
    const months = useByMonth(totals);
    expect(months.map(([month]) => month)).toEqual(["2023-12", "2024-01", "2024-02", "2024-03"]);
    // 23:00 of 31 December at 100 (before the series), 00:00 at 40; a zone the series lacks at 400.
    expect(months.map(([, kg]) => Number(kg.toFixed(12)))).toEqual([0.1, 0.04, 0, 0.4]);
    expect(totals.byHour[23]).toBeCloseTo(0.1, 12);
    expect(totals.byHour[0]).toBeCloseTo(0.44, 12);
    expect(useByMonth(emptyUseByTime())).toEqual([]);
  });
});
