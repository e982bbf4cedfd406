/**
 * Clients of the service from addresses of their own (127.0.0.2, 127.0.0.3…: every address of
 * 127.0.0.0/8 is the loopback's), as distinct clients reach it: the /evaluate page counts its slots
 * per client address.
 */
import { type IncomingMessage, request } from "node:http";
import { connect, type Socket } from "node:net";

/** An answer as it arrives: its status and headers, its body read by the caller (or dropped). */
export interface Answer {
  readonly status: number;
  readonly headers: IncomingMessage["headers"];
  readonly body: IncomingMessage;
  /** The body, read whole. */
  text(): Promise<string>;
  /** Settles once the request's body is sent whole (rejects on a reset or a broken pipe). */
  readonly sent: Promise<void>;
}

/** POSTs `body` to the service from `localAddress`; resolves with the answer's head. */
export function postFrom(
  localAddress: string,
  port: number,
  path: string,
  body: string | Buffer,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let whole: (error?: Error) => void = () => {};
    const sentWhole = new Promise<void>((done, failed) => {
      whole = (error) => (error ? failed(error) : done());
    });
    sentWhole.catch(() => {});
    const sent = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: "POST",
        localAddress,
        headers: { "content-length": Buffer.byteLength(body) },
      },
      (answer) =>
        resolve({
          status: answer.statusCode ?? 0,
          headers: answer.headers,
          body: answer,
          text: async () => {
            let text = "";
            for await (const part of answer) text += part;
            return text;
          },
          sent: sentWhole,
        }),
    );
    sent.on("error", (error) => {
      whole(error);
      reject(error);
    });
    sent.once("finish", () => whole());
    sent.end(body);
  });
}

/** The first line of an NDJSON answer (a run's first event); the answer is left open, paused. */
export function firstLine(answer: Answer): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    const read = (part: Buffer) => {
      text += part;
      if (!text.includes("\n")) return;
      answer.body.off("data", read);
      answer.body.pause();
      resolve(text.slice(0, text.indexOf("\n")));
    };
    answer.body.on("data", read);
    answer.body.once("error", reject);
  });
}

/** A raw connection from `localAddress`: what it sends is the caller's, what it receives kept. */
export interface RawConnection {
  readonly socket: Socket;
  send(text: string): void;
  /** What the server sent so far. */
  text(): string;
  /** Resolves once what the server sent matches `pattern`. */
  received(pattern: RegExp): Promise<void>;
  /** Everything the server sent, once it closed the connection. */
  readonly answer: Promise<string>;
}

export function connectFrom(localAddress: string, port: number): Promise<RawConnection> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress });
    let received = "";
    const waiters = new Set<() => void>();
    socket.setEncoding("utf8");
    socket.on("data", (text: string) => {
      received += text;
      for (const check of waiters) check();
    });
    const answer = new Promise<string>((done) => socket.once("close", () => done(received)));
    const receivedMatching = (pattern: RegExp) =>
      new Promise<void>((done) => {
        const check = () => {
          if (!pattern.test(received)) return;
          waiters.delete(check);
          done();
        };
        waiters.add(check);
        check();
      });
    socket.once("error", reject);
    socket.once("connect", () =>
      resolve({
        socket,
        send: (text) => socket.write(text),
        text: () => received,
        received: receivedMatching,
        answer,
      }),
    );
  });
}
