import { writeSync } from "node:fs";

/*
 * A run's stage told to whoever started it: the service's /evaluate runs the command line in a
 * child process and gives it a pipe (its descriptor in IMPACT_STAGE_FD, which the command line
 * reads), on which each stage is one JSON line (`{"stage":"writing the lines","lines":124340}`);
 * the page shows the last one. Without the variable nothing is written: a person's terminal
 * reads the command's summary only.
 */

/** The variable naming the descriptor the stages are written to. */
export const STAGE_FD_VARIABLE = "IMPACT_STAGE_FD";

/** One stage: what the run does now, the lines it does it on when known, and how far the run is. */
export interface RunStage {
  readonly stage: string;
  readonly lines?: number;
  /** The share of the whole run done, 0–1, when the run can tell (the page's progress bar). */
  readonly done?: number;
}

/** The descriptor a variable's value names (3 and up: 0–2 are the command's own streams), else null. */
export function stageDescriptor(value: string | undefined): number | null {
  const fd = Number(value);
  return Number.isInteger(fd) && fd >= 3 ? fd : null;
}

/** What tells the page's stages, when the environment names their descriptor (null otherwise). */
export function pageStages(environment: NodeJS.ProcessEnv): ((stage: RunStage) => void) | null {
  const value = environment[STAGE_FD_VARIABLE];
  return value === undefined ? null : stageWriter(stageDescriptor(value));
}

/** What tells a stage on `fd` (nothing without one); never fails the run (a closed pipe is its reader gone). */
export function stageWriter(fd: number | null): (stage: RunStage) => void {
  if (fd === null) return () => {};
  return (stage) => {
    try {
      writeSync(fd, `${JSON.stringify(stage)}\n`);
    } catch {
      // The service stopped reading (the client left): the run ends with it.
    }
  };
}
