/**
 * Where scripts/ensure-engines.sh installed the engines (engines/versions.env pins them): the
 * Python environment, Trino's server, Delta's jars. A part it could not install is said in its
 * `.failed` file, and the test needing it fails with that reason.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";

const ROOT = new URL("../../../", import.meta.url).pathname;

/** engines/versions.env's KEY=VALUE lines. */
export const VERSIONS: Readonly<Record<string, string>> = Object.fromEntries(
  readFileSync(join(ROOT, "engines/versions.env"), "utf8")
    .split("\n")
    .flatMap((line) => {
      const match = /^([A-Z0-9_]+)=(.*)$/.exec(line);
      return match === null ? [] : [[match[1], match[2]]];
    }),
);

const CACHE = process.env.IMPACT_ENGINES_CACHE ?? join(homedir(), ".cache/impact-service/engines");

/** A part's folder, once installed; otherwise an error saying why. */
function installed(folder: string): string {
  if (existsSync(join(folder, ".installed"))) return folder;
  const failed = `${folder}.failed`;
  throw new Error(
    existsSync(failed)
      ? readFileSync(failed, "utf8")
      : `${folder} is not installed: bash scripts/ensure-engines.sh installs it (each engine file runs it first)`,
  );
}

/** The Python part's folder, named as scripts/ensure-engines.sh names it: by both requirement files. */
const requirements = createHash("sha256")
  .update(readFileSync(join(ROOT, "engines/build-requirements.txt")))
  .update(readFileSync(join(ROOT, "engines/requirements.txt")))
  .digest("hex")
  .slice(0, 12);

export const ENGINES = {
  root: ROOT,
  runner: join(ROOT, "engines/runner.py"),
  bigQueryCheck: join(ROOT, "engines/bigquery/check.py"),
  python: () => join(installed(join(CACHE, `python-${requirements}`)), "bin/python"),
  trino: () => installed(join(CACHE, `trino-server-${VERSIONS.TRINO_VERSION}`)),
  deltaJars: () => {
    const folder = installed(join(CACHE, `delta-${VERSIONS.DELTA_VERSION}`));
    return [
      join(folder, `delta-spark_2.13-${VERSIONS.DELTA_VERSION}.jar`),
      join(folder, `delta-storage-${VERSIONS.DELTA_VERSION}.jar`),
    ];
  },
  javaForTrino: VERSIONS.JAVA_FOR_TRINO,
};
