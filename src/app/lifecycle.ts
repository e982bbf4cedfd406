import cluster, { type Worker } from "node:cluster";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, Server as NetServer, type Socket } from "node:net";
import type { Config } from "../config/serviceConfig.js";
import { exitAfterLogs, type Logger } from "../support/log.js";
import {
  answerInFlight,
  type Connection,
  connectionOf,
  currentAnswer,
  listedConnection,
  type OpenConnections,
  openConnections,
} from "./openConnections.js";

/*
 * The process's life: listen, serve, stop. SIGTERM/SIGINT stop accepting, let the requests
 * already received finish and exit within SHUTDOWN_TIMEOUT_MS whatever the clients do. With
 * WORKERS > 1 the primary forwards the signal to its workers and waits for them, replaces a
 * worker that dies (with back-off) and gives up, with a clear message, when they keep dying.
 */

/** What a process serves: one HTTP request at a time. */
interface Handler {
  handle(request: IncomingMessage, response: ServerResponse): Promise<void>;
  /** Said on the "listening on …" line (e.g. the default edition). */
  readonly description?: string;
  /** Told when shutting down begins (readiness probes then answer 503). */
  readonly markStopping?: () => void;
}

/** Exit code of a worker that cannot serve at all (port in use, …): restarting it is useless. */
const EXIT_UNUSABLE = 78;
/** A primary gives up when this many workers died within RESTART_WINDOW_MS. */
const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 60_000;
const FIRST_RESTART_DELAY_MS = 100;
const LARGEST_RESTART_DELAY_MS = 5_000;

/** The message a worker sends its primary when it cannot serve. */
interface UnusableMessage {
  readonly unusable: string;
}

function isUnusableMessage(message: unknown): message is UnusableMessage {
  return (
    typeof message === "object" &&
    message !== null &&
    typeof (message as UnusableMessage).unusable === "string"
  );
}

/** Runs the service: in this process, or as a primary with `WORKERS` worker processes. */
export function runService(config: Config, logger: Logger, makeApp: () => Handler): void {
  if (config.WORKERS > 1 && cluster.isPrimary) runPrimary(config, logger);
  else serve(config, logger, makeApp());
}

/** One clear line for a listen failure. */
function listenProblem(error: NodeJS.ErrnoException, config: Config): string {
  const where = `${config.HOST ?? "*"}:${config.PORT}`;
  switch (error.code) {
    case "EADDRINUSE":
      return `cannot listen on ${where}: the port is already in use (PORT=${config.PORT})`;
    case "EACCES":
      return `cannot listen on ${where}: permission denied (PORT=${config.PORT})`;
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return `cannot listen on ${where}: no such local address (HOST=${config.HOST})`;
    default:
      return `cannot listen on ${where}: ${error.message}`;
  }
}

/**
 * Stops a process that cannot serve: one line and a non-zero exit; a worker tells its primary,
 * which prints the line once, and exits when the message is handed over.
 */
function unusable(message: string, logger: Logger): void {
  if (cluster.isWorker && process.connected) {
    process.send?.({ unusable: message } satisfies UnusableMessage, undefined, {}, () =>
      process.exit(EXIT_UNUSABLE),
    );
    return;
  }
  logger.fatal(message);
  exitAfterLogs(logger, 1);
}

/** An HTTP server over a handler, able to stop gracefully. */
interface HttpService {
  readonly server: Server;
  /** Requests received and not answered yet. */
  inFlight(): number;
  /** Keeps serving, each answer closing its connection (clients reconnect, to another replica). */
  stopKeepingAlive(): void;
  /**
   * Stops accepting connections and lets the requests already received finish (their answers
   * close their connections); `done` is called once every connection is closed.
   */
  drain(done: () => void): void;
}

/** What node does with a client error when the server has no listener: an answer, then the socket closed. */
function refuseClient(error: NodeJS.ErrnoException, socket: Socket, answerStarted: boolean): void {
  if (socket.writable && !answerStarted) {
    const status =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? "408 Request Timeout"
        : error.code === "HPE_HEADER_OVERFLOW"
          ? "431 Request Header Fields Too Large"
          : error.code === "HPE_CHUNK_EXTENSIONS_OVERFLOW"
            ? "413 Payload Too Large"
            : "400 Bad Request";
    socket.write(`HTTP/1.1 ${status}\r\nConnection: close\r\n\r\n`);
  }
  socket.destroy(error);
}

