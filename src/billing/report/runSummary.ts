/*
 * The summary of a billing run, for stderr: what was read and what became of it, each unknown
 * instance type and each kind of bad row once (with its rows and hours, never once per row), the
 * approximate matches, and the totals of the evaluated lines. Its figures are written as the
 * report writes them (src/output/readable.ts: counts whole with separators, hours and costs to four
 * figures, a mass in its scale); the exact values are the output's.
 */

import type { GridDateOrder, GridRun } from "../../grid/billLines.js";
import { gapTexts } from "../../grid/gaps.js";
import type { BillReportModel } from "../../output/billReport.js";
import { impactColumn } from "../../output/columns.js";
import { figure, money, readable, readableWithUnit, scaleOf } from "../../output/readable.js";
import { type MonthCoverage, monthSpan, spanText } from "../../output/reportParts/months.js";
import { printable } from "../../support/terminalText.js";
import { type LineStatusCode, statusWords } from "../lineStatus.js";
import type { InstanceMatch } from "../matching.js";
import { catalogueKey, sizeLabel } from "../registry/managedServices.js";
import { gpusBothWays, knownServiceNamed, serviceNotes } from "../registry/services.js";
import type { LineGroup } from "../stages/evaluate.js";
import type { BillingSummary } from "../stages/summarise.js";
import {
  billingCoverage,
  type Coverage,
  type GroupFate,
  type LeftStatus,
  percent,
  type UnestimatedRow,
} from "../stages/summarise.js";

/** The words of an estimated line's status, as the summary writes them. */
const EVALUATED = statusWords("evaluated");

/** The fate of a group of lines, as a code (src/billing/lineStatus.ts). */
export function statusCodeOf(group: LineGroup, matched: (group: LineGroup) => string | null): LineStatusCode {
  if (group.problemStatus !== null) return group.problemStatus;
  if (group.methodKey !== null) return "evaluated";
  return matched(group) === null ? "unknown-instance-type" : "evaluated";
}

/** The fate of a group of lines, as the output's `status` spells it (its problem's words, else its code's). */
export function statusOf(group: LineGroup, matched: (group: LineGroup) => string | null): string {
  return group.problem ?? statusWords(statusCodeOf(group, matched));
}

interface Tally {
  lines: number;
  hours: number;
  cost: number;
}

function add(tallies: Map<string, Tally>, key: string, group: LineGroup): void {
  const tally = tallies.get(key) ?? { lines: 0, hours: 0, cost: 0 };
  tally.lines += group.lines;
  tally.hours += group.hours;
  tally.cost += group.cost;
  tallies.set(key, tally);
}

/** A count as the summary writes it: whole, thousands separated. */
const counted = (count: number) => count.toLocaleString("en-US");

const rows = (count: number) => `${counted(count)} row${count === 1 ? "" : "s"}`;

/** Services listed under "largest unestimated". */
const UNESTIMATED_LISTED = 5;

/** Unknown services named one by one, largest cost first; the others summed on one line. */
const UNKNOWN_SERVICES_LISTED = 10;

/** The services the registry does not know, the known ones no method estimates, and GPU models billed both ways. */
function registryText(notes: ServiceNotes, gpus: GpusBothWays, money: (cost: number) => string): string[] {
  const out: string[] = [];
  const { unknown, known } = notes;
  if (unknown.length > 0) {
    out.push("unknown services (not in the registry; no method reads their lines):");
    for (const row of unknown.slice(0, UNKNOWN_SERVICES_LISTED))
      out.push(`  ${row.name}: ${rows(row.lines)}, cost ${money(row.cost)}`);
    const rest = unknown.slice(UNKNOWN_SERVICES_LISTED);
    if (rest.length > 0) {
      const lines = rest.reduce((sum, row) => sum + row.lines, 0);
      const cost = rest.reduce((sum, row) => sum + row.cost, 0);
      out.push(`  and ${counted(rest.length)} more, ${rows(lines)}, cost ${money(cost)}`);
    }
  }
  if (known.length > 0) {
    out.push("known services not estimated:");
    for (const row of known)
      out.push(`  ${row.name} (${row.note}): ${rows(row.lines)}, cost ${money(row.cost)}`);
  }
  if (gpus.length > 0) {
    out.push("GPU models inside instances and billed alone (docs/methodology.md, GPUs inside an instance):");
    for (const gpu of gpus)
      out.push(
        `  ${gpu.model.toUpperCase()}: inside ${gpu.instanceTypes.join(", ")} at the instance's figures; ${rows(gpu.lines)} of GPU-hours at ${gpu.watts} W a GPU`,
      );
  }
  // Services and instance types come from the file: their control characters shown, not sent.
  return out.map(printable);
}

