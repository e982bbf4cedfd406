/**
 * `tag:<key>` in each of the six forms exports write tags (src/billing/reading/tags.ts), a fixture
 * each: FOCUS `Tags`, CUR 2.0 `resource_tags`, the legacy CUR's `resourceTags/user:*` and
 * `resourceTags/aws:*`, Azure's `Tags` JSON, Google's `labels`, OCI's `tags/*`. Each group's lines
 * and gwp are the evaluated lines' of that tag as the test reads it from the file itself, and a
 * --filter of one value keeps the lines of that group.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { BillingInputError, evaluateBillingExport } from "../../src/billing/bill.js";
import { literal } from "../../src/duckdb/sqlText.js";
import { billingRequest, billingTermsOf } from "./support.js";

const FIXTURES = new URL("../fixtures/billing/", import.meta.url).pathname;
const scratch = mkdtempSync(join(tmpdir(), "tag-forms-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Row = Record<string, string>;
const rowsOf = (file: string) => parse(readFileSync(file, "utf8"), { columns: true }) as Row[];

/** The legacy CUR with an AWS-generated tag column beside its user tag (`aws:createdBy`, as AWS names it). */
function legacyWithAwsTag(): string {
  const lines = readFileSync(join(FIXTURES, "cur-1.0-legacy.csv"), "utf8").trimEnd().split("\n");
  const file = join(scratch, "cur-1.0-legacy-aws-tag.csv");
  const creators = ["AssumedRole:AROAEXAMPLE:ci", "IAMUser:AIDAEXAMPLE:ops"];
  writeFileSync(
    file,
    `${[`${lines[0]},"resourceTags/aws:createdBy"`, ...lines.slice(1).map((line, i) => `${line},${creators[i % 2]}`)].join("\n")}\n`,
  );
  return file;
}

/** A Google export read as Parquet (its labels a list of structs): the JSON export converted by DuckDB. */
async function gcpParquet(): Promise<string> {
  const file = join(scratch, "gcp-labels.parquet");
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  await connection.run(
    `COPY (SELECT * FROM read_json(${literal(join(FIXTURES, "gcp-bigquery-resource.json"))})) TO ${literal(file)} (FORMAT parquet)`,
  );
  connection.closeSync();
  instance.closeSync();
  return file;
}

/** How the test reads a line's tag from the file's own cells (not the run's reading). */
const fromObject = (column: string, key: string) => (row: Row) => {
  const text = (row[column] ?? "").trim();
  if (text === "") return "";
  const tags = JSON.parse(text.startsWith("{") ? text : `{${text}}`) as Record<string, string>;
  return tags[key] ?? tags[`user_${key}`] ?? tags[`user:${key}`] ?? "";
};
const fromList = (column: string, key: string) => (row: Row) => {
  const list = JSON.parse(row[column] || "[]") as { key: string; value: string }[];
  return list.find((label) => label.key === key)?.value ?? "";
};
const fromColumn = (column: string) => (row: Row) => row[column] ?? "";

interface Form {
  readonly form: string;
  readonly file: () => string | Promise<string>;
  readonly key: string;
  readonly tagOf: (row: Row) => string;
  readonly groups: number;
}

const FORMS: readonly Form[] = [
  {
    form: "FOCUS Tags",
    file: () => join(FIXTURES, "focus-1.0.csv"),
    key: "team",
    tagOf: fromObject("Tags", "team"),
    groups: 3,
  },
  {
    form: "CUR 2.0 resource_tags",
    file: () => join(FIXTURES, "cur-whole-bill.csv"),
    key: "team",
    tagOf: fromObject("resource_tags", "team"),
    groups: 1,
  },
  {
    form: "legacy CUR resourceTags/user:*",
    file: () => join(FIXTURES, "cur-1.0-legacy.csv"),
    key: "user:team",
    tagOf: fromColumn("resourceTags/user:team"),
    // web, batch, ml and a line of no tag
    groups: 4,
  },
  {
    form: "legacy CUR resourceTags/aws:*",
    file: legacyWithAwsTag,
    key: "aws:createdBy",
    tagOf: fromColumn("resourceTags/aws:createdBy"),
    groups: 2,
  },
  {
    form: "Azure Tags",
    file: () => join(FIXTURES, "azure.csv"),
    key: "env",
    tagOf: fromObject("Tags", "env"),
    groups: 1,
  },
  {
    form: "Google labels",
    file: () => join(FIXTURES, "gcp-bigquery-resource.csv"),
    key: "team",
    tagOf: fromList("labels", "team"),
    groups: 1,
  },
  {
    form: "OCI tags/*",
    file: () => join(FIXTURES, "oci-cost-report.csv"),
    key: "Oracle-Tags.CreatedBy",
    tagOf: fromColumn("tags/Oracle-Tags.CreatedBy"),
    groups: 1,
  },
];

