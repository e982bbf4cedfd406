/**
 * A bill's progress line on a terminal (stageProgress, src/cli/progress.ts): one figure per run
 * from 0 to 100 %, never going back, though each of a stage's queries tells its own share from 0.
 */
import { describe, expect, it } from "vitest";
import { stageProgress } from "../../src/cli/progress.js";

/** A terminal that keeps what is written. */
function terminal() {
  const written: string[] = [];
  const stream = { isTTY: true, write: (text: string) => written.push(text) > 0 };
  return { stream: stream as unknown as NodeJS.WriteStream, written };
}

describe("a bill's progress line", () => {
  it("shows the run's share, never going back when a stage's next query starts from 0 %", () => {
    const { stream, written } = terminal();
    const progress = stageProgress(stream, "bill.csv", () => 0);
    // Four stages, each running three queries whose shares go 0 → 100 then start again
    const stages = [
      "reading the export",
      "telling its lines apart",
      "looking up their impacts",
      "writing the lines",
    ];
    stages.forEach((stage, at) => {
      for (const query of [0, 40, 100, 0, 70, 100, 0, 100])
        progress.stage({ stage, done: at / 4 }, () => query);
    });
    progress.stop();
    const figures = written.flatMap((text) => {
      const figure = /, (\d+) %, \d+ s/.exec(text);
      return figure === null ? [] : [Number(figure[1])];
    });
    expect(figures.length).toBe(32);
    expect(figures[0]).toBe(0);
    expect(figures.at(-1)).toBe(100);
    for (let at = 1; at < figures.length; at++) expect(figures[at]).toBeGreaterThanOrEqual(figures[at - 1]);
    // The figure moves within each stage, not only at its start
    expect(new Set(figures).size).toBeGreaterThan(8);
  });
});
