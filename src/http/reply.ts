/** An HTTP answer before it is written (and maybe compressed) by `send`. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text, bytes, or a stream of bytes (e.g. a fetch `Response` body). */
  readonly body: string | Uint8Array | AsyncIterable<Uint8Array> | null;
  /** The limit (its variable's name) a refusal names: the request's log line says it. */
  readonly limit?: string;
}

/**
 * A JSON answer, as its UTF-8 bytes at once: a large answer kept as a string until its turn's
 * writes (turnBatching.ts) is flattened in the old generation when it is measured and written,
 * and the young collections promote about 1 MB each (bench/README.md); bytes live outside the
 * JavaScript heap.
 */
export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return {
    status,
    headers: { "content-type": "application/json", ...headers },
    body: Buffer.from(JSON.stringify(value)),
  };
}

export function htmlReply(html: string): Reply {
  return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: html };
}

/** A limit refused in the answer layout of GraphQL or of the shim. */
export function limitReply(
  status: number,
  graphql: boolean,
  message: string,
  limit: string,
  headers: Record<string, string> = {},
): Reply {
  const reply = graphql
    ? jsonReply(status, { errors: [{ message, extensions: { code: "LIMIT_EXCEEDED", limit } }] }, headers)
    : jsonReply(status, { detail: message }, headers);
  return { ...reply, limit };
}
