/**
 * What a client receives when the service stops, and that it stops, through a real process:
 * SIGTERM during a batch ends it with the line in hand, a summary saying `interrupted` and how
 * many lines were answered, and the answer's terminating chunk; SIGTERM with stdout closed
 * (`| head`) still exits; a refused body reaches a client that sends `Connection: close` and
 * its whole body before reading (Python's urllib). Every wait is for a line the process prints,
 * an answer or its exit.
 */
import { request as httpRequest } from "node:http";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { portOf, rawClient, serviceStarter } from "../support/process.js";

const service = serviceStarter();
const LISTENING = /^listening on http:\/\//;
const LINE = `${JSON.stringify({
  path: "/v1/cloud/instance?verbose=false&criteria=gwp",
  body: { provider: "aws", instance_type: "m5.xlarge" },
})}\n`;

interface BatchAnswer {
  readonly lines: string[];
  /** Whether the answer ended with its terminating chunk (not cut). */
  readonly complete: boolean;
}

/** An endless batch (lines made as the connection takes them); `onLines` once answers come. */
function endlessBatch(port: number, onLines: () => void): Promise<BatchAnswer> {
  const body = new Readable({
    read() {
      this.push(LINE.repeat(50));
    },
  });
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/v1/batch",
        headers: { "content-type": "application/x-ndjson" },
      },
      (response) => {
        let text = "";
        let announced = false;
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => {
          text += chunk;
          if (!announced && text.includes("\n")) {
            announced = true;
            onLines();
          }
        });
        response.on("end", () => {
          body.destroy();
          resolve({ lines: text.split("\n").filter((line) => line !== ""), complete: response.complete });
        });
        response.on("error", reject);
      },
    );
    // The service stops reading the body once interrupted: writes failing then are expected.
    request.on("error", () => {});
    body.pipe(request);
  });
}

describe("SIGTERM during a batch", () => {
  it.each(["3000", "0"])(
    "ends the answer with the lines answered whole, a summary saying interrupted and how many, and the terminating chunk (SHUTDOWN_DRAIN_MS=%s)",
    async (drain) => {
      const process = service({ SHUTDOWN_DRAIN_MS: drain });
      const port = portOf((await process.waitFor(LISTENING))[0]);
      const answer = await endlessBatch(port, () => process.child.kill("SIGTERM"));
      expect(answer.complete).toBe(true);
      const last = JSON.parse(answer.lines[answer.lines.length - 1]);
      const answered = answer.lines.slice(0, -1).map((line) => JSON.parse(line));
      expect(answered.length).toBeGreaterThan(0);
      expect(answered.every((line) => line.status === 200)).toBe(true);
      expect(last.summary).toMatchObject({
        lines: answered.length,
        ok: answered.length,
        errors: 0,
        interrupted: "the service is stopping (SIGTERM or SIGINT)",
      });
      expect(last.summary.total.gwp.embedded).toBeCloseTo(
        answered.reduce((sum, line) => sum + line.body.impacts.gwp.embedded.value, 0),
        6,
      );
      expect(await process.exited).toEqual({ code: 0, signal: null });
    },
    120_000,
  );
});

// One process for both: the refused body first (its connection closed by the client's own
// `Connection: close`), then stdout's reader leaves and SIGTERM stops the process.
describe("a refused body and Connection: close; SIGTERM with stdout closed", () => {
  it("a client sending its whole 12 MB body before reading gets the 413 (JSON), not a reset; then, stdout closed, the process exits 0 after a request, its log lines dropped", async () => {
    const process = service({ SHUTDOWN_DRAIN_MS: "0" });
    const port = portOf((await process.waitFor(LISTENING))[0]);
    const client = await rawClient(port);
    const body = `{"pad": "${"x".repeat(12 * 1024 * 1024)}"}`;
    client.send(
      `POST /v1/server/ HTTP/1.1\r\nhost: localhost\r\nconnection: close\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n`,
    );
    // Everything is written before anything is read, as urllib does.
    await new Promise<void>((resolve, reject) =>
      client.socket.write(body, (error) => (error ? reject(error) : resolve())),
    );
    const refused = await client.answer;
    expect(refused).toMatch(/^HTTP\/1\.1 413 /);
    expect(JSON.parse(refused.slice(refused.indexOf("\r\n\r\n") + 4))).toEqual({
      detail: "the request body exceeds 8388608 bytes (MAX_BODY_BYTES)",
    });

    // The reader of stdout goes away (as `| head -1` does after its line).
    process.child.stdout?.destroy();
    const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
    expect(answer.status).toBe(200);
    process.child.kill("SIGTERM");
    expect(await process.exited).toEqual({ code: 0, signal: null });
  }, 60_000);
});
