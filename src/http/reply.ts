/** An HTTP answer before it is written (and maybe compressed) by `send`. */
export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** Text, bytes, or a stream of bytes (e.g. a fetch `Response` body). */
  readonly body: string | Uint8Array | AsyncIterable<Uint8Array> | null;
}

export function jsonReply(status: number, value: unknown, headers: Record<string, string> = {}): Reply {
  return { status, headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(value) };
}

export function htmlReply(html: string): Reply {
  return { status: 200, headers: { "content-type": "text/html; charset=utf-8" }, body: html };
}
