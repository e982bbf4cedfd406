/**
 * Grid series as Electricity Maps and Ember publish them: unpublished intervals (an empty cell,
 * the exporter's note) and starts left out are gaps; exports concatenated (CRLF then LF, the
 * header again) read; a yearly export's row covers its year; each zone keeps its own step. And
 * what a series may hold: intensities within 0–10,000 gCO2eq/kWh, times of a real offset, 1,000
 * zones counted exactly, a zones file that is a regular file. Values by hand from the files below.
 */
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Database, openDatabase } from "../../src/duckdb/database.js";
import { GridInputError } from "../../src/grid/errors.js";
import { gapTexts } from "../../src/grid/gaps.js";
import { loadGridSeries } from "../../src/grid/series.js";
import { readGridSeries, weightedIntensity } from "../../src/grid/weighting.js";
import { loadGridZones } from "../../src/grid/zones.js";
import { printable } from "../../src/support/terminalText.js";

const scratch = mkdtempSync(join(tmpdir(), "grid-published-"));
let db: Database;

beforeAll(async () => {
  db = await openDatabase();
});
afterAll(() => {
  db.close();
  rmSync(scratch, { recursive: true, force: true });
});

type Interval = [string, string, string, number | null];

async function intervals(): Promise<Interval[]> {
  const reader = await db.connection.runAndReadAll(
    `SELECT zone, strftime(interval_start, '%Y-%m-%d %H:%M'), strftime(interval_end, '%Y-%m-%d %H:%M'), gco2_per_kwh
    FROM grid_interval ORDER BY zone, interval_start`,
  );
  return reader.getRows() as Interval[];
}

function written(name: string, text: string | Buffer): string {
  const file = join(scratch, name);
  writeFileSync(file, text);
  return file;
}

async function failure(run: Promise<unknown>): Promise<string> {
  const error = await run.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(GridInputError);
  const message = (error as Error).message;
  expect(message).not.toContain("\n");
  return message;
}

/** Electricity Maps' export header since 2024 (its data portal's CSV). */
const EM_HEADER =
  "Datetime (UTC),Country,Zone name,Zone id,Carbon intensity gCO₂eq/kWh (direct),Carbon intensity gCO₂eq/kWh (Life cycle),Carbon-free energy percentage (CFE%),Renewable energy percentage (RE%),Data source,Data estimated,Data estimation method";
const em = (time: string, zone: string, lifeCycle: string) =>
  `${time},Country,Zone,${zone},1,${lifeCycle},90,30,source,false,`;
const NOTE = "Data is not complete enough to be published";

