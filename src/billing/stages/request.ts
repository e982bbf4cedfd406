/*
 * What a billing run is asked (the command line's options, read once by src/cli/options.ts, billOptions, and planned by src/billing/bill.ts): the
 * file and where its outputs go (the request), and the terms every stage reads, checked by the
 * caller where it resolves the edition, before the file is opened: the edition, the criteria, the
 * load and the impact columns written.
 */

import type { DuckDBConnection } from "@duckdb/node-api";
import type { RequestedCriterion } from "../../engine/index.js";
import type { GridFiles } from "../../grid/billLines.js";
import type { EditionContext } from "../../service/open.js";
import type { BillingFormatName } from "../formats/knownFormats.js";
import type { EditionPlaces } from "../places.js";
import type { PriceList } from "../priceList.js";
import type { BillLayout } from "../reading/layout.js";

/** A filter as asked (`--filter COLUMN=VALUE`): a column's name and one value (several of one column: either). */
export interface AskedFilter {
  readonly column: string;
  readonly value: string;
}

export interface BillingRequest {
  /** The file, or a bill's first part: what its header's and layout's messages name. */
  readonly file: string;
  /**
   * A bill delivered in parts: every part, the first included, in the order their lines are read,
   * each cut as the first is (checkPartLayout, src/billing/reading/layout.ts), their columns joined
   * by name. The file alone when absent.
   */
  readonly parts?: readonly string[];
  /**
   * The file's layout, read once by the caller from its first bytes (src/billing/reading/layout.ts:
   * the command line reads it to tell a bill from an inventory); null when no header was found.
   */
  readonly layout: BillLayout | null;
  /**
   * Each part's header, a text bill's in parts (the first's `layout.header` first): the parts'
   * columns may differ, joined by name (src/billing/reading/joinedParts.ts). Absent: the first's.
   */
  readonly headers?: readonly (readonly string[])[];
  /** The export's format; recognised by its header when null. */
  readonly input: BillingFormatName | null;
  /** Where the annotated lines go. */
  readonly output: string;
  readonly format: "csv" | "parquet";
  /** Columns whose groups' sums are written to `groupsOutput`. */
  readonly groupBy: readonly string[];
  /** --filter's: the lines the groups, the summary's filtered sums and the report's filter are of (src/billing/stages/filters.ts). */
  readonly filters?: readonly AskedFilter[];
  readonly groupsOutput: string | null;
  /** The column holding the machine type of Google Cloud lines. */
  readonly instanceTypeColumn: string | null;
  /** Stop before writing anything when a line is a bad row. */
  readonly strict: boolean;
  /** Gather the data of the bill's report (src/output/billReport.ts). */
  readonly report?: boolean;
  /** Evaluate what changes to the largest usages would save (src/billing/stages/whatIf.ts): the report's, --what-if's. */
  readonly whatIf?: boolean;
  /**
   * A folder to write the small tables the run built to (instance_matches.csv, billing_places.csv,
   * billing_energy.csv, method_coefficients.parquet; with a grid series grid_interval, grid_zone,
   * grid_spans and grid_knots, as Parquet): with the coefficient table, what the portable steps
   * read (docs/billing.md, "Beyond one machine").
   */
  readonly tablesFolder?: string | null;
}

/** The terms of a run as asked, before they are checked against the edition (billingTerms). */
export interface BillingAsked {
  /** Criteria (names or keys); the edition's default criteria when null or empty. */
  readonly criteria: readonly string[] | null;
  /** Constant load of every instance, %; the archetype's default when null. */
  readonly load: number | null;
  /** Also write each impact's min and max. */
  readonly ranges: boolean;
}

/**
 * What every stage of a run is given besides what the stage before returned: the connection its
 * statements go through (readingConnection: DuckDB's read failures worded there), what was asked,
 * the terms, and the grid series the lines' gwp use reads (--grid-intensity), null without. A
 * stage's parameter names the part of it that the stage reads.
 */
export interface BillRun {
  readonly connection: DuckDBConnection;
  readonly request: BillingRequest;
  readonly terms: BillingTerms;
  readonly grid: GridFiles | null;
  /** The run's folder of temporary files (its database's: src/duckdb/database.ts), removed after it. */
  readonly scratch: string;
}

/** The terms of a run, checked once: every stage after the reading reads them, none reads the options again. */
export interface BillingTerms {
  readonly context: EditionContext;
  /** The cloud regions of an edition that has them (an edition without reads its regions' countries there). */
  readonly knownRegions: EditionPlaces["known"];
  readonly criteria: readonly RequestedCriterion[];
  /** Constant load of every instance, %; the archetype's default when null. */
  readonly load: number | null;
  /** The impact columns written besides the file's own (billingImpactColumns). */
  readonly impactColumnNames: readonly string[];
  /** The public price list a what-if's change the bill gives no rate of is priced at (PRICE_LIST); none where absent. */
  readonly priceList?: PriceList | null;
}
