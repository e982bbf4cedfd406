import { Transform } from "node:stream";
import { CloudWatchClient } from "@aws-sdk/client-cloudwatch";
import { EC2Client } from "@aws-sdk/client-ec2";

/*
 * The AWS SDK's clients of one region, bounded: each call tried at most MAX_ATTEMPTS times (the
 * SDK's standard retry mode: exponential back-off with jitter, throttling included), each attempt's
 * connection and answer bounded in time, so that no call waits or retries forever. Credentials come
 * from the SDK's own chain (environment, shared config and credentials files, SSO, the instance's
 * or container's role) and never pass through this code. `endpoint`: an emulator's (moto) instead of
 * AWS's; the SDK also reads AWS_ENDPOINT_URL, AWS_ENDPOINT_URL_EC2 and AWS_ENDPOINT_URL_CLOUDWATCH.
 *
 * An answer's bytes are bounded too (MAX_ANSWER_BYTES): the SDK collects a body whole before it
 * parses it, and its request timeout is a socket's idleness, so an answer that never ends grew
 * the command's memory until the scan's time ran out (793 MiB in the 1 GiB box).
 */

/** Attempts of one call, its first included. */
export const MAX_ATTEMPTS = 3;

/** Time to open a connection, and at most to receive an answer, of one attempt. */
const CONNECTION_TIMEOUT_MS = 5_000;
const MAX_REQUEST_TIMEOUT_MS = 30_000;

/**
 * An attempt's time within a scan of `scanMs`: an eighth of it (a region that does not answer
 * then fails its calls, each tried MAX_ATTEMPTS times, well within the scan's time), 1 to 30 s.
 */
export function attemptTimeoutMs(scanMs: number): number {
  return Math.min(MAX_REQUEST_TIMEOUT_MS, Math.max(1_000, Math.floor(scanMs / 8)));
}

/**
 * Bytes of one answer read, at most: a DescribeInstances page of 1,000 instances is a few MB (each
 * instance's XML a few kB), a GetMetricData page of CloudWatch's 100,800 datapoints about 3 MB.
 */
export const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/** An answer cut at MAX_ANSWER_BYTES (not retried: the same call would answer the same). */
export class AnswerTooLargeError extends Error {
  override readonly name = "AnswerTooLarge";
  constructor(readonly maxBytes: number) {
    super(`the answer passed ${maxBytes / 1024 / 1024} MiB`);
  }
}

/** `body` passed on, cut with AnswerTooLargeError past `maxBytes` (the connection closed). */
function boundedBody(body: NodeJS.ReadableStream & { destroy(error?: Error): void }, maxBytes: number) {
  let bytes = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      bytes += chunk.length;
      if (bytes > maxBytes) done(new AnswerTooLargeError(maxBytes));
      else done(null, chunk);
    },
  });
  body.on("error", (error) => counted.destroy(error));
  counted.on("error", () => body.destroy());
  return body.pipe(counted);
}

/** The handler a client's deserialize step's middleware wraps (the SDK's types, by its stack). */
type NextHandler<C extends EC2Client | CloudWatchClient> = Parameters<
  Parameters<C["middlewareStack"]["add"]>[0]
>[0];

/** A deserialize step's middleware bounding each attempt's answer in bytes, as the SDK reads it. */
function boundedAnswers<H extends (args: never) => Promise<{ response: unknown }>>(maxBytes: number) {
  return (next: H): H =>
    (async (args: Parameters<H>[0]) => {
      const out = await next(args);
      const response = out.response as { body?: unknown };
      const body = response.body as Parameters<typeof boundedBody>[0] | undefined;
      if (body !== undefined && typeof body.pipe === "function") response.body = boundedBody(body, maxBytes);
      return out;
    }) as H;
}

/** Inside the deserializer (priority low in its step): the raw answer, before it is read. */
const BOUNDED_ANSWERS = {
  step: "deserialize",
  priority: "low",
  name: "impactServiceBoundedAnswers",
} as const;

/** The clients of a region. */
export interface RegionClients {
  readonly region: string;
  readonly ec2: EC2Client;
  readonly cloudwatch: CloudWatchClient;
}

/** The clients of `region`, each attempt bounded by `attemptMs`, at `endpoint` when one is given. */
export function regionClients(region: string, endpoint: string | null, attemptMs: number): RegionClients {
  const config = {
    region,
    maxAttempts: MAX_ATTEMPTS,
    retryMode: "standard",
    requestHandler: {
      connectionTimeout: Math.min(CONNECTION_TIMEOUT_MS, attemptMs),
      requestTimeout: attemptMs,
      // Without it, an attempt past its time is only a warning printed by the SDK, and waits on.
      throwOnRequestTimeout: true,
    },
    ...(endpoint === null ? {} : { endpoint }),
  } as const;
  const clients = { region, ec2: new EC2Client(config), cloudwatch: new CloudWatchClient(config) };
  clients.ec2.middlewareStack.add(boundedAnswers<NextHandler<EC2Client>>(MAX_ANSWER_BYTES), BOUNDED_ANSWERS);
  clients.cloudwatch.middlewareStack.add(
    boundedAnswers<NextHandler<CloudWatchClient>>(MAX_ANSWER_BYTES),
    BOUNDED_ANSWERS,
  );
  return clients;
}

/** Closes the clients' connections. */
export function closeClients(clients: RegionClients): void {
  clients.ec2.destroy();
  clients.cloudwatch.destroy();
}

/**
 * The signal of one call: its own, aborted with the scan's. The SDK adds up to two abort listeners
 * to a call's signal while it is in flight (its HTTP handler's, its retry back-off's); on the
 * scan's one signal, 12 regions' calls at once passed Node's bound of 10 listeners an event target
 * (Node 20 printed MaxListenersExceededWarning). A signal derived by AbortSignal.any holds no
 * listener on its source, so each signal has at most its one call's.
 */
export function callSignal(scan: AbortSignal): AbortSignal {
  return AbortSignal.any([scan]);
}
