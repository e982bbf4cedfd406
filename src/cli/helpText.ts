import { BILLING_FORMAT_NAMES, BILLING_FORMATS } from "../billing/formats/knownFormats.js";
import { EDITION_IDS, NEW_WORK_DEFAULT } from "../editions/index.js";
import { SERVICE_VERSION } from "../support/serviceVersion.js";

/*
 * What the command line says of itself: its usage (--help) and its version (--version). A module
 * of its own, light (no engine, no file reader): the bare `--help` and `--version` load it alone
 * (src/cli/entry.ts).
 */

/** A description's text as the usage writes it: lines of at most 100 characters, 23 spaces in. */
function wrapped(text: string): string {
  const lines: string[] = [];
  for (const word of text.split(" ")) {
    const last = lines.length - 1;
    if (last >= 0 && 23 + lines[last].length + 1 + word.length <= 100) lines[last] += ` ${word}`;
    else lines.push(word);
  }
  return lines.map((line) => `${" ".repeat(23)}${line}`).join("\n");
}

/** The commands the first argument names (the bare options --help and --version aside). */
export const COMMANDS = ["evaluate", "coefficients", "sql", "tables", "scan"] as const;

/** `--version`'s line: the command's version and the editions it serves. */
export const VERSION_LINE = `impact-service ${SERVICE_VERSION} (editions ${EDITION_IDS.join(", ")})\n`;

/** What a command line without a command is told: the commands, and where the options are listed. */
export const NO_COMMAND =
  "no command: impact-service evaluate <file> [options] evaluates an inventory or a billing export (impact-service --help lists the commands and options)";

export const USAGE = `usage: impact-service evaluate <file | -> [options]
       impact-service evaluate <part> <part>… [options]   (a billing export delivered in parts,
                       or an account's monthly exports, read as one bill: report-*.csv.gz,
                       cur-2026-0*.csv; a folder of them, a ZIP of them, each month's CUR manifest)
       impact-service coefficients [options]   (the per-hour coefficient table: coefficients --help)
       impact-service sql --engine <engine> --header <file> [options]   (a bill's script for Spark,
                       Trino, BigQuery or DuckDB: sql --help)
       impact-service tables --keys <keys.csv> --tables <folder>   (its small tables: tables --help)
       impact-service scan aws [--region …] [--filter-tag k=v] [--hours N]   (what runs now in an
                       AWS account, as an inventory and its impacts: scan --help)
       impact-service price-list aws|azure --region <r> -o <file>   (a provider's VM prices,
                       for the what-if's money: price-list --help)
       impact-service --version

  <file>               an inventory: CSV or an Excel workbook (.xlsx, its first worksheet) with a
                       header (kind, quantity, provider, instance_type, archetype, usage_location,
                       hours, …: see docs/inventory.md) or a batch
                       (NDJSON, one {"method", "path", "body"} per line); - reads stdin; or
                       cloud-scanner's inventory JSON (answered as its estimated inventory); or a
${wrapped(
  `billing export (${Object.values(BILLING_FORMATS)
    .map((format) => format.listed)
    .join(", ")}: .csv, .csv.gz, .parquet)`,
)}
  --input csv|xlsx|ndjson|${BILLING_FORMAT_NAMES.join("|")}  the input's format (default: a billing format
                       recognised by its header or .parquet, else xlsx for a .xlsx file (its first
                       worksheet), ndjson for a .ndjson/.jsonl file, else csv)
  --edition <id>       edition, every kind of file alike; served: ${EDITION_IDS.join(", ")}
${wrapped(`(default: ${NEW_WORK_DEFAULT})`)}
  --criteria <list>    criteria, comma-separated (default: the edition's, e.g. gwp,adp,pe)
  --format <format>    output format: inventory csv|ndjson|xlsx (default: -o's extension, else
                       csv — ndjson for a batch input; xlsx needs -o or a pipe), billing export
                       csv|parquet (default: -o's extension, else csv; parquet needs -o)
  -o, --output <file>  write the output there instead of stdout (never a file the run reads)
  --ranges             each impact's min and max too (csv, xlsx, parquet columns; NDJSON group lines)
  --group-by <list>    sums per group of rows sharing these columns' values (e.g. team,site),
                       written to <output>.groups.<csv|ndjson|parquet> (needs -o, or --report),
                       or the workbook's groups sheet; a bill's also tag:<key> (any export's
                       tags: Tags, resource_tags, resourceTags/…, labels, tags/…), account,
                       region, service, month (YYYY-MM, the month each line's period starts)
  --strict             stop at the first bad row (exit 1) instead of reporting it and going on
                       (a billing export: stop before writing anything)
  --report <file.html> also write a self-contained HTML report with charts (a bill's: totals,
                       coverage, by method, service, region and account)
  --what-if <file.csv> also write what moving the largest cloud usages would save: the provider's
                       region of lowest intensity on the same continent, the current family of
                       the same size, one size down (gwp and, where the bill prices it, cost as
                       read from it; the requests that reproduce each figure)
  --grid-intensity <file>  the grid's carbon intensity over time, per zone (an Electricity Maps
                       export, Ember's monthly data or zone,start,gco2_per_kwh; .csv, .csv.gz or
                       .parquet): gwp use from the intervals each row or line spans, the
                       edition's factor where the series has none (docs/methodology.md)
  --grid-zones <file>  provider,place,zone rows overriding or adding places' zones (e.g.
                       aws,us-west-1,US-CAL-CISO; ,FRA,FR for a country); needs --grid-intensity
 inventory only:
  --workers <n>        evaluate on n worker threads (default: in this thread)
 cloud-scanner's inventory JSON only:
  --hours <n>          hours each resource is evaluated for (default 1; an estimated inventory's own)
 billing export only:
  --load <percent>     constant load of every instance (default: the archetype's)
  --filter <column=value>  sum only the lines whose column (or tag:<key>, method, account,
                       region, service, month) has the value:
                       the groups' file, a summary line, the report opened filtered, the
                       report's and --what-if's actions (not split by --group-by); repeated,
                       a column's values either, the columns all (COLUMN= for none)
  --instance-type-column <column>  the machine type of Google Cloud lines
  --tables <folder>    also write the small tables the run's SQL built there (instance matches,
                       places, energy, the methods' coefficient rows), for the same SQL on another
                       engine (docs/billing.md, "Beyond one machine"); created if absent

On a terminal, stderr shows the run's progress (an inventory's rows, a bill's stage and lines).

exit codes: 0 done (bad rows, if any, reported), 1 every row failed (or --strict stopped, or
the output failed), 2 misused (unknown option, edition, criterion or column, in one line with
the nearest valid ones; a file that cannot be read, or is empty; a written file naming a file
the run reads, or another written file), 70 a fault of the command itself (one line: please
report it), 130/143 interrupted
`;
