import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type BillLayout,
  billName,
  inputKindOf,
  isZipFile,
  MAX_BILL_PARTS,
} from "../billing/reading/layout.js";
import { InputFileError } from "../duckdb/errors.js";
import { nestedArchiveRefusal } from "../support/fileStart.js";
import {
  checkedInput,
  environmentReads,
  FileMisuse,
  type NamedFile,
  named,
  refuseRepeatedParts,
} from "../support/namedFiles.js";
import { OutputAbandoned } from "../support/outputFile.js";
import { checkedStageDescriptor, STAGE_FD_VARIABLE, stageWriter } from "../support/runStage.js";
import { printable, printableLines } from "../support/terminalText.js";
import { allManifests, folderArgs, manifestsParts } from "./billFiles.js";
import { USAGE, VERSION_LINE } from "./helpText.js";
import { inventoryMain } from "./inventoryRun.js";
import {
  AskedAbout,
  billOptions,
  type CliIo,
  type EvaluateArgs,
  evaluateArgs,
  failure,
  interruptedCode,
  misuse,
} from "./options.js";
import { type StageProgress, stageProgress } from "./progress.js";

export type { CliIo } from "./options.js";

/*
 * The command line (bin/impact-service.mjs): which command the arguments name, and for `evaluate`
 * which file it reads — an inventory or a batch (src/cli/inventoryRun.ts), a billing export
 * (src/billing/bill.ts), an AWS CUR's manifest or a ZIP archive read as the files it holds.
 */

/** Runs the command line; the exit code (see USAGE). */
export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  // A closed stderr (`2>&-`, a reader gone) must not end the run with an unhandled error.
  io.stderr.on?.("error", () => {});
  try {
    return await command(argv, io);
  } catch (error) {
    // A fault of this program (every fault of the input is worded where it is found): one line,
    // exit 70 (EX_SOFTWARE), not a stack trace read as the input's fault.
    const first = String((error as Error)?.message ?? error)
      .split("\n")[0]
      .slice(0, 300);
    io.stderr.write(
      `impact-service: internal error, a fault of the command and not of its input (${printable(first)}); please report it with the command line\n`,
    );
    return 70;
  }
}

/** The command the arguments name, run; the exit code. */
async function command(argv: readonly string[], io: CliIo): Promise<number> {
  if (argv[0] === "coefficients")
    return (await import("./coefficients.js")).coefficientsMain(argv.slice(1), io);
  if (argv[0] === "sql") return (await import("./portable.js")).sqlMain(argv.slice(1), io);
  if (argv[0] === "tables") return (await import("./portable.js")).tablesMain(argv.slice(1), io);
  if (argv[0] === "scan") return (await import("./scan/scanCommand.js")).scanMain(argv.slice(1), io);
  if (argv[0] === "price-list")
    return (await import("./priceListCommand.js")).priceListMain(argv.slice(1), io);
  let args: EvaluateArgs;
  try {
    args = evaluateArgs(argv);
  } catch (error) {
    // What is asked of the command itself goes to stdout (`impact-service --help | less`).
    if (error instanceof AskedAbout) {
      io.stdout.write(error.asked === "help" ? USAGE : VERSION_LINE);
      return 0;
    }
    return misuse(io, error);
  }
  // A descriptor for the stages is checked against the run's files only when one is named (the page's runs)
  const stageVariable = process.env[STAGE_FD_VARIABLE];
  let stageFd: number | null = null;
  try {
    if (stageVariable !== undefined) stageFd = checkedStageDescriptor(stageVariable, namedRunFiles(args));
  } catch (error) {
    return misuse(io, error);
  }
  return evaluateMain(args, stageFd === null ? io : { ...io, stage: stageWriter(stageFd) });
}

