/**
 * The slow senders of bench/slowSenders.ts in a process of their own (the attacker is
 * another machine): `npx tsx bench/slowSenderAttacker.ts PORT bytes|burst`. Eight connections
 * from 127.0.0.1 declaring 8 MiB, a byte every 100 ms (`bytes`) or all but the last byte at once
 * (`burst`), until stdin ends; then one line of JSON on stdout: the answers by status and limit.
 */
import { MiB, type SlowPace, slowClient } from "../test/support/slowSenders.js";

const PACES: Record<string, { path: string; pace: SlowPace }> = {
  bytes: { path: "/v1/server/", pace: { declared: 8 * MiB, burst: 0, everyMs: 100 } },
  burst: { path: "/graphql", pace: { declared: 8 * MiB, burst: 8 * MiB - 1, everyMs: 0 } },
};

const [portText, paceName] = process.argv.slice(2);
const chosen = PACES[paceName ?? ""];
if (chosen === undefined || !/^\d+$/.test(portText ?? "")) {
  process.stderr.write("usage: slowSenderAttacker.ts PORT bytes|burst\n");
  process.exit(2);
}
const slow = slowClient("127.0.0.1", Number(portText), { connections: 8, ...chosen });
process.stdin.resume();
process.stdin.once("end", async () => {
  await slow.stop();
  const byAnswer: Record<string, number> = {};
  for (const { status, limit } of slow.answers) {
    const key = `${status} ${limit ?? ""}`.trim();
    byAnswer[key] = (byAnswer[key] ?? 0) + 1;
  }
  process.stdout.write(`${JSON.stringify(byAnswer)}\n`);
});