/** What a user can do about a reason lines are not evaluated. */
const NOT_EVALUATED_HINTS: Readonly<Record<string, string>> = {
  "Google Cloud bills cores and memory, not machine types":
    " (name a column holding the machine type with --instance-type-column)",
};

/** An amount as the report writes it (four figures, cents below 1,000), with the bill's currency where it names one. */
const amount = (cost: number, currency: string | null) =>
  `${money(cost)}${currency === null ? "" : ` ${currency}`}`;

/** Why lines of no method have none when the classifying SQL gives no reason: no rule reads them. */
const NO_REASON = "no method reads them";

/** The names of the services the registry does not know (a name unknown for one provider is said so). */
const unknownServices = (notes: ServiceNotes): ReadonlySet<string> =>
  new Set(notes.unknown.map((row) => row.service));

/** The words of the status of a line no method reads (src/billing/lineStatus.ts). */
const NOT_COMPUTE = statusWords("not-compute");

/** A known service's role no method estimates, as the summary says it ("a fee", "no hardware"), else "". */
function roleOf(service: string): string {
  const known = knownServiceNamed(service);
  return known === null ? "" : known.role === "fee" ? "a fee" : "no hardware";
}

/**
 * Why a service's cost is left unestimated, as the summary and the report say it: a known role no
 * method estimates (a fee, no hardware), else the status of most of that cost (`unknown instance
 * type`, a bad row's problem, a reason not evaluated), the most precise; lines no method reads
 * (`not compute`) of a service the registry does not know are said so. `unknown`: those services,
 * by name (the coverage's rows name services without their provider).
 */
function whyLeft(row: UnestimatedRow, left: LeftStatus, unknown: ReadonlySet<string>): string {
  const role = roleOf(row.name);
  const { reason } = left;
  // A known role (a fee, no hardware) is the why of its lines no method reads, not of its others
  if (reason === null) return left.status;
  if (role !== "") return role;
  if (!unknown.has(row.name)) return reason;
  return left.unread ? "unknown to the registry" : `unknown to the registry; ${reason}`;
}

/**
 * A group's fate: its status's code and words with, for lines no method reads, why (`not compute: a
 * tax`, the reason apart too): the coverage keeps services' statuses so, and whyLeft says the reason.
 */
function fateOf(group: LineGroup, code: LineStatusCode, status: string): GroupFate {
  if (code !== "not-compute") return { code, status, reason: null, unread: false };
  const reason = group.reason ?? NO_REASON;
  const unread = group.reason === null || group.reasonCode === "unread-text";
  return { code, status: `${NOT_COMPUTE}: ${reason}`, reason, unread };
}

/** The services of a bill the registry does not know and the known ones no method estimates (serviceNotes). */
type ServiceNotes = ReturnType<typeof serviceNotes>;

/** The GPU models of a bill billed both inside instances and alone (gpusBothWays). */
type GpusBothWays = ReturnType<typeof gpusBothWays>;

/** The method that reads a line's cost, no quantity behind it (src/billing/registry/methods.ts). */
const BY_COST = "by-cost";

/**
 * The usage's share: the cost estimated of the usage cost, the charges carrying no hardware by the
 * bill's own charge type set aside and named with their cost; in the bill's one currency (a bill
 * in several is refused before: refuseSeveralCurrencies, src/billing/stages/classify.ts).
 */
function usageText(coverage: Coverage, money: (cost: number) => string): string[] {
  const { usage } = coverage;
  const quantity = usage.estimatedCost - usage.byCost;
  const out = [
    `  usage cost estimated: ${money(usage.estimatedCost)} of ${money(usage.cost)} (${percent(usage.estimatedCost, usage.cost)}); from a quantity ${percent(quantity, usage.cost)}, from its cost alone ${percent(usage.byCost, usage.cost)}`,
  ];
  if (usage.setAside.length > 0)
    out.push(
      `  set aside from the usage cost (no hardware of their own, by the bill's charge type or estimated on other lines): ${usage.setAside.map((row) => `${row.name} ${money(row.cost)} (${rows(row.lines)})`).join(", ")}`,
    );
  return out;
}

