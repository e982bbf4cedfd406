import { statSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { readScannerFile, ScannerFileError } from "../../scan/inventoryJson.js";
import { FileMisuse } from "../../support/namedFiles.js";
import { printable } from "../../support/terminalText.js";
import { type CliIo, type EvaluateArgs, failure, misuse, UsageError } from "../options.js";
import { estimateInProcess, notEvaluatedLines, writeText } from "./estimating.js";

/*
 * `impact-service evaluate <inventory.json>` for a file of cloud-scanner's (its inventory JSON, its
 * estimated inventory, or cloud-scanner 0.x's estimated shape, src/scan/inventoryJson.ts): every
 * resource evaluated through its single route, answered in cloud-scanner's estimated-inventory
 * shape on stdout or -o; what the file holds that is not read, and each resource not evaluated, said
 * on stderr in one line each.
 */

/** The largest cloud-scanner file read (an inventory of 100,000 resources is about 40 MB). */
export const MAX_SCANNER_FILE_BYTES = 64 * 1024 * 1024;

/** Resources of one file, at most. */
export const MAX_SCANNER_RESOURCES = 100_000;

/** The options `evaluate` takes for a cloud-scanner file. */
const TAKEN = new Set(["edition", "output", "hours", "format", "input"]);

/** The hours an inventory's resources are evaluated for (cloud-scanner's `use_duration_hours`, default 1). */
function hoursOf(text: string | undefined): number {
  if (text === undefined) return 1;
  const hours = Number(text);
  if (!(Number.isFinite(hours) && hours > 0 && hours <= 8784))
    throw new UsageError(`--hours is a number of hours from 0 to 8784, not ${text}`);
  return hours;
}

/** The file's value, bounded, or the misuse naming it. */
async function fileValue(file: string): Promise<unknown> {
  const size = statSync(file).size;
  if (size > MAX_SCANNER_FILE_BYTES)
    throw new FileMisuse(
      `${file}: ${size} bytes, a cloud-scanner file is read up to ${MAX_SCANNER_FILE_BYTES}`,
    );
  try {
    return JSON.parse((await readFile(file, "utf8")).replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new FileMisuse(
      `${file}: not valid JSON (${(error as Error).message.split("\n")[0].slice(0, 120)})`,
    );
  }
}

/** `evaluate <cloud-scanner file>`; the exit code. */
export async function scannerFileMain(args: EvaluateArgs, io: CliIo): Promise<number> {
  const { file, values } = args;
  let read: ReturnType<typeof readScannerFile>;
  try {
    const other = Object.entries(values).find(
      ([name, value]) => !TAKEN.has(name) && value !== undefined && value !== false,
    );
    if (other !== undefined)
      throw new UsageError(
        `--${other[0]} is not for a cloud-scanner inventory (${file}): its answer is cloud-scanner's estimated inventory`,
      );
    if (values.format !== undefined && values.format !== "json")
      throw new UsageError(`--format is json for a cloud-scanner inventory, not ${values.format}`);
    if (args.parts !== undefined) throw new UsageError(`${file}: a cloud-scanner inventory is read alone`);
    read = readScannerFile(await fileValue(file), hoursOf(values.hours));
    if (read.resources.length > MAX_SCANNER_RESOURCES)
      throw new FileMisuse(`${file}: ${read.resources.length} resources, at most ${MAX_SCANNER_RESOURCES}`);
  } catch (error) {
    if (error instanceof ScannerFileError) return misuse(io, new FileMisuse(`${file}: ${error.message}`));
    return misuse(io, error);
  }
  for (const what of read.notRead)
    io.stderr.write(`impact-service: ${printable(file)}: not read: ${printable(what)}\n`);
  try {
    const estimated = await estimateInProcess(
      read.resources,
      values.edition ?? null,
      io.interrupt,
      read.notRead,
    );
    for (const line of notEvaluatedLines(estimated, file))
      io.stderr.write(`impact-service: ${printable(line)}\n`);
    await writeText(values.output ?? "-", `${JSON.stringify(estimated)}\n`, io.stdout);
    const evaluated = estimated.impacting_resources.filter((item) => item.impacts_values !== null).length;
    io.stderr.write(
      `impact-service: ${printable(file)}: ${read.resources.length} resources (${evaluated} evaluated, ${read.resources.length - evaluated} not) in edition ${estimated.metadata.boavizta_api_version}\n`,
    );
    return evaluated === 0 && read.resources.length > 0 ? 1 : 0;
  } catch (error) {
    return failure(io, error);
  }
}
