/**
 * Every reason a run gives is true to the line it is said of, over the fixtures and the public
 * exports (a property, not examples): a line without a method has the reason of its own columns
 * (its charge's type, its unit, the words of the rule that gave it none: read per line, as the
 * command's views classify it), and what the output says of an evaluated or refused line — a
 * place's region, an approximate match's type, a managed size, a GPU model, a generative-AI model,
 * a unit or a DTU tier —
 * names a word of that line's own cells.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { spellingKey } from "../../src/billing/places.js";
import { CHARGE_REASONS, LINE_RULES, SUPPORT_REASON } from "../../src/billing/registry/methods.js";
import { NO_REGION_SPELLINGS } from "../../src/billing/registry/regions.js";
import { conditionWords, readsColumn } from "../../src/billing/rules/conditions.js";
import { addBilledUnits, createLineViews, createRegistryTables } from "../../src/billing/stages/classify.js";
import { readExport } from "../../src/billing/stages/read.js";
import { openDatabase } from "../../src/duckdb/database.js";
import { billingFixture } from "../support/publicExports.js";
import { billingRequest, billingTermsOf } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-reasons-true-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FIXTURES = [
  "focus-1.0.csv",
  "focus-1.0-spec-only.csv",
  "focus-whole-bill-blank-extensions.csv",
  "focus-1.0-services.csv",
  "focus-1.0-finops-sample.csv",
  "focus-1.2.parquet",
  "focus-bad-rows.csv",
  "cur.csv.gz",
  "cur-managed.csv",
  "cur-whole-bill.csv",
  "cur-1.0-legacy.csv",
  "cur-1.0-athena.parquet",
  "cur-1.0-focus-converters-aws.csv.gz",
  "azure.csv",
  "azure-ea.csv",
  "azure-whole-bill.csv",
  "azure-payg-legacy.csv",
  "meanings-azure.csv",
  "meanings-cur.csv",
  "meanings-oci.csv",
  "registry-azure.csv",
  "registry-cur.csv",
  "registry-focus.csv",
  "registry-services.csv",
  "oci-cost-report.csv",
  "oci-focus-converters-cost.csv.gz",
  "gcp-bigquery-resource.csv",
  "arrivals/azure-database-vcores.csv",
  "arrivals/azure-managed-sizes.csv",
  "arrivals/azure-sql-dtus.csv",
  "arrivals/azure-sql-dtus-unknown-tier.csv",
  "arrivals/cur-1.0-free-tier-units.csv",
  "arrivals/cur-1.0-shapes.csv",
  "arrivals/cur-2.0-managed.csv",
  "arrivals/cur-2.0-one-region.csv",
  "arrivals/focus-reasons.csv",
  "arrivals/oci-gpu-and-units.csv",
  // Generative AI's lines: Bedrock, Azure OpenAI, Vertex AI, and FOCUS carrying the three
  "genai-cur.csv",
  "genai-azure.csv",
  "genai-gcp.csv",
  "genai-focus.csv",
];

type Row = Record<string, unknown>;

/** Why a line has no method, against its own columns: null when true, else what is wrong. */
function reasonFalsehood(row: Row): string | null {
  const reason = String(row.billing_method_warning);
  const text = String(row.billing_usage_text ?? "").replaceAll("_", "");
  const unit = String(row.billing_usage_unit ?? "").trim();
  const charge = CHARGE_REASONS.find((entry) => entry.reason === reason);
  if (charge !== undefined)
    return row.billing_charge === charge.charge ? null : `charge ${row.billing_charge}`;
  if (reason === "a charge that is not usage") return row.billing_charge !== "usage" ? null : "usage";
  if (reason === SUPPORT_REASON) return row.billing_service_role !== null ? null : "no role";
  if (reason === "no unit") return ["", "null"].includes(unit.toLowerCase()) ? null : `unit ${unit}`;
  const count = /^a count, no hardware per unit: (.*)$/.exec(reason);
  if (count !== null) return count[1] === unit ? null : `unit ${unit}`;
  const unread = /^no method reads its text \(([a-z-]+) in (.*)\)$/.exec(reason);
  if (unread !== null)
    return unread[2] === unit && unread[1] === row.billing_unit_dimension ? null : `unit ${unit}`;
  const rule = LINE_RULES.find((entry) => entry.reason === reason);
  // A fee's rule reads its service's role (the registry's name of the service), the others its words
  if (rule !== undefined && readsColumn(rule.match, "billing_service_role", "fee"))
    return row.billing_service_role === "fee" ? null : "no fee's service";
  if (rule !== undefined)
    return conditionWords(rule.match).some((word) => text.includes(word.replaceAll("_", "")))
      ? null
      : `text ${text}`;
  return `a reason no rule gives: ${reason}`;
}

