import type { ScanSchedule } from "../scan/schedule.js";
import type { Metrics } from "./metrics.js";
import { jsonReply } from "./reply.js";
import type { Answer } from "./route.js";

/**
 * GET /metrics: the registry in Prometheus's text format, then the scanned account's gauges
 * (src/scan/scanGauges.ts) from the last scan kept as text (src/scan/servedGauges.ts;
 * src/scan/schedule.ts: scans run in a child process, never while a scrape waits). `?aws_region=<region>`, as cloud-scanner's exporter is scraped: that
 * region's scan gauges alone, so that one scrape job per region counts each resource once.
 */
export function metricsAnswer(metrics: Metrics, scan: ScanSchedule | null = null): Answer {
  return async ({ request }) => {
    const region = new URL(request.url ?? "/", "http://localhost").searchParams.get("aws_region");
    if (region !== null && (scan === null || !scan.regions.includes(region))) {
      const scanned =
        scan === null
          ? "no account is scanned (SCAN_AWS_REGIONS is unset)"
          : `the regions scanned are ${scan.regions.join(", ")}`;
      return jsonReply(400, {
        detail: `aws_region ${region.slice(0, 64)}: not a region scanned; ${scanned}`,
      });
    }
    const latest = scan?.latest() ?? null;
    const scanned = latest === null ? "" : latest.text(region);
    return {
      status: 200,
      headers: { "content-type": metrics.registry.contentType },
      body: region !== null ? scanned : `${await metrics.registry.metrics()}${scanned}`,
    };
  };
}
