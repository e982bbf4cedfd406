/**
 * The /evaluate page's upload (src/http/fileEvaluation/upload.ts) on bodies made here: a gzip
 * is read whole or refused — two members with a NUL byte between them were read as the first
 * alone — and inflated at the pace the body is read, within its bytes and its time, stopped as
 * soon as its client leaves.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { receive } from "../../src/http/fileEvaluation/upload.js";
import { FILE_EVALUATION_BOUNDS, FileRefusal } from "../../src/service/fileEvaluation.js";
import { gzipOfOneLongLine } from "../support/hostileFiles.js";

const work = mkdtempSync(join(tmpdir(), "upload-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

let files = 0;
const file = () => join(work, `file-${files++}.csv.gz`);

/** `bytes` as a body of chunks of `size` bytes, each in a turn of its own, counting the chunks read. */
function chunked(bytes: Buffer, size = 64 * 1024) {
  const read = { chunks: 0 };
  async function* body() {
    for (let at = 0; at < bytes.length; at += size) {
      read.chunks += 1;
      yield bytes.subarray(at, at + size);
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  return { body: body(), read };
}

async function refusalOf(promise: Promise<unknown>): Promise<FileRefusal> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof FileRefusal)) throw new Error(`not refused: ${String(error)}`);
  return error;
}

const HEADER = "kind,quantity\n";
const rows = (count: number) => "server,1\n".repeat(count);

describe("a gzip file, read whole or refused", () => {
  it("refuses two members with a NUL byte between them, naming the offset where the first ends", async () => {
    // The first member a header and a row, the second 300,000 rows: read as 1 row before
    const first = gzipSync(`${HEADER}${rows(1)}`);
    const bytes = Buffer.concat([first, Buffer.from([0]), gzipSync(rows(300_000))]);
    for (const size of [64 * 1024, first.length, 7]) {
      const refused = await refusalOf(receive(chunked(bytes, size).body, file(), FILE_EVALUATION_BOUNDS));
      expect(refused.status).toBe(422);
      expect(refused.message).toBe(
        `the gzip file has bytes after its end (from byte offset ${first.length}) that are no gzip member, so it cannot be read whole`,
      );
    }
  });

  it("reads members back to back whole, the file written as sent", async () => {
    const bytes = Buffer.concat([gzipSync(`${HEADER}${rows(1)}`), gzipSync(rows(1_000))]);
    const path = file();
    expect(await receive(chunked(bytes, 5).body, path, FILE_EVALUATION_BOUNDS)).toBe(bytes.length);
    expect(readFileSync(path)).toEqual(bytes);
    // Counted whole: 1,002 lines past a bound of 1,001
    const bounded = { ...FILE_EVALUATION_BOUNDS, maxLines: 1_001 };
    const refused = await refusalOf(receive(chunked(bytes, 5).body, file(), bounded));
    expect(refused.message).toBe("the file has more than 1,001 lines (the page's bound)");
  });
});

describe("a gzip's inflation as the body is read", () => {
  // A 5.3 MB gzip of one 5 GiB line: 25-32 s of CPU inflated whole before
  const bomb = gzipOfOneLongLine(HEADER, 5 * 1024 * 1024 * 1024);

  it("stops at its bytes' bound", async () => {
    const bounds = { ...FILE_EVALUATION_BOUNDS, maxInflatedBytes: 64 * 1024 * 1024 };
    const refused = await refusalOf(receive(chunked(bomb).body, file(), bounds));
    expect(refused.status).toBe(413);
    expect(refused.message).toBe("the file's text inflates to more than 0.0625 GiB (the page's bound)");
  });

  it("stops at its time's bound", async () => {
    const bounds = { ...FILE_EVALUATION_BOUNDS, inflateMs: 0 };
    const refused = await refusalOf(receive(chunked(bomb).body, file(), bounds));
    expect(refused.message).toBe("the file took more than 0 s to inflate (the page's bound)");
  });

  it("stops as soon as its client leaves, rejecting with the reason", async () => {
    const client = new AbortController();
    const { body, read } = chunked(bomb);
    const receiving = receive(body, file(), FILE_EVALUATION_BOUNDS, client.signal);
    const gone = new Error("the client disconnected");
    // Once the first chunks are in: the inflation under way
    await new Promise<void>((resolve) => {
      const look = () => (read.chunks >= 2 ? resolve() : setImmediate(look));
      look();
    });
    client.abort(gone);
    await expect(receiving).rejects.toBe(gone);
  });
});