/** Each line's method and reason as the command's views classify it, with its own columns. */
async function classifiedLines(fixture: string): Promise<Row[]> {
  const db = await openDatabase();
  try {
    const { connection } = db;
    const request = billingRequest(billingFixture(fixture), join(scratch, "unused.csv"));
    const read = await readExport({ connection, request, terms: { impactColumnNames: [] } });
    await createRegistryTables(connection);
    await createLineViews(connection, read.views, true);
    await addBilledUnits(connection);
    const reader = await connection.runAndReadAll(
      `SELECT billing_method, billing_method_warning, billing_charge, billing_usage_text, billing_usage_unit,
         billing_unit_dimension, billing_service_role, billing_line_kind, billing_unknown_unit
       FROM billing_methods`,
    );
    return reader.getRowObjectsJson() as Row[];
  } finally {
    db.close();
  }
}

/** A line's own cells in one text, lower case, blanks and underscores apart (what a word is looked for in). */
function cellsOf(line: Record<string, string>, own: readonly string[]): string {
  return own
    .map((column) => line[column] ?? "")
    .join(" | ")
    .toLowerCase();
}

const squeezed = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, "");

/** What the output says of a line (its status's and warnings' words), against its own cells: the falsehoods. */
function outputFalsehoods(line: Record<string, string>, own: readonly string[], region: string): string[] {
  const cells = cellsOf(line, own);
  const found = (word: string) => squeezed(cells).includes(squeezed(word));
  const wrong: string[] = [];
  const said = [line.status, ...(line.warnings ?? "").split("; ")].filter((text) => text !== "");
  for (const text of said) {
    const checks: [RegExp, (match: RegExpExecArray) => boolean][] = [
      [/^region (.+?) is not in the edition/, (m) => squeezed(region) === squeezed(m[1])],
      [/^region (.+?) names no one place/, (m) => squeezed(region) === squeezed(m[1])],
      [/^no region: /, () => NO_REGION_SPELLINGS.map(spellingKey).includes(spellingKey(region))],
      [/^instance-by-shape: (\S+) is not in the edition/, (m) => found(m[1])],
      [/^managed-size(?: by shape)?: .* ([A-Z0-9]+(?: ?[a-z]+)?)(?::| is not)/, (m) => found(m[1])],
      [/GPU model (\S+) not in the registry/, (m) => found(m[1])],
      // `(none)` stands for a blank unit
      [/unknown unit (.+)$/, (m) => m[1] === "(none)" || found(m[1])],
      [/unknown DTU tier (\S+)$/, (m) => found(m[1])],
      [/generative AI model (.+) has no EcoLogits figures$/, (m) => found(m[1])],
      [/^bad row: unknown region (.+)$/, (m) => squeezed(region) === squeezed(m[1])],
      [/^deployment: Multi-AZ DB cluster/, () => found("multi-azcluster")],
      [/^deployment: Multi-AZ:/, () => found("multi-az")],
    ];
    for (const [pattern, holds] of checks) {
      const match = pattern.exec(text);
      if (match !== null && !holds(match)) wrong.push(text);
    }
  }
  return wrong;
}

/** The column a format's lines name their region by (the first the file has). */
const REGION_COLUMNS = [
  "RegionId",
  "ResourceLocation",
  "product_region_code",
  "product/region",
  "product_region",
  "location.region",
  "location_region",
  "lineItem/productRegion",
];

describe("every reason is true to its line, over the fixtures", () => {
  it.each(FIXTURES)(
    "%s: each reason's words are in the line's own columns",
    async (fixture) => {
      const classified = await classifiedLines(fixture);
      const reasons = classified.filter(
        (row) =>
          row.billing_method === null &&
          row.billing_line_kind === "not compute" &&
          row.billing_unknown_unit === null &&
          row.billing_method_warning !== null,
      );
      const false_ = reasons.flatMap((row) => {
        const why = reasonFalsehood(row);
        return why === null ? [] : [`${row.billing_method_warning}: ${why}`];
      });
      expect(false_).toEqual([]);

      const output = join(scratch, `${fixture.replaceAll("/", "-")}.out.csv`);
      await evaluateBillingExport(billingTermsOf("2.4.1"), billingRequest(billingFixture(fixture), output));
      const lines = parse(readFileSync(output), { columns: true, bom: true }) as Record<string, string>[];
      const columns = Object.keys(lines[0] ?? {});
      const own = columns.slice(0, columns.indexOf("matched_instance_type"));
      const regionColumn = REGION_COLUMNS.find((column) => own.includes(column));
      // The CUR's source region stands for a transfer's region
      const regionOf = (line: Record<string, string>) =>
        [regionColumn, "product_from_region_code"]
          .map((column) => (column === undefined ? "" : (line[column] ?? "").trim()))
          .find((cell) => cell !== "") ?? "";
      const wrong = lines.flatMap((line) => outputFalsehoods(line, own, regionOf(line)));
      expect(wrong).toEqual([]);
    },
    120_000,
  );
});