function coverageText(summary: BillingSummary, coverage: Coverage, unknown: ReadonlySet<string>): string[] {
  const { total } = coverage;
  const cost = (value: number) => amount(value, summary.currency);
  const plain = (value: number) => amount(value, null);
  const byCost = coverage.byMethod.find((row) => row.name === BY_COST)?.cost ?? 0;
  const out = [
    `coverage: ${counted(total.estimatedLines)} of ${counted(total.lines)} lines estimated; ${plain(total.estimatedCost)} of ${cost(total.cost)} positive cost (${percent(total.estimatedCost, total.cost)})`,
    `  cost read: ${summary.costColumn}`,
    `  estimated from a quantity: ${cost(total.estimatedCost - byCost)} (${percent(total.estimatedCost - byCost, total.cost)}); from its cost alone (by-cost, no quantity behind it): ${cost(byCost)} (${percent(byCost, total.cost)})`,
  ];
  out.push(...usageText(coverage, cost));
  for (const row of coverage.byMethod) {
    out.push(`  ${row.name}: ${rows(row.lines)}, cost ${cost(row.cost)} (${percent(row.cost, total.cost)})`);
  }
  if (coverage.unestimated.length > 0) {
    out.push("largest unestimated services by cost:");
    for (const row of coverage.unestimated.slice(0, UNESTIMATED_LISTED)) {
      const left = row.cost - row.estimatedCost;
      out.push(
        `  ${row.name || "(no service)"}: ${cost(left)} (${percent(left, total.cost)}), ${statusesText(row, unknown)}`,
      );
    }
  }
  return out;
}

/** Statuses named per service, the others counted together. */
const STATUSES_LISTED = 3;

/**
 * The unestimated lines of a service by why each is left, each why with its own lines (`3 rows (a
 * tax); 38 rows (no method reads its text (hour in Hours))`): a why is said of the lines it is true of.
 */
function statusesText(row: UnestimatedRow, unknown: ReadonlySet<string>): string {
  const listed = row.statuses
    .slice(0, STATUSES_LISTED)
    .map((left) => `${rows(left.lines)} (${whyLeft(row, left, unknown)})`);
  const rest = row.statuses.slice(STATUSES_LISTED).reduce((sum, left) => sum + left.lines, 0);
  return [...listed, ...(rest > 0 ? [`${rows(rest)} otherwise`] : [])].join("; ");
}

/** How the bill's dates of day and month were read, decided from the file (null: it has none). */
function datesText(dates: GridDateOrder | null): string | null {
  if (dates === null) return null;
  const unread = "those whose day and month differ have no period";
  switch (dates.order) {
    case "day first":
      return `dates of day and month read day first, as ${dates.dayFirst} writes them`;
    case "month first":
      return `dates of day and month read month first, as ${dates.monthFirst} writes them`;
    case "undecided":
      return `dates of day and month: no date of the bill tells day from month (${dates.example}: no field above 12); ${unread}`;
    case "inconsistent":
      return `dates of day and month written both day first (${dates.dayFirst}) and month first (${dates.monthFirst}); ${unread}`;
  }
}

/**
 * The evaluated lines whose period does not read, where the run reads periods (the report's time
 * chart): named with their lines and cost, as every other part of a bill left unread is.
 */
function undatedText(summary: BillingSummary, money: (cost: number) => string): string[] {
  const over = summary.report?.overTime ?? null;
  if (over === null || over.undated.lines === 0) return [];
  return [
    `dates: ${rows(over.undated.lines)}, cost ${money(over.undated.cost)}, without a period that reads: in no ${over.grain} of the report's time chart (their impacts are in every table)`,
  ];
}

