/**
 * The app the in-memory tests (GraphQL and REST through `app.yoga.fetch` and `app.rest`) run on,
 * built lazily: a file writes `const app = sharedApp();` at its top and collecting it builds
 * nothing; the first property read builds the app. The default app (both editions, the default
 * configuration) is built once per worker and shared by every file the worker runs (the `unit`
 * project does not isolate its files, see vitest.config.ts); an app of its own configuration
 * (`lazyApp(() => createApp(testConfig({ EDITION: "2.4.1" })))`) is built once per file, on first use.
 */

import { type App, createApp } from "../../src/app/main.js";
import { type Config, loadConfig } from "../../src/config/serviceConfig.js";

/**
 * The configuration of a test's app: `environment` over the defaults, at the suite's LOG_LEVEL
 * (silent, vitest.config.ts) unless it names another.
 */
export function testConfig(environment: Readonly<Record<string, string>> = {}): Config {
  return loadConfig({ LOG_LEVEL: process.env.LOG_LEVEL, ...environment });
}

/** An object built by `build` on its first property read (then always that one). */
export function lazy<T extends object>(build: () => T): T {
  let built: T | undefined;
  const target = () => {
    built ??= build();
    return built;
  };
  return new Proxy({} as T, {
    get: (_handle, key) => Reflect.get(target(), key),
    has: (_handle, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor: (_handle, key) => {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key);
      // A proxy may only report a property configurable when its (empty) target has it.
      return descriptor && { ...descriptor, configurable: true };
    },
  });
}

/** An app of its own options, built on first use. */
export function lazyApp(build: () => App): App {
  return lazy(build);
}

let defaultApp: App | undefined;

/** The default app, built on first use and shared by the files of the worker. */
export function sharedApp(): App {
  return lazy(() => {
    defaultApp ??= createApp(testConfig());
    return defaultApp;
  });
}
