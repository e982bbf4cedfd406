import type { YogaServerInstance } from "graphql-yoga";
import type { Capacity, Limits } from "../config/serviceConfig.js";
import type { RestCall, RestResponse } from "../rest/index.js";
import type { ScanSchedule } from "../scan/schedule.js";
import type { FileEvaluator } from "../service/fileEvaluation.js";
import type { Logger } from "../support/log.js";
import type { AllowedOrigins } from "./cors.js";
import type { Metrics } from "./metrics.js";
import type { Readiness } from "./readiness.js";
import type { Assets } from "./site/browserAssets.js";
import type { ProjectDocs } from "./site/projectDocs.js";
import type { StreamingReply } from "./streaming.js";

/** What the HTTP front is made of: the app's parts it routes to and the bounds it applies. */
export interface HttpParts {
  readonly allowedOrigins: AllowedOrigins;
  readonly compressionMinBytes: number;
  readonly limits: Limits;
  /** The work taken at once, all requests together (admission budgets). */
  readonly capacity: Capacity;
  readonly logger: Logger;
  readonly metrics: Metrics;
  readonly readiness: Readiness;
  // biome-ignore lint/suspicious/noExplicitAny: yoga's server context type is irrelevant here
  readonly yoga: YogaServerInstance<any, any>;
  readonly rest: (call: RestCall) => Promise<RestResponse>;
  readonly assets: Assets;
  readonly pages: { readonly root: string; readonly docs: string; readonly evaluate: string };
  /**
   * An edition's OpenAPI document, serialized (null: the service's default; called on each request
   * for it: memoize); null for an edition the service does not serve.
   */
  readonly openApi: (edition: string | null) => string | null;
  readonly projectDocs: ProjectDocs;
  /** Apollo's possibleTypes of the schema (called on each request for them: memoize). */
  readonly possibleTypes: () => unknown;
  /** The batch route (`POST /v1/batch`). */
  readonly batch: StreamingReply;
  /** The coefficient table streamed (`GET /v1/cloud/coefficients/stream`). */
  readonly coefficientStream: StreamingReply;
  /** A file evaluated by the command line in a child process (`POST /v1/evaluate`, the /evaluate page). */
  readonly fileEvaluator: FileEvaluator;
  /** The scanned AWS account whose gauges `/metrics` serves (SCAN_AWS_REGIONS); absent: none. */
  readonly scan?: ScanSchedule | null;
}
