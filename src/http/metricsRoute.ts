import type { Metrics } from "./metrics.js";
import type { Answer } from "./route.js";

/** GET /metrics: the registry in Prometheus's text format. */
export function metricsAnswer(metrics: Metrics): Answer {
  return async () => ({
    status: 200,
    headers: { "content-type": metrics.registry.contentType },
    body: await metrics.registry.metrics(),
  });
}