async function grouped(file: string, name: string, asked: Record<string, unknown>) {
  const output = join(scratch, `${name}.csv`);
  const groupsOutput = join(scratch, `${name}.groups.csv`);
  await evaluateBillingExport(
    billingTermsOf("2.4.1", { criteria: ["gwp"] }),
    billingRequest(file, output, { groupsOutput, ...asked }),
  );
  return { lines: rowsOf(output), groups: rowsOf(groupsOutput) };
}

describe("tag:<key> in every form exports write tags", () => {
  it.each(FORMS)("$form: --group-by tag:$key sums each tag's evaluated lines", async (form) => {
    const file = await form.file();
    const name = `tag:${form.key}`;
    const { lines, groups } = await grouped(file, form.form.replaceAll(/\W/g, "_"), { groupBy: [name] });
    const evaluated = lines.filter((row) => row.status === "evaluated");
    const tags = [...new Set(evaluated.map(form.tagOf))].sort();
    expect(tags.length).toBe(form.groups);
    expect(groups.map((group) => group[name]).sort()).toEqual(tags);
    for (const group of groups) {
      const members = evaluated.filter((row) => form.tagOf(row) === group[name]);
      expect(Number(group.lines)).toBe(members.length);
      const gwp = members.reduce((sum, row) => sum + Number(row.gwp_use_kgco2eq), 0);
      expect(Math.abs(Number(group.gwp_use_kgco2eq) - gwp)).toBeLessThanOrEqual(1e-8 * gwp);
    }
    // --filter of the first tag's value keeps that group's lines only
    const first = tags.find((tag) => tag !== "") ?? "";
    const { groups: kept } = await grouped(file, `${form.form.replaceAll(/\W/g, "_")}-filter`, {
      groupBy: [name],
      filters: [{ column: name, value: first }],
    });
    expect(kept.map((group) => group[name])).toEqual([first]);
  });

  it("reads Google's labels as Parquet holds them (a list of structs)", async () => {
    const { lines, groups } = await grouped(await gcpParquet(), "gcp-parquet", { groupBy: ["tag:team"] });
    expect(groups.map((group) => [group["tag:team"], Number(group.lines)])).toEqual([
      ["web", lines.filter((row) => row.status === "evaluated").length],
    ]);
  });

  it("reads a legacy CUR's user tag by its key alone (tag:team is resourceTags/user:team)", async () => {
    const file = join(FIXTURES, "cur-1.0-legacy.csv");
    const { groups } = await grouped(file, "legacy-short", { groupBy: ["tag:team"] });
    const { groups: long } = await grouped(file, "legacy-long", { groupBy: ["tag:user:team"] });
    expect(groups.map((group) => group["tag:team"])).toEqual(long.map((group) => group["tag:user:team"]));
    expect(groups.map((group) => group.gwp_use_kgco2eq)).toEqual(long.map((group) => group.gwp_use_kgco2eq));
  });

  it("names the keys a file of columns per tag has when the key is not one of them", async () => {
    const attempt = grouped(join(FIXTURES, "oci-cost-report.csv"), "oci-none", {
      groupBy: ["tag:OKEnodePoolName"],
    });
    await expect(attempt).rejects.toThrow(BillingInputError);
    await expect(attempt).rejects.toThrow(
      /none for OKEnodePoolName \(Oracle-Tags\.CreatedBy, Oracle-Tags\.CreatedOn\)/,
    );
  });
});
