/*
 * Readiness of one server process. An app is ready when it exists: createApp loads the reference
 * data and builds the schema before the process listens, so no request ever sees it starting. It
 * is not ready any more once shutting down (so a load balancer stops sending requests while the
 * requests in flight finish).
 */

/** Whether the process takes requests, or finishes those in flight before it ends. */
type ServingState = "ready" | "stopping";

export interface Readiness {
  readonly phase: () => ServingState;
  readonly markStopping: () => void;
}

export function createReadiness(): Readiness {
  let phase: ServingState = "ready";
  return {
    phase: () => phase,
    markStopping: () => {
      phase = "stopping";
    },
  };
}