/** How the evaluated lines fared with the grid series: those that used it, the zones and periods it lacked. */
function gridText(grid: GridRun): string[] {
  const { series } = grid;
  const lines = (coverage: string) =>
    grid.coverage.filter((row) => row.coverage === coverage).reduce((sum, row) => sum + row.lines, 0);
  const evaluated = grid.coverage.reduce((sum, row) => sum + row.lines, 0);
  const used = grid.coverage.filter((row) => ["series", "partly", "no period"].includes(row.coverage));
  const zones = grid.zones.join(", ");
  const out = [
    `grid series ${grid.file}: ${series.shape}, ${counted(series.zones)} zone${series.zones === 1 ? "" : "s"}, ${counted(series.intervals)} intervals, ${series.first} to ${series.last}`,
    `  lines with the series: ${counted(used.reduce((sum, row) => sum + row.lines, 0))} of ${counted(evaluated)} evaluated${lines("partly") > 0 ? ` (${counted(lines("partly"))} partly)` : ""}${zones === "" ? "" : ` in ${zones}`}`,
  ];
  for (const gap of gapTexts(series.gaps)) out.push(`  gaps in the series: ${gap}, the edition's factor`);
  const missing = grid.coverage.filter((row) => !["series", "no period"].includes(row.coverage));
  for (const row of missing) {
    const where =
      row.coverage === "no zone" ? `place ${row.place || "(default)"} has no zone` : `zone ${row.zone}`;
    const what =
      row.coverage === "zone not in series"
        ? "not in the series"
        : row.coverage === "no zone"
          ? ""
          : `${row.coverage === "partly" ? "partly covered" : "not covered"}, lines from ${row.first} to ${row.last}`;
    out.push(
      `  missing: ${[where, what].filter(Boolean).join(" ")}: ${rows(row.lines)}, the edition's factor`,
    );
  }
  const dates = datesText(grid.dates);
  if (dates !== null) out.push(`  ${dates}`);
  if (lines("no period") > 0)
    out.push(`  without a period: ${rows(lines("no period"))}, their zone's mean over the series`);
  // Zones, places and the file's name come from the inputs: their control characters shown, not sent.
  return out.map(printable);
}

/** The instance type a kind of lines was matched to (null: none), as the summary's matches say. */
function matchedTypes(summary: BillingSummary): (group: LineGroup) => string | null {
  const matches = new Map(summary.matches.map((m) => [`${m.provider}\u0000${m.billingInstanceType}`, m]));
  return (group) => matches.get(`${group.provider}\u0000${group.instanceType}`)?.matchedInstanceType ?? null;
}

/** The summary's lines read, and its kinds of lines tallied by status and, within some, by name. */
function talliesOf(
  summary: BillingSummary,
  statuses: ReadonlyMap<LineGroup, string>,
  codes: ReadonlyMap<LineGroup, LineStatusCode>,
) {
  const byStatus = new Map<string, Tally>();
  const reasons = new Map<string, Tally>();
  const unknown = new Map<string, Tally>();
  const bad = new Map<string, Tally>();
  const notEvaluated = new Map<string, Tally>();
  const places = new Map<string, Tally>();
  let read = 0;
  for (const group of summary.groups) {
    read += group.lines;
    const status = statuses.get(group) ?? "";
    const code = codes.get(group) ?? "evaluated";
    const kind = code === "bad-row" ? "bad rows" : code === "not-evaluated" ? "not evaluated" : status;
    add(byStatus, kind, group);
    if (code === "not-compute") add(reasons, group.reason ?? NO_REASON, group);
    if (code === "unknown-instance-type")
      add(unknown, `${group.provider ?? "?"} ${group.instanceType ?? "(no instance type found)"}`, group);
    if (code === "bad-row") add(bad, status, group);
    if (code === "not-evaluated") add(notEvaluated, group.problemReason ?? "", group);
    if (code === "evaluated" && group.placeWarning !== null) add(places, group.placeWarning, group);
  }
  return { read, byStatus, reasons, unknown, bad, notEvaluated, places };
}

/**
 * What a run tells its reader, made once from its summary: the text for standard error and, with
 * --report, the report's model (dated `reportDate`).
 */
export interface BillingAccount {
  readonly text: string;
  readonly report: BillReportModel | null;
}

/** What the text and the report's model are written from: the summary's kinds tallied once. */
interface Tallied {
  readonly codes: ReadonlyMap<LineGroup, LineStatusCode>;
  readonly tallies: ReturnType<typeof talliesOf>;
  readonly coverage: Coverage;
  readonly notes: ServiceNotes;
  readonly gpus: GpusBothWays;
}

/**
 * The account of a run in one walk of its summary: each kind's status (its match) once, tallied by
 * status, by method and service (the coverage) and by the registry's notes, then written as the
 * text and, with `reportDate`, as the report's model.
 */
