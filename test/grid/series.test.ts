import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/duckdb/database.js";
import { GridInputError } from "../../src/grid/errors.js";
import { loadGridSeries } from "../../src/grid/series.js";
import { readGridSeries, weightedIntensity, zoneSpan } from "../../src/grid/weighting.js";
import { gridPlaces, loadGridZones, normalisedZone } from "../../src/grid/zones.js";

const FIXTURES = new URL("../fixtures/grid/", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "grid-test-"));
let db: Database;

beforeAll(async () => {
  db = await openDatabase();
});
afterAll(() => {
  db.close();
  rmSync(scratch, { recursive: true, force: true });
});

type Interval = [string, string, string, number];

async function intervals(): Promise<Interval[]> {
  const reader = await db.connection.runAndReadAll(
    `SELECT zone, strftime(interval_start, '%Y-%m-%dT%H:%M'), strftime(interval_end, '%Y-%m-%dT%H:%M'), gco2_per_kwh
    FROM grid_interval ORDER BY zone, interval_start`,
  );
  return reader.getRows() as Interval[];
}

function written(name: string, text: string | Buffer): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

async function failure(file: string): Promise<string> {
  const error = await loadGridSeries(db.connection, file).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GridInputError);
  const message = (error as Error).message;
  expect(message).not.toContain("\n");
  return message;
}

describe("loadGridSeries", () => {
  it("reads an Electricity Maps hourly export: life-cycle column, FR named FRA, sub-national zones kept", async () => {
    const info = await loadGridSeries(db.connection, `${FIXTURES}electricity-maps-hourly.csv`);
    expect(info).toEqual({
      shape: "electricity-maps",
      zones: 2,
      intervals: 6,
      first: "2024-01-01T00:00:00Z",
      last: "2024-01-01T04:00:00Z",
      gaps: [],
    });
    expect(await intervals()).toEqual([
      ["FRA", "2024-01-01T00:00", "2024-01-01T01:00", 40],
      ["FRA", "2024-01-01T01:00", "2024-01-01T02:00", 50],
      ["FRA", "2024-01-01T02:00", "2024-01-01T03:00", 60],
      ["FRA", "2024-01-01T03:00", "2024-01-01T04:00", 70],
      ["US-CAL-CISO", "2024-01-01T00:00", "2024-01-01T01:00", 250],
      ["US-CAL-CISO", "2024-01-01T01:00", "2024-01-01T02:00", 260],
    ]);
  });

  it("reads Ember's monthly long format: the CO2 intensity rows of countries, calendar months", async () => {
    const info = await loadGridSeries(db.connection, `${FIXTURES}ember-monthly.csv`);
    expect(info).toMatchObject({ shape: "ember", zones: 2, intervals: 3, last: "2024-03-01T00:00:00Z" });
    expect(await intervals()).toEqual([
      // A zone with one month: it lasts the calendar month (31 days in January).
      ["DEU", "2024-01-01T00:00", "2024-02-01T00:00", 390],
      ["FRA", "2024-01-01T00:00", "2024-02-01T00:00", 31],
      // February 2024 has 29 days.
      ["FRA", "2024-02-01T00:00", "2024-03-01T00:00", 29],
    ]);
  });

  it("reads a plain file, gzipped, with offsets converted to UTC", async () => {
    const file = written(
      "plain.csv.gz",
      gzipSync("zone,start,gco2_per_kwh\nDE,2024-01-01T01:00:00+01:00,300\nDE,2024-01-01T01:00:00Z,310.5\n"),
    );
    expect(await loadGridSeries(db.connection, file)).toMatchObject({
      shape: "plain",
      zones: 1,
      intervals: 2,
    });
    expect(await intervals()).toEqual([
      ["DEU", "2024-01-01T00:00", "2024-01-01T01:00", 300],
      ["DEU", "2024-01-01T01:00", "2024-01-01T02:00", 310.5],
    ]);
  });

  it("reads Parquet", async () => {
    const file = join(scratch, "series.parquet");
    await db.connection.run(
      `COPY (SELECT * FROM read_csv('${FIXTURES}plain.csv', all_varchar = true)) TO '${file}' (FORMAT parquet)`,
    );
    expect(await loadGridSeries(db.connection, file)).toMatchObject({
      shape: "plain",
      zones: 2,
      intervals: 3,
    });
    expect((await intervals())[0]).toEqual(["DEU", "2024-01-01T00:00", "2024-01-01T01:00", 380]);
  });

  it("refuses a header of none of the shapes, naming the three", async () => {
    const message = await failure(written("other.csv", "time,zone,value\n2024-01-01,FR,3\n"));
    expect(message).toContain("not a grid intensity series");
    expect(message).toContain("Electricity Maps");
    expect(message).toContain("Ember");
    expect(message).toContain("zone,start,gco2_per_kwh");
  });

  it.each([
    ["an unparsable time", "FR,2024-02-30,40\n", 'line 3, column "start": "2024-02-30" is not a date'],
    ["an unparsable intensity", "FR,2024-01-01T02:00Z,n/a\n", 'line 3, column "gco2_per_kwh": "n/a" is not'],
    ["a negative intensity", "FR,2024-01-01T02:00Z,-3\n", 'line 3, column "gco2_per_kwh": -3 is a negative'],
    ["an empty zone", ",2024-01-01T02:00Z,3\n", 'line 3, column "zone": no zone'],
    [
      "a duplicate (FR is FRA)",
      "FRA,2024-01-01T00:00Z,41\n",
      'line 3, column "start": a second interval of zone FRA starting 2024-01-01T00:00:00Z',
    ],
  ])("refuses %s in one line naming the file, line and column", async (_, line, expected) => {
    const file = written("bad.csv", `zone,start,gco2_per_kwh\nFR,2024-01-01T00:00Z,40\n${line}`);
    expect(await failure(file)).toContain(`${file}: ${expected}`);
  });

  it("names the line of a bad value in a long file, read on several threads", async () => {
    const hours = Array.from({ length: 150_000 }, (_, i) => {
      const zone = `Z${Math.floor(i / 8760)}`;
      const start = new Date(Date.UTC(2024, 0, 1) + (i % 8760) * 3_600_000).toISOString();
      return `${zone},${start},${i === 123_456 ? "oops" : 100 + (i % 7)}`;
    });
    const file = written("long.csv.gz", gzipSync(`zone,start,gco2_per_kwh\n${hours.join("\n")}\n`));
    expect(await failure(file)).toBe(
      `${file}: line 123458, column "gco2_per_kwh": "oops" is not an intensity in gCO2eq/kWh`,
    );
  });

  it("refuses a missing file and a file without intervals", async () => {
    expect(await failure(join(scratch, "absent.csv"))).toContain("cannot read");
    expect(await failure(written("empty.csv", "zone,start,gco2_per_kwh\n"))).toContain("no interval");
  });
});

