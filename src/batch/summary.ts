import type { LineOutcome } from "./line.js";

/*
 * The last line of a batch: how many lines, how many answered 200, and per criterion and phase
 * the sum of the lines' `impacts.<criterion>.<phase>.value` (each weighted by the line's
 * quantity). A phase the methodology does not implement ("not implemented") adds nothing.
 */

type PhaseTotals = Record<string, number>;

interface BatchSummary {
  readonly lines: number;
  readonly ok: number;
  readonly errors: number;
  /** Lines answered with warnings their body keeps silent about (an unknown usage location). */
  readonly warnings: number;
  readonly total: Readonly<Record<string, Readonly<PhaseTotals>>>;
}

/** A summary being built, line by line, in the lines' order (so sums are reproducible). */
interface SummaryBuilder {
  add(outcome: LineOutcome): void;
  result(): BatchSummary;
}

export function createSummary(): SummaryBuilder {
  let lines = 0;
  let ok = 0;
  let warned = 0;
  const total: Record<string, PhaseTotals> = {};
  return {
    add(outcome) {
      lines += 1;
      if (outcome.warnings !== undefined && outcome.warnings.length > 0) warned += 1;
      if (outcome.status !== 200) return;
      ok += 1;
      const impacts = (outcome.body as { impacts?: unknown } | null)?.impacts;
      if (typeof impacts !== "object" || impacts === null) return;
      for (const [criterion, phases] of Object.entries(impacts)) {
        if (typeof phases !== "object" || phases === null) continue;
        for (const [phase, impact] of Object.entries(phases)) {
          const value = (impact as { value?: unknown } | null)?.value;
          if (typeof value !== "number") continue;
          total[criterion] ??= {};
          total[criterion][phase] = (total[criterion][phase] ?? 0) + value * outcome.quantity;
        }
      }
    },
    result: () => ({ lines, ok, errors: lines - ok, warnings: warned, total }),
  };
}

/**
 * The summary line that ends a batch's answer; an interrupted batch's says why (`interrupted`),
 * its `lines` counting the lines answered.
 */
export function summaryLine(summary: BatchSummary, interrupted?: string): string {
  return `${JSON.stringify({ summary: interrupted === undefined ? summary : { ...summary, interrupted } })}\n`;
}
