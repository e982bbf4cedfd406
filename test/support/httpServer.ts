/**
 * The real HTTP server of the service (createHttpService over createApp, as the process runs it),
 * listening on a free loopback port in the test process, its log lines captured (pino JSON) at
 * `info` unless the test sets another LOG_LEVEL.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createHttpService } from "../../src/app/lifecycle.js";
import { type App, createApp } from "../../src/app/main.js";
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
  const app = createApp(config, { logger });
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