export function billingAccount(
  summary: BillingSummary,
  groupsOutput: string | null,
  reportDate: string | null,
): BillingAccount {
  const matched = matchedTypes(summary);
  const statuses = new Map(summary.groups.map((group) => [group, statusOf(group, matched)]));
  const codes = new Map(summary.groups.map((group) => [group, statusCodeOf(group, matched)]));
  const tallied: Tallied = {
    codes,
    tallies: talliesOf(summary, statuses, codes),
    coverage: billingCoverage(summary.groups, (group) =>
      fateOf(group, codes.get(group) ?? "evaluated", statuses.get(group) ?? ""),
    ),
    notes: serviceNotes(summary.groups),
    gpus: gpusBothWays(summary.groups),
  };
  return {
    // What is said of the joined parts' columns comes first: how the bill was read, then its account
    text: `${(summary.joinNotes ?? []).map((note) => `${note}\n`).join("")}${summaryText(summary, tallied, groupsOutput)}`,
    report: reportDate === null ? null : billReportModel(summary, tallied, reportDate),
  };
}

/** A managed size as the summary names it: its service and size (`Azure App Service plan P1V3`). */
function managedSizeName(match: InstanceMatch): string {
  const named = catalogueKey(match.billingInstanceType);
  if (named === null) return match.billingInstanceType;
  const byShape = match.kind === "catalogue-by-shape" ? " (by shape)" : "";
  return `${named.service.name} ${sizeLabel(named.service, named.size)}${byShape}`;
}

/**
 * The GPU-hours of no model the registry lists (read as CCF's average GPU), each model named (or
 * none named) with its lines and cost.
 */
function gpuNotesText(
  summary: BillingSummary,
  codes: ReadonlyMap<LineGroup, LineStatusCode>,
  money: (cost: number) => string,
): string[] {
  const notes = new Map<string, Tally>();
  for (const group of summary.groups)
    if (group.unlistedGpu !== null && codes.get(group) === "evaluated") {
      const model =
        group.unlistedGpu === ""
          ? "GPU model not named"
          : `GPU model ${group.unlistedGpu} not in the registry`;
      add(notes, model, group);
    }
  if (notes.size === 0) return [];
  return [
    "GPU-hours of no model the registry lists, read as the CCF average GPU:",
    ...[...notes].map(([model, tally]) =>
      printable(`  ${model}: ${rows(tally.lines)}, cost ${money(tally.cost)}`),
    ),
  ];
}

/**
 * The approximate instance-type matches of the types evaluated lines bill (a type whose lines are
 * all another status, a bad row's or a refund's, is matched for nothing), then the totals.
 */
function matchesAndTotalsText(
  summary: BillingSummary,
  codes: ReadonlyMap<LineGroup, LineStatusCode>,
): string[] {
  const out: string[] = [];
  const evaluated = new Set(
    summary.groups
      .filter((group) => codes.get(group) === "evaluated")
      .map((group) => `${group.provider}\u0000${group.methodKey ?? group.instanceType}`),
  );
  const approximate = summary.matches.filter(
    (m) => m.warning !== null && evaluated.has(`${m.provider}\u0000${m.billingInstanceType}`),
  );
  const managed = approximate.filter((m) => catalogueKey(m.billingInstanceType) !== null);
  const instances = approximate.filter((m) => catalogueKey(m.billingInstanceType) === null);
  if (instances.length > 0) {
    out.push("approximate instance-type matches:");
    for (const m of instances)
      out.push(`  ${m.provider} ${m.billingInstanceType} -> ${m.matchedInstanceType}`);
  }
  if (managed.length > 0) {
    out.push("managed sizes by the catalogue (src/billing/registry/managedServices.ts):");
    for (const m of managed) out.push(`  ${m.provider} ${managedSizeName(m)} -> ${m.matchedInstanceType}`);
  }
  out.push("totals of the evaluated lines:");
  for (const total of summary.totals) {
    const { unit } = total.criterion.info;
    // A mass in the scale of its value (t, kg, g, mg), its bounds in the same; the exact values: the output's.
    const scale = scaleOf(unit, [total.value]);
    const shown = (value: number) => readable(value, unit, scale);
    out.push(
      `  ${total.criterion.info.name} ${total.phase}: ${readableWithUnit(total.value, unit, scale)} (min ${shown(total.min)}, max ${shown(total.max)})`,
    );
  }
  out.push(`  energy: ${readableWithUnit(summary.energyKwh, "kWh")} (behind the use impacts, PUE included)`);
  return out;
}

