/**
 * The turns of the event loop shared by background work (src/service/eventLoopSlices.ts, TurnShare): a
 * turn grants slices, in the order they were asked, until SLICE_MS has passed (one at least);
 * the others wait for the next turn, and a job asking again goes behind those already waiting.
 * Turns are told apart by a mark an immediate clears (immediates queued during a turn run in the
 * next one); slices are busy loops on the clock, so the counts hold however loaded the machine.
 */
import { describe, expect, it } from "vitest";
import { SLICE_MS, turnShare } from "../../src/service/eventLoopSlices.js";

/** Numbers the turns of the event loop: the same number until an immediate has run. */
function turnCounter() {
  let turn = 0;
  let marked = false;
  return () => {
    if (!marked) {
      marked = true;
      turn += 1;
      setImmediate(() => {
        marked = false;
      });
    }
    return turn;
  };
}

function busy(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    // the slice's work
  }
}

/** `jobs` jobs asking `slices` slices each, each slice busy `ms`: the grants, in order, with their turn. */
async function run(jobs: number, slices: number, ms: number) {
  const share = turnShare();
  const turnNow = turnCounter();
  const grants: { job: number; turn: number }[] = [];
  await Promise.all(
    Array.from({ length: jobs }, async (_, job) => {
      for (let n = 0; n < slices; n++) {
        await share.nextSlice();
        grants.push({ job, turn: turnNow() });
        busy(ms);
      }
    }),
  );
  const perTurn = new Map<number, number>();
  for (const { turn } of grants) perTurn.set(turn, (perTurn.get(turn) ?? 0) + 1);
  return { grants, perTurn: [...perTurn.values()] };
}

describe("TurnShare", () => {
  it("grants every slice asked, round robin: no job's second slice before every job's first", async () => {
    const { grants } = await run(4, 3, 1);
    expect(grants).toHaveLength(12);
    const rounds = [0, 1, 2].map((round) => grants.slice(round * 4, round * 4 + 4).map((g) => g.job));
    for (const round of rounds) expect([...round].sort()).toEqual([0, 1, 2, 3]);
  });

  it("a turn stops granting once SLICE_MS has passed: slices of 5 ms, at most two a turn", async () => {
    const { grants, perTurn } = await run(4, 2, 5);
    expect(5 * 2).toBeGreaterThan(SLICE_MS);
    expect(5).toBeLessThan(SLICE_MS);
    expect(grants).toHaveLength(8);
    expect(Math.max(...perTurn)).toBeLessThanOrEqual(2);
    expect(perTurn.length).toBeGreaterThanOrEqual(4);
  });

  it("a slice longer than SLICE_MS is alone in its turn, and still granted", async () => {
    const { grants, perTurn } = await run(3, 1, SLICE_MS + 2);
    expect(grants).toHaveLength(3);
    expect(perTurn).toEqual([1, 1, 1]);
  });
});