/** The files a run names, as given: those it reads and those it writes (IMPACT_STAGE_FD is none of them). */
function namedRunFiles({ file, parts, values }: EvaluateArgs): NamedFile[] {
  return [
    ...(parts ?? [file]).map((path) => ({ option: "the input", path })),
    ...named("--grid-intensity", values["grid-intensity"]),
    ...named("--grid-zones", values["grid-zones"]),
    ...environmentReads(process.env),
    ...named("--output", values.output),
    ...named("--report", values.report),
  ];
}

/**
 * `evaluate <file>`: an inventory, a billing export, or the one file of a ZIP archive (read as
 * either); `evaluate <part> <part>…`: a billing export's parts, each file or ZIP archive of one.
 */
async function evaluateMain(given: EvaluateArgs, io: CliIo): Promise<number> {
  let args: EvaluateArgs;
  try {
    // A folder: the bill files it holds, or the CUR manifests below it (src/cli/billFiles.ts)
    args = folderArgs(
      given,
      (file) => ["billing", "manifest", "archive"].includes(inputKindOf(file, given.values.input).kind),
      MAX_BILL_PARTS,
    );
  } catch (error) {
    return misuse(io, error);
  }
  if (args.parts !== undefined && args.manifest === undefined && allManifests(args.parts)) {
    return manifestsMain(args, args.parts, io);
  }
  try {
    // Each file named: there, not a folder, not empty (as the /evaluate page refuses one).
    for (const file of args.parts ?? [args.file]) checkedInput(file);
  } catch (error) {
    return misuse(io, error);
  }
  const inputKind = inputKindOf(args.file, args.values.input);
  // cloud-scanner's inventory JSON, by its start (src/cli/scan/scannerFile.ts); never a bill's file.
  if (!["billing", "manifest", "archive"].includes(inputKind.kind) && args.parts === undefined) {
    const { isScannerFile } = await import("./scan/scannerStart.js");
    if (args.values.input === undefined && isScannerFile(args.file))
      return (await import("./scan/scannerFile.js")).scannerFileMain(args, io);
  }
  if (inputKind.kind === "foreign") return misuse(io, new FileMisuse(inputKind.problem));
  if (inputKind.kind === "manifest") return manifestMain(args, inputKind.manifest, io);
  // A part is a ZIP archive by its first bytes alone (a bill's parts are no workbooks).
  if (inputKind.kind === "archive" || (args.archive === undefined && args.parts?.some(isZipFile))) {
    return archiveMain(args, io);
  }
  if (args.parts !== undefined && inputKind.kind !== "billing") {
    // Several files are one bill's parts (src/billing/reading/layout.ts); an inventory is one file.
    const what =
      args.file === "-"
        ? "standard input"
        : !existsSync(args.file)
          ? "no such file"
          : statSync(args.file).isFile()
            ? "no billing export"
            : "not a regular file";
    return misuse(
      io,
      new FileMisuse(`${args.file}: ${what}; several files are read as the parts of one billing export`),
    );
  }
  if (inputKind.kind === "billing") return billingMain(args, inputKind.layout, io);
  // Newline-delimited JSON named otherwise (`batch.json`) is a batch: the CSV reader finds no row in it.
  const records = inputKind.records === true && args.values.input === undefined;
  return inventoryMain(records ? { ...args, values: { ...args.values, input: "ndjson" } } : args, io);
}

/**
 * `evaluate <report>-Manifest.json`: an AWS CUR's manifest, read as the parts it names, found
 * beside it (src/billing/reading/manifest.ts), each a file or a ZIP archive of one; alone.
 */