/** The sums of the lines --filter keeps: how many, their cost and energy, each criterion's phases. */
function filteredText(summary: BillingSummary, money: (cost: number) => string): string[] {
  const sums = summary.filtered;
  if (sums === null) return [];
  const criteria = summary.totals
    .map((total) => total.criterion.info)
    .filter((info, index, all) => all.indexOf(info) === index);
  return [
    printable(
      `the lines of --filter (${sums.text}): ${counted(sums.lines)} of ${counted(sums.evaluated)} evaluated, cost ${money(sums.cost)}, energy ${readableWithUnit(sums.energyKwh, "kWh")}`,
    ),
    ...criteria.map(({ name, unit }) => {
      const [embedded, use] = (["embedded", "use"] as const).map(
        (phase) => sums.impacts.get(impactColumn(name, unit, phase, "value")) ?? 0,
      );
      const scale = scaleOf(unit, [embedded + use]);
      const shown = (value: number) => readableWithUnit(value, unit, scale);
      return `  ${name}: ${shown(embedded + use)} (embedded ${shown(embedded)}, use ${shown(use)})`;
    }),
  ];
}

/** Each month's coverage, where the bill's lines span two months or more. */
/** A partial month's span, as the months' lines say it: `; partial, 2023-06-30 21:00 to 2023-07-01 00:00 UTC (3 h)`. */
function partialText(month: MonthCoverage): string {
  const span = monthSpan(month);
  return span?.partial === true ? `; partial, ${span.text}` : "";
}

function monthsText(summary: BillingSummary, money: (cost: number) => string): string[] {
  if (summary.months === null) return [];
  return [
    "months (each line in the month its period starts):",
    ...summary.months.map(
      (month) =>
        `  ${month.month}: ${counted(month.estimatedLines)} of ${counted(month.lines)} lines estimated; ${money(month.estimatedCost)} of ${money(month.cost)} positive cost (${month.cost > 0 ? ((100 * month.estimatedCost) / month.cost).toFixed(1) : "0.0"} %)${partialText(month)}`,
    ),
  ];
}

function summaryText(summary: BillingSummary, tallied: Tallied, groupsOutput: string | null): string {
  const { coverage, notes, gpus } = tallied;
  const { read, byStatus, reasons, unknown, bad, notEvaluated, places } = tallied.tallies;
  const { codes } = tallied;
  const count = (kind: string) => counted(byStatus.get(kind)?.lines ?? 0);
  const money = (cost: number) => amount(cost, summary.currency);
  const out = [
    `billing export ${summary.file}: ${summary.format.title}, edition ${summary.edition}`,
    `  rows read: ${counted(read)}`,
    `  ${EVALUATED}: ${count(EVALUATED)} (${figure(byStatus.get(EVALUATED)?.hours ?? 0)} hours)`,
    `  ${NOT_COMPUTE}: ${count(NOT_COMPUTE)}`,
    `  unknown instance type: ${count("unknown instance type")}`,
    `  bad rows: ${count("bad rows")}`,
  ];
  if ((byStatus.get("not evaluated")?.lines ?? 0) > 0) out.push(`  not evaluated: ${count("not evaluated")}`);
  if (reasons.size > 0) {
    out.push(`${NOT_COMPUTE}, by reason:`);
    for (const [reason, tally] of [...reasons].sort(
      (a, b) => b[1].cost - a[1].cost || b[1].lines - a[1].lines,
    ))
      out.push(printable(`  ${reason}: ${rows(tally.lines)}, cost ${money(tally.cost)}`));
  }
  if (unknown.size > 0) {
    out.push("unknown instance types:");
    for (const [name, tally] of [...unknown].sort((a, b) => b[1].lines - a[1].lines)) {
      out.push(`  ${name}: ${rows(tally.lines)}, ${figure(tally.hours)} h, cost ${money(tally.cost)}`);
    }
  }
  if (bad.size > 0) {
    out.push("bad rows:");
    for (const [problem, tally] of bad)
      out.push(`  ${problem}: ${rows(tally.lines)}, cost ${money(tally.cost)}`);
  }
  if (notEvaluated.size > 0) {
    out.push("not evaluated:");
    for (const [reason, tally] of notEvaluated)
      out.push(
        `  ${reason}${NOT_EVALUATED_HINTS[reason] ?? ""}: ${rows(tally.lines)}, cost ${money(tally.cost)}`,
      );
  }
  out.push(...gpuNotesText(summary, codes, money));
  if (places.size > 0) {
    out.push("places other than the line's region:");
    for (const [warning, tally] of places)
      out.push(`  ${warning}: ${rows(tally.lines)}, cost ${money(tally.cost)}`);
  }
  out.push(...registryText(notes, gpus, money), ...matchesAndTotalsText(summary, codes));
  if (summary.filtered !== null) out.push(...filteredText(summary, money));
  out.push(...monthsText(summary, money), ...coverageText(summary, coverage, unknownServices(notes)));
  if (summary.grid !== null) out.push(...gridText(summary.grid));
  out.push(...undatedText(summary, money));
  if (groupsOutput !== null) out.push(`sums per group: ${groupsOutput}`);
  return `${out.join("\n")}\n`;
}

