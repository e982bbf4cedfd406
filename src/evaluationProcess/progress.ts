import type { ChildProcess } from "node:child_process";
import type { RunProgress } from "../service/fileEvaluation.js";

/*
 * A run's progress: the stages its command tells on its descriptor 3 (src/support/runStage.ts),
 * one JSON line each, read as they come; the last one told stands.
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

/** The last stage `child` told on its descriptor 3, read as it comes (nothing told: `{}`). */
export function stagesOf(child: ChildProcess): () => RunProgress {
  let last: RunProgress = {};
  let pending = "";
  const pipe = child.stdio[3];
  if (pipe === null || pipe === undefined || !("setEncoding" in pipe)) return () => last;
  pipe.setEncoding("utf8");
  pipe.on("data", (text: string) => {
    const lines = (pending + text).split("\n");
    pending = (lines.pop() ?? "").slice(0, MAX_STAGE_LINE);
    for (const line of lines) last = progressOf(line) ?? last;
  });
  pipe.on("error", () => {});
  return () => last;
}
