/**
 * The command line in the image: `/evaluate` runs its bundle (built from src/cli/entry.ts by
 * scripts/build.ts beside the server's, dist/bundle) in a child process
 * (src/evaluationProcess/commandEntry.ts), and the shipped bin, which runs that bundle, is there too. So
 * the image's build stage has what the build reads and its last stage the whole build folder; every
 * file the command reads at run time besides its sources (bundled) — found here by following its
 * imports and its `new URL("…", import.meta.url)` reads from its entry, not listed by hand — is
 * copied into the image's last stage and not excluded by .dockerignore; every package it imports
 * is a runtime dependency (the image installs no devDependencies), tsx not among them (the
 * sources are not in the image); and the temp folder, where a run's files go, is a writable volume
 * with the bound the page's limits need.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { IDeployment } from "kubernetes-models/apps/v1";
import { describe, expect, it } from "vitest";
import { parseAllDocuments, parse as parseYaml } from "yaml";
import { bundleFiles, RELEASE_FOLDER } from "../../scripts/build.js";
import { COMMAND_BUNDLE } from "../../src/evaluationProcess/commandEntry.js";
import { FILE_EVALUATION_BOUNDS } from "../../src/service/fileEvaluation.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** What the command's bundle is built from (scripts/build.ts). */
const ENTRY = join(ROOT, "src/cli/entry.ts");