describe("readGridSeries", () => {
  it("pulls grid_interval into memory, zone by zone, over several chunks", async () => {
    // Two zones of 3,000 hours each: more than one of DuckDB's chunks (2,048 rows).
    const lines = ["A", "B"].flatMap((zone, z) =>
      Array.from({ length: 3000 }, (_, h) => {
        const start = new Date(Date.UTC(2024, 0, 1) + h * 3_600_000).toISOString();
        return `${zone},${start},${(z + 1) * 100 + (h % 10)}`;
      }),
    );
    await loadGridSeries(
      db.connection,
      written("chunks.csv", `zone,start,gco2_per_kwh\n${lines.join("\n")}\n`),
    );
    const series = await readGridSeries(db.connection);
    expect([...series.zones.keys()]).toEqual(["A", "B"]);
    const t0 = Date.UTC(2024, 0, 1);
    expect(zoneSpan(series, "B")).toEqual([t0, t0 + 3000 * 3_600_000]);
    // Hours 2040 to 2060 of B: (200 + 0…9) twice, mean 204.5.
    const weighted = weightedIntensity(series, "B", t0 + 2040 * 3_600_000, t0 + 2060 * 3_600_000);
    expect(weighted.gco2PerKwh).toBeCloseTo(204.5, 9);
    expect(weighted.coveredHours).toBe(20);
  });
});

describe("loadGridZones", () => {
  it("maps each place to its country's zone, the zones file overriding and adding", async () => {
    const places = gridPlaces(
      [
        { provider: "aws", region: "eu-west-3", usageLocation: "FRA" },
        { provider: "aws", region: "us-west-1", usageLocation: "USA" },
      ],
      ["FRA", "DEU"],
    );
    const zonesFile = written("zones.csv", "provider,place,zone\naws,us-west-1,US-CAL-CISO\n,BEL,BE\n");
    await loadGridZones(db.connection, places, zonesFile);
    const reader = await db.connection.runAndReadAll("SELECT * FROM grid_zone ORDER BY provider, place");
    expect(reader.getRows()).toEqual([
      ["", "BEL", "BEL"],
      ["", "DEU", "DEU"],
      ["", "FRA", "FRA"],
      ["aws", "eu-west-3", "FRA"],
      ["aws", "us-west-1", "US-CAL-CISO"],
    ]);
  });

  it("refuses a zones file with another header or an empty zone, in one line", async () => {
    const header = written("zones-header.csv", "region,zone\nus-west-1,US-CAL-CISO\n");
    await expect(loadGridZones(db.connection, [], header)).rejects.toThrow(
      `${header}: line 1: the grid zones file's header must be provider,place,zone`,
    );
    const empty = written("zones-empty.csv", "provider,place,zone\naws,us-west-1,\n");
    await expect(loadGridZones(db.connection, [], empty)).rejects.toThrow(
      `${empty}: line 2, column zone: empty`,
    );
  });

  it("names countries by ISO 3166-1 alpha-3, other zones as written", () => {
    expect(["FR", "de", "GB", "FRA", "US-CAL-CISO", "XK"].map(normalisedZone)).toEqual([
      "FRA",
      "DEU",
      "GBR",
      "FRA",
      "US-CAL-CISO",
      "XK",
    ]);
  });
});