const NOTHING_RANKED = { rows: [], others: null, more: 0 };

/**
 * The one cost a bill's report reads, as its first lines name it: the amortised cost where the
 * export has its columns or its lines say so (the coverage's, src/billing/stages/summarise.ts),
 * else the billed cost.
 */
function costBasisOf(summary: BillingSummary): string {
  const kind = summary.amortisedCost ? "amortised cost" : "billed cost";
  return `${kind}, as ${summary.costColumn}, positive lines only (credits and refunds left out)`;
}

/** A word as a POSIX shell reads it back: as it is where plain, else single-quoted. */
const shellWord = (text: string) =>
  /^[\w./:=@%+-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;

/**
 * The command a reader runs for what the report's page groups (its `--group-by` added by the page):
 * every file the bill was read from, as given.
 */
const commandOf = (summary: BillingSummary) =>
  `npx impact-service evaluate ${(summary.commandFiles ?? [summary.file]).map(shellWord).join(" ")} --edition ${summary.edition} -o impacts.csv`;

/** The report's model of a run that gathered its data (`report` set). */
function billReportModel(summary: BillingSummary, tallied: Tallied, date: string): BillReportModel {
  const { coverage, notes } = tallied;
  const ranked = summary.report;
  const criteria =
    ranked?.criteria ??
    summary.totals
      .map((total) => total.criterion.info)
      .filter((info, index, all) => all.indexOf(info) === index);
  const unknown = unknownServices(notes);
  const left = (row: UnestimatedRow) => ({
    name: row.name,
    lines: row.lines - row.estimatedLines,
    cost: row.cost - row.estimatedCost,
    why: statusesText(row, unknown),
  });
  return {
    title: `Billing export ${summary.file}`,
    subtitle: `${summary.format.title}, edition ${summary.edition}; ${summary.period === null ? "no line's period reads" : `the bill's period: ${spanText(summary.period.first, summary.period.last)}`}; report of ${date}`,
    costBasis: costBasisOf(summary),
    criteria: criteria.map(({ name, unit }) => ({ name, unit })),
    totals: criteria.map(({ name }) =>
      summary.totals
        .filter((total) => total.criterion.info.name === name)
        .map((total) => ({ phase: total.phase, value: total.value, min: total.min, max: total.max })),
    ),
    coverage: {
      lines: coverage.total.lines,
      estimatedLines: coverage.total.estimatedLines,
      cost: coverage.total.cost,
      estimatedCost: coverage.total.estimatedCost,
      usage: {
        cost: coverage.usage.cost,
        estimatedCost: coverage.usage.estimatedCost,
        byCost: coverage.usage.byCost,
        setAside: coverage.usage.setAside,
      },
      byMethod: coverage.byMethod.map((row) => ({ name: row.name, lines: row.lines, cost: row.cost })),
      unestimated: coverage.unestimated.slice(0, UNESTIMATED_LISTED * 2).map(left),
    },
    byMethod: ranked?.byMethod ?? NOTHING_RANKED,
    byService: ranked?.byService ?? NOTHING_RANKED,
    byRegion: ranked?.byRegion ?? NOTHING_RANKED,
    byAccount: ranked?.byAccount ?? NOTHING_RANKED,
    resources: ranked?.resources ?? NOTHING_RANKED,
    overTime: ranked?.overTime ?? null,
    groups: ranked?.groups ?? null,
    command: commandOf(summary),
    filters: summary.filters,
    whatIf: summary.whatIf,
    whatIfUsages: summary.whatIfUsages,
    edition: summary.edition,
    months: summary.months,
    period: summary.period,
    currency: ranked?.currency ?? null,
    grid:
      summary.grid === null
        ? null
        : { series: summary.grid.file, byHour: summary.grid.byHour, byMonth: summary.grid.byMonth },
  };
}
