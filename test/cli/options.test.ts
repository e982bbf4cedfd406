/** `evaluate`'s one option table and its one decision between inventory and billing export. */
import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inputKindOf } from "../../src/billing/reading/layout.js";
import {
  AskedAbout,
  billingOptions,
  evaluateArgs,
  gridOptionsOf,
  inventoryOptions,
  loadOf,
  tableFormatOf,
  UsageError,
} from "../../src/cli/options.js";
import { runMain } from "../support/cli.js";

describe("evaluate's options", () => {
  it("are read alike before and after the file, short or long", () => {
    const before = evaluateArgs(["evaluate", "-o", "out.csv", "--ranges", "bill.csv"]);
    const after = evaluateArgs(["evaluate", "bill.csv", "--output=out.csv", "--ranges"]);
    expect(before).toEqual(after);
    expect(before.file).toBe("bill.csv");
    expect(before.values.output).toBe("out.csv");
  });

  it("refuse the other kind's options; several files are a bill's parts, 1,000 at most", () => {
    expect(() => inventoryOptions(evaluateArgs(["evaluate", "inv.csv", "--load", "50"]))).toThrow(
      new UsageError("--load is for a billing export, and inv.csv is an inventory"),
    );
    expect(evaluateArgs(["evaluate", "a.csv", "-o", "out.csv", "b.csv"])).toMatchObject({
      file: "a.csv",
      parts: ["a.csv", "b.csv"],
    });
    expect(evaluateArgs(["evaluate", "a.csv"]).parts).toBeUndefined();
    const parts = Array.from({ length: 1_001 }, (_, index) => `report-${index}.csv`);
    expect(() => evaluateArgs(["evaluate", ...parts])).toThrow(
      new UsageError("1,001 files: a bill is read in 1,000 parts at most"),
    );
    expect(() => evaluateArgs(["evaluate"])).toThrow(
      new UsageError("evaluate takes a file (or - for standard input)"),
    );
    expect(() => evaluateArgs(["evaluate", "a.csv", "--nope"])).toThrow(
      new UsageError("unknown option --nope"),
    );
    expect(() => evaluateArgs(["evaluate", "--help"])).toThrow(new AskedAbout("help"));
    expect(() => evaluateArgs(["--version"])).toThrow(new AskedAbout("version"));
  });
});

describe("the grid series options", () => {
  it("are one pair for both kinds of input: the series, and the zones only with it", () => {
    const args = evaluateArgs([
      "evaluate",
      "bill.csv",
      "--grid-intensity",
      "g.csv.gz",
      "--grid-zones",
      "z.csv",
    ]);
    expect(gridOptionsOf(args.values)).toEqual({ series: "g.csv.gz", zones: "z.csv" });
    expect(gridOptionsOf(evaluateArgs(["evaluate", "bill.csv", "--grid-intensity=g.csv"]).values)).toEqual({
      series: "g.csv",
      zones: null,
    });
    expect(gridOptionsOf(evaluateArgs(["evaluate", "bill.csv"]).values)).toBeNull();
    expect(() =>
      gridOptionsOf(evaluateArgs(["evaluate", "bill.csv", "--grid-zones", "z.csv"]).values),
    ).toThrow(new UsageError("--grid-zones needs --grid-intensity <file>"));
    expect(inventoryOptions(args).grid).toEqual({ series: "g.csv.gz", zones: "z.csv" });
    expect(() =>
      inventoryOptions(evaluateArgs(["evaluate", "b.ndjson", "--grid-intensity", "g.csv"])),
    ).toThrow(new UsageError("--grid-intensity needs a CSV or xlsx inventory"));
  });
});

