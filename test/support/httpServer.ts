/**
 * The real HTTP server of the service (createHttpService over createApp, as the process runs it),
 * listening on a free loopback port in the test process, its log lines captured (pino JSON) at
 * `info` unless the test sets another LOG_LEVEL. The built-in editions' data is loaded and checked
 * once per test process and served by every such server (the engine reads its data, never changes
 * it; each app still has its own caches, limits and logger), as one process's start loads it once.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createHttpService } from "../../src/app/lifecycle.js";
import { type App, createApp } from "../../src/app/main.js";
import { type LoadedEdition, loadEditions } from "../../src/config/referenceData.js";
import { type Config, defaultConfig } from "../../src/config/serviceConfig.js";
import { createLogger } from "../../src/support/log.js";

export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly app: App;
  /** The node:http server (its events, e.g. a client error, can be raised by a test). */
  readonly server: Server;
  /** Parsed log lines written so far. */
  readonly logs: Record<string, unknown>[];
  close(): Promise<void>;
}

let builtInEditions: LoadedEdition[] | undefined;

/** The built-in editions loaded once, for a configuration that serves them alone, unchanged. */
function loadedEditionsOf(config: Config): LoadedEdition[] | undefined {
  if (config.customEditions.length > 0 || Object.keys(config.settingsOverrides).length > 0) return undefined;
  builtInEditions ??= loadEditions();
  return builtInEditions;
}

export async function startTestServer(overrides: Partial<Config> = {}): Promise<TestServer> {
  const config = defaultConfig({ LOG_LEVEL: "info", ...overrides });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n")) if (line.trim() !== "") logs.push(JSON.parse(line));
      done();
    },
  });
  const logger = createLogger(config.LOG_LEVEL, sink);
  const app = createApp(config, { logger, loaded: loadedEditionsOf(config) });
  const { server } = createHttpService(app, logger);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    app,
    server,
    logs,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
