import { fstatSync, readdirSync, readFileSync, type Stats, statSync, writeSync } from "node:fs";
import { FileMisuse, type NamedFile } from "./namedFiles.js";

/*
 * A run's stage told to whoever started it: the service's /evaluate runs the command line in a
 * child process and gives it a pipe (its descriptor in IMPACT_STAGE_FD, which the command line
 * reads), on which each stage is one JSON line (`{"stage":"writing the lines","lines":124340}`);
 * the page shows the last one. Without the variable nothing is written: a person's terminal
 * reads the command's summary only.
 *
 * The descriptor is used only if it was handed to the command, checked once before anything is
 * read: writing to one the process opened itself (libuv's signal and wake-up pipes, its epoll,
 * eventfd and io_uring descriptors: 8, 13, 14, 18, 19) ended the command with SIGSEGV, no message;
 * naming standard output mixed the stages into the CSV; naming the input opened read-write
 * overwrote it. Node marks every descriptor close-on-exec at its start, handed ones included, so
 * that flag cannot tell them apart: a handed pipe is one whose reading end another process holds,
 * an own one is read by this process too.
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

/** Linux's O_ACCMODE and O_RDONLY, O_WRONLY, as /proc/self/fdinfo writes a descriptor's flags. */
const ACCESS_MODE = 0o3;
const READ_ONLY = 0;
const WRITE_ONLY = 1;

/** A descriptor's flags (Linux's /proc/self/fdinfo), null where they cannot be read (another system). */
function descriptorFlags(fd: number): number | null {
  try {
    const flags = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, "utf8"));
    return flags === null ? null : Number.parseInt(flags[1], 8);
  } catch {
    return null;
  }
}

/** A file's identity: its device and inode. */
const identity = (stats: Stats) => `${stats.dev}:${stats.ino}`;

/** The identity of a file a run names, null when it is not there (yet). */
function identityOfPath(path: string): string | null {
  try {
    return identity(statSync(path));
  } catch {
    return null;
  }
}

/** The identity of an open descriptor, null when it is not open. */
function identityOfDescriptor(fd: number): string | null {
  try {
    return identity(fstatSync(fd));
  } catch {
    return null;
  }
}

/** The standard streams, by their descriptors. */
const STANDARD = ["standard input", "standard output", "standard error"] as const;

/**
 * Whether this process also reads the pipe `fd` is (another of its descriptors on the same pipe
 * open for reading: libuv's signal and wake-up pipes); false where /proc cannot tell.
 */
function readByItself(fd: number, pipe: string): boolean {
  let open: string[];
  try {
    open = readdirSync("/proc/self/fd");
  } catch {
    return false;
  }
  return open.some((name) => {
    const other = Number(name);
    if (other === fd || identityOfDescriptor(other) !== pipe) return false;
    const flags = descriptorFlags(other);
    return flags !== null && (flags & ACCESS_MODE) !== WRITE_ONLY;
  });
}

/** Why the descriptor cannot take the stages, null when it can. */
function descriptorProblem(fd: number, files: readonly NamedFile[]): string | null {
  let stats: Stats;
  try {
    stats = fstatSync(fd);
  } catch {
    return `descriptor ${fd} is not open`;
  }
  // An eventfd, an epoll or an io_uring descriptor has no file type: none of these
  if (!stats.isFIFO() && !stats.isSocket() && !stats.isFile()) {
    return `descriptor ${fd} is not a pipe or a file (a terminal, a device, a folder or one of the process's own)`;
  }
  const flags = descriptorFlags(fd);
  if (flags !== null && (flags & ACCESS_MODE) === READ_ONLY)
    return `descriptor ${fd} is not open for writing`;
  const own = identity(stats);
  if (stats.isFIFO() && readByItself(fd, own)) {
    return `descriptor ${fd} was not handed to the command (a pipe it reads itself)`;
  }
  const standard = STANDARD.findIndex((_name, standardFd) => identityOfDescriptor(standardFd) === own);
  if (standard >= 0) return `descriptor ${fd} is the command's ${STANDARD[standard]}`;
  const file = files.find((named) => named.path !== "-" && identityOfPath(named.path) === own);
  return file === undefined ? null : `descriptor ${fd} is ${file.option} ${file.path}`;
}

/**
 * The descriptor IMPACT_STAGE_FD names, checked against the run's files (those it reads and
 * writes): open, a pipe (or a socket pair, what node's spawn makes) or a file, open for writing,
 * not a pipe the process reads itself, none of the standard streams nor a file of the run. A
 * FileMisuse naming the variable otherwise (one line, exit 2, nothing read).
 */
export function checkedStageDescriptor(value: string, files: readonly NamedFile[]): number {
  const refused = (why: string) =>
    new FileMisuse(
      `${STAGE_FD_VARIABLE}=${value}: ${why}; nothing read (the stages are written to a descriptor handed to the command, 3 or more)`,
    );
  if (!/^\d{1,9}$/.test(value.trim())) throw refused("not a descriptor's number");
  const fd = Number(value);
  if (fd < 3) throw refused(`descriptor ${fd} is the command's ${STANDARD[fd]}`);
  const problem = descriptorProblem(fd, files);
  if (problem !== null) throw refused(problem);
  return fd;
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