/** A server's connections and what it does with them. */
interface Traffic {
  readonly open: OpenConnections;
  /** Draining: no connection is kept alive, idle ones are closed. */
  closing: boolean;
  keepAlive: boolean;
}

function closeIfIdle(connection: Connection): void {
  if (connection.answers.length === 0) connection.socket.destroy();
}

/** Answers in flight on every connection. */
function answersInFlight(traffic: Traffic): ServerResponse[] {
  return traffic.open.list.flatMap((connection) => connection.answers);
}

/** A request answered by the handler, counted in flight until its answer closes; an unexpected failure answered 500. */
function answerCounted(
  app: Handler,
  logger: Logger,
  traffic: Traffic,
  request: IncomingMessage,
  response: ServerResponse,
): void {
  const connection = connectionOf(traffic.open, request.socket);
  answerInFlight(connection, response, () => {
    if (traffic.closing) closeIfIdle(connection);
  });
  if (traffic.closing || !traffic.keepAlive) response.setHeader("connection", "close");
  app.handle(request, response).catch((error: unknown) => {
    logger.error({ err: error }, "unexpected error while answering a request");
    if (response.headersSent || response.destroyed) {
      response.destroy();
      return;
    }
    response.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
    response.end("Internal Server Error");
  });
}

/**
 * Client errors refused as node refuses them (an answer unless one has begun on the connection),
 * but for one: node's requestTimeout bounds the time to receive a whole request, and a batch (POST
 * /v1/batch) is answered while its body arrives, the upload paced by the answer's own
 * backpressure: a request whose answer is being written is no slow client, and goes on
 * (docs/api.md#batch).
 */
function refuseClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Socket) => {
    const response = currentAnswer(listedConnection(socket));
    if (error.code === "ERR_HTTP_REQUEST_TIMEOUT" && response?.headersSent && !response.writableEnded) return;
    refuseClient(error, socket, response?.headersSent === true);
  });
}

/** Stops accepting; the requests already received finish, then their connections close (`done` once all are). */
function drainTraffic(server: Server, traffic: Traffic, done: () => void): void {
  if (traffic.closing) return;
  traffic.closing = true;
  // Answers still to be written close their connection instead of keeping it alive.
  for (const response of answersInFlight(traffic))
    if (!response.headersSent) response.setHeader("connection", "close");
  // net.Server's close only stops accepting: http.Server's would also close idle connections
  // at once, resetting a request whose bytes have arrived but are not parsed yet.
  NetServer.prototype.close.call(server, () => done());
  // Two turns of the event loop: any request already received is parsed (its connection has
  // a request in flight); the connections still idle then are closed.
  setImmediate(() =>
    setImmediate(() => {
      for (const connection of [...traffic.open.list]) closeIfIdle(connection);
    }),
  );
}

/** The HTTP server of a handler: every unexpected failure answered 500 (and logged). */
export function createHttpService(app: Handler, logger: Logger): HttpService {
  const traffic: Traffic = { open: openConnections(), closing: false, keepAlive: true };
  const server = createServer((request, response) => answerCounted(app, logger, traffic, request, response));
  refuseClientErrors(server);
  server.on("connection", (socket: Socket) => connectionOf(traffic.open, socket));
  return {
    server,
    inFlight: () => answersInFlight(traffic).length,
    stopKeepingAlive() {
      traffic.keepAlive = false;
    },
    drain: (done) => drainTraffic(server, traffic, done),
  };
}

/** The "listening on …" line: the address actually bound, the worker, what is served. */
function announceListening(server: Server, app: Handler, logger: Logger): void {
  const { port, address, family } = server.address() as AddressInfo;
  const worker = cluster.isWorker ? ` (worker ${process.pid})` : "";
  const about = app.description ? `; ${app.description}` : "";
  // Without HOST, every interface (`::` or `0.0.0.0`), not loopback.
  const host = family === "IPv6" ? `[${address}]` : address;
  logger.info({ port, address }, `listening on http://${host}:${port}${worker}; GraphQL at /graphql${about}`);
}

