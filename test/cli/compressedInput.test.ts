/**
 * Files told by their first bytes, not their names (src/support/fileStart.ts): an inventory
 * gzipped (a file or a pipe) is read inflated; a billing export gzipped without `.gz`, or named
 * `.gz` without being gzip, is read as what it is; a ZIP arriving on a pipe is refused.
 */
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { constants, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { inputText } from "../../src/cli/inventoryRecords.js";
import { main } from "../../src/cli/main.js";
import { FileMisuse } from "../../src/support/namedFiles.js";
import { evaluatedLines, runMain241, runOnce, sink } from "../support/cli.js";
import { publicExport } from "../support/publicExports.js";

const scratch = mkdtempSync(join(tmpdir(), "compressed-input-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const INVENTORY = "examples/inventory.csv";
const BILL = "test/fixtures/billing/azure.csv";
const CUR_GZ = publicExport("cur-1.0-focus-converters-aws.csv.gz");

/** A plain file's run (edition 2.4.1), once for the tests that compare with it: its lines and file. */
const plainRun = runOnce(async (file: string) => {
  const output = join(scratch, `plain-${basename(file)}`);
  return { ...(await evaluatedLines(file, output)), output };
});

async function text(chunks: readonly Uint8Array[]): Promise<string> {
  let all = "";
  for await (const chunk of inputText(Readable.from(chunks), "in.csv")) all += chunk.toString();
  return all;
}

describe("an inventory's bytes, told as they arrive", () => {
  it("inflate gzip whatever its chunks, and pass text through", async () => {
    const csv = readFileSync(INVENTORY);
    const gz = gzipSync(csv);
    expect(await text([gz])).toBe(csv.toString());
    // In chunks that cut the mark itself: held until it tells
    expect(await text([gz.subarray(0, 2), gz.subarray(2, 50), gz.subarray(50)])).toBe(csv.toString());
    expect(await text([gz.subarray(0, 1), gz.subarray(1)])).toBe(csv.toString());
    expect(await text([Buffer.from("k"), Buffer.from("ind,quantity\n")])).toBe("kind,quantity\n");
    expect(await text([csv.subarray(0, 10), csv.subarray(10)])).toBe(csv.toString());
    expect(await text([])).toBe("");
  });

  it("say a gzip stream cut short, and refuse a ZIP, in one line each", async () => {
    const gz = gzipSync(readFileSync(INVENTORY));
    await expect(text([gz.subarray(0, gz.length - 20)])).rejects.toThrow(
      new FileMisuse("in.csv: the gzip stream is damaged or cut short (unexpected end of file)"),
    );
    await expect(text([Buffer.from("PK\x03\x04\x14\x00", "latin1")])).rejects.toThrow(
      /^in\.csv is a ZIP archive, which is not read here/,
    );
  });
});

describe("evaluate on files told by their bytes", () => {
  it("reads a gzipped inventory, named .csv.gz or .csv, as the plain file", async () => {
    const plain = await plainRun(INVENTORY);
    for (const name of ["inventory.csv.gz", "inventory-gzipped.csv"]) {
      const file = join(scratch, name);
      writeFileSync(file, gzipSync(readFileSync(INVENTORY)));
      const gzipped = await evaluatedLines(file, join(scratch, `${name}.out.csv`));
      expect(gzipped.lines).toEqual(plain.lines);
    }
  });

  it("reads a gzipped batch (.jsonl.gz) as the batch, its format read past the .gz", async () => {
    const line = `${JSON.stringify({ path: "/v1/cloud/instance?verbose=false&criteria=gwp", body: { provider: "aws", instance_type: "m5.xlarge" } })}\n`;
    writeFileSync(join(scratch, "batch.jsonl"), line);
    writeFileSync(join(scratch, "batch.jsonl.gz"), gzipSync(line));
    const read = async (name: string) => {
      const stdout = sink();
      const stderr = sink();
      const io = { stdin: Readable.from([]), stdout: stdout.stream, stderr: stderr.stream };
      const code = await main(["evaluate", join(scratch, name), "--edition", "2.4.1"], io);
      expect(code, stderr.text()).toBe(0);
      return stdout.text();
    };
    const plain = await read("batch.jsonl");
    expect(JSON.parse(plain.split("\n")[0]).status).toBe(200);
    expect(await read("batch.jsonl.gz")).toBe(plain);
  });

  it("reads a gzipped inventory from a pipe, and refuses a ZIP there (exit 2, nothing written)", async () => {
    const run = async (bytes: Buffer, output: string) => {
      const stdout = sink();
      const stderr = sink();
      const io = { stdin: Readable.from([bytes]), stdout: stdout.stream, stderr: stderr.stream };
      const code = await main(["evaluate", "-", "--output", output, "--edition", "2.4.1"], io);
      return { code, stderr: stderr.text() };
    };
    const piped = await run(gzipSync(readFileSync(INVENTORY)), join(scratch, "piped.csv"));
    expect(piped.code, piped.stderr).toBe(0);
    const plain = await plainRun(INVENTORY);
    expect(readFileSync(join(scratch, "piped.csv"), "utf8")).toBe(readFileSync(plain.output, "utf8"));
    expect(plain.lines.length).toBe(19);
    const zipped = await run(Buffer.from("PK\x03\x04\x14\x00\x00\x00", "latin1"), join(scratch, "never.csv"));
    expect(zipped.code).toBe(2);
    expect(zipped.stderr).toMatch(/^impact-service: stdin is a ZIP archive, which is not read here/);
  });

  it("reads a bill gzipped without .gz, and one named .gz that is not gzip, as the plain bill", async () => {
    const plain = await evaluatedLines(BILL, join(scratch, "bill.csv"));
    const gzipped = join(scratch, "bill-gzipped.csv");
    writeFileSync(gzipped, gzipSync(readFileSync(BILL)));
    const unzipped = join(scratch, "bill-unzipped.csv.gz");
    copyFileSync(BILL, unzipped);
    for (const file of [gzipped, unzipped]) {
      const read = await evaluatedLines(file, join(scratch, "bill.out.csv"));
      expect(read.lines).toEqual(plain.lines);
      expect(read.stderr).toContain("rows read: 60");
    }
  });

  it("names a gzip bill cut short and its last whole line, wherever the cut (exit 1, nothing written)", async () => {
    // DuckDB reads some of these cuts to their last whole block without an error.
    const whole = gzipSync(gunzipSync(readFileSync(CUR_GZ)));
    for (const share of [0.1, 0.35, 0.6, 0.9]) {
      const cut = whole.subarray(0, Math.round(whole.length * share));
      const file = join(scratch, `cut-${share}.csv.gz`);
      writeFileSync(file, cut);
      const lines =
        gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).toString().split("\n").length - 1;
      const output = join(scratch, `cut-${share}.out.csv`);
      const { code, stderr } = await runMain241(["evaluate", file, "-o", output]);
      expect(stderr).toBe(
        `impact-service: ${file}: the gzip file is cut short after line ${lines}; nothing written\n`,
      );
      expect(code).toBe(1);
      expect(existsSync(output)).toBe(false);
    }
  });
});

describe("a gzip file read whole or refused, never read in part", () => {
  // Two members with a NUL byte between them: gunzip stops at the NUL without a word, and the
  // command read 1 row of 300,001, exit 0
  const first = gzipSync("kind,quantity\nserver,1\n");
  const padded = Buffer.concat([first, Buffer.from([0]), gzipSync("server,1\n".repeat(300_000))]);
  const refusal = (name: string) =>
    `impact-service: ${name}: the gzip file has bytes after its end (from byte offset ${first.length}) that are no gzip member, so it cannot be read whole\n`;

  it("refuses an inventory whose bytes go on past its last member, from a file or a pipe (exit 2)", async () => {
    const file = join(scratch, "padded.csv.gz");
    writeFileSync(file, padded);
    // As for a gzip cut short, the rows before are written: the exit code and the line say it
    const named = await runMain241(["evaluate", file, "-o", join(scratch, "padded.out.csv")]);
    expect(named.stderr.endsWith(refusal(file)), named.stderr).toBe(true);
    expect(named.code).toBe(2);
    const stdout = sink();
    const stderr = sink();
    const io = { stdin: Readable.from([padded]), stdout: stdout.stream, stderr: stderr.stream };
    const piped = await main(["evaluate", "-", "--edition", "2.4.1"], io);
    expect(piped).toBe(2);
    expect(stderr.text().endsWith(refusal("stdin"))).toBe(true);
    expect(stdout.text()).toBe("");
  });

  it("reads members back to back as one text", async () => {
    const file = join(scratch, "members.csv.gz");
    writeFileSync(file, Buffer.concat([first, gzipSync("server,1\n".repeat(2))]));
    const read = await evaluatedLines(file, join(scratch, "members.out.csv"));
    expect(read.lines).toHaveLength(3);
  });

  it("refuses a bill whose bytes go on past its last member (exit 1, nothing written)", async () => {
    const bill = readFileSync(BILL);
    const member = gzipSync(bill.subarray(0, bill.indexOf("\n", bill.length / 2) + 1));
    const file = join(scratch, "padded-bill.csv.gz");
    writeFileSync(
      file,
      Buffer.concat([
        member,
        Buffer.from([0]),
        gzipSync(bill.subarray(bill.indexOf("\n", bill.length / 2) + 1)),
      ]),
    );
    const output = join(scratch, "padded-bill.out.csv");
    const { code, stderr } = await runMain241(["evaluate", file, "-o", output]);
    expect(
      stderr.endsWith(
        `impact-service: ${file}: the gzip file has bytes after its end (from byte offset ${member.length}) that are no gzip member, so it cannot be read whole; nothing written\n`,
      ),
      stderr,
    ).toBe(true);
    expect(code).toBe(1);
    expect(existsSync(output)).toBe(false);
  });
});

describe("JSON that is no line of records", () => {
  it("refuses an array or a document over several lines; reads records named .json as a batch", async () => {
    const run = async (name: string, text: string) => {
      const file = join(scratch, name);
      writeFileSync(file, text);
      const stdout = sink();
      const stderr = sink();
      const io = { stdin: Readable.from([]), stdout: stdout.stream, stderr: stderr.stream };
      const code = await main(["evaluate", file, "--edition", "2.4.1"], io);
      return { code, stdout: stdout.text(), stderr: stderr.text(), file };
    };
    const kind =
      "not newline-delimited JSON (one record a line, as BigQuery exports a bill or a batch is written); it is not read";
    const array = await run("rows.json", '[{"kind": "server"}]\n');
    expect(array.stderr).toBe(`impact-service: ${array.file} is a JSON array, ${kind}\n`);
    const document = await run("doc.json", '{\n  "kind": "server"\n}\n');
    expect(document.stderr).toBe(
      `impact-service: ${document.file} is a JSON document over several lines, ${kind}\n`,
    );
    for (const refused of [array, document]) {
      expect(refused.code).toBe(2);
      expect(refused.stdout).toBe("");
    }
    // Read as CSV before: one column named by the whole line, no row, exit 0.
    const line = {
      path: "/v1/cloud/instance?verbose=false&criteria=gwp",
      body: { provider: "aws", instance_type: "m5.xlarge" },
    };
    const batch = await run("batch.json", `${JSON.stringify(line)}\n`);
    expect(batch.code, batch.stderr).toBe(0);
    expect(JSON.parse(batch.stdout.split("\n")[0])).toMatchObject({ line: 1, status: 200 });
  });
});

describe("a bill on a pipe", () => {
  it("is told by its header and refused in one line (exit 2, nothing written), gzipped or not", async () => {
    for (const bytes of [readFileSync(BILL), gzipSync(readFileSync(BILL))]) {
      const stdout = sink();
      const stderr = sink();
      const output = join(scratch, "piped-bill.csv");
      const io = { stdin: Readable.from([bytes]), stdout: stdout.stream, stderr: stderr.stream };
      const code = await main(["evaluate", "-", "--output", output], io);
      expect(code).toBe(2);
      expect(stderr.text()).toBe(
        "impact-service: stdin: a billing export's header (Azure cost export); a billing export is read from a file, not from a pipe: save it to a file and name that file\n",
      );
      expect(existsSync(output)).toBe(false);
    }
  });
});