describe("inventory or billing export", () => {
  it("is --input's when given, else Parquet's, else the CSV header's", () => {
    expect(inputKindOf("x.csv", "focus")).toEqual({ kind: "billing", layout: undefined });
    expect(inputKindOf("test/fixtures/billing/focus-1.0.csv", "csv")).toEqual({ kind: "inventory" });
    expect(inputKindOf("x.parquet", undefined)).toEqual({ kind: "billing", layout: { kind: "parquet" } });
    const focus = inputKindOf("test/fixtures/billing/focus-1.0.csv", undefined);
    expect(focus.kind).toBe("billing");
    const layout = focus.kind === "billing" ? focus.layout : undefined;
    expect(layout?.kind === "csv" ? layout.header.slice(0, 2) : null).toEqual([
      "BilledCost",
      "BillingAccountId",
    ]);
    expect(inputKindOf("examples/inventory.csv", undefined)).toEqual({ kind: "inventory" });
    expect(inputKindOf("-", undefined)).toEqual({ kind: "inventory" });
    expect(inputKindOf("missing.csv", undefined)).toEqual({ kind: "inventory" });
  });

  const scratch = mkdtempSync(join(tmpdir(), "input-kind-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const file = (name: string, bytes: Buffer | string) => {
    writeFileSync(join(scratch, name), bytes);
    return join(scratch, name);
  };
  const zip = Buffer.from("PK\x03\x04\x14\x00\x00\x00", "latin1");

  it("refuses a file no reader takes by its first bytes, whatever its name or --input", () => {
    const utf16 = file("bill.csv", Buffer.from("BilledCost,ChargeCategory\n1,Usage\n", "utf16le"));
    expect(inputKindOf(utf16, undefined)).toEqual({
      kind: "foreign",
      problem: `${utf16} is UTF-16 text, which is not read here: save it as UTF-8 (Excel: CSV UTF-8)`,
    });
    expect(
      inputKindOf(file("chart.csv", Buffer.from("\x89PNG\r\n\x1a\n", "latin1")), undefined),
    ).toMatchObject({ kind: "foreign" });
  });

  it("reads a workbook's ZIP as a workbook, another ZIP as an archive, a Parquet file by its mark, and never reads a FIFO's start", () => {
    const archive = file("cur.csv.zip", zip);
    expect(inputKindOf(archive, undefined)).toEqual({ kind: "archive" });
    // --input says how the archive's file is read
    expect(inputKindOf(archive, "cur")).toEqual({ kind: "archive" });
    expect(inputKindOf(file("inventory.xlsx", zip), undefined)).toEqual({ kind: "inventory" });
    expect(inputKindOf(file("inventory.bin", zip), "xlsx")).toEqual({ kind: "inventory" });
    const unnamed = join(scratch, "focus-export");
    copyFileSync("test/fixtures/billing/focus-1.2.parquet", unnamed);
    expect(inputKindOf(unnamed, undefined)).toEqual({ kind: "billing", layout: { kind: "parquet" } });
    const fifo = join(scratch, "bill.fifo");
    execFileSync("mkfifo", [fifo]);
    // Opening it to read would wait for a writer: it is an inventory's, as standard input is
    expect(inputKindOf(fifo, undefined)).toEqual({ kind: "inventory" });
  });

  it("is said by the command in one line, exit 2, nothing written", async () => {
    const output = join(scratch, "never.csv");
    const run = await runMain([
      "evaluate",
      file("export.csv", Buffer.from("\x89PNG\r\n\x1a\n", "latin1")),
      "-o",
      output,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      `impact-service: ${join(scratch, "export.csv")} is a PNG image, which is not read here: give the data as CSV\n`,
    );
    expect(existsSync(output)).toBe(false);
    // A download that answered with storage's error page, saved under the bill's name.
    const page = file(
      "cur.csv",
      Buffer.from('<?xml version="1.0"?>\n<Error><Code>AccessDenied</Code></Error>\n'),
    );
    const refused = await runMain(["evaluate", page, "-o", output]);
    expect([refused.code, refused.stderr]).toEqual([
      2,
      `impact-service: ${page} is an XML document, which is not read here: it holds no data; download the file again (a link that expired, or that needs a sign-in, answers with a page)\n`,
    ]);
    expect(existsSync(output)).toBe(false);
  });
});

describe("a billing export's options", () => {
  const options = (...argv: string[]) => billingOptions(evaluateArgs(["evaluate", "bill.csv", ...argv]));

  it("read the format from -o, and name the groups file beside the output", () => {
    expect(options("-o", "out/lines.parquet", "--group-by", "tag:team, region")).toEqual({
      input: null,
      format: "parquet",
      groupBy: ["tag:team", "region"],
      groupsShown: "out/lines.groups.parquet",
      filters: [],
    });
    expect(options("--input", "cur", "--filter", "RegionId=eu-west-1", "--filter", "tag:team=")).toEqual({
      input: "cur",
      format: "csv",
      groupBy: [],
      groupsShown: null,
      filters: [
        { column: "RegionId", value: "eu-west-1" },
        { column: "tag:team", value: "" },
      ],
    });
    expect(tableFormatOf(undefined, "t.PARQUET")).toBe("parquet");
    expect(loadOf("37.5")).toBe(37.5);
  });

  it("are refused in the order a user is told: the other kind's, --input, --format, --group-by", () => {
    // Each case is wrong twice; the first check in the order is the one said.
    expect(() => options("--workers", "2", "--input", "xlsx")).toThrow(
      new UsageError("--workers is for an inventory, and bill.csv is a billing export"),
    );
    expect(() => options("--input", "xlsx", "--format", "ndjson")).toThrow(
      new UsageError("--input is focus, cur, azure, gcp or oci for a billing export, not xlsx"),
    );
    expect(() => options("--format", "parquet", "--group-by", "team")).toThrow(
      new UsageError("--format parquet needs --output <file>"),
    );
    expect(() => options("--group-by", "team")).toThrow(new UsageError("--group-by needs --output <file>"));
    expect(() => loadOf("half")).toThrow(new UsageError("--load is a percentage, not half"));
  });
});