/** Stops accepting, lets the requests in flight finish, and exits within SHUTDOWN_TIMEOUT_MS. */
function finishAndExit(service: HttpService, config: Config, logger: Logger, why: string): void {
  logger.info(
    `${why}: finishing ${service.inFlight()} request(s) in flight, exiting within ${config.SHUTDOWN_TIMEOUT_MS} ms`,
  );
  let deadlineReached = false;
  const deadline = setTimeout(() => {
    deadlineReached = true;
    logger.error(
      `shutdown deadline of ${config.SHUTDOWN_TIMEOUT_MS} ms reached (SHUTDOWN_TIMEOUT_MS): closing ${service.inFlight()} request(s) still in flight`,
    );
    service.server.closeAllConnections();
    exitAfterLogs(logger, 1);
  }, config.SHUTDOWN_TIMEOUT_MS);
  // Closing the connections at the deadline ends their requests, which completes the drain:
  // the deadline's exit code (1) stands, whichever log flush ends first.
  service.drain(() => {
    if (deadlineReached) return;
    clearTimeout(deadline);
    exitAfterLogs(logger, 0);
  });
}

/**
 * The shutdown a signal starts: not ready any more (/readyz 503), but still accepting for
 * SHUTDOWN_DRAIN_MS: a load balancer notices the readiness and stops sending before the listener
 * closes, so no request is refused meanwhile. A second signal ends the window at once.
 */
function shutdownOf(
  service: HttpService,
  app: Handler,
  config: Config,
  logger: Logger,
): (why: string) => void {
  let closing = false;
  let drainWindow: NodeJS.Timeout | null = null;
  const finish = (why: string) => finishAndExit(service, config, logger, why);
  return (why) => {
    if (closing) {
      if (drainWindow === null) return;
      clearTimeout(drainWindow);
      drainWindow = null;
      finish(why);
      return;
    }
    closing = true;
    app.markStopping?.();
    service.stopKeepingAlive();
    if (config.SHUTDOWN_DRAIN_MS === 0) {
      finish(why);
      return;
    }
    logger.info(
      `${why}: not ready any more; still accepting requests for ${config.SHUTDOWN_DRAIN_MS} ms (SHUTDOWN_DRAIN_MS)`,
    );
    drainWindow = setTimeout(() => {
      drainWindow = null;
      finish(why);
    }, config.SHUTDOWN_DRAIN_MS);
  };
}

/** Listens on PORT/HOST and serves until SIGTERM/SIGINT (or, in a worker, its primary's end). */
function serve(config: Config, logger: Logger, app: Handler): Server {
  const service = createHttpService(app, logger);
  const { server } = service;
  server.on("error", (error: NodeJS.ErrnoException) => unusable(listenProblem(error, config), logger));
  server.listen({ port: config.PORT, host: config.HOST }, () => announceListening(server, app, logger));
  const shutdown = shutdownOf(service, app, config, logger);
  process.on("SIGTERM", () => shutdown("SIGTERM received"));
  process.on("SIGINT", () => shutdown("SIGINT received"));
  if (cluster.isWorker) {
    // The primary is gone (or closed the channel): stop the same way, and never die of EPIPE.
    process.once("disconnect", () => shutdown("the primary process is gone"));
    process.on("error", (error) => logger.error({ err: error }, "IPC with the primary failed"));
  }
  return server;
}

/** The primary of `WORKERS` worker processes sharing the port (node:cluster). */
function runPrimary(config: Config, logger: Logger): void {
  const primary = new Primary(config, logger);
  cluster.on("exit", (worker, code, signal) => primary.exited(worker, code, signal));
  process.on("SIGTERM", () => primary.stop("SIGTERM"));
  process.on("SIGINT", () => primary.stop("SIGINT"));
  // Workers accept their connections themselves from the shared listening socket. With node's
  // default (the primary accepts and hands each connection to a worker in turn), a connection
  // handed to a worker at the moment it dies is never answered nor closed: the primary keeps it
  // waiting for the dead worker's reply. The kernel's queue of the shared socket has no owner to
  // lose.
  cluster.schedulingPolicy = cluster.SCHED_NONE;
  for (let i = 0; i < config.WORKERS; i++) primary.fork();
}

