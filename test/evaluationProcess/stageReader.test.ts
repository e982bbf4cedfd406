/**
 * A run's stages as the service reads them from its command's descriptor 3
 * (src/evaluationProcess/stageReader.ts): the last told stands, each stage is kept as first told
 * and in order, lines cut anywhere are read whole, a line that is not a stage is passed over, and
 * the stages kept are bounded.
 */
import type { ChildProcess } from "node:child_process";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { stagesOf } from "../../src/evaluationProcess/stageReader.js";

/** A child whose descriptor 3 is `pipe` (all stagesOf reads of it). */
const childTelling = (pipe: PassThrough) => ({ stdio: [null, null, null, pipe] }) as unknown as ChildProcess;

/** Writes `text` to `pipe` and waits for its reading. */
async function told(pipe: PassThrough, text: string): Promise<void> {
  pipe.write(text);
  await new Promise((resolve) => setImmediate(resolve));
}

describe("a run's stages read from its command", () => {
  it("keeps each stage as first told, in order, and the last told as the progress", async () => {
    const pipe = new PassThrough();
    const { progress, stages } = stagesOf(childTelling(pipe));
    expect([progress(), stages()]).toEqual([{}, []]);
    await told(pipe, '{"stage":"reading the export","done":0}\n{"stage":"telling its li');
    await told(
      pipe,
      'nes apart","done":0.25}\nnot a stage\n{"stage":"telling its lines apart","lines":7,"done":0.25}\n',
    );
    expect(stages()).toEqual([
      { stage: "reading the export", done: 0 },
      { stage: "telling its lines apart", done: 0.25 },
    ]);
    expect(progress()).toEqual({ stage: "telling its lines apart", lines: 7, done: 0.25 });
  });

  it("keeps 16 stages at most", async () => {
    const pipe = new PassThrough();
    const { progress, stages } = stagesOf(childTelling(pipe));
    await told(pipe, Array.from({ length: 40 }, (_, index) => `{"stage":"stage ${index}"}\n`).join(""));
    expect(stages()).toHaveLength(16);
    expect(stages()[15]).toEqual({ stage: "stage 15" });
    expect(progress()).toEqual({ stage: "stage 39" });
  });
});
