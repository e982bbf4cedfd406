import type { Readiness } from "./readiness.js";
import { jsonReply } from "./reply.js";
import type { Answer } from "./route.js";

/*
 * The probes of an orchestrator: /healthz (the process answers) and /readyz (it takes requests:
 * 503 once it starts stopping, so that load balancers stop sending).
 */

export const health: Answer = async () => jsonReply(200, { status: "ok" });

export function readinessProbe(readiness: Readiness): Answer {
  return async () => {
    const phase = readiness.phase();
    return jsonReply(phase === "ready" ? 200 : 503, { status: phase });
  };
}
