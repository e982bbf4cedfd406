/**
 * Compressed uploads to the /evaluate page's route of the service as `npm start` runs it (the
 * server's bundle in a process of its own): a gzip is read whole or refused, and its inflation
 * holds the page no longer than its client. Before, two members with a NUL byte between them were
 * read as the first alone (1 row of 300,001, exit 0, no warning); a 5 MB gzip of one 5 GiB line,
 * its client gone after 0.5 s, held a slot 27–40 s and 25–32 s of CPU.
 */
import { readFileSync } from "node:fs";
import { request } from "node:http";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gzipOfOneLongLine } from "../support/hostileFiles.js";
import { portOf, startService } from "../support/process.js";

let service: ReturnType<typeof startService>;
let port: number;

beforeAll(async () => {
  service = startService({});
  const [listening] = await service.waitFor(/^listening on /);
  port = portOf(listening);
});

afterAll(() => service?.killAll());

/** The service's CPU time so far (every thread of its process), in ms. */
function serviceCpuMs(): number {
  const fields = readFileSync(`/proc/${service.child.pid}/stat`, "utf8").split(") ")[1].split(" ");
  // utime and stime, fields 14 and 15 of the line, in clock ticks (100 a second)
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/** POSTs `body` to the page's route as `name`; the status and body of the answer. */
function evaluated(name: string, body: Buffer): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: "127.0.0.1", port, method: "POST", path: `/v1/evaluate?name=${name}&criteria=gwp` },
      async (answer) => {
        let text = "";
        for await (const part of answer) text += part;
        resolve({ status: answer.statusCode ?? 0, text });
      },
    );
    sent.on("error", reject);
    sent.end(body);
  });
}

describe("a gzip sent to the page", () => {
  it("with bytes after its last member is refused, naming the offset (read as 1 row of 300,001 before)", async () => {
    const first = gzipSync("kind,quantity\nserver,1\n");
    const padded = Buffer.concat([first, Buffer.from([0]), gzipSync("server,1\n".repeat(300_000))]);
    const answer = await evaluated("servers.csv.gz", padded);
    expect(answer.status).toBe(422);
    expect(JSON.parse(answer.text)).toEqual({
      detail: `the gzip file has bytes after its end (from byte offset ${first.length}) that are no gzip member, so it cannot be read whole`,
    });
  });

  it("of one 5 GiB line, its client gone after 0.5 s: the slot free within 1 s of it, under 1 s of CPU", async () => {
    const bomb = gzipOfOneLongLine("kind,quantity\n", 5 * 1024 * 1024 * 1024);
    expect(bomb.length).toBeLessThan(6_000_000);
    const cpuBefore = serviceCpuMs();
    const upload = request({
      host: "127.0.0.1",
      port,
      method: "POST",
      path: "/v1/evaluate?name=line.csv.gz",
      headers: { "content-length": bomb.length },
    });
    upload.on("error", () => {});
    upload.end(bomb);
    // The client of the finding: it leaves half a second after it started sending
    await new Promise((resolve) => setTimeout(resolve, 500));
    upload.destroy();
    const left = performance.now();
    // Its slot free: the next file of this client is admitted (an empty one, refused as such)
    let next = await evaluated("next.csv", Buffer.alloc(0));
    while (next.status === 503 && performance.now() - left < 120_000) {
      next = await evaluated("next.csv", Buffer.alloc(0));
    }
    const freedMs = performance.now() - left;
    expect(JSON.parse(next.text)).toEqual({ detail: "the file is empty" });
    expect(freedMs).toBeLessThan(1_000);
    expect(serviceCpuMs() - cpuBefore).toBeLessThan(1_000);
  }, 180_000);
});
