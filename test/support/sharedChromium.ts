/**
 * Global set-up of the `process` project (vitest.config.ts): one headless Chromium for the run
 * (Debian's `chromium`, scripts/ensure-chromium.sh), started as playwright's browser server, its
 * address handed to the files (`inject("chromiumEndpoint")`). Each page file connects to it and
 * opens a context of its own (test/support/chromium.ts): its own cookies, storage, downloads and
 * viewport, as a browser of its own gave it, without a browser's start per file (about 1–1.5 s of
 * CPU each: the browser, its GPU and zygote processes; six files start pages). Without the
 * binary nothing starts and the files fail with the reason.
 */
import { existsSync } from "node:fs";
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";

export const CHROMIUM = "/usr/bin/chromium";

/** Headless, without a sandbox (root in the test container), without its network chatter. */
export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

declare module "vitest" {
  export interface ProvidedContext {
    /** The run's Chromium (playwright's browser server), or "" when the binary is missing. */
    chromiumEndpoint: string;
  }
}

export default async function sharedChromium(project: TestProject): Promise<() => Promise<void>> {
  if (!existsSync(CHROMIUM)) {
    project.provide("chromiumEndpoint", "");
    return async () => {};
  }
  const server = await chromium.launchServer({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  });
  project.provide("chromiumEndpoint", server.wsEndpoint());
  return () => server.close();
}