/** Relative imports (static and dynamic), bare package imports and files read by URL, of one source. */
function referencesOf(text: string): { relative: string[]; packages: string[]; read: string[] } {
  // Statements only (not a `from "…"` inside a string); `import type` is erased when tsx runs it.
  const statements = [...text.matchAll(/^(?:import|export)(\s+type\b)?[^;"]*?\bfrom\s+"([^"]+)"/gm)]
    .filter((match) => match[1] === undefined)
    .map((match) => match[2]);
  const specifiers = [
    ...statements,
    ...[...text.matchAll(/\bimport\(\s*"([^"]+)"\s*\)/g)].map((match) => match[1]),
    ...[...text.matchAll(/^import\s+"([^"]+)"/gm)].map((match) => match[1]),
  ];
  return {
    relative: specifiers.filter((s) => s.startsWith(".")),
    packages: specifiers.filter((s) => !s.startsWith(".") && !s.startsWith("node:")),
    read: [...text.matchAll(/new URL\(\s*"(\.[^"]*)",\s*import\.meta\.url\s*\)/g)].map((match) => match[1]),
  };
}

/** A relative import's file: `./x.js` is `./x.ts` in the sources that tsx runs. */
function sourceFile(from: string, specifier: string): string {
  const path = join(dirname(from), specifier);
  if (existsSync(path) && statSync(path).isFile()) return path;
  const typescript = path.replace(/\.js$/, ".ts");
  if (existsSync(typescript)) return typescript;
  throw new Error(`${relative(ROOT, from)} imports ${specifier}, which is not a file`);
}

/** Every file the command line loads or reads from its entry on, and the packages it imports. */
function commandLineClosure(): { files: Set<string>; packages: Set<string> } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const pending = [ENTRY];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (files.has(file)) continue;
    files.add(file);
    if (!/\.(m?[jt]s)$/.test(file)) continue;
    const { relative: imports, packages: named, read } = referencesOf(readFileSync(file, "utf8"));
    for (const specifier of imports) pending.push(sourceFile(file, specifier));
    for (const name of named)
      packages.add(name.startsWith("@") ? name.split("/").slice(0, 2).join("/") : name.split("/")[0]);
    // A file or folder read at run time (sql/, data/): kept as the path it names.
    for (const target of read) files.add(join(dirname(file), target));
  }
  return { files, packages };
}

const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const instructions = dockerfile
  .replace(/\\\n/g, " ")
  .split("\n")
  .filter((line) => /^[A-Z]+\s/.test(line));
const stageStarts = instructions.flatMap((line, index) => (line.startsWith("FROM ") ? [index] : []));
const lastStage = instructions.slice(stageStarts.at(-1));
/** What the last stage copies from the build context: each source as its destination under /app. */
const copied = lastStage
  .filter((line) => line.startsWith("COPY ") && !line.includes("--from="))
  .flatMap((line) => {
    const words = line.split(/\s+/).slice(1);
    const destination = words.at(-1) as string;
    return words.slice(0, -1).map((source) => ({ source, destination }));
  });
const ignored = readFileSync(join(ROOT, ".dockerignore"), "utf8")
  .split("\n")
  .filter((line) => line !== "" && !line.startsWith("#"));

/** Whether the image holds `path` (relative to the project) at the same place under /app. */
function inImage(path: string): boolean {
  const within = (folder: string) => path === folder || path.startsWith(`${folder}/`);
  if (ignored.some(within)) return false;
  // `COPY src ./src` (a folder or file to its own place) or `COPY package.json ./` (to the root).
  return copied.some(
    ({ source, destination }) =>
      within(source) && (destination === `./${source}` || (destination === "./" && !source.includes("/"))),
  );
}

describe("the command line in the image (Dockerfile)", () => {
  it("is built with the server by the build stage and copied whole, beside the server's bundle", () => {
    const build = instructions.slice(stageStarts[0], stageStarts[1]);
    for (const read of ["src", "scripts/build.ts"]) {
      expect(build).toContainEqual(`COPY ${read} ./${read}`);
    }
    expect(build).toContainEqual("RUN npm run build");
    // .dockerignore leaves scripts/ out but the build's description.
    expect(ignored).toContain("!scripts/build.ts");
    expect(lastStage).toContainEqual(`COPY --from=build /app/${RELEASE_FOLDER} ./${RELEASE_FOLDER}`);
    expect(bundleFiles(RELEASE_FOLDER)).toContain(`${RELEASE_FOLDER}/${COMMAND_BUNDLE}`);
  });

  const { files, packages } = commandLineClosure();
  const loaded = [...files].map((file) => relative(ROOT, file).replace(/\/$/, ""));
  // The sources are in the bundle; what the command reads besides them, and its bin, must be there.
  // A file outside the checkout (the price list in the user's cache, read where present) is not the
  // image's: there, PRICE_LIST names a file mounted beside it, or none is read (docs/operations.md).
  const needed = [
    "bin/impact-service.mjs",
    ...loaded.filter((path) => !path.startsWith("src/") && !path.startsWith("../")),
  ];

  it("follows the entry to the sources and the files they read", () => {
    // The closure is the real one: the CLI's entry, its worker, the SQL and the reference data.
    expect(loaded).toEqual(
      expect.arrayContaining(["src/cli/entry.ts", "src/cli/main.ts", "src/billing/bill.ts", "sql", "data"]),
    );
    // Its pool's worker, read by its URL (the bundle's worker.mjs beside cli.mjs).
    expect(loaded).toContain("src/cli/worker.mjs");
  });

  it("copies every file the command line reads, at the same place, and .dockerignore keeps them", () => {
    const missing = needed.filter((path) => !inImage(path));
    expect(missing).toEqual([]);
    expect(inImage("test/cli/evaluate.test.ts")).toBe(false);
    // The bundle is the command: no source, no tsconfig.json in the last stage.
    expect(inImage("src/cli/main.ts")).toBe(false);
    expect(inImage("tsconfig.json")).toBe(false);
  });

  it("imports only runtime dependencies, tsx not among them (the image installs no devDependencies)", () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
    const builtins = new Set(builtinModules);
    const devOnly = [...packages].filter((name) => !builtins.has(name) && !(name in manifest.dependencies));
    expect(devOnly).toEqual([]);
    expect(packages).not.toContain("tsx");
    expect(manifest.dependencies).not.toHaveProperty("tsx");
    expect(manifest.devDependencies).toHaveProperty("tsx");
  });
});

describe("the temp folder the command's runs write (deploy/, compose.yaml)", () => {
  const deployment = parseAllDocuments(readFileSync(join(ROOT, "deploy/deployment.yaml"), "utf8"))
    .map((doc) => doc.toJS() as IDeployment)
    .find((doc) => doc.kind === "Deployment") as IDeployment;
  const pod = deployment.spec?.template.spec;
  const [container] = pod?.containers ?? [];
  // Each run's folder (its file, output, report and temporary files) is bounded, counted as it is
  // written: the runs at once fill at most half the volume.
  const smallest = 2 * FILE_EVALUATION_BOUNDS.maxConcurrent * FILE_EVALUATION_BOUNDS.runFolderBytes;
  const GI = 1024 ** 3;

  it("is an emptyDir on disk mounted writable at /tmp, bounded above what the page admits", () => {
    expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
    const mount = container.volumeMounts?.find((m) => m.mountPath === "/tmp");
    expect(mount).toBeDefined();
    expect(mount?.readOnly ?? false).toBe(false);
    const volume = pod?.volumes?.find((v) => v.name === mount?.name);
    // Not `medium: Memory`: its pages would count toward the container's memory limit.
    expect(volume?.emptyDir?.medium ?? "").toBe("");
    const limit = /^(\d+)Gi$/.exec(String(volume?.emptyDir?.sizeLimit));
    expect(Number(limit?.[1]) * GI).toBeGreaterThanOrEqual(smallest);
  });

  it("compose.yaml gives /tmp a writable tmpfs of the same bound, the root file system read-only", () => {
    const compose = parseYaml(readFileSync(join(ROOT, "compose.yaml"), "utf8"));
    const [service] = Object.values(compose.services) as { read_only: boolean; tmpfs: string[] }[];
    expect(service.read_only).toBe(true);
    const tmp = service.tmpfs.find((entry) => entry.split(":")[0] === "/tmp");
    const size = /size=(\d+)g\b/.exec(tmp ?? "");
    expect(Number(size?.[1]) * GI).toBeGreaterThanOrEqual(smallest);
    expect(tmp).toMatch(/mode=1777/);
  });
});
