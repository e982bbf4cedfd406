import { parseArgs } from "node:util";
import type { BatchDefaults } from "../batch/index.js";
import { EDITION_IDS } from "../editions/index.js";
import type { InputFormat } from "./source.js";

/* The command line's options: their usage text and their reading (a misuse is a UsageError). */

export const USAGE = `usage: impact-service evaluate <file | -> [options]

  <file>               an inventory: CSV with a header (kind, quantity, provider, instance_type,
                       archetype, usage_location, hours, …: see docs/inventory.md) or a batch
                       (NDJSON, one {"method", "path", "body"} per line); - reads stdin
  --input csv|ndjson   the input's format (default: ndjson for a .ndjson/.jsonl file, else csv)
  --edition <id>       edition of the rows (default: the service's EDITION; served: ${EDITION_IDS.join(", ")})
  --criteria <list>    criteria, comma-separated (default: the edition's, e.g. gwp,adp,pe)
  --format ndjson|csv|xlsx  output format (default ndjson; xlsx needs -o or a pipe)
  -o, --output <file>  write the output there instead of stdout
  --ranges             csv, xlsx: each impact's min and max columns too
  --group-by <list>    sums per group of rows sharing these columns' values (e.g. team,site)
  --report <file.html> also write a self-contained HTML report with charts
  --workers <n>        evaluate on n worker threads (default: in this thread)
  --strict             stop at the first bad row (exit 1) instead of reporting it and going on

exit codes: 0 done (bad rows, if any, reported), 1 every row failed (or --strict stopped, or
the output failed), 2 misused (unknown option, edition, criterion or column), 130/143 interrupted
`;

/** A misused command line (an empty message: --help). */
export class UsageError extends Error {}

type Format = "ndjson" | "csv" | "xlsx";

export interface Options {
  readonly file: string;
  readonly input: InputFormat;
  readonly format: Format;
  readonly output: string | undefined;
  readonly report: string | undefined;
  readonly ranges: boolean;
  readonly groupBy: readonly string[];
  readonly defaults: BatchDefaults;
  readonly workers: number;
  readonly strict: boolean;
}

const list = (text: string | undefined) =>
  text
    ?.split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "") ?? [];

export function optionsOf(argv: readonly string[]): Options {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: {
      input: { type: "string" },
      edition: { type: "string" },
      criteria: { type: "string" },
      format: { type: "string", default: "ndjson" },
      output: { type: "string", short: "o" },
      report: { type: "string" },
      ranges: { type: "boolean", default: false },
      "group-by": { type: "string" },
      workers: { type: "string" },
      strict: { type: "boolean", default: false },
      help: { type: "boolean", short: "h", default: false },
    },
  });
  if (values.help) throw new UsageError("");
  const [command, file, ...rest] = positionals;
  if (command !== "evaluate") throw new UsageError(`unknown command: ${command ?? "(none)"}`);
  if (file === undefined || rest.length > 0) throw new UsageError("evaluate takes one file (or -)");
  const input = values.input ?? (/\.(ndjson|jsonl)$/i.test(file) ? "ndjson" : "csv");
  if (input !== "csv" && input !== "ndjson") throw new UsageError(`--input is csv or ndjson, not ${input}`);
  const format = values.format;
  if (format !== "csv" && format !== "ndjson" && format !== "xlsx") {
    throw new UsageError(`--format is ndjson, csv or xlsx, not ${format}`);
  }
  // No --workers: the evaluation runs in this thread (0 worker threads).
  const workers = values.workers === undefined ? 0 : Number(values.workers);
  if (values.workers !== undefined && !(Number.isInteger(workers) && workers >= 1 && workers <= 256)) {
    throw new UsageError("--workers is a whole number from 1 to 256");
  }
  const criteria = list(values.criteria);
  return {
    file,
    input,
    format,
    output: values.output,
    report: values.report,
    ranges: values.ranges,
    groupBy: list(values["group-by"]),
    defaults: {
      ...(values.edition !== undefined ? { edition: values.edition } : {}),
      ...(criteria.length > 0 ? { criteria } : {}),
    },
    workers,
    strict: values.strict,
  };
}
