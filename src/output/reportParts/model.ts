/*
 * What a report a team acts on is made of, shared by the bill's report and the inventory's
 * (src/output/billReport.ts, src/output/report.ts): every criterion the run computed with the
 * energy behind its use, the impacts over time, the groups a reader chooses once the page is open,
 * and what a change would save. The runs fill these (src/billing/report/reportData.ts,
 * src/cli/inventory/inventoryReport.ts); the parts of this folder draw them.
 */

/** A criterion as the report shows it: its name and unit. */
export interface ReportCriterion {
  readonly name: string;
  readonly unit: string;
}

/** A criterion's impacts of some lines, embedded and use, in its unit. */
export interface PhaseSums {
  readonly embedded: number;
  readonly use: number;
}

/** Sums of some lines or rows: how many, their cost, their energy and each criterion's impacts. */
export interface Measured {
  readonly lines: number;
  readonly cost: number;
  /** kWh behind the use impacts (PUE included for a bill's lines). */
  readonly energy: number;
  /** One per criterion of the report, in its order. */
  readonly impacts: readonly PhaseSums[];
}

/** A row of a ranking: a name (its id on hover where it differs) and its sums. */
export interface RankedRow extends Measured {
  readonly name: string;
  readonly id?: string;
}

/** A ranking: its largest rows and the rest summed (`others`, null when none is left). */
export interface Ranking {
  readonly rows: readonly RankedRow[];
  readonly others: RankedRow | null;
  /** How many rows `others` sums (0 without). */
  readonly more: number;
}

/** The step of the time chart: a bill's own grain (a day's lines by day), coarser when the span asks. */
export type TimeGrain = "day" | "month" | "year";

/**
 * The impacts over time: each line's or row's sums spread over its period (in proportion to the
 * time it shares with each step), by step and by series (the largest services, the rest summed).
 */
export interface OverTime {
  readonly grain: TimeGrain;
  /** The input's own grain where finer than the chart's (its span needs more than MAX_STEPS of its steps), said under the chart. */
  readonly own?: TimeGrain;
  /** Why no step is drawn (the span past MAX_STEPS years), said in the chart's place. */
  readonly undrawn?: string;
  /** The steps, first to last: `2024-09-01`, `2024-09`, `2024`. */
  readonly steps: readonly string[];
  /** Each series' sums per step: `impacts[criterion][step]` (embedded + use), `energy[step]`. */
  readonly series: readonly {
    readonly name: string;
    readonly impacts: readonly (readonly number[])[];
    readonly energy: readonly number[];
  }[];
  /** What was summed into no step: the lines or rows without a period that reads. */
  readonly undated: Measured;
  /** What the series are (`service`, `kind`). */
  readonly by: string;
}

/**
 * The sums of the evaluated lines by every combination of the columns a reader may group or
 * filter by, so that the page groups them without the file: each row the indexes of its values in
 * `columns[k].values`, then lines, cost, energy and each criterion's embedded and use.
 */
export interface GroupCube {
  /** The columns offered; `others`: how many values (estimated) are summed as one, past `values` (its index). */
  readonly columns: readonly {
    readonly name: string;
    readonly values: readonly string[];
    readonly others?: number;
  }[];
  readonly rows: readonly (readonly number[])[];
  /** Columns of the file left out and why (too many values, numbers, the cube's bound). */
  readonly left: readonly string[];
  /** The cells of a row before its sums (the columns', then a bill's dimensions' and step's); `columns.length` where absent. */
  readonly keys?: number;
  /** A bill's: the report's dimensions of each row, its cell `at` an index into `values` (ids; `names` theirs), past them the rest. */
  readonly dimensions?: Readonly<
    Record<
      "service" | "region" | "account" | "resource",
      { readonly at: number; readonly values: readonly string[]; readonly names: readonly string[] }
    >
  >;
  /** A bill's: the step of time of each row, its cell `at` an index into `values` (`values.length`: no period); `grain` null without. */
  readonly step?: {
    readonly at: number;
    readonly grain: TimeGrain | null;
    readonly values: readonly string[];
  };
}

/** A request to the service that reproduces a figure: REST (v1) and GraphQL. */
export interface Reproduction {
  /** `POST /v1/cloud/instance?duration=1&criteria=gwp&edition=2.5.0` and its JSON body. */
  readonly rest: { readonly path: string; readonly body: unknown };
  /** The GraphQL query of the same, its values unrounded; null where the input's request is REST's own (an inventory's row). */
  readonly graphql: string | null;
}

/** One usage (an instance type at a place, its hours summed) and one change to it. */
/** A type's hourly price at a place (its region as a request names it), and its origin. */
export interface PlacePrice {
  readonly place: string;
  readonly price: number;
  readonly origin: string;
  /** The usage's own price on the same basis where it is not the row's (a list price, the bill's basis another). */
  readonly fromPrice?: number;
}

export interface WhatIf {
  readonly provider: string;
  readonly instanceType: string;
  /** Where it runs: a region, or a country in an edition without regions. */
  readonly place: string;
  /** Its hours (a bill's summed; an inventory row's `hours`), null where the input says none. */
  readonly hours: number | null;
  /** Its cost, on the report's basis; null where the report has none (an inventory). */
  readonly cost: number | null;
  /** The move: to another region, to the current family of the same size, one size down in the same family. */
  readonly change: "region" | "family" | "size";
  readonly toInstanceType: string;
  readonly toPlace: string;
  /** Why that one: the intensities compared, or the family's generation. */
  readonly why: string;
  /** gwp (kgCO2eq) of the usage as it is, and as changed. */
  readonly gwp: number;
  readonly toGwp: number;
  /** Cost per hour as billed, and where the bill prices the change (same type and place), else null. */
  readonly price: number | null;
  readonly toPrice: number | null;
  /** The two prices as read from the bill (its cost and hours of each), or why the change's is unknown; '' where the input has no cost. */
  readonly priceRead: string;
  /** Where the change's price comes from, shown beside the cost saved (`bill's rate × AWS size factor`); '' where unknown. */
  readonly priceOrigin: string;
  /**
   * A region move's prices of the same type at each of the provider's places the bill prices, on
   * the basis of `price` (the page's "Try a change" costs a region chosen there); none for another change.
   */
  readonly placePrices: readonly PlacePrice[];
  /** The figures reproduced by the service: each request's answer × `times` (a bill's hours; an inventory row's quantity). */
  readonly requests: { readonly from: Reproduction; readonly to: Reproduction };
  readonly times: { readonly value: number; readonly what: string };
}
