import { readFile } from "node:fs/promises";
import { folderBytes } from "./runFolder.js";

/*
 * The runs watched from outside while their commands run: the resident memory of all of them
 * together (a run alone may use all of it: the largest is stopped when they pass it), and each
 * run's folder (its file, output, report and temporary files) against its bytes. The command keeps
 * within both on its own (src/support/runBounds.ts; each file it writes is bounded by
 * RLIMIT_FSIZE); this is what holds when it does not.
 */

/** The bounds the watch holds the runs to (FileEvaluationBounds, src/service/fileEvaluation.ts). */
export interface WatchBounds {
  readonly runsMemoryBytes: number;
  readonly runFolderBytes: number;
}

/** A run being watched: its command's process, its folder (none: no files of its own), and how it is stopped. */
export interface WatchedRun {
  readonly pid: number;
  readonly folder: string | null;
  /** Kills the command; `reason` is the refusal the client reads. */
  readonly stop: (reason: string) => void;
}

/** Time between two looks: a command allocates or writes at most a few tens of MB meanwhile. */
const LOOK_MS = 100;

/**
 * A process's own resident bytes (Linux's /proc): its anonymous and shared-memory pages, not the
 * pages of the files it maps (node's binary, DuckDB's library: 86 MiB of a billing run's 488 MiB
 * VmRSS), which every run and the service share, are counted once by the kernel and dropped under
 * pressure. VmRSS where the kernel does not split it; null where it cannot be read (gone, no /proc).
 */
export function ownResidentBytes(status: string): number | null {
  const field = (name: string) => {
    const found = new RegExp(`^${name}:\\s+(\\d+) kB$`, "m").exec(status)?.[1];
    return found === undefined ? null : Number(found);
  };
  const anonymous = field("RssAnon");
  const kilobytes = anonymous === null ? field("VmRSS") : anonymous + (field("RssShmem") ?? 0);
  return kilobytes === null ? null : kilobytes * 1024;
}

async function residentBytes(pid: number): Promise<number | null> {
  const status = await readFile(`/proc/${pid}/status`, "latin1").catch(() => null);
  return status === null ? null : ownResidentBytes(status);
}

const mib = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MiB`;

/** The refusal of a run stopped for the memory of the runs. */
export function memoryRefusal(bounds: WatchBounds, used: number, alone: boolean): string {
  const whose = alone ? "the run" : "the runs at once";
  return `${whose} used ${mib(used)} of memory, more than ${mib(bounds.runsMemoryBytes)} (the page's bound); the run was stopped`;
}

/** The refusal of a run whose files passed their bound. */
export function folderRefusal(bounds: WatchBounds): string {
  return `the run's files (the file, its output, report and temporary files) passed ${mib(bounds.runFolderBytes)} (the page's bound); the run was stopped`;
}

/** What a watch says of a run it stops for memory (`used` of the runs together, `alone` or not). */
export type MemoryWords = (bounds: WatchBounds, used: number, alone: boolean) => string;

/** One look at every run: the largest stopped past the memory bound, any past its folder's. */
async function look(runs: ReadonlySet<WatchedRun>, bounds: WatchBounds, words: MemoryWords): Promise<void> {
  const watched = [...runs];
  const resident = await Promise.all(watched.map((run) => residentBytes(run.pid)));
  const total = resident.reduce<number>((sum, bytes) => sum + (bytes ?? 0), 0);
  if (total > bounds.runsMemoryBytes) {
    const largest = resident.indexOf(Math.max(...resident.map((bytes) => bytes ?? 0)));
    watched[largest].stop(words(bounds, total, watched.length === 1));
  }
  const folders = await Promise.all(
    watched.map((run) => (run.folder === null ? 0 : folderBytes(run.folder))),
  );
  for (const [index, bytes] of folders.entries()) {
    if (bytes > bounds.runFolderBytes) watched[index].stop(folderRefusal(bounds));
  }
}

/**
 * The watch of a service's runs: a run is added when its command starts, until it ends. `words`:
 * what a run stopped for memory is told (the page's refusal by default).
 */
export function createRunWatch(bounds: WatchBounds, words: MemoryWords = memoryRefusal) {
  const runs = new Set<WatchedRun>();
  let timer: NodeJS.Timeout | null = null;
  let looking = false;
  const tick = () => {
    if (looking) return;
    looking = true;
    // A look that fails (a run gone meanwhile) is the next one's to make.
    look(runs, bounds, words)
      .catch(() => {})
      .finally(() => {
        looking = false;
      });
  };
  return {
    /** Watches a run; the function returned ends its watch. */
    add(run: WatchedRun): () => void {
      runs.add(run);
      if (timer === null) {
        timer = setInterval(tick, LOOK_MS);
        timer.unref();
      }
      return () => {
        runs.delete(run);
        if (runs.size === 0 && timer !== null) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
  };
}
