import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { setPriority } from "node:os";
import type { FileRequest } from "../service/fileEvaluation.js";
import { LOG_LEVELS } from "../support/log.js";
import { STAGE_FD_VARIABLE } from "../support/runStage.js";

/*
 * The command a run starts, `impact-service evaluate`, in a child process bounded like the
 * service's own: its heap (node's flags), each file it writes (RLIMIT_FSIZE, set by util-linux's
 * prlimit, an essential package of Debian and of the image), and — should the container's memory
 * still run out — the first process the kernel stops (oom_score_adj 1000), never the service. Its
 * resident memory and its folder's bytes are watched from outside (runWatch.ts). Every value of
 * the request reaches it as `--name=value`, the file after `--`: none can be read as an option.
 */

/** The bounds a run's command is started with (FileEvaluationBounds, src/service/fileEvaluation.ts). */
export interface CommandBounds {
  /** Bytes of the run's folder; also the largest file the command may write. */
  readonly runFolderBytes: number;
  /** Resident memory of the runs together (a run alone may use all of it). */
  readonly runsMemoryBytes: number;
  /** The command's heap, node's --max-old-space-size (MB). */
  readonly runHeapMb: number;
}

/** The environment a run's command is given: the service's own, from its start-up (src/app/main.ts). */
export type CommandEnvironment = Readonly<Record<string, string | undefined>>;

/** What a run's command is started with. */
export interface CommandStart {
  readonly entry: string;
  readonly folder: string;
  readonly input: string;
  readonly output: string;
  readonly request: FileRequest;
  readonly environment: CommandEnvironment;
  readonly bounds: CommandBounds;
}

/** util-linux's prlimit (Linux): sets the command's RLIMIT_FSIZE before it starts. */
const PRLIMIT = ["/usr/bin/prlimit", "/bin/prlimit"].find((path) => existsSync(path)) ?? null;

/** The young generation of the command, as the service's (`npm start`'s flags). */
const SEMI_SPACE_MB = 16;

/**
 * The command's log level: the service's when it says as little as `warn` or less (`error`,
 * `fatal`, `silent`), `warn` otherwise (`info`, `debug`, `trace`, unset).
 */
function commandLogLevel(serviceLevel: string | undefined): string {
  const levels: readonly string[] = LOG_LEVELS;
  const at = levels.indexOf(serviceLevel ?? "");
  return at !== -1 && (serviceLevel === "silent" || at <= levels.indexOf("warn"))
    ? (serviceLevel as string)
    : "warn";
}

/** The options the page's choices become (commandArguments), each as the page names its control. */
const PAGE_CONTROLS: Readonly<Record<string, string>> = {
  "--edition": "the edition",
  "--criteria": "the criteria",
  "--format": "the output format",
};

/**
 * A command's one-line refusal in the words of the page's user, who chose no option: the options
 * the page's controls became named as the page names them (`the criteria: gwpp is not a criterion
 * of edition 2.5.0…`), and the command line's own remedies left out — `--input`, which names a
 * bill's format, has no control on the page, which reads a file by its content alone.
 */
export function inPageWords(line: string): string {
  let words = line.replace(/ \(--input [\w-]+\)/g, "").replace(/; --input [^;)]*/g, "");
  for (const [option, control] of Object.entries(PAGE_CONTROLS)) {
    words = words.replace(new RegExp(`(^|[\\s(])${option}\\b`, "g"), `$1${control}`);
  }
  return words;
}

/** The report a run's command writes, in its folder. */
export const REPORT_FILE = "out/report.html";

/** The command's arguments: each value as `--name=value`, the file after `--`. */
export function commandArguments({
  input,
  output,
  request,
}: Pick<CommandStart, "input" | "output" | "request">) {
  return [
    "evaluate",
    `--output=${output}`,
    `--report=${REPORT_FILE}`,
    `--format=${request.format}`,
    ...(request.edition === null ? [] : [`--edition=${request.edition}`]),
    ...(request.criteria === null ? [] : [`--criteria=${request.criteria.join(",")}`]),
    "--",
    input,
  ];
}

/**
 * A command line process the service starts (a file's evaluation, the scan of an account): node
 * on the command's entry with its heap bounded, and what else bounds it.
 */
export interface NodeCommand {
  readonly entry: string;
  readonly args: readonly string[];
  /** node's --max-old-space-size (MB). */
  readonly heapMb: number;
  /** node's --max-semi-space-size (MB); absent: node's own. */
  readonly semiSpaceMb?: number;
  /** The largest file it may write (RLIMIT_FSIZE, through prlimit where it is); absent: none set. */
  readonly fileBytes?: number;
  /** Its niceness, its CPU yielding to the service's; absent: the service's. */
  readonly niceness?: number;
  readonly environment: CommandEnvironment;
  readonly cwd?: string;
  /** Its standard output read (piped) or not; descriptor 3 piped too with `stages`. */
  readonly stdout: "pipe" | "ignore";
  readonly stages?: boolean;
}

/**
 * Starts a command line process: node with its heap (and files, niceness) bounded, and — should the
 * container's memory still run out — the first process the kernel stops (oom_score_adj 1000),
 * never the service. Its stderr is always piped (what it says); its time and resident memory are
 * bounded from outside (outcome.ts's endOf, runWatch.ts).
 */
export function startNodeCommand(command: NodeCommand): ChildProcess {
  const node = [
    process.execPath,
    `--max-old-space-size=${command.heapMb}`,
    ...(command.semiSpaceMb === undefined ? [] : [`--max-semi-space-size=${command.semiSpaceMb}`]),
    command.entry,
    ...command.args,
  ];
  const [file, ...args] =
    PRLIMIT === null || command.fileBytes === undefined
      ? node
      : [PRLIMIT, `--fsize=${command.fileBytes}`, "--", ...node];
  const child = spawn(file, args, {
    cwd: command.cwd,
    stdio: ["ignore", command.stdout, "pipe", ...(command.stages === true ? (["pipe"] as const) : [])],
    env: command.environment,
  });
  if (child.pid !== undefined) {
    // Raising a process's own score needs no privilege; where /proc is not, nothing is done.
    writeFile(`/proc/${child.pid}/oom_score_adj`, "1000").catch(() => {});
    if (command.niceness !== undefined) {
      try {
        setPriority(child.pid, command.niceness);
      } catch {
        // A platform without priorities: the command runs at the service's.
      }
    }
  }
  return child;
}

/** Starts a run's command: its process (prlimit's, which becomes node's) and its bounds set. */
export function startCommand(start: CommandStart): ChildProcess {
  const { entry, folder, environment, bounds } = start;
  // The service's environment (EDITION, EDITIONS_FILE: the same editions as the service serves);
  // its temp folder the run's, so what the command and its libraries write there goes with it and
  // is counted with it. Its log lines at `warn` at most, whatever the service's LOG_LEVEL: its
  // stderr is the summary the client reads.
  return startNodeCommand({
    entry,
    args: commandArguments(start),
    heapMb: bounds.runHeapMb,
    semiSpaceMb: SEMI_SPACE_MB,
    fileBytes: bounds.runFolderBytes,
    cwd: folder,
    // Descriptor 3: the run's stages (src/support/runStage.ts), for the page's progress
    stdout: "ignore",
    stages: true,
    environment: {
      ...environment,
      [STAGE_FD_VARIABLE]: "3",
      TMPDIR: folder,
      LOG_LEVEL: commandLogLevel(environment.LOG_LEVEL),
    },
  });
}