describe("a series as published", () => {
  it("reads unpublished days (empty cells, the note) and a day left out as gaps, listed per zone", async () => {
    const file = written(
      "daily.csv",
      [
        EM_HEADER,
        em("2024-01-01 00:00:00", "FR", "40"),
        em("2024-01-02 00:00:00", "FR", ""),
        `2024-01-03 00:00:00,France,France,FR,${NOTE},${NOTE},,,,,`,
        em("2024-01-04 00:00:00", "FR", "70"),
        // 5 January left out: a gap too, not the 4th's value.
        em("2024-01-06 00:00:00", "FR", "90"),
        "",
      ].join("\n"),
    );
    const info = await loadGridSeries(db.connection, file);
    expect(info).toMatchObject({
      zones: 1,
      intervals: 3,
      first: "2024-01-01T00:00:00Z",
      last: "2024-01-07T00:00:00Z",
    });
    expect(await intervals()).toEqual([
      ["FRA", "2024-01-01 00:00", "2024-01-02 00:00", 40],
      ["FRA", "2024-01-02 00:00", "2024-01-03 00:00", null],
      ["FRA", "2024-01-03 00:00", "2024-01-04 00:00", null],
      ["FRA", "2024-01-04 00:00", "2024-01-05 00:00", 70],
      ["FRA", "2024-01-05 00:00", "2024-01-06 00:00", null],
      ["FRA", "2024-01-06 00:00", "2024-01-07 00:00", 90],
    ]);
    expect(info.gaps).toEqual([
      { zone: "FRA", intervals: 3, hours: 72, first: "2024-01-02T00:00:00Z", last: "2024-01-06T00:00:00Z" },
    ]);
    expect(gapTexts(info.gaps)).toEqual([
      "FRA 3 intervals (72 h) from 2024-01-02T00:00:00Z to 2024-01-06T00:00:00Z",
    ]);
    // In memory, a gap is not covered: 1 to 5 January is 40 and 70 over the two days published.
    const series = await readGridSeries(db.connection);
    const day = 86_400_000;
    const jan1 = Date.UTC(2024, 0, 1);
    expect(weightedIntensity(series, "FRA", jan1, jan1 + 4 * day)).toEqual({
      gco2PerKwh: 55,
      coveredHours: 48,
      spanHours: 96,
    });
    expect(weightedIntensity(series, "FRA", jan1 + day, jan1 + 2 * day).gco2PerKwh).toBeNull();
  });

  it("reads two exports concatenated: CRLF then LF, the header again, gzipped or not", async () => {
    const first = [EM_HEADER, em("2024-01-01 00:00:00", "FR", "40"), em("2024-01-01 01:00:00", "FR", "50")];
    const second = [
      `\uFEFF${EM_HEADER}`,
      em("2024-01-01 00:00:00", "DE", "380"),
      em("2024-01-01 01:00:00", "DE", "390"),
    ];
    const text = `${first.join("\r\n")}\r\n${second.join("\n")}\n`;
    const expected: Interval[] = [
      ["DEU", "2024-01-01 00:00", "2024-01-01 01:00", 380],
      ["DEU", "2024-01-01 01:00", "2024-01-01 02:00", 390],
      ["FRA", "2024-01-01 00:00", "2024-01-01 01:00", 40],
      ["FRA", "2024-01-01 01:00", "2024-01-01 02:00", 50],
    ];
    for (const file of [written("two.csv", text), written("two.csv.gz", gzipSync(text))]) {
      expect(await loadGridSeries(db.connection, file)).toMatchObject({ zones: 2, intervals: 4, gaps: [] });
      expect(await intervals()).toEqual(expected);
    }
    // A bad value past the join is still named by its line in the file (line 5: the second header is line 4).
    const bad = written(
      "two-bad.csv",
      `${first.join("\r\n")}\r\n${[EM_HEADER, em("2024-01-01 00:00:00", "DE", "x")].join("\n")}\n`,
    );
    expect(await failure(loadGridSeries(db.connection, bad))).toBe(
      `${bad}: line 5, column "Carbon intensity gCO₂eq/kWh (Life cycle)": "x" is not an intensity in gCO2eq/kWh`,
    );
  });

  it("refuses a gzipped series whose bytes go on past its last member, CRLF or not (read in part before)", async () => {
    const first = [EM_HEADER, em("2024-01-01 00:00:00", "FR", "40")];
    const rest = [em("2024-01-01 01:00:00", "FR", "50")];
    for (const end of ["\r\n", "\n"]) {
      const member = gzipSync(`${first.join(end)}${end}`);
      const file = written(
        `padded-${end.length}.csv.gz`,
        Buffer.concat([member, Buffer.from([0]), gzipSync(`${rest.join("\n")}\n`)]),
      );
      const refused = await failure(loadGridSeries(db.connection, file));
      // DuckDB's own words when it reads the gzip itself; the offset when its copy with LF ends is made
      if (end === "\r\n") {
        expect(refused).toBe(
          `${file}: the gzip file has bytes after its end (from byte offset ${member.length}) that are no gzip member, so it cannot be read whole`,
        );
      } else {
        expect(refused).toMatch(/not a GZIP stream|no gzip member/);
      }
    }
  });

  it("covers a yearly export's year, and keeps each zone's own step (daily and monthly)", async () => {
    const yearly = written(
      "yearly.csv",
      `${EM_HEADER}\n${em("2023-01-01 00:00:00", "FR", "56")}\n${em("2023-01-01 00:00:00", "DE", "381")}\n`,
    );
    expect(await loadGridSeries(db.connection, yearly)).toMatchObject({
      first: "2023-01-01T00:00:00Z",
      last: "2024-01-01T00:00:00Z",
    });
    expect(await intervals()).toEqual([
      ["DEU", "2023-01-01 00:00", "2024-01-01 00:00", 381],
      ["FRA", "2023-01-01 00:00", "2024-01-01 00:00", 56],
    ]);
    const mixed = written(
      "mixed.csv",
      [
        EM_HEADER,
        em("2024-01-30 00:00:00", "FR", "40"),
        em("2024-01-31 00:00:00", "FR", "50"),
        em("2024-01-01 00:00:00", "DE", "380"),
        em("2024-02-01 00:00:00", "DE", "370"),
        "",
      ].join("\n"),
    );
    expect(await loadGridSeries(db.connection, mixed)).toMatchObject({
      last: "2024-03-01T00:00:00Z",
      gaps: [],
    });
    expect(await intervals()).toEqual([
      ["DEU", "2024-01-01 00:00", "2024-02-01 00:00", 380],
      // February's 29 days: the monthly zone's last month whole, not a day.
      ["DEU", "2024-02-01 00:00", "2024-03-01 00:00", 370],
      ["FRA", "2024-01-30 00:00", "2024-01-31 00:00", 40],
      ["FRA", "2024-01-31 00:00", "2024-02-01 00:00", 50],
    ]);
  });
});

