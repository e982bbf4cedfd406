/**
 * A result several test files compute the same way, computed once and kept: the command's lines
 * of an engine case, which Spark's and Trino's files each compared their engine's lines with
 * (test/billing/engines/cases.ts). A result is kept in a folder of the system's temp folder named
 * by the hash of all it is computed from: the terms and input bytes its caller names, the
 * caller's own code files, and every file of src/ and data/ and package-lock.json (the code, the
 * reference data and the DuckDB release that compute it). Any change to one of them is another
 * name, so a kept result is what the computation gives now; it is written whole in a folder of
 * its own, then renamed into place, so a reader never sees a part.
 *
 * Two files asking at once (Spark's and Trino's start together, their cases in the same order):
 * the first claims the name (a lock file holding its process id, created exclusively) and
 * computes; the other waits for the result's folder, woken by a watch of the temp folder, and
 * computes it itself if the claimant's process is gone or the bound passes. Kept results unused for
 * a day are removed at a process's first use.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  watch,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
export const KEPT_FOLDER = join(tmpdir(), "impact-service-kept-results");

/** A kept result unused this long is removed. */
const UNUSED_MS = 24 * 3600_000;
/** How long a file waits for another's computation before computing the result itself. */
const WAIT_BOUND_MS = 600_000;

/** Every file under `folder`, sorted (paths from the checkout's root). */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

let codeHash: string | null = null;

/** The hash of src/, data/ and package-lock.json: the code and data every kept result comes from. */
function codeFingerprint(): string {
  if (codeHash !== null) return codeHash;
  const hash = createHash("sha256");
  for (const file of [
    ...filesUnder(join(ROOT, "src")),
    ...filesUnder(join(ROOT, "data")),
    join(ROOT, "package-lock.json"),
  ]) {
    hash.update(relative(ROOT, file)).update("\0").update(readFileSync(file)).update("\0");
  }
  codeHash = hash.digest("hex");
  return codeHash;
}

let pruned = false;

function pruneUnused(): void {
  if (pruned) return;
  pruned = true;
  const now = Date.now();
  for (const name of readdirSync(KEPT_FOLDER)) {
    const path = join(KEPT_FOLDER, name);
    try {
      if (now - statSync(path).mtimeMs > UNUSED_MS) rmSync(path, { recursive: true, force: true });
    } catch {
      // removed by another process meanwhile
    }
  }
}

/** Whether the process that wrote the lock `lock` still runs (false once the lock is gone). */
function claimantRuns(lock: string): boolean {
  try {
    const pid = Number(readFileSync(lock, "utf8"));
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: a process of another user holds that id, so it runs
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Resolves once `folder` exists, or once the lock's claimant is gone or the bound passes. */
function awaited(folder: string, lock: string, until: number): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (existsSync(folder) || !existsSync(lock) || !claimantRuns(lock) || Date.now() > until) {
        watcher.close();
        clearInterval(liveness);
        resolve();
      }
    };
    const watcher = watch(KEPT_FOLDER, check);
    // A claimant killed leaves its lock without an event: its process is looked for each second
    const liveness = setInterval(check, 1000);
    check();
  });
}

/** Computes into a folder of its own, then renames it into place (a reader never sees a part). */
async function computedInto(folder: string, compute: (folder: string) => Promise<void>): Promise<void> {
  const part = `${folder}.part-${process.pid}-${Math.random().toString(36).slice(2)}`;
  mkdirSync(part);
  try {
    await compute(part);
    renameSync(part, folder);
  } catch (error) {
    rmSync(part, { recursive: true, force: true });
    // Another process put the same result in place first: that one is kept
    if (existsSync(folder)) return;
    throw error;
  }
}

/** Where the result of `inputs` and `code` is kept (a lock beside it while it is computed: `.lock`). */
export function keptFolderOf(inputs: readonly (string | Uint8Array)[], code: readonly URL[]): string {
  const hash = createHash("sha256").update(codeFingerprint());
  for (const file of code) hash.update("\0").update(readFileSync(file));
  for (const input of inputs) hash.update("\0").update(input);
  return join(KEPT_FOLDER, hash.digest("hex").slice(0, 32));
}

/**
 * The folder holding the result `compute` writes into the folder it is given, computed once for
 * `inputs` (terms and input bytes) and `code` (the caller's own files) with the project's sources
 * as they are now.
 */
export async function keptResult(
  inputs: readonly (string | Uint8Array)[],
  code: readonly URL[],
  compute: (folder: string) => Promise<void>,
): Promise<string> {
  mkdirSync(KEPT_FOLDER, { recursive: true });
  pruneUnused();
  const folder = keptFolderOf(inputs, code);
  const lock = `${folder}.lock`;
  const until = Date.now() + WAIT_BOUND_MS;
  while (!existsSync(folder)) {
    // Waited past the bound: computed here too (the first folder renamed into place is kept)
    if (Date.now() > until) {
      await computedInto(folder, compute);
      break;
    }
    let claimed: number;
    try {
      claimed = openSync(lock, "wx");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      // another process computes it: wait for it, then look again (or take a dead claimant's lock)
      await awaited(folder, lock, until);
      if (!existsSync(folder) && existsSync(lock) && !claimantRuns(lock)) rmSync(lock, { force: true });
      continue;
    }
    try {
      writeSync(claimed, String(process.pid));
      closeSync(claimed);
      await computedInto(folder, compute);
    } finally {
      rmSync(lock, { force: true });
    }
  }
  const now = new Date();
  utimesSync(folder, now, now);
  return folder;
}
