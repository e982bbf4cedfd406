/** An HTTP answer before it is written (and maybe compressed) by `send`. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text, bytes, or a stream of bytes (e.g. a fetch `Response` body). */
  readonly body: string | Uint8Array | AsyncIterable<Uint8Array> | null;
}

/**
 * A JSON answer, as its UTF-8 bytes at once. Kept as the serialised string until its turn's
 * writes (turnBatching.ts), a large answer was flattened in the old generation when it was measured
 * and written, and the young collections promoted about 1 MB each (bench/README.md, "sixth
 * round"); its bytes live outside the JavaScript heap.
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
