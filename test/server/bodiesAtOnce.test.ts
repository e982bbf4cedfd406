/**
 * Issue 86's round against the service as it ships, in its container's limits: the server's bundle
 * with `npm start`'s node flags and deploy/deployment.yaml's environment, in a memory cgroup of
 * compose.yaml's 1 GiB, `TMPDIR` on a tmpfs of its `/tmp` size (test/support/containerLimits.ts).
 * Each phase of test/support/bodiesAtOnce.ts sends its bodies at once — eight 8.37 MB REST bodies
 * of 279 lists of exactly 10,000 `{}` and four batches beside them (five of those bodies killed the
 * service before: "JavaScript heap out of memory", then the cgroup's OOM killer with eight), the
 * same in GraphQL, legal bodies whose parse builds 700,000 records, those beside the largest legal
 * fleet (10,000 verbose servers, a 110 MB answer) and the batches, bodies that are not JSON —
 * while a client asks light requests back to back. Every body is answered (a 4xx naming its field
 * or bound, 200 for the legal ones, or 503 with Retry-After), every light request too, the service
 * stays alive and no process of the cgroup is killed for memory. Every wait is on an answer.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { shippedDeployment } from "../../bench/admission.js";
import { serviceArguments, serviceVariables } from "../../bench/serviceCommand.js";
import { firePhase, PHASES, type ShotAnswer } from "../support/bodiesAtOnce.js";
import { SERVER_BUNDLE } from "../support/bundle.js";
import { type Contained, containerLimits } from "../support/containerLimits.js";
import { portOf, startService } from "../support/process.js";

const WAIT_MS = 600_000;

/** npm start's node flags (package.json, the image's entry point), on the tests' build of the bundle. */
const SHIPPED = [
  process.execPath,
  ...serviceArguments().filter((part) => part.startsWith("--")),
  SERVER_BUNDLE,
];

/** Whether an answer is one the round allows: what the kind is answered, or 503 with Retry-After. */
function allowed({ kind, status, retryAfter, lines, said }: ShotAnswer): boolean {
  if (status === 503) return retryAfter !== undefined;
  switch (kind) {
    case "REST":
      // Refused by its list's length (MAX_LIST_LENGTH), at the list
      return status === 422;
    case "GraphQL":
      // Its 2.79 million records would take ~200 MB parsed: past the whole budget, refused unbuilt
      return status === 413 && said === "MAX_PARSED_BYTES_IN_FLIGHT";
    case "batch":
      // Each of issue 86's lines refused by its list's length, or 503 when it found no room; the light one served
      return status === 200 && /^(422|503),(422|503),200$/.test(lines?.join(",") ?? "");
    case "REST built":
    case "fleet":
      return status === 200;
    default:
      // Not JSON: /graphql's 400, a REST route's 422
      return kind.startsWith("GraphQL") ? status === 400 : status === 422;
  }
}

describe("legal bodies at once in compose.yaml's limits: 1 GiB of memory, npm start's 768 MB heap", () => {
  let limits: Contained;
  let service: ReturnType<typeof startService>;
  let port: number;

  beforeAll(async () => {
    limits = containerLimits("tmpfs");
    // Any free port: the manifest's 8080 may be another test's on a shared machine
    service = startService(
      { ...serviceVariables(), ...shippedDeployment().env, PORT: "0", TMPDIR: limits.tmp },
      limits.command(SHIPPED),
    );
    port = portOf((await service.waitFor(/^listening on /))[0]);
  }, WAIT_MS);

  afterAll(async () => {
    service?.killAll();
    await service?.exited;
    if (limits) await vi.waitFor(() => limits.release(), { timeout: WAIT_MS, interval: 50 });
  }, WAIT_MS);

  for (const [name, shots] of Object.entries(PHASES)) {
    it(
      `${name}: every body answered, the light requests too, the service alive, nothing killed`,
      async () => {
        const { answers, light } = await firePhase(port, shots);
        expect(answers.filter((answer) => !allowed(answer))).toEqual([]);
        // Not all refused for room: the bodies meant to be served or refused by their content are
        expect(answers.filter((answer) => answer.status !== 503).length).toBeGreaterThan(0);
        expect(light.failed).toBe(0);
        expect(light.answered).toBeGreaterThan(0);
        expect(service.errors).toEqual([]);
        expect(limits.oomKills()).toBe(0);
        expect(limits.peakBytes()).toBeLessThan(1024 * 1024 * 1024);
      },
      WAIT_MS,
    );
  }
});
