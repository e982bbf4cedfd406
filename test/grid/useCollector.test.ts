import { describe, expect, it } from "vitest";
import { useCollector } from "../../src/grid/useCollector.js";
import { addUseByTime, emptyUseByTime, gridSeriesOf, useByMonth } from "../../src/grid/weighting.js";

const HOUR = 3_600_000;
const T0 = Date.UTC(2024, 0, 1);

/** FRA hourly over 2024's first 60 days at 40 to 63 by hour of day; DEU one month at 400. */
const series = gridSeriesOf([
  ...Array.from({ length: 60 * 24 }, (_, i) => ({
    zone: "FRA",
    start: T0 + i * HOUR,
    end: T0 + (i + 1) * HOUR,
    gco2PerKwh: 40 + (i % 24),
  })),
  { zone: "DEU", start: T0, end: Date.UTC(2024, 1, 1), gco2PerKwh: 400 },
]);

type Row = readonly [string, readonly [number, number], number, number];

/** Each row walked on its own: what the collector must equal. */
function direct(rows: readonly Row[]) {
  const totals = emptyUseByTime();
  for (const [zone, span, energy, other] of rows) addUseByTime(totals, series, zone, span, energy, other);
  return { byHour: [...totals.byHour], byMonth: useByMonth(totals) };
}

function expectSame(
  collected: { byHour: number[]; byMonth: [string, number][] },
  expected: ReturnType<typeof direct>,
) {
  collected.byHour.forEach((kg, hour) => {
    expect(kg).toBeCloseTo(expected.byHour[hour] ?? Number.NaN, 9);
  });
  expect(collected.byMonth.map(([month]) => month)).toEqual(expected.byMonth.map(([month]) => month));
  collected.byMonth.forEach(([, kg], i) => {
    expect(kg).toBeCloseTo(expected.byMonth[i]?.[1] ?? Number.NaN, 9);
  });
}

describe("useCollector", () => {
  it("walks rows of one span once, with their energy summed: the same as each row walked", () => {
    const year: [number, number] = [T0, Date.UTC(2025, 0, 1)];
    const rows: Row[] = [
      ["FRA", year, 100, 98],
      ["DEU", [T0 + 10 * HOUR, T0 + 40 * 24 * HOUR], 5, 380],
      ["FRA", year, 250, 98],
      ["FRA", year, 1, 98],
    ];
    const collector = useCollector(series);
    for (const row of rows) collector.add(...row);
    const result = collector.result();
    expect(result.zones).toEqual(["DEU", "FRA"]);
    expectSame(result, direct(rows));
    // 351 kWh over the year, 40 days of it in the series: the months past it at 98.
    expect(result.byMonth).toHaveLength(12);
    expect(result.byMonth[11]?.[1]).toBeCloseTo((351 * 31 * 24 * 98) / (366 * 24) / 1000, 9);
  });

  it("walks what it holds when its bound of distinct spans is reached, losing nothing", () => {
    // 12,000 rows, each a different span: past the 1,000 spans held, several times.
    const rows: Row[] = Array.from({ length: 12_000 }, (_, i) => [
      "FRA",
      [T0 + i * 0.5 * HOUR, T0 + (i * 0.5 + 1) * HOUR],
      1 + (i % 3),
      98,
    ]);
    const collector = useCollector(series);
    for (const row of rows) collector.add(...row);
    expectSame(collector.result(), direct(rows));
  });
});
