/**
 * The plain bill's trip, measured by running it: which files of `src/` do work between the
 * command line's argument and the output file the user named.
 *
 * A 3-line FOCUS CSV (the header and first 3 lines of the FinOps sample) is evaluated as a user
 * would, `evaluate bill.csv -o out.csv --edition 2.4.1` through its sources (`src/cli/tsxEntry.mjs`), under
 * `NODE_V8_COVERAGE`. Then the same files are only imported, under it too. A file does work on the
 * trip when one of its functions ran more often in the first run than in the second (what runs at
 * import — tables built at load, a module's top level — is no work of the trip). Files of the
 * computation rooms (`src/engine`, `src/data`, `src/editions`, `src/inputs`) are left out: they
 * are the methodology, whatever the trip.
 *
 *   npx tsx scripts/billing-trip.ts [--list | --functions]
 *
 * prints the count; --list every file by folder, --functions each file's functions that did work.
 *
 * The bound it is held to is in docs/testing.md ("Measuring a plain bill's path through the
 * code"), the figure file by file in docs/billing-code.md, beside the climbs of the same trip
 * (scripts/billing-climbs.ts).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { PUBLIC_EXPORTS } from "../test/support/publicExports.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SRC = join(ROOT, "src");
const SAMPLE = join(PUBLIC_EXPORTS, "focus-1.0-finops-sample.csv");
if (!existsSync(SAMPLE)) {
  // the trip runs the FinOps sample, kept beside the checkout (test/fixtures/README.md)
  process.stderr.write(
    `billing-trip: ${SAMPLE} not found; the trip needs shared/public-exports beside the checkout\n`,
  );
  process.exit(2);
}
const COMPUTATION = ["engine", "data", "editions", "inputs"];

interface FunctionCoverage {
  readonly functionName: string;
  readonly ranges: readonly { startOffset: number; endOffset: number; count: number }[];
}
interface ScriptCoverage {
  readonly url: string;
  readonly functions: readonly FunctionCoverage[];
}

/** Per `src` file, each function's call count (summed over every process and thread that ran it). */
type Counts = Map<string, Map<string, number>>;

function countsIn(folder: string): Counts {
  const counts: Counts = new Map();
  for (const name of readdirSync(folder)) {
    if (!name.endsWith(".json")) continue;
    const { result } = JSON.parse(readFileSync(join(folder, name), "utf8")) as { result: ScriptCoverage[] };
    for (const script of result) {
      if (!script.url.startsWith("file://")) continue;
      const path = fileURLToPath(script.url.split("?")[0]);
      if (!path.startsWith(`${SRC}/`)) continue;
      const file = relative(ROOT, path);
      const functions = counts.get(file) ?? new Map<string, number>();
      counts.set(file, functions);
      for (const fn of script.functions) {
        const key = `${fn.functionName}@${fn.ranges[0]?.startOffset}`;
        functions.set(key, (functions.get(key) ?? 0) + (fn.ranges[0]?.count ?? 0));
      }
    }
  }
  return counts;
}

/** Runs `node args…` in `cwd` with its coverage written to a fresh folder; that folder's counts. */
function covered(
  args: readonly string[],
  cwd: string,
): { counts: Counts; status: number | null; stderr: string } {
  const folder = mkdtempSync(join(tmpdir(), "billing-trip-coverage-"));
  try {
    const run = spawnSync(process.execPath, args, {
      cwd,
      env: { ...process.env, NODE_V8_COVERAGE: folder, LOG_LEVEL: "silent" },
      encoding: "utf8",
    });
    return { counts: countsIn(folder), status: run.status, stderr: run.stderr };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const isComputation = (file: string) => COMPUTATION.some((room) => file.startsWith(`src/${room}/`));

/**
 * The command's process entries: they run the command when imported (the import step would run it
 * with no arguments), and they are to the sources what bin/impact-service.mjs is to the bundle — the
 * process around `main` (signals, exit code), no room of the trip.
 */
const ENTRIES = new Set(["src/cli/tsxEntry.mjs", "src/cli/entry.ts"]);

/** The files of the trip doing work, outside the computation rooms, sorted. */
export function billingTrip(): {
  working: string[];
  loaded: number;
  work: Map<string, string[]>;
  /** Every file's functions that did work, the computation rooms' too. */
  ran: Map<string, string[]>;
} {
  const work = mkdtempSync(join(tmpdir(), "billing-trip-"));
  try {
    const sample = readFileSync(SAMPLE, "utf8").split("\n").slice(0, 4).join("\n");
    writeFileSync(join(work, "bill.csv"), `${sample}\n`);
    // The sources through tsx (the bin would run the bundle, whose files are not the sources).
    const cli = join(ROOT, "src/cli/tsxEntry.mjs");
    const trip = covered([cli, "evaluate", "bill.csv", "-o", "out.csv", "--edition", "2.4.1"], work);
    if (trip.status !== 0) throw new Error(`the trip's run ended with ${trip.status}:\n${trip.stderr}`);
    const files = [...trip.counts.keys()].filter((file) => !ENTRIES.has(file));
    const importer = join(work, "import.mjs");
    writeFileSync(
      importer,
      [
        `import { register } from ${JSON.stringify(pathToFileURL(join(ROOT, "node_modules/tsx/dist/esm/api/index.mjs")).href)};`,
        "register();",
        ...files.map((file) => `await import(${JSON.stringify(pathToFileURL(join(ROOT, file)).href)});`),
      ].join("\n"),
    );
    const imported = covered([importer], work);
    if (imported.status !== 0) throw new Error(`importing the trip's files failed:\n${imported.stderr}`);
    const ran = new Map<string, string[]>();
    for (const file of files) {
      const atImport = imported.counts.get(file) ?? new Map<string, number>();
      const functions = [...(trip.counts.get(file) ?? new Map<string, number>())]
        .filter(([fn, count]) => count > (atImport.get(fn) ?? 0))
        .map(([fn]) => fn.split("@")[0] || "(anonymous)");
      if (functions.length > 0) ran.set(file, functions);
    }
    const done = new Map([...ran].filter(([file]) => !isComputation(file)));
    return { working: [...done.keys()].sort(), loaded: files.length, work: done, ran };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function main(): void {
  const { values } = parseArgs({
    options: { list: { type: "boolean", default: false }, functions: { type: "boolean", default: false } },
  });
  const { working, loaded, work } = billingTrip();
  console.log(`${working.length} files do work on the plain bill's trip (${loaded} files of src/ loaded)`);
  if (values.functions) {
    for (const file of working) console.log(`  ${file}: ${[...new Set(work.get(file))].join(", ")}`);
    return;
  }
  if (!values.list) return;
  const byFolder = new Map<string, string[]>();
  for (const file of working) {
    const folder = file.split("/").slice(0, -1).join("/");
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), file.slice(folder.length + 1)]);
  }
  for (const [folder, names] of byFolder) console.log(`  ${folder} (${names.length}): ${names.join(" ")}`);
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