async function manifestMain(
  args: EvaluateArgs,
  manifest: { reportKeys: unknown[] },
  io: CliIo,
): Promise<number> {
  if (args.parts !== undefined || args.manifest !== undefined || args.archive !== undefined) {
    const why =
      args.parts !== undefined
        ? "among several files"
        : args.manifest !== undefined
          ? "named by a manifest"
          : "inside a ZIP archive";
    return misuse(io, new FileMisuse(`${args.file}: an AWS CUR manifest ${why}; a manifest is given alone`));
  }
  const { curManifestParts } = await import("../billing/reading/manifest.js");
  let read: ReturnType<typeof curManifestParts>;
  try {
    read = curManifestParts(args.file, manifest);
  } catch (error) {
    return misuse(io, error instanceof InputFileError ? new FileMisuse(error.message) : error);
  }
  io.stderr.write(`${printable(read.note)}\n`);
  const [file, ...more] = read.parts;
  return evaluateMain(
    { ...args, file, ...(more.length > 0 ? { parts: read.parts } : {}), manifest: args.file },
    io,
  );
}

/**
 * `evaluate <month>-Manifest.json <month>-Manifest.json…` (or a folder of a CUR's download): each
 * month's manifest read as the parts it names, all of them as one bill in time.
 */
async function manifestsMain(args: EvaluateArgs, manifests: readonly string[], io: CliIo): Promise<number> {
  const { curManifestParts } = await import("../billing/reading/manifest.js");
  const { isCurManifest, MAX_MANIFEST_BYTES } = await import("../billing/reading/layout.js");
  let read: ReturnType<typeof manifestsParts>;
  try {
    read = manifestsParts(manifests, (manifest) => {
      checkedInput(manifest);
      if (statSync(manifest).size > MAX_MANIFEST_BYTES)
        throw new FileMisuse(`${manifest}: a manifest of more than ${MAX_MANIFEST_BYTES} bytes`);
      const document: unknown = JSON.parse(readFileSync(manifest, "utf8"));
      if (!isCurManifest(document))
        throw new FileMisuse(`${manifest}: not an AWS CUR manifest (its reportKeys)`);
      return curManifestParts(manifest, document);
    });
  } catch (error) {
    return misuse(
      io,
      error instanceof SyntaxError ? new FileMisuse(`${manifests[0]}: a manifest that is no JSON`) : error,
    );
  }
  if (read.parts.length > MAX_BILL_PARTS) {
    const count = (n: number) => n.toLocaleString("en-US");
    return misuse(
      io,
      new FileMisuse(
        `${manifests[0]} and ${manifests.length - 1} more manifests: ${count(read.parts.length)} parts in all; a bill is read in ${count(MAX_BILL_PARTS)} parts at most`,
      ),
    );
  }
  for (const note of read.notes) io.stderr.write(`${printable(note)}\n`);
  const [file] = read.parts;
  return evaluateMain({ ...args, file, parts: read.parts, manifest: manifests[0], manifests }, io);
}

/**
 * `evaluate <archive.zip>`: its one file unpacked, then evaluated as if named, every line on
 * stderr naming it as the archive's; of a bill's parts, each ZIP part's file so. The copies are
 * removed whatever the run's end — an interruption, and a second one, which ends the process at
 * once (bin/impact-service.mjs). An archive inside an archive is not unpacked again.
 */
async function archiveMain(args: EvaluateArgs, io: CliIo): Promise<number> {
  if (args.archive !== undefined) {
    // The unpacked copy, named as its archive's file on the stream it is said on (namingMembers).
    return misuse(io, new FileMisuse(nestedArchiveRefusal(args.file)));
  }
  const { ArchiveRefusal, namingMembers } = await import("../support/zipArchive.js");
  const folder = mkdtempSync(join(tmpdir(), "impact-unzipped-"));
  const remove = () => rmSync(folder, { recursive: true, force: true });
  process.once("exit", remove);
  try {
    let unpacked: Awaited<ReturnType<typeof unpackedParts>>;
    try {
      unpacked = await unpackedParts(args, folder, io.interrupt);
    } catch (error) {
      if (io.interrupt?.aborted) {
        io.stderr.write(
          `impact-service: interrupted while unpacking ${printable(args.file)}; nothing written\n`,
        );
        return interruptedCode(io.interrupt.reason);
      }
      return misuse(io, error instanceof ArchiveRefusal ? new FileMisuse(error.message) : error);
    }
    const { files, members } = unpacked;
    const stderr = namingMembers(io.stderr, members);
    for (const member of members) stderr.write(`${member.note}\n`);
    const shown =
      args.parts === undefined && files.length > 1
        ? members.map((member) => member.shown)
        : (args.parts ?? [args.file]).map(
            (file) => members.find((member) => member.archive === file)?.shown ?? file,
          );
    const archive = {
      archives: [...new Set(members.map((member) => member.archive))],
      shown: billName(shown),
    };
    // A ZIP archive of several files (a bill's months or parts zipped together) is read as them
    const read = args.parts === undefined && files.length === 1 ? {} : { parts: files };
    return await evaluateMain({ ...args, file: files[0], ...read, archive }, { ...io, stderr });
  } finally {
    process.off("exit", remove);
    remove();
  }
}

