/**
 * Issue 95's slow senders with the attacker apart (`npm run build && npx tsx bench/slowSenders.ts`,
 * as root): the built service with `npm start`'s flags and deploy/deployment.yaml's environment in
 * compose.yaml's limits (a 1 GiB memory cgroup, `TMPDIR` on a tmpfs; test/support/containerLimits.ts),
 * the pace's window made 1 s as test/server/slowSenders.test.ts makes it. Per block, in turn: no
 * attacker, eight connections sending a byte every 100 ms, eight sending all but their last byte —
 * each attacker in a process of its own (bench/slowSenderAttacker.ts), as the is on another
 * machine — while another client (127.0.0.2) asks small POSTs and light GETs back to back for
 * `BENCH_SLOW_SECONDS` (30). Prints each block's p99s, the other client's wrong answers, the attacker's
 * answers, the load average, and the cgroup's peak and OOM kills.
 *
 * Not a test (test/server/slowSenders.test.ts asserts the round): bench/README.md records its figures.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { loadavg } from "node:os";
import { bodyBytesHeld, MiB, otherClient, p99 } from "../test/support/slowSenders.js";
import { startContainedService } from "./containedService.js";

const SECONDS = Number(process.env.BENCH_SLOW_SECONDS ?? 30);
/** Bytes the service holds once each block's attacker is at work (its readiness signal). */
const ATTACKERS = [
  { name: "none", pace: null, held: 0 },
  { name: "a byte every 100 ms", pace: "bytes", held: 8 },
  { name: "all but the last byte", pace: "burst", held: 2 * 8 * MiB - 2 },
] as const;

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const load = () =>
  loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
// The pace's window made short, as the test makes it, so that a slow body is cut within a second
const service = startContainedService(new URL("..", import.meta.url), {
  BODY_RATE_WINDOW_MS: "1000",
  BODY_MIN_BYTES_PER_WINDOW: "4096",
});
try {
  const port = await service.port;
  for (const { name, pace, held } of ATTACKERS) {
    const before = load();
    const attacker =
      pace === null
        ? null
        : spawn(process.execPath, ["--import", "tsx", "bench/slowSenderAttacker.ts", String(port), pace], {
            stdio: ["pipe", "pipe", "inherit"],
          });
    // Its bytes arriving: each read of the gauge is a request, the wait between them the poll's
    while (attacker !== null && (await bodyBytesHeld(port)) < held) await pause(20);
    // Rounds of 50 back to back for the block's seconds: the slow bodies cut and sent again meanwhile
    const rounds = [];
    const until = performance.now() + SECONDS * 1000;
    while (performance.now() < until) rounds.push(await otherClient("127.0.0.2", port, 50));
    const other = {
      asked: rounds.reduce((sum, round) => sum + round.asked, 0),
      wrong: rounds.flatMap((round) => round.wrong),
      latenciesMs: rounds.flatMap((round) => round.latenciesMs),
      lightMs: rounds.flatMap((round) => round.lightMs),
    };
    let answers = "";
    if (attacker !== null) {
      attacker.stdout?.on("data", (chunk: Buffer) => {
        answers += chunk.toString("utf8");
      });
      attacker.stdin?.end();
      await once(attacker, "exit");
    }
    console.log(
      JSON.stringify({
        attacker: name,
        load: `${before} → ${load()}`,
        requests: other.asked,
        wrong: other.wrong,
        p99Ms: p99(other.latenciesMs),
        lightGetP99Ms: p99(other.lightMs),
        lightGetMaxMs: Math.round(Math.max(...other.lightMs)),
        attackerAnswers: answers.trim() === "" ? null : JSON.parse(answers),
      }),
    );
  }
  const { limits } = service;
  console.log(
    JSON.stringify({ cgroupPeakMb: Math.round(limits.peakBytes() / MiB), oomKills: limits.oomKills() }),
  );
} finally {
  await service.stop();
}
