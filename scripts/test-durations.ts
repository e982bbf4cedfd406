/**
 * Records each test file's duration, as vitest measured it in this checkout's last runs (its
 * results cache, node_modules/.vite/vitest/), into bench/history/test-files.json: the record
 * test/support/sequencer.ts starts the longest files first from in a fresh clone, which has no
 * cache. A file the cache holds replaces its recorded figure; the others keep theirs, so a run of
 * one project, or of a few files, records what it ran; `--project <name>` takes that project's
 * files only. Seconds to a tenth, files as `project:path` (vitest's keys).
 *
 *   npm run test:durations -- "2026-11-28, bash .ci/run, load 1–3" [--project unit]
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import type { RecordedDurations } from "../test/support/sequencer.js";
import { RECORDED_DURATIONS } from "../test/support/sequencer.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const CACHE = join(ROOT, "node_modules/.vite/vitest");

/** vitest's results cache: `[project:path, { duration (ms), failed }]` pairs. */
interface ResultsCache {
  readonly results: readonly [string, { readonly duration: number; readonly failed: boolean }][];
}

function cachedSeconds(project: string | undefined): Map<string, number> {
  const found = new Map<string, number>();
  if (!existsSync(CACHE)) return found;
  for (const folder of readdirSync(CACHE)) {
    const file = join(CACHE, folder, "results.json");
    if (!existsSync(file)) continue;
    const { results } = JSON.parse(readFileSync(file, "utf8")) as ResultsCache;
    for (const [key, { duration, failed }] of results) {
      // A failed file's duration says when it stopped, not how long it takes
      if (!failed && (project === undefined || key.startsWith(`${project}:`)))
        found.set(key, Math.round(duration / 100) / 10);
    }
  }
  return found;
}

const { values, positionals } = parseArgs({
  options: { project: { type: "string" } },
  allowPositionals: true,
});
const [measured] = positionals;
if (measured === undefined || measured.trim() === "") {
  console.error('usage: npm run test:durations -- "<date, command, load>" [--project <name>]');
  process.exit(2);
}
const before: RecordedDurations = existsSync(RECORDED_DURATIONS)
  ? (JSON.parse(readFileSync(RECORDED_DURATIONS, "utf8")) as RecordedDurations)
  : { runs: [], seconds: {} };
const seconds = { ...before.seconds, ...Object.fromEntries(cachedSeconds(values.project)) };
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
const record: RecordedDurations = { runs: [...before.runs, measured], seconds: sorted };
writeFileSync(RECORDED_DURATIONS, `${JSON.stringify(record, null, 2)}\n`);
console.log(`${Object.keys(sorted).length} files recorded in bench/history/test-files.json`);