/**
 * The files read in place of the ZIP archives given (the file, or a bill's parts): each archive's
 * one file unpacked into a folder of its own under `folder`, any other file as it is. A part named
 * twice is refused first: its archive would be unpacked twice, and its lines counted twice.
 */
async function unpackedParts(args: EvaluateArgs, folder: string, signal: AbortSignal | undefined) {
  const { unpackedMembers } = await import("../support/zipArchive.js");
  const given = args.parts ?? [args.file];
  refuseRepeatedParts(given);
  const files: string[] = [];
  const members: Awaited<ReturnType<typeof unpackedMembers>> = [];
  for (const [index, file] of given.entries()) {
    if (!isZipFile(file)) {
      files.push(file);
      continue;
    }
    const own = join(folder, String(index));
    mkdirSync(own);
    // One archive given alone may hold several files: a bill's months or parts zipped together
    const unpacked = await unpackedMembers(
      file,
      { folder: own, signal, most: MAX_BILL_PARTS },
      given.length === 1,
    );
    members.push(...unpacked);
    files.push(...unpacked.map((member) => member.file));
  }
  return { files, members };
}

/**
 * `impact-service evaluate <billing export> …` (src/billing/bill.ts, loaded for a bill alone): its
 * options read, the run evaluated and delivered, what it says printed; the exit code.
 */
async function billingMain(args: EvaluateArgs, layout: BillLayout | undefined, io: CliIo): Promise<number> {
  // The terminal's progress line, drawn once the bill names itself (BillIo.progress)
  const drawn: { terminal: StageProgress | null } = { terminal: null };
  try {
    const options = billOptions(args, layout);
    const { evaluateBill } = await import("../billing/bill.js");
    // The /evaluate page's child is handed a descriptor for its stages (io.stage, checked at the
    // start); a run in a terminal draws them on stderr (stageProgress); anything else tells them
    // to no one.
    const page = io.stage ?? null;
    const progress = (bill: string) => {
      drawn.terminal = stageProgress(io.stderr, bill);
      return drawn.terminal.stage;
    };
    await evaluateBill(options, {
      stdout: io.stdout,
      say: (text) => {
        drawn.terminal?.clear();
        io.stderr.write(printableLines(text));
      },
      ...(page === null ? {} : { stage: page }),
      ...(page === null && io.stderr.isTTY === true ? { progress } : {}),
      ...(io.interrupt === undefined ? {} : { interrupt: io.interrupt }),
      ...(io.priceLists === undefined ? {} : { priceLists: io.priceLists }),
    });
    return 0;
  } catch (error) {
    drawn.terminal?.stop();
    // SIGINT or SIGTERM: the query interrupted, the partial files removed (src/billing/bill.ts)
    if (io.interrupt?.aborted) {
      const said =
        error instanceof OutputAbandoned ? error.message : "interrupted; no file was left written in part";
      io.stderr.write(`impact-service: ${printable(said)}\n`);
      return interruptedCode(io.interrupt.reason);
    }
    return failure(io, error);
  } finally {
    drawn.terminal?.stop();
  }
}
