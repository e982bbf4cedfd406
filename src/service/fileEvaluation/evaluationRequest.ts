/*
 * What a client asks of the /evaluate page's route (`POST /v1/evaluate?name=…&edition=…&criteria=…
 * &format=…`), checked before a byte of the file is received. Every value that reaches the
 * command is one of an exact list (the editions the service serves, the criteria it knows, the
 * output formats) or the file's name rewritten to letters, digits and `._-` not starting with `-`
 * or `.`: no value of a request can become an option of the command (src/evaluationProcess/
 * command.ts also passes each one as `--name=value`, the file after `--`).
 */

/** The route a file is evaluated on (the /evaluate page's; its OpenAPI description: src/rest/openapi). */
export const EVALUATE_PATH = "/v1/evaluate";

/** A request refused before any work, with its HTTP status and the sentence the page shows. */
export class FileRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The endings of the files the command reads (docs/inventory.md, docs/billing.md). */
export const READ_ENDINGS = [
  ".csv",
  ".csv.gz",
  ".parquet",
  ".xlsx",
  ".ndjson",
  ".jsonl",
  // BigQuery's JSON export (`bq extract`), plain or gzipped (src/billing/reading/layout.ts)
  ".json",
  ".json.gz",
  // A bill's parts (its months) zipped together: the page packs several files so
  // (src/http/site/billParts.ts), checked once received (fileEvaluation/archiveBounds.ts)
  ".zip",
] as const;

/** The output formats the command writes: csv and xlsx for an inventory, csv and parquet for a bill. */
export const OUTPUT_FORMATS = ["csv", "xlsx", "parquet"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** What a client asks: its file's name (for its ending and the summary), the edition, criteria, output. */
export interface FileRequest {
  readonly name: string;
  readonly edition: string | null;
  /** The criteria named, each one the service knows, in the order named; null: the edition's. */
  readonly criteria: readonly string[] | null;
  readonly format: OutputFormat;
}

/** The values a request may name: the editions the service serves and the criteria it knows. */
export interface AcceptedValues {
  readonly editions: readonly string[];
  readonly criteria: readonly string[];
}

/**
 * A ZIP archive named as another file (its first bytes tell it): the command would unpack it
 * (src/support/zipArchive.ts), but only an archive named `.zip` is checked as one before its run
 * (its parts' bytes and lines, fileEvaluation/archiveBounds.ts).
 */
export const ZIP_REFUSAL =
  "the file is a ZIP archive named as another file: name it .zip (its files are read as one bill's parts)";

/** Criteria a request names at most (every criterion of an edition is fewer). */
const MAX_CRITERIA = 50;

/** A value as a refusal quotes it: JSON, at most 100 characters of it. */
const quoted = (value: string) => JSON.stringify(value.slice(0, 100));

/** The criteria of `text` (comma-separated), each an exact spelling of `known`; a refusal naming the field otherwise. */
function criteriaOf(text: string, known: readonly string[]): string[] {
  const named = text.split(",").map((criterion) => criterion.trim());
  if (named.length > MAX_CRITERIA)
    throw new FileRefusal(422, `criteria: ${MAX_CRITERIA} criteria at most (${named.length} named)`);
  const unknown = named.find((criterion) => !known.includes(criterion));
  if (unknown !== undefined) {
    throw new FileRefusal(
      422,
      `criteria: ${quoted(unknown)} is not a criterion this service knows (docs/api.md lists them, e.g. gwp, adp, pe)`,
    );
  }
  return named;
}

/** The request of a query string, checked; a FileRefusal (415, 422) naming the parameter otherwise. */
export function fileRequestOf(query: URLSearchParams, accepted: AcceptedValues): FileRequest {
  const name = query.get("name") ?? "";
  const lower = name.toLowerCase();
  if (!READ_ENDINGS.some((ending) => lower.endsWith(ending))) {
    throw new FileRefusal(
      422,
      `name: the command reads ${READ_ENDINGS.join(", ")} files, not ${quoted(name)}`,
    );
  }
  const given = (parameter: string): string | null => {
    const value = query.get(parameter);
    return value === null || value === "" ? null : value;
  };
  const format = given("format") ?? "csv";
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new FileRefusal(422, `format: ${OUTPUT_FORMATS.join(", ")}, not ${quoted(format)}`);
  }
  const edition = given("edition");
  if (edition !== null && !accepted.editions.includes(edition)) {
    throw new FileRefusal(
      422,
      `edition: ${quoted(edition)} is not an edition this service serves (${accepted.editions.join(", ")})`,
    );
  }
  const criteria = given("criteria");
  return {
    name,
    edition,
    criteria: criteria === null ? null : criteriaOf(criteria, accepted.criteria),
    format: format as OutputFormat,
  };
}

/** The longest of READ_ENDINGS a name ends with (`.csv.gz` rather than `.gz`), "" if none. */
export function endingOf(name: string): string {
  return (
    READ_ENDINGS.filter((e) => name.toLowerCase().endsWith(e)).sort((a, b) => b.length - a.length)[0] ?? ""
  );
}

/**
 * The file's name in the run's folder: its letters kept (the command's summary names it), its
 * ending whole, never starting with `-` or `.` (nor holding a separator).
 */
export function localName(name: string): string {
  const ending = endingOf(name);
  const stem = name
    .slice(0, name.length - ending.length)
    .replace(/[^A-Za-z0-9._-]/g, "_")
    .replace(/^[.-]+/, "")
    .slice(0, 80);
  return `${stem === "" ? "file" : stem}${ending}`;
}
