import { readdirSync, rmSync } from "node:fs";
import { lstat, mkdtemp, readdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

/*
 * A run's private folder under the temp folder (`TMPDIR`): the file received, the command's output
 * and report, and every temporary file of the command (its TMPDIR is this folder). Named by the
 * process that made it, so that a process starting removes what a process gone left behind (a
 * service killed by the kernel mid-run): in a container the service is always PID 1, so a folder of
 * the starting process's own PID is a previous one's too.
 */

const PREFIX = "impact-evaluate-";

/** A new run folder, named by this process. */
export function makeRunFolder(root: string = tmpdir()): Promise<string> {
  return mkdtemp(join(root, `${PREFIX}${process.pid}-`));
}

/** Whether a process of this id runs (another user's counts as running). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The process a run folder's name says made it. */
const MAKER = new RegExp(`^${PREFIX}(\\d+)-`);

/**
 * Removes the run folders left by processes gone, and by an earlier process of this one's id: at
 * its start-up (before it serves), when it has none of its own. The folders it removed.
 */
export function removeLeftFolders(root: string = tmpdir()): string[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const left = names.filter((name) => {
    const pid = MAKER.exec(name)?.[1];
    return pid !== undefined && (Number(pid) === process.pid || !isRunning(Number(pid)));
  });
  for (const name of left) rmSync(join(root, name), { recursive: true, force: true });
  return left;
}

/**
 * The bytes a folder's files hold on their disk (their blocks, so a sparse file counts what it
 * uses), every file below it, links not followed; a file gone meanwhile counts nothing.
 */
export async function folderBytes(folder: string): Promise<number> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  let bytes = 0;
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) bytes += await folderBytes(path);
    else bytes += ((await lstat(path).catch(() => null))?.blocks ?? 0) * 512;
  }
  return bytes;
}
