import {
  type CoefficientTable,
  coefficientCells,
  coefficientColumns,
  coefficientCsv,
  coefficientTable,
  impactSlots,
} from "../../service/coefficients.js";
import { DomainError } from "../../service/errors.js";
import type { Service } from "../../service/open.js";
import { createRequestContext } from "../../service/requestState.js";
import { queryEdition, restEditions } from "../editionChoice.js";
import { RestError } from "../graphqlErrors.js";
import { queryLoad } from "./coefficients.js";
import { sent, streamSlots } from "./streamSlots.js";

/*
 * `GET /v1/cloud/coefficients/stream`: the coefficient table of `GET /v1/cloud/coefficients`
 * streamed as CSV (the layout of `impact-service coefficients`) or NDJSON, written as its rows are
 * computed. A streaming route of src/http's route table, as the batch.
 */

export const COEFFICIENTS_STREAM_PATH = "/v1/cloud/coefficients/stream";

/** The streamed formats: CSV (the command line's) and NDJSON (one object per row, keyed by column). */
export const STREAM_FORMATS = {
  csv: "text/csv; charset=utf-8",
  ndjson: "application/x-ndjson",
} as const;

type StreamFormat = keyof typeof STREAM_FORMATS;

/** A query's format, when it names one (own keys only: `toString` or `__proto__` is no format). */
const streamFormat = (text: string): StreamFormat | null =>
  Object.hasOwn(STREAM_FORMATS, text) ? (text as StreamFormat) : null;

interface StreamedReply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** A JSON error, or the table as it is computed. */
  readonly body: string | AsyncIterable<Uint8Array>;
}

const errorReply = (status: number, body: unknown): StreamedReply => ({
  status,
  headers: { "content-type": "application/json" },
  body: JSON.stringify(body),
});

/**
 * Text gathered into writes of about this many characters (one row is some 300): what a stream
 * whose reader stops holds besides its socket's buffers, so kept small.
 */
const CHUNK_CHARACTERS = 1 << 14;

/** Seconds a client refused for lack of room is told to wait. */
const RETRY_AFTER_SECONDS = 1;

/** The table as NDJSON text chunks: one object per row, keyed by the columns. */
async function* coefficientNdjson(table: CoefficientTable): AsyncGenerator<string> {
  const slots = impactSlots(table.criteria);
  const columns = coefficientColumns(table.criteria);
  let chunk = "";
  for await (const row of table.rows) {
    const cells = coefficientCells(table.edition, table.load, slots, row);
    chunk += `${JSON.stringify(Object.fromEntries(columns.map((column, index) => [column, cells[index]])))}\n`;
    if (chunk.length >= CHUNK_CHARACTERS) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}

/**
 * `GET /v1/cloud/coefficients/stream?format=csv|ndjson&provider=…&load=…&criteria=…&edition=…`:
 * the whole table of a provider (default aws), streamed. Everything the query names is checked
 * before the first byte (the same 422 and 404 answers as the JSON route's); the rows are then
 * computed as the client reads them (the answer waits on the socket's backpressure), and no more
 * once it leaves.
 */
/** A format the route does not write: 422 naming the parameter, in pydantic's words. */
const formatRefused = (given: string): StreamedReply =>
  errorReply(422, {
    detail: [
      {
        loc: ["query", "format"],
        msg: `Input should be ${Object.keys(STREAM_FORMATS).join(" or ")}`,
        type: "enum",
        input: given,
      },
    ],
  });

/** The 503 of a stream refused for lack of room. */
const busy = (maxConcurrent: number): StreamedReply => ({
  ...errorReply(503, {
    detail: `${maxConcurrent} coefficient tables are being streamed, the most at once (MAX_CONCURRENT_STREAMS)`,
  }),
  headers: {
    "content-type": "application/json",
    "retry-after": String(RETRY_AFTER_SECONDS),
    connection: "close",
  },
});

/** A table refused before its first byte, as GET /v1/cloud/coefficients refuses it. */
function refusalOf(error: unknown): StreamedReply {
  if (error instanceof RestError) return errorReply(error.status, error.body);
  if (error instanceof DomainError) {
    return errorReply(error.kind === "NOT_FOUND" ? 404 : 422, { detail: error.message });
  }
  throw error;
}

export function coefficientStreamRoute(
  service: Service,
  maxConcurrent: number,
): (request: { readonly url: string; readonly signal: AbortSignal }) => StreamedReply {
  const editions = restEditions(service);
  const slots = streamSlots(maxConcurrent);
  return ({ url, signal }) => {
    const params = new URLSearchParams(url.slice(url.indexOf("?") + 1 || url.length));
    // The edition resolved once, here at the route's edge (422 naming the parameter).
    const edition = queryEdition(params, editions);
    if ("refused" in edition) return errorReply(edition.refused.status, edition.refused.body);
    const given = params.get("format") ?? "csv";
    const format = streamFormat(given);
    if (format === null) return formatRefused(given);
    try {
      const context = createRequestContext(service, {
        spellError: (error) => error,
        edition: edition.served ?? undefined,
      }).edition();
      const criteria = params.getAll("criteria");
      const table = coefficientTable(context, {
        provider: params.get("provider") ?? "aws",
        load: queryLoad(params),
        criteria: criteria.length > 0 ? criteria : null,
      });
      const release = slots.take(signal);
      if (release === null) return busy(maxConcurrent);
      const text = format === "csv" ? coefficientCsv(table, CHUNK_CHARACTERS) : coefficientNdjson(table);
      return {
        status: 200,
        headers: { "content-type": STREAM_FORMATS[format] },
        body: sent(text, signal, release),
      };
    } catch (error) {
      return refusalOf(error);
    }
  };
}