describe("what a series may hold", () => {
  const plain = (rows: string[]) => written("values.csv", `zone,start,gco2_per_kwh\n${rows.join("\n")}\n`);

  it.each([
    ["1e308", 'line 3, column "gco2_per_kwh": 1e308 is above 10000 gCO2eq/kWh'],
    ["1e17", 'line 3, column "gco2_per_kwh": 1e17 is above 10000 gCO2eq/kWh'],
    ["10000.5", 'line 3, column "gco2_per_kwh": 10000.5 is above 10000 gCO2eq/kWh'],
    ["inf", 'line 3, column "gco2_per_kwh": "inf" is not an intensity'],
    ["NaN", 'line 3, column "gco2_per_kwh": "NaN" is not an intensity'],
    ["0x10", 'line 3, column "gco2_per_kwh": "0x10" is not an intensity'],
    ["1e400", 'line 3, column "gco2_per_kwh": "1e400" is not an intensity'],
  ])("refuses an intensity of %s, naming the file and line", async (value, expected) => {
    const file = plain([
      "FRA,2024-01-01T00:00Z,50",
      `FRA,2024-01-01T01:00Z,${value}`,
      "FRA,2024-01-01T02:00Z,50",
    ]);
    expect(await failure(loadGridSeries(db.connection, file))).toContain(`${file}: ${expected}`);
  });

  it("reads -0 as 0", async () => {
    await loadGridSeries(db.connection, plain(["FRA,2024-01-01T00:00Z,-0", "FRA,2024-01-01T01:00Z,-0.0e0"]));
    const values = (await intervals()).map(([, , , value]) => value);
    expect(values).toHaveLength(2);
    for (const value of values) expect(Object.is(value, 0)).toBe(true);
  });

  it("reads 0 and 10,000 gCO2eq/kWh, and weighs an hour of 10,000 without moving its neighbours", async () => {
    await loadGridSeries(
      db.connection,
      plain([
        "FRA,2024-01-01T00:00Z,50",
        "FRA,2024-01-01T01:00Z,10000",
        "FRA,2024-01-01T02:00Z,0",
        "FRA,2024-01-01T03:00Z,50",
      ]),
    );
    const series = await readGridSeries(db.connection);
    const hour = 3_600_000;
    const t0 = Date.UTC(2024, 0, 1);
    expect(weightedIntensity(series, "FRA", t0, t0 + hour).gco2PerKwh).toBe(50);
    expect(weightedIntensity(series, "FRA", t0 + 3 * hour, t0 + 4 * hour).gco2PerKwh).toBe(50);
    expect(weightedIntensity(series, "FRA", t0 + 2 * hour, t0 + 3 * hour).gco2PerKwh).toBe(0);
    // Half an hour of each of the first two: (50 + 10,000) / 2.
    expect(weightedIntensity(series, "FRA", t0 + hour / 2, t0 + 1.5 * hour).gco2PerKwh).toBe(5025);
  });

  it.each([
    ["infinity"],
    ["-infinity"],
    ["2024-01-01T01:00+99:99"],
    ["2024-01-01T01:00+14:01"],
    ["2024-01-01T01:00-1500"],
    ["2024-01-01T24:00"],
    ["2024-01-01T01:60"],
    ["epoch"],
    ["2024-01-01 01:00:00 Europe/Paris"],
  ])("refuses a time %s, naming the file and line", async (time) => {
    const file = plain(["FRA,2024-01-01T00:00Z,50", `FRA,${time},60`]);
    expect(await failure(loadGridSeries(db.connection, file))).toBe(
      `${file}: line 3, column "start": ${JSON.stringify(time)} is not a date or time (ISO 8601, UTC or an offset within ±14:00)`,
    );
  });

  it("reads offsets up to ±14:00 in each spelling", async () => {
    await loadGridSeries(
      db.connection,
      plain([
        "A,2024-01-01T14:00+14:00,1",
        "B,2024-01-01 00:00:00-1400,2",
        "C,2024-01-01T05:30:00.5+05,3",
        "D,2024-01-01,4",
      ]),
    );
    expect((await intervals()).map(([zone, start]) => [zone, start])).toEqual([
      ["A", "2024-01-01 00:00"],
      ["B", "2024-01-01 14:00"],
      ["C", "2024-01-01 00:30"],
      ["D", "2024-01-01 00:00"],
    ]);
  });

  it("counts zones exactly: 1,000 read (FR and FRA one zone), 1,001 refused", async () => {
    const zones = (count: number) =>
      Array.from({ length: count }, (_, index) => `Z${index},2024-01-01T00:00Z,${index % 500}`);
    expect(await loadGridSeries(db.connection, plain(zones(900)))).toMatchObject({ zones: 900 });
    expect(
      await loadGridSeries(
        db.connection,
        plain([...zones(999), "FR,2024-01-01T00:00Z,1", "FRA,2024-01-01T01:00Z,2"]),
      ),
    ).toMatchObject({ zones: 1000 });
    const over = plain(zones(1001));
    expect(await failure(loadGridSeries(db.connection, over))).toBe(
      `${over}: a grid intensity series holds at most 1000 zones (1001)`,
    );
  });

  it("shows a zone's control characters in an error, never sends them", async () => {
    const file = plain(["\u001b[2JFR\u009b,2024-01-01T00:00Z,1", "\u001b[2JFR\u009b,2024-01-01T00:00Z,2"]);
    const message = await failure(loadGridSeries(db.connection, file));
    expect(message).toContain("a second interval of zone \\x1b[2JFR\\x9b starting");
    expect(printable("a\u001b]0;title\u0007b\rc\u007f")).toBe("a\\x1b]0;title\\x07b\\x0dc\\x7f");
  });
});

