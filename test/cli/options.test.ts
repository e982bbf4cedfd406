/** `evaluate`'s one option table and its one decision between inventory and billing export. */
import { describe, expect, it } from "vitest";
import { inputKindOf } from "../../src/cli/billingDispatch.js";
import { evaluateArgs, gridOptionsOf, inventoryOptions, UsageError } from "../../src/cli/options.js";

describe("evaluate's options", () => {
  it("are read alike before and after the file, short or long", () => {
    const before = evaluateArgs(["evaluate", "-o", "out.csv", "--ranges", "bill.csv"]);
    const after = evaluateArgs(["evaluate", "bill.csv", "--output=out.csv", "--ranges"]);
    expect(before).toEqual(after);
    expect(before.file).toBe("bill.csv");
    expect(before.values.output).toBe("out.csv");
  });

  it("refuse the other kind's options and a second file", () => {
    expect(() => inventoryOptions(evaluateArgs(["evaluate", "inv.csv", "--load", "50"]))).toThrow(
      new UsageError("--load is for a billing export, and inv.csv is an inventory"),
    );
    expect(() => evaluateArgs(["evaluate", "a.csv", "b.csv"])).toThrow(
      new UsageError("evaluate takes one file (or -)"),
    );
    expect(() => evaluateArgs(["evaluate", "a.csv", "--nope"])).toThrow(UsageError);
    expect(() => evaluateArgs(["evaluate", "--help"])).toThrow(new UsageError(""));
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
});
