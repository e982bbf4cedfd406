/**
 * Issue 95's slow senders against the service as it ships (test/support/slowSenders.ts), in its
 * container's limits: the server's bundle with `npm start`'s node flags and
 * deploy/deployment.yaml's environment, in a memory cgroup of compose.yaml's 1 GiB, `TMPDIR` on a
 * tmpfs of its `/tmp` size (test/support/containerLimits.ts) — the pace's window made short
 * (BODY_RATE_WINDOW_MS, BODY_MIN_BYTES_PER_WINDOW) so that a cut comes within a second. Eight
 * connections from 127.0.0.1 declaring 8 MiB bodies and sending a byte at a time, or all but the
 * last byte at once and nothing more, reconnecting after each answer: every small POST of another
 * client (127.0.0.2: REST, GraphQL, a batch, a file on the /evaluate page) is served while they last, each slow body is cut by
 * its pace (408) or refused past its client's share (503); honest bodies from ten addresses that
 * fill the budget find it full (503 with Retry-After). Every wait is on an answer or the service's
 * gauge of the bytes it holds.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { shippedDeployment } from "../../bench/admission.js";
import { serviceArguments, serviceVariables } from "../../bench/serviceCommand.js";
import { SERVER_BUNDLE } from "../support/bundle.js";
import { type Contained, containerLimits } from "../support/containerLimits.js";
import { portOf, startService } from "../support/process.js";
import {
  bodyBytesHeld,
  MiB,
  otherClient,
  p99,
  requestFrom,
  type SeenAnswer,
  slowClient,
} from "../support/slowSenders.js";

const WAIT_MS = 300_000;

/** npm start's node flags (package.json, the image's entry point), on the tests' build of the bundle. */
const SHIPPED = [
  process.execPath,
  ...serviceArguments().filter((part) => part.startsWith("--")),
  SERVER_BUNDLE,
];

/** The pace, made short: 4 KiB in every second. */
const PACE = { BODY_RATE_WINDOW_MS: "1000", BODY_MIN_BYTES_PER_WINDOW: "4096" };

const ATTACKER = "127.0.0.1";
const OTHER = "127.0.0.2";
/** Requests the other client asks during each slow phase. */
const OTHER_REQUESTS = 100;

/** The answers not among those allowed. */
const outside = (answers: readonly SeenAnswer[], allowed: (answer: SeenAnswer) => boolean) =>
  answers.filter((answer) => !allowed(answer));

const cutByPace = ({ status, limit }: SeenAnswer) => status === 408 && limit === "BODY_MIN_BYTES_PER_WINDOW";

