/**
 * The plain bill's climbs: how often its trip, followed call by call from the command line's
 * argument, climbs back to a layer above the one it is in.
 *
 * The walk is farm-studio's (`farm-studio walk src/cli/main.ts:billingMain:args`, on PATH here):
 * a static reading of the code, nothing run, that follows `billingMain`'s `args` and every value
 * made from them (the options, the parts, the file, the terms…) from function to function, in the
 * order the code is written, each branch walked in turn. Its sheet has one line per stay: the file
 * of a function the value entered, and that file's floor (a file stands one floor above the
 * highest file it imports, so a floor is a layer of the house as its imports build it).
 *
 * A climb is a stay on a higher floor than the stay before it: a helper below a stage returned,
 * and the value goes on in a stage above (the entry `src/billing/bill.ts`, a stage, a reader).
 * A move down (a stage handing the value to a helper) or along a floor is none. The count here is
 * made from the sheet's floors and held against the figure farm-studio prints ("N climbs back
 * up"); the script fails where the two differ.
 *
 *   npx tsx scripts/billing-climbs.ts [--list]
 *
 * prints the count; --list each climb, from which file to which, and the function entered.
 *
 * The figure is in docs/architecture.md ("Billing's climbs and trip"; file by file in
 * docs/billing-code.md), beside the trip's (scripts/billing-trip.ts).
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
/** Where the walk starts: the command's bill, its arguments. */
const START = "src/cli/main.ts:billingMain:args";
/** The walk's events at most: farm-studio's bound, enough for the whole trip (about 60 stays). */
const STOPS = "1600";

interface Stay {
  readonly index: number;
  readonly floor: number;
  readonly room: string;
  /** The function the value entered the room by. */
  readonly entry: string;
}

export interface Climb {
  readonly from: Stay;
  readonly to: Stay;
}

/** One stay of the sheet: `  5. floor  6  billing/bill.ts   [UP 5]  VISIT 2  in by \`f\` as …`. */
const STAY = /^\s*(\d+)\.\s+floor\s+(\d+)\s+(\S+)\s.*?in by `([^`]+)`/;
const TOTAL = /(\d+) climbs? back up/;

/** The walk's sheet, and the climbs farm-studio counted on it. */
function walkSheet(): { stays: Stay[]; counted: number } {
  const run = spawnSync("farm-studio", ["walk", START, "--stops", STOPS], { cwd: ROOT, encoding: "utf8" });
  if (run.error !== undefined) throw new Error(`farm-studio could not be run: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`farm-studio walk ended with ${run.status}:\n${run.stderr}`);
  const stays: Stay[] = [];
  for (const line of run.stdout.split("\n")) {
    const match = STAY.exec(line);
    if (match !== null) {
      stays.push({ index: Number(match[1]), floor: Number(match[2]), room: match[3], entry: match[4] });
    }
  }
  const total = run.stdout.split("\n").find((line) => line.includes(" stays;"));
  const counted = total === undefined ? null : TOTAL.exec(total);
  if (stays.length === 0 || counted === null) {
    throw new Error(
      `farm-studio walk's sheet was not read (its format changed?):\n${run.stdout.slice(0, 2000)}`,
    );
  }
  return { stays, counted: Number(counted[1]) };
}

/** Each stay on a higher floor than the one before it. */
export function climbsOf(stays: readonly Stay[]): Climb[] {
  return stays.slice(1).flatMap((to, index) => {
    const from = stays[index];
    return to.floor > from.floor ? [{ from, to }] : [];
  });
}

function main(): void {
  const { values } = parseArgs({ options: { list: { type: "boolean", default: false } } });
  const { stays, counted } = walkSheet();
  const climbs = climbsOf(stays);
  if (climbs.length !== counted) {
    throw new Error(`${climbs.length} climbs read from the sheet's floors, farm-studio counted ${counted}`);
  }
  console.log(
    `${climbs.length} climbs back up on the plain bill's trip (${stays.length} stays, from ${START})`,
  );
  if (!values.list) return;
  for (const { from, to } of climbs) {
    console.log(
      `  ${String(to.index).padStart(3)}. ${from.room} (floor ${from.floor}) -> ${to.room} (floor ${to.floor}), in by ${to.entry}`,
    );
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) main();
