/**
 * The oldest Node the package declares (`engines.node`, `>=20.19.0`), found on this machine: a
 * `node` of the `PATH` outside `node_modules` (npm puts the pinned Node 26 first there, docs/runtime.md),
 * else the usual system paths, whose version is of the declared line and at least the declared
 * release. The project's machines carry Node 20 (docs/runtime.md); where none is found, the test
 * fails naming what it looked for, so that a supported runtime is never left untested in silence.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join } from "node:path";

/** The lowest release `engines.node` allows, as [major, minor, patch]. */
export function declaredOldestNode(): readonly [number, number, number] {
  const packageJson = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8"));
  const found = /^>=\s*(\d+)\.(\d+)\.(\d+)$/.exec(String(packageJson.engines?.node ?? ""));
  if (found === null)
    throw new Error(`package.json's engines.node is not ">=x.y.z": ${packageJson.engines?.node}`);
  return [Number(found[1]), Number(found[2]), Number(found[3])];
}

const versionOf = (path: string) => {
  try {
    return execFileSync(path, ["--version"], { encoding: "utf8" }).trim();
  } catch {
    return null;
  }
};

/** Whether `version` (`v20.20.2`) is of the oldest line and not older than its declared release. */
function ofTheOldestLine(version: string, [major, minor, patch]: readonly [number, number, number]) {
  const parts = /^v(\d+)\.(\d+)\.(\d+)$/.exec(version)?.slice(1).map(Number);
  if (parts === undefined || parts[0] !== major) return false;
  return parts[1] > minor || (parts[1] === minor && parts[2] >= patch);
}

/** The path and version of a Node of the oldest declared line. */
export function oldestNode(): { readonly path: string; readonly version: string } {
  const declared = declaredOldestNode();
  const candidates = [
    ...(process.env.PATH ?? "")
      .split(delimiter)
      .filter((folder) => folder !== "" && !folder.split(/[\\/]/).includes("node_modules"))
      .map((folder) => join(folder, "node")),
    "/usr/bin/node",
    "/usr/local/bin/node",
  ];
  const seen: string[] = [];
  for (const path of [...new Set(candidates)].filter((one) => existsSync(one))) {
    const version = versionOf(path);
    seen.push(`${path} ${version ?? "(does not run)"}`);
    if (version !== null && ofTheOldestLine(version, declared)) return { path, version };
  }
  throw new Error(
    `no Node ${declared[0]} (>= ${declared.join(".")}, the oldest package.json declares) on this machine; seen: ${seen.join(", ") || "none"}`,
  );
}
