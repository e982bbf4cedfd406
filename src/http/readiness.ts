/*
 * Readiness of one server process: ready once the reference data is loaded and the schema
 * built; not ready any more once shutting down (so a load balancer stops sending requests while
 * the requests in flight finish).
 */

export type Phase = "starting" | "ready" | "stopping";

export interface Readiness {
  readonly phase: () => Phase;
  readonly markReady: () => void;
  readonly markStopping: () => void;
}

export function createReadiness(): Readiness {
  let phase: Phase = "starting";
  return {
    phase: () => phase,
    markReady: () => {
      if (phase === "starting") phase = "ready";
    },
    markStopping: () => {
      phase = "stopping";
    },
  };
}
