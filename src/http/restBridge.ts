import type { RestCall, RestResponse } from "../rest/index.js";
import type { Execution } from "./execution.js";
import { jsonReply, type Reply } from "./reply.js";
import type { Answer } from "./route.js";

/*
 * The v1 REST shim (src/rest) behind the HTTP front: every path no other route serves, its body
 * read within the bounds of execution.ts, its answer written as the reference writes it.
 */

function restReply(answer: RestResponse): Reply {
  // The reference answers its 500s as plain text.
  if (answer.status >= 500) {
    const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
    return { status: answer.status, headers: { "content-type": "text/plain; charset=utf-8" }, body: text };
  }
  // A body already serialized (a kept GET answer) is sent as it is.
  if (answer.serialized !== undefined) {
    return {
      status: answer.status,
      headers: { "content-type": "application/json" },
      body: answer.serialized,
    };
  }
  return jsonReply(answer.status, answer.body);
}

export function restAnswer(rest: (call: RestCall) => Promise<RestResponse>, { execute }: Execution): Answer {
  return ({ request, method, requestId, cancellation, hold }) =>
    execute(request, cancellation, hold, false, async (body) =>
      restReply(
        await rest({
          method,
          url: request.url ?? "/",
          body: body.toString("utf8"),
          cancellation,
          requestId,
        }),
      ),
    );
}
