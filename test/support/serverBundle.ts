/**
 * Global set-up of the `process` project (vitest.config.ts): the service bundled once, as
 * `npm run build` bundles it (package.json's `build`), into dist/test/server.mjs, which the
 * process tests start (test/support/process.ts). Started through tsx instead, each real start
 * of the service transpiled the sources again: 1.3–1.4 s of CPU before the
 * listening line against 0.8–0.9 s for the bundle, measured back to back on the 2-core machine.
 * Its own file beside dist/bundle, so `npm start` (test/server/lifecycle.test.ts) rebuilding
 * dist/bundle never rewrites the file a test is starting. At the same depth as src/app, so the
 * paths the sources resolve from their own URL (data/, sql/) are the same.
 */
import { build } from "esbuild";

export const SERVER_BUNDLE = "dist/test/server.mjs";

export default async function bundleServer(): Promise<void> {
  await build({
    entryPoints: ["src/app/main.ts"],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
    outfile: SERVER_BUNDLE,
  });
}
