import type { IncomingMessage } from "node:http";
import {
  type FileEvaluator,
  type FileEvent,
  type FileReceiver,
  FileRefusal,
} from "../../service/fileEvaluation.js";

export { EVALUATE_PATH } from "../../service/fileEvaluation.js";

import { clientOf } from "../clientAddress.js";
import { jsonReply } from "../reply.js";
import type { Answer } from "../route.js";
import { receive } from "./upload.js";

/*
 * `POST /v1/evaluate?name=FILE&edition=…&criteria=…&format=csv|xlsx|parquet`, the file as the
 * body (what the /evaluate page sends): one REST route rather than GraphQL's multipart upload, so
 * that the file goes to disk as it arrives (yoga's `File` is held whole in memory, upload.ts
 * bounds it as it comes) and the answer streams the run's progress and files as NDJSON lines
 * (docs/api.md, "Evaluate a file"). What a file's evaluation is, the use case says
 * (src/service/fileEvaluation.ts).
 */

/** Each event, one line. */
async function* ndjson(events: AsyncGenerator<FileEvent>): AsyncGenerator<Uint8Array> {
  for await (const event of events) yield Buffer.from(`${JSON.stringify(event)}\n`);
}

/**
 * A refusal answered while the body may still arrive: the rest is read and dropped as the answer
 * is written (src/http/limits/delivery.ts), so that a client still sending reads the refusal
 * rather than a reset connection — up to the page's bytes, past which the connection is closed.
 */
function dropRest(request: IncomingMessage, maxBytes: number): void {
  let dropped = 0;
  const count = (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > maxBytes) request.socket?.destroy();
  };
  request.on("data", count);
  request.once("end", () => request.off("data", count));
}

/** The route: admitted (503 past the slots), received within bounds (408, 413, 415, 422), then run. */
export function evaluateFileAnswer(evaluator: FileEvaluator): Answer {
  const { maxBytes } = evaluator.bounds;
  return async ({ request, cancellation }) => {
    const refused = (error: FileRefusal) => {
      dropRest(request, maxBytes);
      return refusal(error);
    };
    let fileRequest: ReturnType<FileEvaluator["requestOf"]>;
    try {
      fileRequest = evaluator.requestOf(new URL(request.url ?? "/", "http://service").searchParams);
    } catch (error) {
      if (error instanceof FileRefusal) return refused(error);
      throw error;
    }
    const declared = Number(request.headers["content-length"]);
    if (Number.isFinite(declared) && declared > maxBytes) {
      return refused(
        new FileRefusal(413, `the file exceeds ${maxBytes / 1024 / 1024} MiB (the page's bound)`),
      );
    }
    const slot = evaluator.admit(clientOf(request));
    if (slot instanceof FileRefusal) return refused(slot);
    try {
      // Not destroyed when a bound stops the reading: the rest is dropped, or the connection closed.
      const body = request.iterator({ destroyOnReturn: false });
      const received: FileReceiver = (path, signal) => receive(body, path, evaluator.bounds, signal);
      const events = await evaluator.evaluate(fileRequest, received, cancellation.signal, slot);
      return { status: 200, headers: { "content-type": "application/x-ndjson" }, body: ndjson(events) };
    } catch (error) {
      if (!(error instanceof FileRefusal)) throw error;
      // An upload too slow is not waited for: its connection ends with the answer.
      if (error.status === 408) return refusal(error, { connection: "close" });
      return refused(error);
    }
  };
}

/** A refusal as the page shows it (`detail`, as the REST shim's errors); a busy service's says when to retry. */
function refusal(error: FileRefusal, headers: Record<string, string> = {}) {
  const retry: Record<string, string> = error.status === 503 ? { "retry-after": "10" } : {};
  return jsonReply(error.status, { detail: error.message }, { ...retry, ...headers });
}
