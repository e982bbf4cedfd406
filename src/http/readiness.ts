/*
 * Readiness of one server process. An app is ready when it exists: createApp loads the reference
 * data and builds the schema before the process listens, so no request ever sees it starting. It
 * is not ready any more once shutting down (so a load balancer stops sending requests while the
 * requests in flight finish).
 */

type Phase = "ready" | "stopping";

export interface Readiness {
  readonly phase: () => Phase;
  readonly markStopping: () => void;
}

export function createReadiness(): Readiness {
  let phase: Phase = "ready";
  return {
    phase: () => phase,
    markStopping: () => {
      phase = "stopping";
    },
  };
}
