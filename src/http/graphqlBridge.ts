import type { IncomingMessage } from "node:http";
import type { YogaServerInstance } from "graphql-yoga";
import type { Execution } from "./limits/execution.js";
import type { Reply } from "./reply.js";
import type { Answer } from "./route.js";

/*
 * /graphql: the request handed to yoga as a fetch `Request` (its body already read within the
 * bounds of execution.ts), with the transport context the schema reads (the cancellation's
 * signal, the admissions of its fleet items and of its body's heap, the request's id); yoga's
 * answer as a Reply.
 */

/** Request headers that describe the connection or the body's framing, not the request. */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "transfer-encoding",
  "content-length",
  "upgrade",
  "expect",
  "te",
  "trailer",
]);

function forwardedHeaders(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  return headers;
}

/** GraphQL answers sent part by part (subscriptions, @defer/@stream): never buffered. */
function isIncremental(contentType: string | undefined): boolean {
  return contentType !== undefined && /^(text\/event-stream|multipart\/)/i.test(contentType);
}

export function graphqlAnswer(
  // biome-ignore lint/suspicious/noExplicitAny: yoga's server context type is irrelevant here
  yoga: YogaServerInstance<any, any>,
  { execute, admitFleetItems }: Execution,
): Answer {
  return ({ request, method, requestId, cancellation, hold }) =>
    execute(request, cancellation, hold, true, async (body, lease, holdWhileWorking, admitBodyHeap) => {
      const cancel = cancellation.signal;
      const answer = await yoga.fetch(
        `http://localhost${request.url ?? "/graphql"}`,
        {
          method,
          headers: forwardedHeaders(request),
          // The bytes as read, not a copy of them (8 MB copied in the same stretch as their decoding)
          body: method === "GET" || method === "HEAD" ? undefined : body,
        },
        {
          signal: cancel,
          admitFleetItems: (items: number) => admitFleetItems(items, lease, cancel, holdWhileWorking),
          admitBodyHeap,
          requestId,
        },
      );
      const headers: Record<string, string> = {};
      // Lower-cased: the fetch layer may keep a header's original case (e.g. Content-Length).
      answer.headers.forEach((value, name) => {
        headers[name.toLowerCase()] = value;
      });
      // A single result is already one string inside yoga: taken whole, it is written at once
      // (see send.ts). Incremental answers (event streams, multipart) and the answers of large
      // fleets (serialised as they are sent, without a length: streamedAnswer.ts) keep streaming.
      if (
        answer.body === null ||
        isIncremental(headers["content-type"]) ||
        headers["content-length"] === undefined
      ) {
        return {
          status: answer.status,
          headers,
          body: answer.body as AsyncIterable<Uint8Array> | null,
        } satisfies Reply;
      }
      return { status: answer.status, headers, body: new Uint8Array(await answer.arrayBuffer()) };
    });
}
