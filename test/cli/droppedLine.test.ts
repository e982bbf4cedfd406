/**
 * A line dropped for any reason is counted, through the real process: round four's gzip bomb (a
 * line of one character far longer than DuckDB's reader's buffer, the file's last, which DuckDB
 * drops without an error) is a bad row named in the summary, gzipped or plain; --strict stops on
 * it before writing anything. The bomb is made with a streaming gzip of a repeated buffer.
 */
import { once } from "node:events";
import {
  copyFileSync,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createGzip } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, runOnce } from "../support/cli.js";

const SLOW = { timeout: 180_000 };
const scratch = mkdtempSync(join(tmpdir(), "cli-dropped-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const FOCUS = readFileSync("test/fixtures/billing/grid/focus.csv", "utf8").split("\n");
/** Longer than DuckDB's reader's buffer (32 MiB), which drops such a last line silently. */
const BOMB_MIB = 40;

/** The export: its header, its first good line, then a line of `BOMB_MIB` MiB of one character. */
async function bomb(path: string, gzip: boolean): Promise<void> {
  const file = createWriteStream(path);
  const out = gzip ? createGzip() : file;
  if (gzip) (out as ReturnType<typeof createGzip>).pipe(file);
  const write = async (chunk: string | Buffer) => {
    if (!out.write(chunk)) await once(out, "drain");
  };
  await write(`${FOCUS[0]}\n${FOCUS[1]}\n`);
  const block = Buffer.alloc(1 << 20, "a");
  for (let mib = 0; mib < BOMB_MIB; mib++) await write(block);
  await write("\n");
  out.end();
  await once(file, "close");
}

/**
 * The bomb in a folder of its own (`name`: bill.csv.gz gzipped, bill.csv plain), made once for the
 * tests that read it: each copies it (the gzip's copy costs a read of its 40 kB, not 40 MiB gzipped again).
 */
const made = runOnce(async (name: string) => {
  const path = join(folder(), name);
  await bomb(path, name.endsWith(".gz"));
  return path;
});

/** The bomb `name` copied into a fresh folder: its path there. */
async function bombIn(name: string): Promise<string> {
  const path = join(folder(), name);
  copyFileSync(await made(name), path);
  return path;
}

let folders = 0;
function folder(): string {
  const path = join(scratch, `case-${folders++}`);
  mkdirSync(path);
  return path;
}

describe.concurrent("a last line too long to be read", () => {
  for (const gzip of [true, false]) {
    const name = gzip ? "bill.csv.gz" : "bill.csv";
    it(`is a bad row named in the summary (${name})`, SLOW, async () => {
      const file = await bombIn(name);
      const before = readFileSync(file);
      const { code, stdout, stderr } = await runCli(["evaluate", file, "--criteria", "gwp"]);
      expect(code, stderr).toBe(0);
      expect(stdout.trim().split("\n")).toHaveLength(2);
      expect(stderr).toContain("  rows read: 2\n");
      expect(stderr).toContain("  evaluated: 1 (1 hours)\n");
      expect(stderr).toContain("  bad rows: 1\n");
      expect(stderr).toContain(
        `  bad row: ${gzip ? "line 3, the last" : "the last line"}, is longer than 2097152 bytes; not read: 1 row, cost 0\n`,
      );
      expect(readFileSync(file).equals(before)).toBe(true);
    });
  }

  it("stops --strict before anything is written (exit 1)", SLOW, async () => {
    const file = await bombIn("bill.csv.gz");
    const dir = dirname(file);
    const { code, stderr } = await runCli([
      "evaluate",
      file,
      "--criteria",
      "gwp",
      "--strict",
      "-o",
      join(dir, "lines.csv"),
    ]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      "impact-service: --strict: 1 bad row, bad row: line 3, the last, is longer than 2097152 bytes; not read; nothing written\n",
    );
    expect(readdirSync(dir)).toEqual(["bill.csv.gz"]);
  });
});
