/**
 * `npx impact-service evaluate <billing export>` on files laid out otherwise than a comma-separated
 * text with its header first (src/billing/reading): Google Cloud's BigQuery export as BigQuery writes
 * JSON (newline-delimited, plain and gzipped), exports saved by a spreadsheet with `;` (or a tab)
 * and decimal commas, and the EA portal's usage file with report lines above its header. Each run
 * is the command's function (`main`, what the bin awaits): the tests read only what it writes; the values are hand-computed
 * (docs/methodology.md) or those of the same lines laid out as before.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { inputKindOf } from "../../src/billing/reading/layout.js";
import { evaluatedLines, type OutputRow, onlyLine, runMain241, runOnce } from "../support/cli.js";

/** Each run starts tsx and loads the editions: seconds each on a busy 2-core machine. */
const SLOW = { timeout: 180_000 };
const FIXTURES = "test/fixtures/billing";
const scratch = mkdtempSync(join(tmpdir(), "billing-reading-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Evaluates a fixture (or a file) to CSV, gwp only: its stderr and written lines. Once per file:
 * the fixtures several tests compare with (the BigQuery CSV, the German EA file, the legacy CUR)
 * run once for them all.
 */
const evaluate = runOnce((file: string) =>
  evaluatedLines(
    file.includes("/") ? file : join(FIXTURES, file),
    join(scratch, `${file.replaceAll("/", "_")}.out.csv`),
    ["--criteria", "gwp"],
  ),
);

const impacts = (lines: readonly OutputRow[]) =>
  lines.map((row) => [
    row.status,
    row.method,
    row.hours,
    row.method_quantity,
    row.gwp_use_kgco2eq,
    row.gwp_embedded_kgco2eq,
  ]);

/** A CSV file's rows (header first) written with another separator, `numbers` columns' points as commas. */
function relaid(file: string, separator: string, numbers: readonly string[]): string {
  const rows = parse(readFileSync(file), { bom: true }) as string[][];
  const indexes = numbers.map((name) => rows[0].indexOf(name));
  const quoted = (cell: string) =>
    cell.includes(separator) || cell.includes('"') ? `"${cell.replaceAll('"', '""')}"` : cell;
  return rows
    .map((row, at) =>
      row.map((cell, index) => (at > 0 && indexes.includes(index) ? cell.replace(".", ",") : cell)),
    )
    .map((row) => row.map(quoted).join(separator))
    .join("\n")
    .concat("\n");
}

describe("Google Cloud's billing export as BigQuery writes JSON", () => {
  it(
    "reads the resource-level records (service, sku, usage, location) as the CSV's columns",
    SLOW,
    async () => {
      const { stderr, lines } = await evaluate("gcp-bigquery-resource.json");
      expect(stderr).toContain(
        "gcp-bigquery-resource.json: read as newline-delimited JSON (BigQuery's export), each record's fields as columns",
      );
      expect(stderr).toMatch(/Google Cloud billing export \(BigQuery, resource-level\), edition 2\.4\.1/);
      expect(stderr).toContain("  rows read: 6\n");
      expect(stderr).toContain("  bad rows: 0\n");
      // A list of records stays whole, as its JSON text; the credit is not the cost read.
      const cores = onlyLine(lines, "sku.description", "N2 Instance Core running in Paris");
      expect(JSON.parse(cores.credits)[0].amount).toBe(-0.2349);
      expect(stderr).toContain("  cost read: cost\n");
      // The same lines as the BigQuery console saves them to CSV: the same methods, quantities and
      // impacts, which test/cli/billingFormats.test.ts computes by hand for the CSV.
      const csv = await evaluate("gcp-bigquery-resource.csv");
      expect(impacts(lines)).toEqual(impacts(csv.lines));
    },
  );

  it("reads the standard table's records gzipped, alike", SLOW, async () => {
    const { stderr, lines } = await evaluate("gcp-bigquery-standard.json.gz");
    expect(stderr).toMatch(/Google Cloud billing export \(BigQuery, standard\), edition 2\.4\.1/);
    const csv = await evaluate("gcp-bigquery-resource.csv");
    expect(lines.map((row) => row.gwp_use_kgco2eq)).toEqual(csv.lines.map((row) => row.gwp_use_kgco2eq));
  });

  it("names a JSON record that nearly is the export (exit 2), never read as an inventory", SLOW, async () => {
    const records = readFileSync(join(FIXTURES, "gcp-bigquery-resource.json"), "utf8")
      .trim()
      .split("\n")
      .map((text) => {
        const record = JSON.parse(text) as { usage: Record<string, unknown> };
        delete record.usage.unit;
        return JSON.stringify(record);
      });
    const input = join(scratch, "gcp-without-unit.json");
    writeFileSync(input, `${records.join("\n")}\n`);
    const output = join(scratch, "gcp-without-unit.out.csv");
    const { code, stderr } = await runMain241(["evaluate", input, "-o", output]);
    expect(code, stderr).toBe(2);
    expect(stderr).toMatch(
      /the header is nearly a Google Cloud billing export \(BigQuery, standard\) export's \(--input gcp\) but lacks usage_unit\n$/,
    );
    expect(existsSync(output)).toBe(false);
  });

  it(
    "leaves an inventory batch (NDJSON) and other JSON records to the inventory reader, as a batch",
    SLOW,
    async () => {
      const batch = join(scratch, "batch.ndjson");
      writeFileSync(
        batch,
        `${JSON.stringify({ method: "POST", path: "/v1/cloud/instance?verbose=false", body: { provider: "aws", instance_type: "m5.large" } })}\n`,
      );
      expect(inputKindOf(batch, undefined)).toEqual({ kind: "inventory", records: true });
      const other = join(scratch, "other.json");
      writeFileSync(other, '{"name":"a","cost":1}\n');
      expect(inputKindOf(other, undefined)).toEqual({ kind: "inventory", records: true });
      const { code, stdout, stderr } = await runMain241(["evaluate", batch, "--criteria", "gwp"]);
      expect(code, stderr).toBe(0);
      expect(stderr).not.toContain("billing export");
      // The batch route's answer to the line, as the inventory reader writes it.
      const [answer] = stdout
        .trim()
        .split("\n")
        .map((text) => JSON.parse(text) as Record<string, unknown>);
      expect([answer.line, answer.status]).toEqual([1, 200]);
    },
  );
});

describe("exports saved with ';' (or a tab) and decimal commas", () => {
  it(
    "reads a German EA file's 12,5 and 1.234,5, says so, and gives the comma file's impacts",
    SLOW,
    async () => {
      const { stderr, lines } = await evaluate("azure-ea-german-semicolon.csv");
      expect(stderr).toContain(
        "azure-ea-german-semicolon.csv: columns separated by ';'; numbers (Verbrauchte Menge, Erweiterte Kosten) read with ',' as the decimal mark (12,5; 1.234,56 is 1234.56), as its first lines write them\n",
      );
      expect(stderr).toMatch(/Azure EA usage file \(German headers\), edition 2\.4\.1/);
      expect(stderr).toContain("  bad rows: 0\n");
      const [day, batch, egress] = lines;
      // 24 hours of a D4s v3 in germanywestcentral: the comma-separated file's line, the same impacts.
      const comma = await evaluate("azure-ea-german.csv");
      const own = onlyLine(comma.lines, "Name der Verbrauchseinheit", "D4s v3");
      expect([day.hours, day.gwp_use_kgco2eq, day.gwp_embedded_kgco2eq]).toEqual([
        "24",
        own.gwp_use_kgco2eq,
        own.gwp_embedded_kgco2eq,
      ]);
      // 1.234,5 is 1234.5 hours: linear in hours, 1234.5 / 24 = 51.4375 times the day's impacts.
      expect(Number(batch.hours)).toBe(1234.5);
      expect(Number(batch.gwp_use_kgco2eq)).toBeCloseTo(Number(day.gwp_use_kgco2eq) * 51.4375, 8);
      // 1.024 is 1024 (points group digits by three): 1024 GB out.
      expect([egress.method, Number(egress.method_quantity)]).toEqual(["data-transfer", 1024]);
      // The numbers read are written as read, with a decimal point; the others as the file has them.
      expect([batch["Verbrauchte Menge"], batch["Erweiterte Kosten"], batch.Ressourcensatz]).toEqual([
        "1234.5",
        "284.4288",
        "0,2304",
      ]);
      // 5,5296 + 284,4288 + 89,088 = 379.0464, to four figures as the report writes it
      expect(stderr).toContain("coverage: 3 of 3 lines estimated; 379 of 379 positive cost (100.0 %)\n");
    },
  );

  it(
    "names, by line and column, a number it cannot read with the decimal comma: a bad row",
    SLOW,
    async () => {
      const rows = readFileSync(join(FIXTURES, "azure-ea-german-semicolon.csv"), "utf8").split("\r\n");
      rows[2] = rows[2].replace(";1.234,5;", ";12.5;");
      rows[3] = rows[3].replace(";89,088;", ";89,0,88;");
      const input = join(scratch, "semicolon-unreadable.csv");
      writeFileSync(input, rows.join("\r\n"));
      const { stderr, lines } = await evaluate(input);
      // 12.5 is no number with a decimal comma (its point would group three digits): not 12.5, not 125.
      expect(stderr).toContain(
        `${input}: line 3, Verbrauchte Menge: "12.5" is not a number written with ',' as the decimal mark (12,5 or 1.234,56); its line is a bad row\n`,
      );
      expect(stderr).toContain(
        `${input}: line 4, Erweiterte Kosten: "89,0,88" is not a number written with ','`,
      );
      expect(lines.map((row) => row.status.slice(0, 44))).toEqual([
        "evaluated",
        "bad row: quantity is missing or not a number",
        "bad row: quantity is missing or not a number",
      ]);
      expect(stderr).toContain("  bad rows: 2\n");
      // 5,5296 + 284,4288 = 289.9584: the unreadable cost is no cost (four figures: 5.53, 290).
      expect(stderr).toContain("coverage: 1 of 3 lines estimated; 5.53 of 290 positive cost (1.9 %)\n");
      // --strict stops at those bad rows, nothing written, the cells named before its stop
      const output = join(scratch, "semicolon-unreadable-strict.csv");
      const strict = await runMain241(["evaluate", input, "--output", output, "--strict"]);
      expect(strict.code).toBe(1);
      expect(strict.stderr).toContain(`${input}: line 3, Verbrauchte Menge: "12.5" is not a number`);
      expect(strict.stderr).toContain(`${input}: line 4, Erweiterte Kosten: "89,0,88" is not a number`);
      expect(strict.stderr).toContain("impact-service: --strict: 2 bad row(s)");
      expect(existsSync(output)).toBe(false);
    },
  );

  it(
    "reads FOCUS with ';' and decimal commas as the comma file (the rule is every format's)",
    SLOW,
    async () => {
      const input = join(scratch, "focus-semicolon.csv");
      writeFileSync(
        input,
        relaid(join(FIXTURES, "focus-1.0.csv"), ";", ["BilledCost", "ConsumedQuantity", "EffectiveCost"]),
      );
      const semicolon = await evaluate(input);
      expect(semicolon.stderr).toMatch(
        /read with ',' as the decimal mark .*, as its first lines write them\n/,
      );
      const comma = await evaluate("focus-1.0.csv");
      expect(impacts(semicolon.lines)).toEqual(impacts(comma.lines));
      expect(semicolon.stderr.slice(semicolon.stderr.indexOf("  rows read"))).toBe(
        comma.stderr.slice(comma.stderr.indexOf("  rows read")),
      );
    },
  );

  it("reads a tab-separated legacy CUR whose numbers have points, as its lines tell", SLOW, async () => {
    const input = join(scratch, "cur-tabs.csv");
    writeFileSync(input, relaid(join(FIXTURES, "cur-1.0-legacy.csv"), "\t", []));
    const tabs = await evaluate(input);
    expect(tabs.stderr).toContain(
      "columns separated by a tab; numbers (lineItem/UsageAmount, lineItem/UnblendedCost",
    );
    expect(tabs.stderr).toMatch(
      /read with '\.' as the decimal mark \(12\.5\), as its first lines write them\n/,
    );
    const comma = await evaluate("cur-1.0-legacy.csv");
    expect(impacts(tabs.lines)).toEqual(impacts(comma.lines));
  });
});

describe("a header SQL cannot read as it is", () => {
  it(
    "reads a CUR's tags that differ only by case, and a column with no name, renamed and said",
    SLOW,
    async () => {
      // AWS user tags are case-sensitive: a legacy CUR has both columns; an editor leaves a trailing comma.
      const rows = parse(readFileSync(join(FIXTURES, "cur-1.0-legacy.csv")), { bom: true }) as string[][];
      const quoted = (cell: string) => (/[",\n]/.test(cell) ? `"${cell.replaceAll('"', '""')}"` : cell);
      const file = join(scratch, "cur-tags.csv");
      writeFileSync(
        file,
        rows
          .map((row, at) => [
            ...row,
            ...(at === 0 ? ["resourceTags/user:Name", "resourceTags/user:name", ""] : ["web", "Web", ""]),
          ])
          .map((row) => row.map(quoted).join(","))
          .join("\n")
          .concat("\n"),
      );
      const width = rows[0].length;
      const { stderr, lines } = await evaluate(file);
      expect(stderr).toContain(
        `cur-tags.csv: columns renamed, since SQL names ignore case and cannot be empty: resourceTags/user:name (column ${width + 2}) as input_resourceTags/user:name; column ${width + 3} (no name) as column_${width + 3}\n`,
      );
      expect(lines).toHaveLength(rows.length - 1);
      expect(
        lines.map((line) => [
          line["resourceTags/user:Name"],
          line["input_resourceTags/user:name"],
          line[`column_${width + 3}`],
        ]),
      ).toEqual(lines.map(() => ["web", "Web", ""]));
      // The same impacts as the file without the three columns.
      const plain = await evaluate("cur-1.0-legacy.csv");
      expect(lines.map((line) => line.gwp_use_kgco2eq)).toEqual(
        plain.lines.map((line) => line.gwp_use_kgco2eq),
      );
    },
  );
});

describe("the EA portal's usage file, report lines above its header", () => {
  it("skips them, says how many, and reads the lines as the same file without them", SLOW, async () => {
    const { stderr, lines } = await evaluate("azure-ea-portal-preamble.csv");
    expect(stderr).toContain(
      "azure-ea-portal-preamble.csv: its header is line 6; the 5 lines above it (a report's title, not lines of the bill) skipped; line numbers are the file's\n",
    );
    expect(stderr).toMatch(/: Azure EA usage file, edition 2\.4\.1\n/);
    expect(stderr).toContain("  rows read: 3\n");
    // 72 × `10 Hours` = 720 hours of a D4ads v5; 720 × `1 Hour` of a D2ads v5 Low Priority; 120 GB-months
    // of Hot LRS blobs = 120 × 730 h × 3 replicas = 262,800 GB-hours of HDD (docs/methodology.md).
    expect(lines.map((row) => [row["Meter Name"], row.hours, row.method_quantity])).toEqual([
      ["D4ads v5", "720", ""],
      ["D2ads v5 Low Priority", "720", ""],
      ["Hot LRS Data Stored", "", "262800"],
    ]);
    // The same lines as examples/billing/azure.csv (a cost details export): the same impacts.
    const details = await evaluate("examples/billing/azure.csv");
    expect(lines.map((row) => row.gwp_use_kgco2eq)).toEqual(details.lines.map((row) => row.gwp_use_kgco2eq));
    expect(stderr).toContain("  cost read: ExtendedCost\n");
  });

  it(
    "reads a header whose line opens with a byte-order mark below a line (Excel's `sep=;`)",
    SLOW,
    async () => {
      // The German EA file starts with a BOM; a tool prefixing Excel's separator line puts it on line 2.
      const file = join(scratch, "sep-line.csv");
      writeFileSync(
        file,
        Buffer.concat([
          Buffer.from("sep=;\r\n"),
          readFileSync(join(FIXTURES, "azure-ea-german-semicolon.csv")),
        ]),
      );
      const prefixed = await evaluate(file);
      expect(prefixed.stderr).toContain("sep-line.csv: its header is line 2; the 1 line above it");
      const plain = await evaluate("azure-ea-german-semicolon.csv");
      // Before, DuckDB named the first column with its mark and the run ended on a binder error.
      expect(prefixed.lines).toEqual(plain.lines);
    },
  );

  it("names a malformed line by its line in the file, the skipped lines counted", SLOW, async () => {
    const rows = readFileSync(join(FIXTURES, "azure-ea-portal-preamble.csv"), "utf8").split("\r\n");
    rows[7] = rows[7].split(",").slice(0, 5).join(",");
    const input = join(scratch, "preamble-malformed.csv");
    writeFileSync(input, rows.join("\r\n"));
    const { code, stderr } = await runMain241(["evaluate", input, "-o", join(scratch, "malformed.out.csv")]);
    expect(code).toBe(1);
    expect(stderr).toContain(
      `${input}: line 8: a malformed line (is the file cut short?); nothing written\n`,
    );
  });

  it("refuses a header below the 50 lines it reads above one (exit 2), naming its line", SLOW, async () => {
    const rows = readFileSync(join(FIXTURES, "azure-ea-portal-preamble.csv"), "utf8").split("\r\n");
    const input = join(scratch, "preamble-long.csv");
    writeFileSync(input, [...Array(60).fill("Usage Details Report,,"), ...rows.slice(5)].join("\r\n"));
    const output = join(scratch, "preamble-long.out.csv");
    const { code, stderr } = await runMain241(["evaluate", input, "-o", output]);
    expect(code).toBe(2);
    expect(stderr).toBe(
      `impact-service: ${input}: line 61 is a billing export's header, below the 50 lines (64 KiB) read above a header; remove the lines above it\n`,
    );
    expect(existsSync(output)).toBe(false);
  });
});

describe("a header whose cell holds a line break (quoted), as CSV reads it", () => {
  /** The FOCUS fixture with one more column, its name over two lines. */
  function quotedHeaderBill(): string {
    const [header, ...rows] = readFileSync(join(FIXTURES, "focus-whole-bill.csv"), "utf8").trim().split("\n");
    const input = join(scratch, "quoted-header.csv");
    writeFileSync(input, `${header},"x_Note\n(free text)"\n${rows.map((row) => `${row},n`).join("\n")}\n`);
    return input;
  }

  it("is a FOCUS export's: read as the bill, its lines those of the fixture", SLOW, async () => {
    const input = quotedHeaderBill();
    const [quoted, plain] = [await evaluate(input), await evaluate("focus-whole-bill.csv")];
    expect(quoted.stderr.split("\n")[0]).toBe(`billing export ${input}: FOCUS 1.0–1.2, edition 2.4.1`);
    expect(impacts(quoted.lines)).toEqual(impacts(plain.lines));
    expect(quoted.lines.map((row) => row["x_Note\n(free text)"])).toEqual(plain.lines.map(() => "n"));
  });

  it("is the header `sql --header` writes a script for", SLOW, async () => {
    const run = await runMain241(["sql", "--engine", "duckdb", "--header", quotedHeaderBill()]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('"x_Note\n(free text)"');
  });
});

/**
 * A file's kind is its content's, not its name's (src/billing/reading/layout.ts): Parquet by its
 * `PAR1` mark. A CSV named `.parquet` (a download renamed, the /evaluate page's upload) was handed
 * to DuckDB's Parquet reader: `No magic bytes found at end of file`, exit 1.
 */
describe("a CSV named .parquet", () => {
  it("is read as the CSV it is, said so, its lines those of the .csv", SLOW, async () => {
    const named = join(scratch, "focus-whole-bill.parquet");
    writeFileSync(named, readFileSync(join(FIXTURES, "focus-whole-bill.csv")));
    const [misnamed, plain] = [await evaluate(named), await evaluate("focus-whole-bill.csv")];
    expect(misnamed.stderr).toContain(
      `${named}: named .parquet but holds CSV text (no Parquet mark, PAR1), read as such\n`,
    );
    expect(misnamed.stderr).toContain(`billing export ${named}: FOCUS 1.0–1.2, edition 2.4.1\n`);
    expect(impacts(misnamed.lines)).toEqual(impacts(plain.lines));
    expect(misnamed.lines).toHaveLength(plain.lines.length);
  });

  it("gzipped, is read inflated; an inventory so named is read as the inventory it is", SLOW, async () => {
    const gzipped = join(scratch, "cur.parquet");
    writeFileSync(gzipped, readFileSync(join(FIXTURES, "cur.csv.gz")));
    const bill = await evaluate(gzipped);
    expect(bill.stderr).toContain("named .parquet but holds gzipped CSV text");
    expect(bill.lines.length).toBeGreaterThan(0);
    const inventory = join(scratch, "servers.parquet");
    writeFileSync(
      inventory,
      "kind,provider,instance_type,usage_location,hours\ncloud,aws,m5.xlarge,FRA,8760\n",
    );
    const run = await runMain241(["evaluate", inventory, "--criteria", "gwp"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.split("\n")[1]).toBe("cloud,aws,m5.xlarge,FRA,8760,227.2760392,8,22,evaluated,");
  });

  it("is the header `sql --header` reads as CSV", SLOW, async () => {
    const named = join(scratch, "header.parquet");
    writeFileSync(named, readFileSync(join(FIXTURES, "focus-whole-bill.csv")));
    const run = await runMain241(["sql", "--engine", "duckdb", "--header", named]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("ServiceName");
  });
});
