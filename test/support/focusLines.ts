/**
 * A FOCUS export's lines as the command writes them: the export's text written in a folder,
 * evaluated (edition 2.4.1), each written line found by its ResourceId.
 */
import { writeFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { runMain } from "./cli.js";

export type WrittenLine = Record<string, string>;

/** The written line of each ResourceId of `text`, evaluated as `folder/name`; a missing id throws naming it. */
export async function writtenLinesById(
  folder: string,
  name: string,
  text: string,
): Promise<(id: string) => WrittenLine> {
  return (await writtenRun(folder, name, text)).line;
}

/** `text` evaluated as `folder/name`: its written line by ResourceId (a missing id throws naming it), and the summary the command wrote. */
export async function writtenRun(
  folder: string,
  name: string,
  text: string,
): Promise<{ line: (id: string) => WrittenLine; summary: string }> {
  const file = join(folder, name);
  writeFileSync(file, text);
  const output = join(folder, `${name}.lines.csv`);
  const run = await runMain(["evaluate", file, "--edition", "2.4.1", "--output", output]);
  if (run.code !== 0) throw new Error(`exit ${run.code}: ${run.stderr}`);
  const byId = new Map<string, WrittenLine>();
  for (const row of parse(await readFile(output, "utf8"), { columns: true }) as WrittenLine[])
    byId.set(row.ResourceId, row);
  const line = (id: string) => {
    const row = byId.get(id);
    if (row === undefined) throw new Error(`no line ${id}`);
    return row;
  };
  return { line, summary: run.stderr };
}

/** A line of a FOCUS 1.2 producer's export as the tests write one: a day's usage in EUR, 1.5 billed. */
export interface ProducerLine {
  readonly provider: string;
  readonly service: string;
  readonly category: string;
  readonly type: string;
  readonly id: string;
  readonly region: string;
  readonly hours: number;
  readonly sku: Readonly<Record<string, string | number>>;
}

const PRODUCER_HEADER = [
  "BillingAccountId",
  "BillingCurrency",
  "ServiceProviderName",
  "ChargeCategory",
  "ChargePeriodStart",
  "ChargePeriodEnd",
  "ServiceName",
  "ServiceCategory",
  "ResourceType",
  "ResourceId",
  "RegionId",
  "ConsumedQuantity",
  "ConsumedUnit",
  "PricingUnit",
  "BilledCost",
  "EffectiveCost",
  "SkuPriceDetails",
];

const csvCell = (text: string) => `"${text.replaceAll('"', '""')}"`;

/** The export's text of `lines`: FOCUS 1.2's columns, SkuPriceDetails the line's `sku` as JSON. */
export function focusExportText(lines: readonly ProducerLine[]): string {
  const rows = lines.map((line) =>
    [
      "acct-1",
      "EUR",
      line.provider,
      "Usage",
      "2025-06-01T00:00:00Z",
      "2025-06-02T00:00:00Z",
      line.service,
      line.category,
      line.type,
      line.id,
      line.region,
      String(line.hours),
      "Hours",
      "Hours",
      "1.5",
      "1.5",
      csvCell(JSON.stringify(line.sku)),
    ].join(","),
  );
  return `${[PRODUCER_HEADER.join(","), ...rows].join("\n")}\n`;
}
