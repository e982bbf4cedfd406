/**
 * `impact-service evaluate <part> <part>…`: a billing export delivered in parts (a CUR's
 * report-00001.csv.gz, -00002…; a Parquet export split by its writer) read as one bill
 * (src/billing/reading/layout.ts). The parts of a fixture give the lines, sums and totals of the
 * whole file; a part cut otherwise than the first, lacking a column its format tells lines by,
 * named twice, or of another kind is refused in one line before anything is written; what goes
 * wrong inside a part is said of that part. An AWS CUR's manifest is read as the parts it names
 * (src/billing/reading/manifest.ts).
 */

import { execFileSync } from "node:child_process";
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
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { DuckDBInstance } from "@duckdb/node-api";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BILLING_LINE_BYTES } from "../../src/billing/reading/notes.js";
import { runMain241 } from "../support/cli.js";
import { publicExport } from "../support/publicExports.js";

/** Each run loads DuckDB and the editions: seconds each on a busy 2-core machine. */
const SLOW = { timeout: 180_000 };
const CUR_GZ = publicExport("cur-1.0-focus-converters-aws.csv.gz");
const FOCUS_PARQUET = "test/fixtures/billing/focus-1.2.parquet";
const AZURE_GERMAN = "test/fixtures/billing/azure-ea-german-semicolon.csv";
const scratch = mkdtempSync(join(tmpdir(), "bill-parts-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const at = (name: string) => join(scratch, name);

/** A text bill's header line and its other lines. */
function linesOf(text: string): { header: string; body: string[] } {
  const [header, ...body] = text.split("\n").filter((line) => line !== "");
  return { header, body };
}

/** The text's lines cut into `count` parts, each with the header, as an exporter writes them. */
function partsOf(text: string, count: number): string[] {
  const { header, body } = linesOf(text);
  const size = Math.ceil(body.length / count);
  return Array.from({ length: count }, (_, index) =>
    [header, ...body.slice(index * size, (index + 1) * size)].join("\n").concat("\n"),
  );
}

/** `evaluate <files> -o <output> [options]`: its exit code, stderr and the output's bytes (null when none). */
async function evaluate(files: readonly string[], output: string, options: readonly string[] = []) {
  const { code, stderr } = await runMain241(["evaluate", ...files, "-o", output, ...options]);
  return { code, stderr, written: existsSync(output) ? readFileSync(output, "utf8") : null };
}

describe("a CUR delivered in gzip parts", () => {
  const whole = gunzipSync(readFileSync(CUR_GZ)).toString();
  const parts = partsOf(whole, 3).map((text, index) => {
    const file = at(`report-0000${index + 1}.csv.gz`);
    writeFileSync(file, gzipSync(text));
    return file;
  });

  it(
    "is one bill: the whole file's lines, sums per group and totals, named by its first part",
    SLOW,
    async () => {
      const options = ["--group-by", "lineItem/ProductCode"];
      const alone = await evaluate([CUR_GZ], at("whole.csv"), options);
      const read = await evaluate(parts, at("parts.csv"), options);
      expect(read.code, read.stderr).toBe(0);
      expect(read.written).toBe(alone.written);
      expect(readFileSync(at("parts.groups.csv"), "utf8")).toBe(readFileSync(at("whole.groups.csv"), "utf8"));
      expect(read.stderr).toContain(`billing export ${parts[0]} (and 2 more parts): AWS CUR 1.0`);
      expect(read.stderr).toContain(`  rows read: ${linesOf(whole).body.length.toLocaleString("en-US")}\n`);
      // Past its first line, the summary is the whole file's.
      const rest = (stderr: string) =>
        stderr.slice(stderr.indexOf("\n")).replace(/\/(whole|parts)\.groups/, "/…groups");
      expect(rest(read.stderr)).toBe(rest(alone.stderr));
    },
  );

  it("says a part missing from the numbered series before the run, and reads those given", SLOW, async () => {
    // `report-*.csv.gz` reads what was downloaded: here the second part was not.
    const read = await evaluate([parts[0], parts[2]], at("gap.csv"));
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr.split("\n")[0]).toBe(
      `${parts[0]}: the parts are numbered 1 to 3 and none is numbered 2: a part not given is a bill read short (name it too, or give the report's manifest)`,
    );
    const [first, , third] = partsOf(whole, 3).map((text) => linesOf(text).body.length);
    expect(read.stderr).toContain(`  rows read: ${(first + third).toLocaleString("en-US")}\n`);
    const late = await evaluate([parts[1], parts[2]], at("late.csv"));
    expect(late.stderr.split("\n")[0]).toContain("the parts are numbered 2 to 3 and none is numbered 1:");
  });

  it("is refused, nothing written, when a part is not read as the first is", SLOW, async () => {
    const { header, body } = linesOf(whole);
    const renamed = at("renamed.csv.gz");
    writeFileSync(
      renamed,
      gzipSync(`${header.replace("lineItem/UsageAmount,", "lineItem/Usage,")}\n${body[0]}\n`),
    );
    const plain = at("plain.csv");
    writeFileSync(plain, `${header}\n${body[0]}\n`);
    for (const [part, problem] of [
      [plain, `compression none, where ${parts[0]} has gzip`],
      [FOCUS_PARQUET, `kind Parquet, where ${parts[0]} has CSV text`],
    ]) {
      const read = await evaluate([parts[0], part], at("refused.csv"));
      expect(read.stderr).toBe(`impact-service: ${part}: ${problem}; the parts of one bill are read alike\n`);
      expect(read.code).toBe(2);
      expect(read.written).toBeNull();
    }
    // Its header may differ (joined by name: test/cli/billColumnsJoined.test.ts), not lack a column the format tells lines by
    const read = await evaluate([parts[0], renamed], at("refused.csv"));
    expect(read.stderr).toBe(
      `impact-service: ${renamed}: no column line_item_usage_amount, which AWS CUR 1.0 (legacy CSV, lineItem/… columns) reads to tell its lines (${parts[0]} has it); the parts of one bill are one export\n`,
    );
    expect(read.code).toBe(2);
    expect(read.written).toBeNull();
  });

  it("is refused when a part is named twice, through a link too, or is the output", SLOW, async () => {
    const link = at("link.csv.gz");
    symlinkSync(parts[1], link);
    const twice = await evaluate([parts[0], link, parts[1]], at("twice.csv"));
    expect(twice.stderr).toBe(
      `impact-service: ${parts[1]} is also ${link}: a part named twice would count its lines twice\n`,
    );
    expect(twice.code).toBe(2);
    const over = await runMain241(["evaluate", ...parts, "-o", parts[2]]);
    expect(over.stderr).toBe(
      `impact-service: --output ${parts[2]} is the input ${parts[2]}: name another file; nothing written\n`,
    );
    expect(over.code).toBe(2);
    expect(readFileSync(parts[2]).equals(gzipSync(partsOf(whole, 3)[2]))).toBe(true);
  });

  it(
    "is refused as an inventory's or standard input's parts (ZIP parts: test/cli/zipInput.test.ts)",
    SLOW,
    async () => {
      const inventory = await evaluate(["examples/inventory.csv", parts[0]], at("inventory.csv"));
      expect(inventory.stderr).toBe(
        "impact-service: examples/inventory.csv: no billing export; several files are read as the parts of one billing export\n",
      );
      const fifo = at("part.fifo");
      execFileSync("mkfifo", [fifo]);
      const piped = await evaluate([fifo, parts[0]], at("fifo.csv"));
      expect(piped.stderr).toBe(
        `impact-service: ${fifo}: not a regular file; several files are read as the parts of one billing export\n`,
      );
      const missing = await evaluate([at("missing.csv"), parts[0]], at("missing-out.csv"));
      // Checked first, as any file named: a sentence naming it (no system code).
      expect(missing.stderr).toBe(`impact-service: ${at("missing.csv")}: no such file or folder\n`);
      const stdin = await evaluate(["-", parts[0]], at("stdin.csv"));
      expect(stdin.stderr).toContain("impact-service: -: standard input; several files");
      for (const run of [inventory, piped, missing, stdin]) {
        expect(run.code).toBe(2);
        expect(run.written).toBeNull();
      }
    },
  );
});

describe("what goes wrong inside a part", () => {
  it("a malformed line is said of its part, by its line there (exit 1, nothing written)", SLOW, async () => {
    const [first, second] = partsOf(readFileSync("test/fixtures/billing/azure.csv", "utf8"), 2);
    writeFileSync(at("azure-1.csv"), first);
    const { header, body } = linesOf(second);
    writeFileSync(
      at("azure-2.csv"),
      [header, body[0], `"unterminated,${body[1]}`, body[2]].join("\n").concat("\n"),
    );
    const read = await evaluate([at("azure-1.csv"), at("azure-2.csv")], at("malformed.csv"));
    expect(read.stderr).toBe(
      `impact-service: ${at("azure-2.csv")}: line 3: a malformed line (is the file cut short?); nothing written\n`,
    );
    expect(read.code).toBe(1);
    expect(read.written).toBeNull();
    // DuckDB quotes a line over its longest in full (2 MB) before it names the file.
    writeFileSync(
      at("azure-2.csv"),
      [header, body[0], `"${"x".repeat(2_100_000)}"`, body[2]].join("\n").concat("\n"),
    );
    const long = await evaluate([at("azure-1.csv"), at("azure-2.csv")], at("long-line.csv"));
    expect(long.stderr).toBe(
      `impact-service: ${at("azure-2.csv")}: line 3: longer than 2,000,000 bytes, the longest line read; nothing written\n`,
    );
  });

  it("a gzip part cut short is named, with its last whole line", SLOW, async () => {
    const whole = gzipSync(gunzipSync(readFileSync(CUR_GZ)));
    writeFileSync(at("cut-1.csv.gz"), whole);
    writeFileSync(at("cut-2.csv.gz"), whole.subarray(0, Math.round(whole.length / 2)));
    const read = await evaluate([at("cut-1.csv.gz"), at("cut-2.csv.gz")], at("cut.csv"));
    expect(read.stderr).toMatch(
      new RegExp(
        `^impact-service: ${at("cut-2.csv.gz")}: the gzip file is cut short after line \\d+; nothing written\n$`,
      ),
    );
    expect(read.code).toBe(1);
  });

  it(
    "a decimal-comma cell no number is named by its part and line; parts in `;` read alike",
    SLOW,
    async () => {
      const { header, body } = linesOf(readFileSync(AZURE_GERMAN, "utf8"));
      const quantity = header.split(";").indexOf("Verbrauchte Menge");
      const broken = body[0].split(";").map((cell, index) => (index === quantity ? "12.5,0" : cell));
      writeFileSync(at("german-1.csv"), [header, body[0], body[1]].join("\n").concat("\n"));
      writeFileSync(at("german-2.csv"), [header, body[2], broken.join(";")].join("\n").concat("\n"));
      const read = await evaluate([at("german-1.csv"), at("german-2.csv")], at("german.csv"));
      expect(read.code, read.stderr).toBe(0);
      expect(read.stderr).toContain(
        `${at("german-2.csv")}: line 3, Verbrauchte Menge: "12.5,0" is not a number written with ',' as the decimal mark`,
      );
      expect(read.stderr).toContain("  bad rows: 1\n");
      // Each part's numbers read with its decimal comma, as the whole file's are.
      const lines = parse(read.written ?? "", { columns: true, bom: true }) as Record<string, string>[];
      expect(lines.map((line) => line["Verbrauchte Menge"])).toEqual(["24", "1234.5", "1024", "NaN"]);
    },
  );

  it("a last line DuckDB drops unread (past its buffer) is a bad row naming its part", SLOW, async () => {
    const [first, second] = partsOf(readFileSync("test/fixtures/billing/azure.csv", "utf8"), 2);
    // DuckDB 1.5 drops a last line longer than its reader's 32 MiB buffer, in any part, unsaid.
    writeFileSync(at("long-1.csv"), `${first}${"x".repeat(33 * 1024 * 1024)}\n`);
    writeFileSync(at("long-2.csv"), second);
    const read = await evaluate([at("long-1.csv"), at("long-2.csv")], at("long.csv"));
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toContain("  bad rows: 1\n");
    expect(read.stderr).toContain(
      `bad row: ${at("long-1.csv")}: the last line of its part, is longer than ${MAX_BILLING_LINE_BYTES} bytes; not read: 1 row, cost 0`,
    );
  });
});

describe("a Parquet export in parts", () => {
  let parts: string[] = [];
  beforeAll(async () => {
    const db = await DuckDBInstance.create(":memory:");
    const connection = await db.connect();
    const source = `read_parquet('${FOCUS_PARQUET}')`;
    await connection.run(`COPY (SELECT * FROM ${source} LIMIT 25) TO '${at("focus-1.parquet")}'`);
    await connection.run(`COPY (SELECT * FROM ${source} OFFSET 25) TO '${at("focus-2.parquet")}'`);
    await connection.run(
      `COPY (SELECT * EXCLUDE (ServiceName) FROM ${source} OFFSET 25) TO '${at("focus-other.parquet")}'`,
    );
    connection.closeSync();
    db.closeSync();
    parts = [at("focus-1.parquet"), at("focus-2.parquet")];
  });

  it(
    "gives the whole file's lines; a part lacking a column the format tells lines by is refused",
    SLOW,
    async () => {
      const alone = await evaluate([FOCUS_PARQUET], at("focus-whole.csv"));
      const read = await evaluate(parts, at("focus-parts.csv"));
      expect(read.code, read.stderr).toBe(0);
      expect(read.written).toBe(alone.written);
      const other = await evaluate([parts[0], at("focus-other.parquet")], at("focus-other.csv"));
      expect(other.stderr).toBe(
        `impact-service: ${at("focus-other.parquet")}: no column ServiceName, which FOCUS 1.0–1.2 reads to tell its lines (${parts[0]} has it); the parts of one bill are one export\n`,
      );
      expect(other.code).toBe(2);
      expect(other.written).toBeNull();
    },
  );
});

describe("an AWS CUR manifest (report-Manifest.json)", () => {
  const whole = gunzipSync(readFileSync(CUR_GZ)).toString();
  const folder = at("download");
  const keys = ["report-00001.csv.gz", "report-00002.csv.gz"].map(
    (name) => `cur/report/20261101-20261201/6f2c/${name}`,
  );
  /** A manifest as AWS writes it (fields from its documentation; values of this test's). */
  const manifest = (reportKeys: readonly unknown[]) =>
    JSON.stringify(
      {
        assemblyId: "6f2c",
        account: "123456789012",
        columns: [{ category: "identity", name: "LineItemId", type: "String" }],
        compression: "GZIP",
        contentType: "text/csv",
        reportName: "report",
        billingPeriod: { start: "20261101T000000.000Z", end: "20261201T000000.000Z" },
        reportKeys,
      },
      null,
      2,
    );
  beforeAll(() => {
    // As `aws s3 sync` keeps them: the first part in its assembly's folder, the second alone.
    const [first, second] = partsOf(whole, 2);
    mkdirSync(join(folder, "6f2c"), { recursive: true });
    writeFileSync(join(folder, "6f2c", "report-00001.csv.gz"), gzipSync(first));
    writeFileSync(join(folder, "report-00002.csv.gz"), gzipSync(second));
    writeFileSync(join(folder, "report-Manifest.json"), manifest(keys));
  });

  it("is read as the parts it names, found beside it: the whole file's lines", SLOW, async () => {
    const given = join(folder, "report-Manifest.json");
    const alone = await evaluate([CUR_GZ], at("manifest-whole.csv"));
    const read = await evaluate([given], at("manifest.csv"));
    expect(read.code, read.stderr).toBe(0);
    expect(read.written).toBe(alone.written);
    const found = [join(folder, "6f2c", "report-00001.csv.gz"), join(folder, "report-00002.csv.gz")];
    expect(read.stderr.split("\n").slice(0, 2)).toEqual([
      `${given}: the manifest of the AWS CUR report, 20261101–20261201; its 2 parts read as one bill (${found.join(", ")})`,
      `billing export ${given} (its 2 parts): AWS CUR 1.0 (legacy CSV, lineItem/… columns), edition 2.4.1`,
    ]);
  });

  it(
    "is refused naming a part not beside it, a key that is none, or given with other files",
    SLOW,
    async () => {
      const refused = async (name: string, text: string, also: readonly string[] = []) => {
        writeFileSync(join(folder, name), text);
        const run = await evaluate([join(folder, name), ...also], at(`${name}.csv`));
        expect(run.code).toBe(2);
        expect(run.written).toBeNull();
        return run.stderr;
      };
      const missing = [...keys, "cur/report/20261101-20261201/6f2c/report-00003.csv.gz"];
      expect(await refused("missing-Manifest.json", manifest(missing))).toContain(
        `missing-Manifest.json: its part ${missing[2]} is not beside it (`,
      );
      expect(await refused("number-Manifest.json", manifest([7]))).toContain(
        "number-Manifest.json: reportKeys holds 7, not a file's key",
      );
      expect(await refused("empty-Manifest.json", manifest([]))).toContain(
        "empty-Manifest.json: an AWS CUR manifest naming no part",
      );
      expect(await refused("other-Manifest.json", manifest(keys), [CUR_GZ])).toContain(
        "other-Manifest.json: an AWS CUR manifest among several files; a manifest is given alone",
      );
      const output = await runMain241([
        "evaluate",
        join(folder, "report-Manifest.json"),
        "-o",
        join(folder, "report-Manifest.json"),
      ]);
      expect(output.stderr).toContain("is the input");
      expect(output.code).toBe(2);
    },
  );
});
