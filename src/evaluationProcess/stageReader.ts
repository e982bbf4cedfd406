import type { ChildProcess } from "node:child_process";
import type { RunProgress } from "../service/fileEvaluation.js";

/*
 * A run's progress: the stages its command tells on its descriptor 3 (src/support/runStage.ts),
 * one JSON line each, read as they come; the last one told stands, and each stage is kept as it
 * was first told (a run quicker than the answer's heartbeat still says each of its stages).
 */

/** Characters of a stage line kept: a line past it is not one the command writes. */
const MAX_STAGE_LINE = 512;

/** A line the command told, as progress; null when it is not a stage line. */
function progressOf(line: string): RunProgress | null {
  try {
    const told = JSON.parse(line.slice(0, MAX_STAGE_LINE)) as {
      stage?: unknown;
      lines?: unknown;
      done?: unknown;
    };
    if (typeof told.stage !== "string") return null;
    const done = typeof told.done === "number" && told.done >= 0 && told.done <= 1 ? told.done : undefined;
    return {
      stage: told.stage,
      ...(typeof told.lines === "number" ? { lines: told.lines } : {}),
      ...(done === undefined ? {} : { done }),
    };
  } catch {
    return null;
  }
}

/** Stages kept of a run, each at its first telling: a command tells four or five. */
const MAX_STAGES = 16;

/** What `child` tells on its descriptor 3, read as it comes. */
export interface ToldStages {
  /** The last stage told (nothing told: `{}`). */
  readonly progress: () => RunProgress;
  /** Each stage told, as it was first told, in order (MAX_STAGES at most). */
  readonly stages: () => readonly RunProgress[];
}

/** The stages `child` tells on its descriptor 3, read as they come. */
export function stagesOf(child: ChildProcess): ToldStages {
  let last: RunProgress = {};
  const reached: RunProgress[] = [];
  let pending = "";
  const told: ToldStages = { progress: () => last, stages: () => reached };
  const pipe = child.stdio[3];
  if (pipe === null || pipe === undefined || !("setEncoding" in pipe)) return told;
  pipe.setEncoding("utf8");
  pipe.on("data", (text: string) => {
    const lines = (pending + text).split("\n");
    pending = (lines.pop() ?? "").slice(0, MAX_STAGE_LINE);
    for (const line of lines) {
      const progress = progressOf(line);
      if (progress === null) continue;
      if (progress.stage !== last.stage && reached.length < MAX_STAGES) reached.push(progress);
      last = progress;
    }
  });
  pipe.on("error", () => {});
  return told;
}
