import { constants, createBrotliCompress, createGzip } from "node:zlib";

/*
 * Content negotiation for compressed answers (fleet answers reach tens of MB). Brotli at a low
 * quality and gzip at a middle level: these answers are generated per request, so compression
 * speed matters more than the last percent of size.
 */

export type Encoding = "br" | "gzip";

const PREFERENCE: readonly Encoding[] = ["br", "gzip"];

/** The encoding to use for an `accept-encoding` header, or null (identity). */
export function chooseEncoding(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const weights = new Map<string, number>();
  for (const part of acceptEncoding.split(",")) {
    const [name, ...parameters] = part.trim().toLowerCase().split(";");
    if (!name) continue;
    const q = parameters.map((p) => p.trim()).find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    weights.set(name, Number.isFinite(weight) ? weight : 0);
  }
  const weightOf = (encoding: Encoding) => weights.get(encoding) ?? weights.get("*") ?? 0;
  let best: Encoding | null = null;
  for (const encoding of PREFERENCE) {
    if (weightOf(encoding) > 0 && (best === null || weightOf(encoding) > weightOf(best))) best = encoding;
  }
  return best;
}

/**
 * Text answers are worth compressing; images and already-compressed data are not, nor event
 * streams (a compressor holds back what it has not flushed, delaying each event).
 */
export function isCompressible(contentType: string | undefined): boolean {
  if (!contentType || /^text\/event-stream/i.test(contentType)) return false;
  return /^(text\/|application\/(json|javascript|graphql-response\+json|problem\+json)|image\/svg)/i.test(
    contentType,
  );
}

/**
 * A compressing stream for the encoding. Brotli's window is 256 KiB (lgwin 18), not its default
 * 4 MiB: an encoder's memory grows to about its window and more (9 MB once 4 MB have passed,
 * 1.3 MB at lgwin 18), and answers whose readers stop each keep theirs; the 11.8 MB coefficient
 * table of 2.4.1 aws compresses to 1.16 MB instead of 1.04 MB.
 */
export function compressor(encoding: Encoding) {
  return encoding === "br"
    ? createBrotliCompress({
        params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: 18 },
      })
    : createGzip({ level: 5 });
}
