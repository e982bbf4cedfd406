/**
 * The order the test files start in (vitest.config.ts's `sequence.sequencer`): the longest first,
 * so that the last file of each pool to end is a short one and no core waits idle at a project's
 * end while one long file runs (longest-first is the classic list schedule for a fixed number of
 * workers). A file's length is what vitest measured of it in this checkout's last run (its results
 * cache in node_modules/.vite), else what a run of the whole suite recorded in
 * bench/history/test-files.json (`npm run test:durations` writes it from vitest's cache), else
 * unknown: those run after the recorded ones, the larger first (vitest's own order for a checkout
 * without a cache). Without the record a fresh clone ran by size alone: Spark's file (three
 * minutes) was the 53rd of the 74 process files to start.
 */
import { readFileSync } from "node:fs";
import type { TestSpecification } from "vitest/node";
import { BaseSequencer } from "vitest/node";

/**
 * bench/history/test-files.json: `project:path` → seconds, as vitest's cache keys its results;
 * `runs` says which runs (date, command, load) the figures come from.
 */
export interface RecordedDurations {
  readonly runs: readonly string[];
  readonly seconds: Readonly<Record<string, number>>;
}

export const RECORDED_DURATIONS = new URL("../../bench/history/test-files.json", import.meta.url);

function recorded(): Readonly<Record<string, number>> {
  try {
    return (JSON.parse(readFileSync(RECORDED_DURATIONS, "utf8")) as RecordedDurations).seconds;
  } catch {
    return {};
  }
}

/** A file's key in vitest's cache: its project's name and its path from the root. */
export const durationKey = (project: string, path: string) => `${project}:${path}`;

export default class LongestFirst extends BaseSequencer {
  private readonly record = recorded();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = `${this.ctx.config.root}/`;
    const key = (spec: TestSpecification) =>
      durationKey(
        spec.project.name,
        spec.moduleId.startsWith(root) ? spec.moduleId.slice(root.length) : spec.moduleId,
      );
    const failed = (spec: TestSpecification) => this.ctx.cache.getFileTestResults(key(spec))?.failed === true;
    /** Milliseconds, or null when neither this checkout nor the record knows the file. */
    const duration = (spec: TestSpecification): number | null => {
      const cached = this.ctx.cache.getFileTestResults(key(spec));
      if (cached !== undefined) return cached.duration;
      const seconds = this.record[key(spec)];
      return seconds === undefined ? null : seconds * 1000;
    };
    const size = (spec: TestSpecification) => this.ctx.cache.getFileStats(key(spec))?.size ?? 0;
    return [...files].sort((a, b) => {
      // A file that failed last time first, as vitest does: its result is what one waits for
      if (failed(a) !== failed(b)) return failed(a) ? -1 : 1;
      const [da, db] = [duration(a), duration(b)];
      if (da !== null && db !== null) return db - da;
      if (da !== null || db !== null) return da !== null ? -1 : 1;
      return size(b) - size(a);
    });
  }
}
