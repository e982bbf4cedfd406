import type { EditionDescription } from "../editions/index.js";
import type { AnswerCache } from "../service/answerCache.js";
import type { RestResponse } from "./restRoute.js";

/*
 * GET answers kept serialized in the service's answer cache, sent as their bytes to the next
 * same request.
 */

/**
 * A GET answer is a pure function of its edition, its route's path and its query parameters
 * (handlers read parameters by name, only `criteria` as a list, whose order the stable sort
 * keeps), not of the request's headers or body: its key names the three, so spellings of one
 * request (trailing slashes, parameter order, a repeated single-valued parameter) share it, and
 * each edition (built-in or custom, each its own id) has its own answers.
 */
export function answerKey(edition: EditionDescription, path: string, params: URLSearchParams): string {
  const sorted = new URLSearchParams(params);
  sorted.sort();
  return `${edition.id} ${path}?${sorted}`;
}

/** A 200 answer to a GET, serialized once and kept for the next same request. */
export function keep(answers: AnswerCache, key: string, answer: RestResponse): RestResponse {
  const serialized = Buffer.from(JSON.stringify(answer.body));
  answers.set(key, serialized);
  return { status: answer.status, body: answer.body, serialized };
}

const utf8 = new TextDecoder();

/** A kept answer: sent as its bytes; its body parsed only if read (the batch route's lines). */
export function keptAnswer(serialized: Uint8Array): RestResponse {
  let body: { readonly value: unknown } | undefined;
  return {
    status: 200,
    serialized,
    get body() {
      body ??= { value: JSON.parse(utf8.decode(serialized)) };
      return body.value;
    },
  };
}