describe("slow senders in compose.yaml's limits: 1 GiB of memory, npm start's 768 MB heap", () => {
  let limits: Contained;
  let service: ReturnType<typeof startService>;
  let port: number;
  let shipped: ReturnType<typeof shippedDeployment>["env"];

  beforeAll(async () => {
    shipped = shippedDeployment().env;
    limits = containerLimits("tmpfs");
    // Any free port: the manifest's 8080 may be another test's on a shared machine
    service = startService(
      { ...serviceVariables(), ...shipped, ...PACE, PORT: "0", TMPDIR: limits.tmp },
      limits.command(SHIPPED),
    );
    port = portOf((await service.waitFor(/^listening on /))[0]);
  }, WAIT_MS);

  afterAll(async () => {
    service?.killAll();
    await service?.exited;
    if (limits) await vi.waitFor(() => limits.release(), { timeout: WAIT_MS, interval: 50 });
  }, WAIT_MS);

  it(
    "eight connections sending a byte at a time: another client's POSTs all served, the page's upload too, each slow body cut by its pace",
    async () => {
      const slow = slowClient(ATTACKER, port, {
        connections: 8,
        path: "/v1/server/",
        pace: { declared: 8 * MiB, burst: 0, everyMs: 100 },
      });
      // Their bytes are arriving (eight at least), and none is held for what was only declared
      await vi.waitFor(async () => expect(await bodyBytesHeld(port)).toBeGreaterThanOrEqual(8), {
        timeout: WAIT_MS,
        interval: 20,
      });
      expect(await bodyBytesHeld(port)).toBeLessThan(MiB);
      const other = await otherClient(OTHER, port, OTHER_REQUESTS);
      // The /evaluate page's upload too, a file evaluated whole while they send
      const page = await requestFrom(OTHER, port, {
        method: "POST",
        path: "/v1/evaluate?name=servers.csv&criteria=gwp",
        body: "kind,quantity\nserver,1\n",
        contentType: "text/csv",
      });
      await slow.answered(1);
      await slow.stop();
      expect(page.status).toBe(200);
      expect(JSON.parse(page.text.trim().split("\n").at(-1) ?? "{}")).toMatchObject({
        event: "done",
        exitCode: 0,
      });
      console.info(
        `a byte at a time: ${other.asked} requests of ${OTHER}, p99 ${p99(other.latenciesMs)} ms (light GETs ${p99(other.lightMs)} ms); ${slow.answers.length} slow bodies answered`,
      );
      expect(other.wrong).toEqual([]);
      expect(outside(slow.answers, cutByPace)).toEqual([]);
      expect(service.errors).toEqual([]);
      expect(limits.oomKills()).toBe(0);
    },
    WAIT_MS,
  );

  it(
    "eight connections sending all but their last byte: the client holds its share at most, another's POSTs all served",
    async () => {
      const share = Number(shipped.MAX_BODY_BYTES_PER_CLIENT);
      const slow = slowClient(ATTACKER, port, {
        connections: 8,
        path: "/graphql",
        pace: { declared: 8 * MiB, burst: 8 * MiB - 1, everyMs: 0 },
      });
      await vi.waitFor(
        async () => expect(await bodyBytesHeld(port)).toBeGreaterThanOrEqual(2 * 8 * MiB - 2),
        {
          timeout: WAIT_MS,
          interval: 20,
        },
      );
      let mostHeld = 0;
      let watching = true;
      const watch = (async () => {
        while (watching) mostHeld = Math.max(mostHeld, await bodyBytesHeld(port));
      })();
      const other = await otherClient(OTHER, port, OTHER_REQUESTS);
      watching = false;
      await watch;
      await slow.answered(1);
      await slow.stop();
      console.info(
        `all but the last byte: ${other.asked} requests of ${OTHER}, p99 ${p99(other.latenciesMs)} ms (light GETs ${p99(other.lightMs)} ms); most held ${mostHeld} bytes; ${slow.answers.length} slow bodies answered`,
      );
      expect(other.wrong).toEqual([]);
      // The attacker's share, and the other client's small bodies beside it
      expect(mostHeld).toBeLessThanOrEqual(share + MiB);
      const refusedForShare = ({ status, limit, retryAfter }: SeenAnswer) =>
        status === 503 && limit === "MAX_BODY_BYTES_PER_CLIENT" && retryAfter !== undefined;
      expect(outside(slow.answers, (answer) => cutByPace(answer) || refusedForShare(answer))).toEqual([]);
      expect(slow.answers.filter(refusedForShare).length).toBeGreaterThan(0);
      expect(slow.answers.filter(cutByPace).length).toBeGreaterThan(0);
      expect(service.errors).toEqual([]);
      expect(limits.oomKills()).toBe(0);
    },
    WAIT_MS,
  );

  it(
    "honest bodies from ten addresses fill the budget: 503 with Retry-After naming it, none cut by the pace",
    async () => {
      const senders = Array.from({ length: 10 }, (_, n) =>
        slowClient(`127.0.0.${n + 3}`, port, {
          connections: 1,
          path: "/v1/server/",
          // 7 MiB at once, then 4 KiB every 100 ms: ten times the pace
          pace: { declared: 8 * MiB, burst: 7 * MiB, trickle: 4096, everyMs: 100 },
        }),
      );
      await Promise.any(senders.map((sender) => sender.answered(1)));
      await Promise.all(senders.map((sender) => sender.stop()));
      const answers = senders.flatMap((sender) => sender.answers);
      const budgetFull = answers.filter(
        ({ status, limit, retryAfter }) =>
          status === 503 && limit === "MAX_BODY_BYTES_IN_FLIGHT" && retryAfter !== undefined,
      );
      expect(budgetFull.length).toBeGreaterThan(0);
      expect(answers.filter(cutByPace)).toEqual([]);
      expect(answers.filter(({ limit }) => limit === "MAX_BODY_BYTES_PER_CLIENT")).toEqual([]);
      expect(service.errors).toEqual([]);
      expect(limits.oomKills()).toBe(0);
      expect(limits.peakBytes()).toBeLessThan(1024 * MiB);
    },
    WAIT_MS,
  );
});
