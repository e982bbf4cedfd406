import { setImmediate as nextMacrotask } from "node:timers/promises";
import { type Plugin, processRegularResult } from "graphql-yoga";

/*
 * Large GraphQL answers written as they are serialised. yoga serialises an answer with one
 * JSON.stringify: for a 10,000-server verbose fleet (about 100 MB), the event loop stops for more
 * than a second before the first byte, and the whole text is held next to the result. Here, the
 * answers of fleets (a root field with more than STREAMED_ITEMS items) are serialised piece by piece
 * (one item at a time at most), CHUNK_BYTES per read, with a turn of the event loop between reads;
 * the client reads the first bytes at once, and other requests are answered meanwhile. Answers
 * with errors, and small answers, keep yoga's processing (its status codes and error masking).
 */

/** Fleets with more items than this have their answers streamed. */
const STREAMED_ITEMS = 64;
/** Bytes serialised per read of the stream. */
const CHUNK_BYTES = 64 * 1024;
/** Objects deeper than this are serialised whole (an item's reports, an impact). */
const PIECE_DEPTH = 6;

type Json = unknown;

/** The JSON text of `value`, as JSON.stringify writes it, in pieces (one per small subtree). */
function* pieces(value: Json, depth: number): Generator<string> {
  if (value === null || typeof value !== "object" || depth >= PIECE_DEPTH) {
    yield JSON.stringify(value) ?? "null";
    return;
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
    yield JSON.stringify(value);
    return;
  }
  if (Array.isArray(value)) {
    yield "[";
    for (let i = 0; i < value.length; i++) {
      if (i > 0) yield ",";
      const element = value[i];
      if (element === undefined || typeof element === "function" || typeof element === "symbol") yield "null";
      else yield* pieces(element, depth + 1);
    }
    yield "]";
    return;
  }
  yield "{";
  let first = true;
  for (const [key, field] of Object.entries(value)) {
    if (field === undefined || typeof field === "function" || typeof field === "symbol") continue;
    yield `${first ? "" : ","}${JSON.stringify(key)}:`;
    first = false;
    yield* pieces(field, depth + 1);
  }
  yield "}";
}

/** The JSON text of `value` as a stream of chunks of about CHUNK_BYTES, a loop turn between them. */
function jsonStream(value: Json): ReadableStream<Uint8Array> {
  const text = pieces(value, 0);
  const encoder = new TextEncoder();
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (started) await nextMacrotask();
      started = true;
      let chunk = "";
      while (chunk.length < CHUNK_BYTES) {
        const next = text.next();
        if (next.done) {
          if (chunk !== "") controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
      }
      controller.enqueue(encoder.encode(chunk));
    },
  });
}

/** Whether a result answers a fleet of more than STREAMED_ITEMS items (root fields with `items`). */
function answersLargeFleet(data: unknown): boolean {
  if (data === null || typeof data !== "object") return false;
  return Object.values(data).some((field) => {
    const items = (field as { items?: unknown } | null)?.items;
    return Array.isArray(items) && items.length > STREAMED_ITEMS;
  });
}

/**
 * The media type yoga's regular processor answers with for a request (the last of its two types
 * that the Accept header admits, as yoga chooses), or null.
 */
function regularMediaType(accept: string | null): string | null {
  const requested = (accept || "*/*")
    .replace(/\s/g, "")
    .toLowerCase()
    .split(",")
    .flatMap((entry) => {
      const [type, ...parameters] = entry.split(";");
      const charset = parameters.find((parameter) => parameter.includes("charset=")) ?? "charset=utf-8";
      return charset === "charset=utf-8" ? [type] : [];
    })
    .reverse();
  const matches = (offered: string, asked: string) => {
    const [offeredType, offeredSubtype] = offered.split("/");
    const [type, subtype] = asked.split("/");
    return (type === "*" || type === offeredType) && (subtype === "*" || subtype === offeredSubtype);
  };
  let chosen: string | null = null;
  for (const asked of requested)
    for (const offered of ["application/graphql-response+json", "application/json"])
      if (matches(offered, asked)) chosen = offered;
  return chosen;
}

/** A yoga plugin streaming the answers of large fleets (see above). */
export function streamedAnswers(): Plugin {
  return {
    onResultProcess({ request, result, resultProcessor, setResultProcessor }) {
      if (resultProcessor !== processRegularResult) return;
      if (Array.isArray(result) || Symbol.asyncIterator in Object(result)) return;
      const single = result as { data?: unknown; errors?: readonly unknown[]; extensions?: unknown };
      if (single.errors?.length || single.extensions !== undefined || !answersLargeFleet(single.data)) return;
      const mediaType = regularMediaType(request.headers.get("accept"));
      if (mediaType === null) return;
      setResultProcessor(
        (_result, fetchAPI) =>
          new fetchAPI.Response(jsonStream({ data: single.data }), {
            status: 200,
            headers: { "content-type": `${mediaType}; charset=utf-8` },
          }),
        mediaType,
      );
    },
  };
}
