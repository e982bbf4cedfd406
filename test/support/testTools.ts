/**
 * A part of the tests' set-up ready (scripts/ensure-*.sh: the engines, moto): its script run before
 * the file starts the part. `npm test` starts those installs in the background while the unit files
 * run (scripts/ensure-test-tools.sh); the script waits on its lock for the install under way, then
 * finds it done, or installs the part itself when none ran (a file run alone). The lock's release is
 * the signal waited for, within the install's bound.
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";

const ROOT = join(import.meta.dirname, "../..");

/** At most this long for a part's install, or for the one under way (each of its steps has a bound). */
export const INSTALL_MS = 30 * 60_000;

/** What the part's script prints once the part is there (moto_server's path; nothing for the engines). */
export async function ensured(script: "ensure-engines.sh" | "ensure-moto.sh"): Promise<string> {
  const { stdout } = await promisify(execFile)("bash", [join(ROOT, "scripts", script)], {
    encoding: "utf8",
    timeout: INSTALL_MS,
  });
  return stdout.trim();
}
