/**
 * The build, described once: `npm run build` (`tsx scripts/build.ts`) writes it to dist/bundle,
 * the suite's global set-up (test/support/bundle.ts) to dist/test; nothing else differs.
 *
 * Three entries side by side in one folder, with the chunks of the sources they share or import
 * on demand (packages stay external: node resolves them from node_modules at run time):
 * - `server.mjs`: the service (src/app/main.ts), what `npm start` and the image run;
 * - `cli.mjs`: the command line's process (src/cli/entry.ts: its signals, its exit code), which
 *   the package's bin (bin/impact-service.mjs) runs when it exists and the /evaluate page runs for
 *   each file when the service runs bundled (src/evaluationProcess/commandEntry.ts finds it beside the
 *   server's module);
 * - `worker.mjs`: the command's pool's worker, which src/cli/pool.ts loads beside its module.
 *
 * The folder (chunks included) is two levels below the project's root, as src/app and src/cli
 * are, so the paths the sources resolve from their own URL (data/, sql/) are the same bundled or
 * not.
 * The Impact Framework plugins are built the same way (`npm run build:if`, IF_PLUGINS below).
 */
import { fileURLToPath, pathToFileURL } from "node:url";
import { type BuildOptions, build } from "esbuild";
import { COMMAND_BUNDLE } from "../src/evaluationProcess/commandEntry.js";

/** Where `npm run build` writes: `npm start` and the Dockerfile run RELEASE_SERVER. */
export const RELEASE_FOLDER = "dist/bundle";

/** The server's bundle, in the folder the build writes. */
export const SERVER_FILE = "server.mjs";

/** The pool's worker: src/cli/pool.ts loads `new URL("./worker.mjs", import.meta.url)`. */
const WORKER_FILE = "worker.mjs";

/** What `npm start` and the image run. */
export const RELEASE_SERVER = `${RELEASE_FOLDER}/${SERVER_FILE}`;

const stem = (file: string) => file.replace(/\.mjs$/, "");

/** The bundles' entries, by the name of the file each becomes (`<name>.mjs`, outExtension below). */
const ENTRIES = {
  [stem(SERVER_FILE)]: "src/app/main.ts",
  [stem(COMMAND_BUNDLE)]: "src/cli/entry.ts",
  [stem(WORKER_FILE)]: "src/cli/worker.ts",
};

/** The files the build writes into `folder`. */
export function bundleFiles(folder: string): string[] {
  return Object.keys(ENTRIES).map((name) => `${folder}/${name}.mjs`);
}

/**
 * How every bundle of the project is built: ES modules for node 20, each with the sources it
 * imports, packages external (node resolves them from node_modules at run time).
 */
export const BUNDLE: BuildOptions = {
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  packages: "external",
  logLevel: "warning",
  outExtension: { ".js": ".mjs" },
  // The paths of the entries are the project's, wherever the build is started from.
  absWorkingDir: fileURLToPath(new URL("..", import.meta.url)),
};

/** The esbuild options of the build, written to `folder` (relative to the project's root). */
export function buildOptions(folder: string): BuildOptions {
  return {
    ...BUNDLE,
    entryPoints: ENTRIES,
    outdir: folder,
    // What the sources import on demand (`await import(…)`: a command's module, the workbook
    // writer, GraphQL for an inventory) stays on demand bundled: a chunk of its own, loaded when
    // reached. One file per entry hoisted every such import to the top, so each run of the
    // command loaded exceljs, DuckDB and GraphQL first (a one-line bill: 4.6 → 3.4 CPU s).
    // The chunks sit beside the entries: a source's paths from its own URL stay the same. Named
    // by their content, a chunk is never rewritten by a later build while a running service may
    // still load it (the folder is not emptied: an old chunk stays until the folder is removed).
    splitting: true,
    chunkNames: "[name]-[hash]",
  };
}

/**
 * The Impact Framework plugins (`impact-service/if`, package.json's `exports`), built by
 * `npm run build:if` (`tsx scripts/build.ts if`, run by `prepack`) into dist/if/plugins.mjs.
 */
const IF_PLUGINS: BuildOptions = {
  ...BUNDLE,
  entryPoints: { plugins: "src/if/plugins.ts" },
  outdir: "dist/if",
};

/** Builds the bundles into `folder`. */
export async function buildInto(folder: string): Promise<void> {
  await build(buildOptions(folder));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const [target = "service", ...rest] = process.argv.slice(2);
  if (rest.length > 0 || !["service", "if"].includes(target)) {
    process.stderr.write(
      `build: one target, service (the default) or if, not "${process.argv.slice(2).join(" ")}"\n`,
    );
    process.exit(2);
  }
  await (target === "if" ? build(IF_PLUGINS) : buildInto(RELEASE_FOLDER));
}
