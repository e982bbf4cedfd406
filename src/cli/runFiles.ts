import { realpathSync, statSync } from "node:fs";
import { basename, dirname, resolve } from "node:path";
import { FileMisuse } from "./files.js";
import type { EvaluateArgs } from "./options.js";

/*
 * Every file of one run, known in one place before anything is written: the files it reads (the
 * inventory or export, the grid series, the zones file, the editions file) and those it writes
 * (the output, the report, the sums per group, each table of --tables, and the `.partial` file
 * each of those is written as until complete). Each is resolved once — its device and inode when
 * it exists (links followed), else its folder's real path and its name — so that no spelling, link
 * or folder option makes a written file one the run reads, or two written files one.
 */

/** A file an option names (the option as the user typed it, the path as given). */
export interface NamedFile {
  readonly option: string;
  readonly path: string;
}

/** What a run reads and writes. */
export interface RunFiles {
  readonly reads: readonly NamedFile[];
  readonly writes: readonly NamedFile[];
}

/** A file's identity: its device and inode (through links), or where it would be made. */
function identityOf(path: string): string {
  try {
    const { dev, ino } = statSync(path);
    return `inode ${dev}:${ino}`;
  } catch {
    // Not there yet (or a link to nothing): the real folder it would be made in, and its name.
    const absolute = resolve(path);
    let folder = dirname(absolute);
    try {
      folder = realpathSync(folder);
    } catch {
      // A folder still to be made (--tables): its path as written.
    }
    return `path ${resolve(folder, basename(absolute))}`;
  }
}

/** `--output out.csv`, or `--output's partial out.csv.partial`. */
const shown = (file: NamedFile) => `${file.option} ${file.path}`;

/**
 * Refuses a run whose written file is a file it reads, or whose two written files are one (each
 * checked with its `.partial`): one line, before anything is written.
 */
export function refuseOverlappingFiles(files: RunFiles): void {
  const read = new Map<string, NamedFile>();
  for (const file of files.reads) {
    if (file.path !== "-" && !read.has(identityOf(file.path))) read.set(identityOf(file.path), file);
  }
  const written = new Map<string, NamedFile>();
  for (const file of files.writes) {
    const identity = identityOf(file.path);
    const input = read.get(identity);
    if (input !== undefined) {
      throw new FileMisuse(
        `${shown(file)} is ${input.option === "the input" ? "the input" : `the ${input.option} file`} ${input.path}: name another file; nothing written`,
      );
    }
    const other = written.get(identity);
    if (other !== undefined) {
      throw new FileMisuse(`${shown(file)} is also ${shown(other)}: name another file; nothing written`);
    }
    written.set(identity, file);
  }
}

/**
 * Refuses a bill whose part is named twice, by any spelling or link: its lines would be read, and
 * counted, twice.
 */
export function refuseRepeatedParts(parts: readonly string[]): void {
  const seen = new Map<string, string>();
  for (const part of parts) {
    const identity = identityOf(part);
    const earlier = seen.get(identity);
    if (earlier !== undefined) {
      throw new FileMisuse(`${part} is also ${earlier}: a part named twice would count its lines twice`);
    }
    seen.set(identity, part);
  }
}

/** The files read by any run: the editions file (EDITIONS_FILE) when there is one. */
export function environmentReads(environment: NodeJS.ProcessEnv): NamedFile[] {
  const editions = environment.EDITIONS_FILE;
  return editions === undefined || editions === "" ? [] : [{ option: "EDITIONS_FILE", path: editions }];
}

/** The file an option names, if it names one. */
export function named(option: string, path: string | undefined | null): NamedFile[] {
  return path === undefined || path === null ? [] : [{ option, path }];
}

/** What the billing engine tells of the files it writes (loaded with it). */
export interface WrittenFiles {
  /** Where a file is written until complete. */
  readonly partialOf: (path: string) => string;
  /** The files a --tables folder receives. */
  readonly portableTableFiles: (folder: string, grid: boolean) => string[];
}

/**
 * Every file of a billing run: the export, the series, the zones and editions files read; the
 * lines, the groups (`groupsShown`), the report and the tables written, each beside its `.partial`.
 */
export function billingRunFiles(
  args: EvaluateArgs,
  groupsShown: string | null,
  written: WrittenFiles,
): RunFiles {
  const { file, values } = args;
  const whole = (option: string, path: string | undefined): NamedFile[] =>
    path === undefined
      ? []
      : [
          { option, path },
          { option: `${option}'s partial file`, path: written.partialOf(path) },
        ];
  const tables =
    values.tables === undefined
      ? []
      : written
          .portableTableFiles(values.tables, values["grid-intensity"] !== undefined)
          .flatMap((path) => whole("--tables", path));
  return {
    reads: [
      ...(args.parts ?? [file]).map((path) => ({ option: "the input", path })),
      ...(args.archive?.archives ?? []).map((path) => ({ option: "the input", path })),
      ...named("the input", args.manifest),
      ...named("--grid-intensity", values["grid-intensity"]),
      ...named("--grid-zones", values["grid-zones"]),
      ...environmentReads(process.env),
    ],
    writes: [
      ...whole("--output", values.output),
      ...whole("--group-by's file", groupsShown ?? undefined),
      ...named("--report", values.report),
      ...tables,
    ],
  };
}
