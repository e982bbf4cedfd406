/**
 * Global set-up of the `process` project (vitest.config.ts): the command line bundled once into
 * dist/test/cli.mjs, which the tests that need the command's own process start
 * (test/support/cli.ts: exit codes, signals, stdin, pipes). The bundle is the package's bin itself
 * (bin/impact-service.mjs: its signal handling, its exit code) with the sources it imports, so
 * there is no TypeScript left for tsx to transpile: its `register` is bundled as a no-op. Started
 * through tsx, each run of the command transpiled the sources again (about 0.5 s of CPU before
 * its first row on the 2-core machine, see docs/architecture.md, "The test suite").
 * The pool's worker (src/cli/pool.ts loads `./worker.mjs` beside the module) is bundled beside
 * it, and both sit at the depth of src/cli, so the paths the sources resolve from their own URL
 * (data/, sql/) are the same. The shipped bin through tsx is still run by the /evaluate page's
 * server (test/http/evaluatePage.test.ts) and checked in the image (test/deploy).
 */
import { build, type Plugin } from "esbuild";

export const CLI_BUNDLE = "dist/test/cli.mjs";

/** `tsx/esm/api` as the bundle needs it: nothing to register, everything is JavaScript already. */
const noTsx: Plugin = {
  name: "no-tsx",
  setup(plugins) {
    plugins.onResolve({ filter: /^tsx\/esm\/api$/ }, () => ({ path: "tsx", namespace: "no-tsx" }));
    plugins.onLoad({ filter: /.*/, namespace: "no-tsx" }, () => ({
      contents: "export function register() {}",
    }));
  },
};

export default async function bundleCli(): Promise<void> {
  await build({
    entryPoints: { cli: "bin/impact-service.mjs", worker: "src/cli/worker.ts" },
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
    outdir: "dist/test",
    outExtension: { ".js": ".mjs" },
    plugins: [noTsx],
  });
}
