import type { RestCall, RestResponse } from "../rest/index.js";
import type { Execution } from "./limits/execution.js";
import { jsonReply, type Reply } from "./reply.js";
import type { Answer } from "./route.js";

/*
 * The v1 REST shim (src/rest) behind the HTTP front: every path no other route serves, its body
 * read within the bounds of execution.ts, its answer written as the reference writes it.
 */

function restReply(answer: RestResponse): Reply {
  // The reference answers its 500s as plain text (a 503, no room now, is the service's JSON).
  if (answer.status >= 500 && answer.status !== 503) {
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
  const reply = jsonReply(answer.status, answer.body);
  return answer.headers === undefined
    ? reply
    : { ...reply, headers: { ...reply.headers, ...answer.headers } };
}

export function restAnswer(
  rest: (call: RestCall) => Promise<RestResponse>,
  { execute, admitFleetItems }: Execution,
): Answer {
  return ({ request, method, requestId, cancellation, hold }) =>
    execute(request, cancellation, hold, false, async (body, lease, holdWhileWorking, admitBodyHeap) =>
      restReply(
        await rest({
          method,
          url: request.url ?? "/",
          body: body.toString("utf8"),
          cancellation,
          requestId,
          admitFleetItems: (items) => admitFleetItems(items, lease, cancellation.signal, holdWhileWorking),
          admitBodyHeap,
        }),
      ),
    );
}