/** The primary's workers: started, restarted after a growing delay, stopped on a signal, or given up on. */
class Primary {
  private readonly config: Config;
  private readonly logger: Logger;
  private stopping: boolean;
  /** Workers not exited yet (cluster.workers also waits for their IPC channel to close). */
  private readonly alive: Set<Worker>;
  /** When workers died within RESTART_WINDOW_MS. */
  private readonly restarts: number[];
  private readonly pendingRestarts: Set<NodeJS.Timeout>;
  /** Whether a second signal was passed on to the workers. */
  private forwardedAgain: boolean;

  constructor(config: Config, logger: Logger) {
    this.config = config;
    this.logger = logger;
    this.stopping = false;
    this.alive = new Set();
    this.restarts = [];
    this.pendingRestarts = new Set();
    this.forwardedAgain = false;
  }

  fork(): Worker {
    const worker = cluster.fork();
    this.alive.add(worker);
    this.logger.info(`worker ${worker.process.pid} started`);
    worker.on("message", (message: unknown) => {
      if (isUnusableMessage(message)) this.giveUp(message.unusable);
    });
    return worker;
  }

  /** A worker exited: another is started after a delay, unless they keep dying. */
  exited(worker: Worker, code: number, signal: string | null): void {
    this.alive.delete(worker);
    if (this.stopping) return;
    if (code === EXIT_UNUSABLE) return; // its message has made the primary give up
    const { restarts } = this;
    const now = Date.now();
    restarts.push(now);
    while (restarts.length > 0 && restarts[0] < now - RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length > MAX_RESTARTS) {
      this.giveUp(
        `workers keep dying (${restarts.length} within ${RESTART_WINDOW_MS / 1000} s, the last one: ${signal ?? `exit code ${code}`}); giving up`,
      );
      return;
    }
    const delay = Math.min(LARGEST_RESTART_DELAY_MS, FIRST_RESTART_DELAY_MS * 2 ** (restarts.length - 1));
    this.logger.error(
      `worker ${worker.process.pid} exited (${signal ?? `exit code ${code}`}); starting another in ${delay} ms`,
    );
    const timer = setTimeout(() => {
      this.pendingRestarts.delete(timer);
      if (!this.stopping) this.fork();
    }, delay);
    this.pendingRestarts.add(timer);
  }

  /** SIGTERM or SIGINT: the workers stopped, then the primary exits (a second signal ends their drain). */
  stop(signal: NodeJS.Signals): void {
    if (this.stopping) {
      // A second signal ends the workers' drain window (see `shutdown` in serve).
      if (!this.forwardedAgain) this.stopAll(signal);
      this.forwardedAgain = true;
      return;
    }
    this.stopping = true;
    this.logger.info(`${signal} received: stopping ${this.alive.size} worker(s)`);
    this.stopAll(signal);
    const exitWhenDone = () => {
      if (this.alive.size === 0) exitAfterLogs(this.logger, 0);
    };
    cluster.on("exit", exitWhenDone);
    exitWhenDone();
    // Workers exit within their own deadline; past it (and a margin), they are killed.
    setTimeout(
      () => {
        this.logger.error("workers did not stop in time: killing them");
        this.stopAll("SIGKILL");
        exitAfterLogs(this.logger, 1);
      },
      this.config.SHUTDOWN_DRAIN_MS + this.config.SHUTDOWN_TIMEOUT_MS + 2000,
    );
  }

  private stopAll(signal: NodeJS.Signals): void {
    for (const timer of this.pendingRestarts) clearTimeout(timer);
    this.pendingRestarts.clear();
    for (const worker of this.alive) worker.process.kill(signal);
  }

  /** The workers cannot serve (a message of one, or they keep dying): all stopped, exit 1. */
  private giveUp(message: string): void {
    if (this.stopping) return;
    this.stopping = true;
    this.logger.fatal(message);
    this.stopAll("SIGTERM");
    const exit = () => exitAfterLogs(this.logger, 1);
    if (this.alive.size === 0) exit();
    cluster.on("exit", () => {
      if (this.alive.size === 0) exit();
    });
    setTimeout(exit, this.config.SHUTDOWN_DRAIN_MS + this.config.SHUTDOWN_TIMEOUT_MS + 1000);
  }
}
