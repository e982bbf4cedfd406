/**
 * An account's months whose columns differ (a month gains a product or tag column, loses another,
 * a provider's `x_` columns come and go, a column's type changes in Parquet) read as one bill,
 * joined by their columns' names (src/billing/reading/joinedParts.ts): as files, as their folder
 * (of links too) and as a ZIP, each month's lines and sums those of the month read alone (to
 * 1e-9), the columns that came and went named per month. Refused only when a part is another
 * export, or the same month is given twice (src/billing/reading/exportPeriods.ts). The months are
 * built here from the repository's fixtures, after the providers' published column histories.
 */
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { CLI_BUNDLE, COMPILE_CACHE } from "../support/bundle.js";
import { runMain241, runOnce } from "../support/cli.js";
import { csvText, type Rows } from "../support/csvText.js";
import { zipFileIn } from "../support/zipFiles.js";

const SLOW = { timeout: 300_000 };
const scratch = mkdtempSync(join(tmpdir(), "bill-columns-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const csvRows = (text: string) => parse(text, { relax_column_count: false }) as Rows;

/** A change of one month's columns: a column added (after another, with its value), or one gone. */
type Change = { add: string; after: string; value: string } | { drop: string };

/** `rows` as the bill of `month` (each date column's `YYYY-MM` rewritten), its columns changed. */
function monthOf(rows: Rows, month: string, dates: readonly string[], changes: readonly Change[]): Rows {
  const [header] = rows;
  const at = dates.map((column) => header.indexOf(column));
  let changed = rows.map((row, index) =>
    index === 0
      ? row
      : row.map((text, column) => (at.includes(column) ? text.replace(/^\d{4}-\d{2}/, month) : text)),
  );
  for (const change of changes) {
    if ("drop" in change) {
      const drop = changed[0].indexOf(change.drop);
      changed = changed.map((row) => row.filter((_, column) => column !== drop));
    } else {
      const after = changed[0].indexOf(change.after) + 1;
      changed = changed.map((row, index) => [
        ...row.slice(0, after),
        index === 0 ? change.add : change.value,
        ...row.slice(after),
      ]);
    }
  }
  return changed;
}

/** `evaluate <files> -o <output> --group-by <column>`: its run, the lines and the groups. */
async function evaluate(files: readonly string[], name: string, groupBy: string) {
  const output = join(scratch, `${name}.csv`);
  const run = await runMain241(["evaluate", ...files, "-o", output, "--group-by", groupBy]);
  const read = (file: string) =>
    existsSync(file) ? (parse(readFileSync(file), { columns: true }) as Record<string, string>[]) : [];
  return { ...run, lines: read(output), groups: read(join(scratch, `${name}.groups.csv`)) };
}

const FIGURES = ["hours", "method_quantity", "energy_kwh", "gwp_embedded_kgco2eq", "gwp_use_kgco2eq"];

/** Two figures equal to 1e-9 (relative), both empty alike. */
function expectNear(found: string | undefined, expected: string | undefined, what: string) {
  if (expected === "" || expected === undefined) {
    expect(found ?? "", what).toBe(expected ?? "");
    return;
  }
  const [a, b] = [Number(found), Number(expected)];
  expect(
    Math.abs(a - b) <= 1e-9 * Math.max(Math.abs(b), 1e-300),
    `${what}: ${found} against ${expected}`,
  ).toBe(true);
}

interface Case {
  readonly name: string;
  /** The base month's text, and the columns holding its dates. */
  readonly text: () => string;
  readonly dates: readonly string[];
  /** The column the sums are grouped by (a month's own value). */
  readonly groupBy: string;
  readonly months: readonly { readonly month: string; readonly changes: readonly Change[] }[];
  /** What stderr says of the second and third months' columns. */
  readonly said: readonly string[];
}

const CASES: readonly Case[] = [
  {
    name: "cur2",
    text: () => readFileSync("test/fixtures/billing/months/cur-2026-04.csv", "utf8"),
    dates: ["bill_billing_period_start_date", "line_item_usage_start_date", "line_item_usage_end_date"],
    groupBy: "bill_billing_period_start_date",
    months: [
      {
        month: "2026-04",
        changes: [{ add: "product_clock_speed", after: "product_instance_type", value: "3.1 GHz" }],
      },
      {
        month: "2026-05",
        changes: [
          { add: "product_category", after: "product_product_family", value: "Compute" },
          { add: "resource_tags_user_owner", after: "resource_tags", value: "ops" },
        ],
      },
      {
        month: "2026-06",
        changes: [{ add: "resource_tags_user_cost_center", after: "resource_tags", value: "42" }],
      },
    ],
    said: [
      "columns since {0}: came product_category, resource_tags_user_owner; went product_clock_speed",
      "columns since {1}: came resource_tags_user_cost_center; went product_category, resource_tags_user_owner",
    ],
  },
  {
    name: "focus",
    text: () => readFileSync("test/fixtures/billing/genai-focus.csv", "utf8"),
    dates: ["BillingPeriodStart", "BillingPeriodEnd", "ChargePeriodStart", "ChargePeriodEnd"],
    groupBy: "BillingPeriodStart",
    months: [
      { month: "2026-08", changes: [{ drop: "x_SkuMeterSubcategory" }] },
      { month: "2026-09", changes: [{ add: "x_ServiceModel", after: "x_SkuMeterName", value: "PaaS" }] },
      {
        month: "2026-10",
        changes: [{ drop: "x_Operation" }, { add: "x_CostCategories", after: "Tags", value: "{}" }],
      },
    ],
    said: [
      "columns since {0}: came x_SkuMeterSubcategory, x_ServiceModel",
      "columns since {1}: came x_CostCategories; went x_Operation, x_ServiceModel",
    ],
  },
  {
    name: "azure",
    text: () => readFileSync("test/fixtures/billing/genai-azure.csv", "utf8"),
    dates: ["Date"],
    groupBy: "Date",
    months: [
      { month: "2026-08", changes: [] },
      { month: "2026-09", changes: [{ add: "x_ResourceGroupName", after: "ResourceId", value: "rg" }] },
      {
        month: "2026-10",
        changes: [{ drop: "Tags" }, { add: "x_BillingProfileId", after: "BillingAccountId", value: "bp" }],
      },
    ],
    said: [
      "columns since {0}: came x_ResourceGroupName",
      "columns since {1}: came x_BillingProfileId; went x_ResourceGroupName, Tags",
    ],
  },
];

/** Each case's months written as files (`<case>-<month>.csv`). */
function monthFiles(testCase: Case): string[] {
  const rows = csvRows(testCase.text());
  return testCase.months.map(({ month, changes }) => {
    const file = join(scratch, `${testCase.name}-${month}.csv`);
    writeFileSync(file, csvText(monthOf(rows, month, testCase.dates, changes)));
    return file;
  });
}

/** Each month's lines and groups read alone, against the joined run's. */
async function expectEachMonthAlone(
  testCase: Case,
  files: readonly string[],
  joined: Awaited<ReturnType<typeof evaluate>>,
) {
  let offset = 0;
  for (const [index, file] of files.entries()) {
    const alone = await evaluate([file], `${testCase.name}-alone-${index}`, testCase.groupBy);
    expect(alone.code, alone.stderr).toBe(0);
    for (const [at, line] of alone.lines.entries()) {
      const read = joined.lines[offset + at];
      expect(read.status, `${basename(file)} line ${at + 1}`).toBe(line.status);
      for (const column of FIGURES)
        expectNear(read[column], line[column], `${basename(file)} line ${at + 1} ${column}`);
    }
    offset += alone.lines.length;
    // The month's sums (its group): those of the month alone
    const [group] = alone.groups;
    const same = joined.groups.find((row) => row[testCase.groupBy] === group[testCase.groupBy]);
    expect(same, group[testCase.groupBy]).toBeDefined();
    for (const [column, value] of Object.entries(group)) {
      if (column === testCase.groupBy) continue;
      expectNear(same?.[column], value, `${basename(file)} sums ${column}`);
    }
  }
  expect(joined.lines).toHaveLength(offset);
}

describe.each(CASES)("three months whose columns differ ($name)", (testCase) => {
  const files = monthFiles(testCase);
  // The months given as files: one run, which both tests read (each still runs it alone)
  const givenRun = runOnce(() => evaluate(files, `${testCase.name}-files`, testCase.groupBy));

  it("read as files: each month's figures its own, the columns that came and went named", SLOW, async () => {
    const joined = await givenRun(undefined);
    expect(joined.code, joined.stderr).toBe(0);
    for (const [index, said] of testCase.said.entries()) {
      expect(joined.stderr).toContain(
        `${files[index + 1]}: ${said.replace("{0}", files[0]).replace("{1}", files[1])}\n`,
      );
    }
    expect(joined.stderr).toContain(`${files[0]}: its parts joined by their columns' names (`);
    await expectEachMonthAlone(testCase, files, joined);
  });

  it("read as their folder, of links too, and as a ZIP: the same lines", SLOW, async () => {
    const alone = await givenRun(undefined);
    expect(alone.code, alone.stderr).toBe(0);
    const folder = join(scratch, `${testCase.name}-links`);
    mkdirSync(folder);
    for (const file of files) symlinkSync(file, join(folder, basename(file)));
    const linked = await evaluate([folder], `${testCase.name}-folder`, testCase.groupBy);
    expect(linked.code, linked.stderr).toBe(0);
    expect(linked.lines).toEqual(alone.lines);
    const zip = await zipFileIn(
      scratch,
      `${testCase.name}.zip`,
      Object.fromEntries(files.map((file) => [basename(file), readFileSync(file)])),
    );
    const zipped = await evaluate([zip], `${testCase.name}-zip`, testCase.groupBy);
    expect(zipped.code, zipped.stderr).toBe(0);
    expect(zipped.lines).toEqual(alone.lines);
    expect(zipped.stderr).toContain("columns since");
  });
});

describe("Parquet months of a CUR whose columns and types differ (as Athena writes them)", () => {
  const months = ["2026-04", "2026-05", "2026-06"];
  const files = months.map((month) => join(scratch, `athena-${month}.parquet`));

  it("are read together, each month its own, a column whose type changed read as text", SLOW, async () => {
    const db = await DuckDBInstance.create(":memory:");
    const connection = await db.connect();
    const source = (month: string) =>
      `read_csv('test/fixtures/billing/months/cur-${month}.csv', all_varchar = true)`;
    // The columns as Athena's tables change: product_clock_speed, then product_category in its
    // place, a tag column added, and the usage amount typed as a number, then as text
    const amount = "CAST(line_item_usage_amount AS DOUBLE) AS line_item_usage_amount";
    const selects = [
      `SELECT * EXCLUDE (resource_tags) REPLACE (${amount}), 'Intel Xeon' AS product_clock_speed FROM ${source("2026-04")}`,
      `SELECT * EXCLUDE (resource_tags) REPLACE (${amount}), 'Compute' AS product_category FROM ${source("2026-05")}`,
      `SELECT * EXCLUDE (resource_tags), 'Compute' AS product_category, 'web' AS resource_tags_user_team FROM ${source("2026-06")}`,
    ];
    for (const [index, select] of selects.entries()) {
      await connection.run(`COPY (${select}) TO '${files[index]}' (FORMAT parquet)`);
    }
    connection.closeSync();
    db.closeSync();
    const groupBy = "bill_billing_period_start_date";
    const joined = await evaluate(files, "athena", groupBy);
    expect(joined.code, joined.stderr).toBe(0);
    expect(joined.stderr).toContain(
      `${files[1]}: columns since ${files[0]}: came product_category; went product_clock_speed\n`,
    );
    expect(joined.stderr).toContain(
      `${files[2]}: columns since ${files[1]}: came resource_tags_user_team; read as text, its type changed: line_item_usage_amount (DOUBLE, then VARCHAR)\n`,
    );
    expect(joined.stderr).toContain(", 1 read as text; a column a part lacks is empty there)");
    await expectEachMonthAlone(
      { name: "athena", text: () => "", dates: [], groupBy, months: [], said: [] },
      files,
      joined,
    );
  });
});

describe("parts refused", () => {
  it("the same month given twice, both named; nothing written", SLOW, async () => {
    const [april, may] = monthFiles(CASES[0]);
    const again = join(scratch, "april-again.csv");
    writeFileSync(again, readFileSync(april));
    const run = await evaluate([april, may, again], "twice", "bill_billing_period_start_date");
    expect(run.stderr).toBe(
      `impact-service: ${again}: its lines are of 2026-04, as ${april}'s are: the same period given twice would count its lines twice; give each period once\n`,
    );
    expect(run.code).toBe(2);
    expect(existsSync(join(scratch, "twice.csv"))).toBe(false);
  });

  it(
    "another export kind: another format, or a read column named otherwise (CUR 2.0 and legacy)",
    SLOW,
    async () => {
      const [april] = monthFiles(CASES[0]);
      const focus = await evaluate(
        [april, "test/fixtures/billing/genai-focus.csv"],
        "kinds",
        "bill_billing_period_start_date",
      );
      expect(focus.stderr).toBe(
        "impact-service: test/fixtures/billing/genai-focus.csv: FOCUS 1.0–1.2, where " +
          `${april} is AWS CUR 2.0; the parts of one bill are one export\n`,
      );
      expect(focus.code).toBe(2);
      // The same month with CUR 1.0's legacy names (lineItem/UsageType…)
      const [header, ...body] = readFileSync(april, "utf8").split("\n");
      const legacy = header
        .split(",")
        .map((name) =>
          name.replace(
            /^line_item_(.*)$/,
            (_, rest: string) =>
              `lineItem/${rest.replace(/_(.)/g, (__, c: string) => c.toUpperCase()).replace(/^./, (c) => c.toUpperCase())}`,
          ),
        );
      const old = join(scratch, "cur-2026-05-legacy.csv");
      writeFileSync(old, [legacy.join(","), ...body].join("\n"));
      const mixed = await evaluate([april, old], "legacy", "bill_billing_period_start_date");
      expect(mixed.stderr).toMatch(
        /^impact-service: .*cur-2026-05-legacy\.csv: column lineItem\/\w+, where .*-2026-04\.csv names it line_item_\w+ \(.* reads either as line_item_\w+\); the parts of one bill are one export, its columns named alike\n$/,
      );
      expect(mixed.code).toBe(2);
    },
  );
});

describe("a folder of many parts", () => {
  /** One-line parts of the CUR month, `count` of them, in a folder of their own. */
  function partsFolder(count: number): string {
    const [header, line] = readFileSync("test/fixtures/billing/months/cur-2026-04.csv", "utf8").split("\n");
    const folder = join(scratch, `parts-${count}`);
    mkdirSync(folder);
    for (let index = 1; index <= count; index += 1) {
      writeFileSync(join(folder, `part-${String(index).padStart(5, "0")}.csv`), `${header}\n${line}\n`);
    }
    return folder;
  }

  it("of 10,000 is refused before any is read, the bound stated", SLOW, async () => {
    const folder = partsFolder(10_000);
    const run = await runMain241(["evaluate", folder, "-o", join(scratch, "many.csv")]);
    expect(run.stderr).toBe(
      `impact-service: ${folder}: a folder of 10,000 bill files; a bill is read in 1,000 parts at most (name fewer, or join them first)\n`,
    );
    expect(run.code).toBe(2);
  });

  it("of 1,000 is read well within the command's 1 GiB (resident set, /usr/bin/time)", SLOW, () => {
    const folder = partsFolder(1_000);
    const output = join(scratch, "thousand.csv");
    const run = spawnSync(
      "/usr/bin/time",
      ["-f", "peak %M KB", process.execPath, CLI_BUNDLE, "evaluate", folder, "-o", output],
      { encoding: "utf8", env: { ...process.env, NODE_COMPILE_CACHE: COMPILE_CACHE } },
    );
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toContain("  rows read: 1,000\n");
    const peak = Number(/peak (\d+) KB/.exec(run.stderr)?.[1]);
    // 270 MB measured (1,000 one-line parts, 2 cores shared); the bound the command keeps is 1 GiB
    expect(peak).toBeGreaterThan(0);
    expect(peak * 1024).toBeLessThan(512 * 1024 * 1024);
  });
});
