/**
 * A raw HTTP client for the tests of the real server (test/support/httpServer.ts): node:http, so
 * any request target — `//`, broken percent-encodings — is sent as is.
 */
import { request as httpRequest, type IncomingMessage } from "node:http";

export interface HttpAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
  // biome-ignore lint/suspicious/noExplicitAny: answers are checked field by field in the tests
  readonly json: any;
}

export interface HttpCall {
  readonly method?: string;
  readonly path: string;
  readonly headers?: Record<string, string>;
  /** Sent as is; an object is sent as JSON. */
  readonly body?: string | Buffer | object;
  /** Send the body in chunks without content-length. */
  readonly chunked?: boolean;
  readonly signal?: AbortSignal;
}

export function send(port: number, call: HttpCall): Promise<HttpAnswer> {
  const body =
    call.body === undefined
      ? undefined
      : typeof call.body === "string" || Buffer.isBuffer(call.body)
        ? call.body
        : JSON.stringify(call.body);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: call.method ?? (body === undefined ? "GET" : "POST"),
        path: call.path,
        headers: {
          ...(body !== undefined ? { "content-type": "application/json" } : {}),
          ...(body !== undefined && !call.chunked ? { "content-length": Buffer.byteLength(body) } : {}),
          ...call.headers,
        },
        signal: call.signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json });
        });
        response.on("error", reject);
      },
    );
    request.on("error", reject);
    if (body !== undefined) request.end(body);
    else request.end();
  });
}

export const graphqlCall = (query: string, variables?: Record<string, unknown>): HttpCall => ({
  path: "/graphql",
  body: { query, variables },
});

/**
 * A GraphQL POST whose answer is not read until `read()`: the budgets it holds stay held meanwhile.
 * `arrived` settles with the answer's head; `read` reads its body whole.
 */
export function unreadAnswer(port: number, body: string) {
  let response: IncomingMessage | null = null;
  const arrived = new Promise<IncomingMessage>((resolve, reject) => {
    const call = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/graphql",
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (answer) => {
        response = answer;
        resolve(answer);
      },
    );
    call.on("error", reject);
    call.end(body);
  });
  return {
    arrived,
    async read(): Promise<{ status: number; text: string }> {
      const answer = response ?? (await arrived);
      const chunks: Buffer[] = [];
      for await (const chunk of answer) chunks.push(chunk as Buffer);
      return { status: answer.statusCode ?? 0, text: Buffer.concat(chunks).toString("utf8") };
    },
  };
}
