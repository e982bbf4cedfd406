/**
 * A bill evaluated in edition 2.5.0 by the command in this process with `--report`, and the report's
 * data as its page embeds it (`<script id="report-data">`): the facts' cube and the chart over time.
 */
import { readFileSync } from "node:fs";
import type { GroupCube, OverTime } from "../../src/output/reportParts/model.js";
import { evaluated250 } from "./cli.js";

export interface ReportedData {
  readonly cube: GroupCube;
  readonly overTime: OverTime | null;
}

/** The report's data embedded in its page `file`. */
export function reportDataOf(file: string): ReportedData {
  const html = readFileSync(file, "utf8");
  const json = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (json === undefined) throw new Error(`${file}: no report data`);
  return JSON.parse(json);
}

/** `bill` evaluated with a report (`<bill>.html`, its lines `<bill>.out.csv`), `extra` options besides. */
export async function reportedBill(bill: string, extra: readonly string[] = []): Promise<ReportedData> {
  const report = `${bill}.html`;
  await evaluated250(bill, ["-o", `${bill}.out.csv`, "--report", report, ...extra]);
  return reportDataOf(report);
}
