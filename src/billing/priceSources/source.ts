/*
 * What a provider's public price source gives a price list (src/billing/priceList.ts): each VM
 * type's on-demand Linux price an hour at a region, in USD; how one is asked (its endpoint, each
 * request's time, the whole read's signal); and a request whose failure is named, never thrown
 * as a fault of the command.
 */

/** A type's hourly on-demand Linux price at a region, in USD. */
export interface VmPrice {
  readonly region: string;
  readonly instanceType: string;
  readonly usdPerHour: number;
}

/** How a source is asked: its endpoint, each request's time, the whole read's signal. */
export interface SourceAsk {
  readonly endpoint: string;
  readonly requestMs: number;
  readonly signal: AbortSignal;
}

/** A provider's price source: its id (the list's provider), its default endpoint, how it reads a region. */
export interface PriceSource {
  readonly provider: string;
  /** Named on the list's `# source:` line. */
  readonly name: string;
  readonly endpoint: string;
  readonly regionPrices: (ask: SourceAsk, region: string) => Promise<VmPrice[]>;
}

/** What could not be read of a region: named, the other regions kept. */
export class PriceSourceError extends Error {}

/** `url` asked, its answer's start within the request's time; an answer not 2xx, or none, is a PriceSourceError naming `what`. */
export async function sourceAnswer(
  ask: SourceAsk,
  url: URL,
  what: string,
  accept: string,
): Promise<Response> {
  // The request's time bounds its answer's start; its body (an offer file of GBs) is bounded by
  // the read's signal and its bytes
  const unanswered = new AbortController();
  const timer = setTimeout(
    () => unanswered.abort(new Error(`no answer within ${ask.requestMs / 1000} s`)),
    ask.requestMs,
  );
  let response: Response;
  try {
    response = await fetch(url, {
      signal: AbortSignal.any([ask.signal, unanswered.signal]),
      headers: { accept },
    });
  } catch (error) {
    if (unanswered.signal.aborted && !ask.signal.aborted)
      throw new PriceSourceError(`${what}: no answer within ${ask.requestMs / 1000} s`);
    // fetch's own message is "fetch failed": its cause names what failed (ENOTFOUND, ECONNREFUSED…)
    const cause = (error as Error & { cause?: { code?: unknown; message?: unknown } }).cause;
    const why =
      typeof cause?.code === "string" ? cause.code : String(cause?.message ?? (error as Error).message);
    throw new PriceSourceError(
      `${what}: ${ask.signal.aborted ? "stopped (the read's time ran out, or it was interrupted)" : why}`,
    );
  } finally {
    clearTimeout(timer);
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw new PriceSourceError(`${what}: HTTP ${response.status}`);
  }
  return response;
}

/** An answer's chunks, cut with PriceSourceError past `maxBytes` (declared or received). */
export async function* boundedChunks(
  response: Response,
  what: string,
  maxBytes: number,
): AsyncGenerator<Uint8Array> {
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new PriceSourceError(`${what}: ${declared} bytes, more than ${maxBytes}`);
  }
  if (response.body === null) return;
  let bytes = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    if (bytes > maxBytes) throw new PriceSourceError(`${what}: more than ${maxBytes} bytes`);
    yield chunk;
  }
}