describe("the files a series is read from", () => {
  const ZONES = "provider,place,zone\naws,us-west-1,US-CAL-CISO\n";

  it("refuses a zones file or a series that is a FIFO fed without end, or a device, unread", async () => {
    const fifo = join(scratch, "zones.fifo");
    execFileSync("mkfifo", [fifo]);
    // A writer that never ends: `yes` into the FIFO (it waits for a reader, then writes until refused).
    const writer = spawn("sh", ["-c", `exec yes provider,place,zone > '${fifo}'`], { stdio: "ignore" });
    try {
      expect(await failure(loadGridZones(db.connection, [], fifo))).toBe(
        `${fifo}: the grid zones file is not a regular file (a FIFO, a device or a folder)`,
      );
      expect(await failure(loadGridSeries(db.connection, fifo))).toBe(
        `${fifo}: the grid intensity file is not a regular file (a FIFO, a device or a folder)`,
      );
    } finally {
      writer.kill();
    }
    // A character device like /dev/zero (1, 5), made here.
    const device = join(scratch, "zero");
    execFileSync("mknod", [device, "c", "1", "5"]);
    expect(await failure(loadGridZones(db.connection, [], device))).toBe(
      `${device}: the grid zones file is not a regular file (a FIFO, a device or a folder)`,
    );
    expect(await failure(loadGridZones(db.connection, [], scratch))).toContain("is not a regular file");
    // A regular file within its bound reads; one past it is refused before it is read.
    await loadGridZones(db.connection, [], written("zones.csv", ZONES));
    const large = written("zones-large.csv", `${ZONES}${"#".repeat(1 << 20)}\n`);
    expect(await failure(loadGridZones(db.connection, [], large))).toBe(
      `${large}: a grid zones file holds at most 1048576 bytes (${(1 << 20) + ZONES.length + 1})`,
    );
  });
  it("names a zones file or a series that is a ZIP archive or an image, unread", async () => {
    const zip = join(scratch, "series.csv.zip");
    writeFileSync(zip, Buffer.from("PK\x03\x04\x14\x00\x00\x00\x08\x00", "latin1"));
    expect(await failure(loadGridSeries(db.connection, zip))).toBe(
      `${zip}: the grid intensity file is a ZIP archive: unzip it and give the file it holds`,
    );
    const png = join(scratch, "zones.csv");
    writeFileSync(png, Buffer.from("\x89PNG\r\n\x1a\n", "latin1"));
    expect(await failure(loadGridZones(db.connection, [], png))).toBe(
      `${png}: the grid zones file is a PNG image, which is not read here: give the data as CSV`,
    );
  });
});
