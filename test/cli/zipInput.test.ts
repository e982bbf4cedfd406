/**
 * A ZIP archive's one file read as if named (src/support/zipArchive.ts): a CUR delivered with ZIP
 * compression, an inventory packed by a desktop; what the archive holds otherwise refused in one
 * line, the unpacked copy never left behind.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { main } from "../../src/cli/main.js";
import { ArchiveRefusal, unpackedMember } from "../../src/support/zipArchive.js";
import { runMain, runOnce, sink } from "../support/cli.js";
import { zipFileIn } from "../support/zipFiles.js";

const scratch = mkdtempSync(join(tmpdir(), "zip-input-"));
// The run's temporary folders (the unpacked copies) made here, so that the test sees them go.
const temporary = join(scratch, "tmp");
const givenTmp = process.env.TMPDIR;
beforeAll(() => {
  mkdirSync(temporary);
  process.env.TMPDIR = temporary;
});
afterAll(() => {
  if (givenTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = givenTmp;
  rmSync(scratch, { recursive: true, force: true });
});
afterEach(() => {
  // No unpacked copy outlives its run, whatever its end.
  expect(readdirSync(temporary).filter((name) => name.startsWith("impact-unzipped-"))).toEqual([]);
});

const BILL = "test/fixtures/billing/cur-1.0-legacy.csv";
const INVENTORY = "examples/inventory.csv";

/** A ZIP archive of these entries (a name ending in `/` is a folder), written under `name`. */
const zipFile = (name: string, entries: Record<string, Buffer | string>) => zipFileIn(scratch, name, entries);

const read = (file: string) => readFileSync(file);

/** A plain file's output, written once for the tests that compare an archive's with it: its path. */
const plainRun = runOnce(async (file: string) => {
  const output = join(scratch, `plain-${basename(file)}`);
  const plain = await runMain(["evaluate", file, "-o", output]);
  expect(plain.code, plain.stderr).toBe(0);
  return output;
});

describe("evaluate on a ZIP archive holding one file", () => {
  it("reads a CUR delivered as report-00001.csv.zip as the CSV itself, naming the archive's file", async () => {
    const archive = await zipFile("report-00001.csv.zip", { "report-00001.csv": read(BILL) });
    const zipped = await runMain([
      "evaluate",
      archive,
      "-o",
      join(scratch, "zipped.csv"),
      "--report",
      join(scratch, "zipped.html"),
    ]);
    expect(zipped.code, zipped.stderr).toBe(0);
    expect(read(join(scratch, "zipped.csv")).equals(read(await plainRun(BILL)))).toBe(true);
    const shown = `${archive} (report-00001.csv)`;
    expect(zipped.stderr.split("\n").slice(0, 2)).toEqual([
      `${archive}: a ZIP archive; its file report-00001.csv (${read(BILL).length} bytes) is read`,
      `billing export ${shown}: AWS CUR 1.0 (legacy CSV, lineItem/… columns), edition 2.5.0`,
    ]);
    // The copy's temporary path is never what the user reads
    expect(zipped.stderr).not.toContain(temporary);
    expect(readFileSync(join(scratch, "zipped.html"), "utf8")).toContain(
      `<title>Billing export ${shown}</title>`,
    );
  });

  it("reads an inventory packed by a desktop, its folders and leftovers (__MACOSX, .DS_Store) set aside", async () => {
    const archive = await zipFile("inventory.zip", {
      "inventory/": "",
      "inventory/inventory.csv": read(INVENTORY),
      "__MACOSX/inventory/._inventory.csv": Buffer.from([0, 5, 22, 7]),
      "inventory/.DS_Store": Buffer.from("\x00\x00\x00\x01Bud1", "latin1"),
    });
    const zipped = await runMain(["evaluate", archive, "-o", join(scratch, "inventory-zipped.csv")]);
    expect(zipped.code, zipped.stderr).toBe(0);
    expect(zipped.stderr).toContain(`${archive}: a ZIP archive; its file inventory/inventory.csv (`);
    const plain = await runMain(["evaluate", INVENTORY, "-o", join(scratch, "inventory-plain.csv")]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(
      read(join(scratch, "inventory-zipped.csv")).equals(read(join(scratch, "inventory-plain.csv"))),
    ).toBe(true);
  });
});

describe("a bill's parts delivered as ZIP archives (report-00001.csv.zip, -00002…)", () => {
  /** The CUR's lines cut in two parts, each with the header. */
  const halves = () => {
    const [header, ...lines] = read(BILL).toString().trimEnd().split("\n");
    const half = Math.ceil(lines.length / 2);
    return [lines.slice(0, half), lines.slice(half)].map((part) => [header, ...part].join("\n").concat("\n"));
  };

  it("are one bill, a ZIP part beside a plain one too: the whole file's lines, each archive named", async () => {
    const [first, second] = halves();
    const one = await zipFile("report-00001.csv.zip", { "report-00001.csv": first });
    const two = await zipFile("report-00002.csv.zip", { "report-00002.csv": second });
    const plain = await plainRun(BILL);
    const zipped = await runMain(["evaluate", one, two, "-o", join(scratch, "parts-zipped.csv")]);
    expect(zipped.code, zipped.stderr).toBe(0);
    expect(read(join(scratch, "parts-zipped.csv")).equals(read(plain))).toBe(true);
    expect(zipped.stderr.split("\n").slice(0, 3)).toEqual([
      `${one}: a ZIP archive; its file report-00001.csv (${Buffer.byteLength(first)} bytes) is read`,
      `${two}: a ZIP archive; its file report-00002.csv (${Buffer.byteLength(second)} bytes) is read`,
      `billing export ${one} (report-00001.csv) (and 1 more part): AWS CUR 1.0 (legacy CSV, lineItem/… columns), edition 2.5.0`,
    ]);
    expect(zipped.stderr).not.toContain(temporary);
    writeFileSync(join(scratch, "report-00001.csv"), first);
    const mixed = await runMain([
      "evaluate",
      join(scratch, "report-00001.csv"),
      two,
      "-o",
      join(scratch, "parts-mixed.csv"),
    ]);
    expect(mixed.code, mixed.stderr).toBe(0);
    expect(read(join(scratch, "parts-mixed.csv")).equals(read(plain))).toBe(true);
  });

  it("refuse a ZIP part holding an archive, one named twice, and an output naming one", async () => {
    const [first, second] = halves();
    const one = await zipFile("part-1.csv.zip", { "part-1.csv": first });
    const inner = await zipFile("inner.zip", { "part-2.csv": second });
    const nested = await zipFile("nested.zip", { "inner.zip": read(inner) });
    const refused = async (args: readonly string[]) => {
      const run = await runMain(["evaluate", ...args]);
      expect(run.code).toBe(2);
      return run.stderr.trim().split("\n").at(-1);
    };
    expect(await refused([one, nested, "-o", join(scratch, "nested.csv")])).toBe(
      `impact-service: ${nested} (inner.zip) is a ZIP archive itself: unzip both`,
    );
    expect(await refused([one, one, "-o", join(scratch, "twice.csv")])).toBe(
      `impact-service: ${one} is also ${one}: a part named twice would count its lines twice`,
    );
    expect(await refused([inner, one, "-o", one])).toBe(
      `impact-service: --output ${one} is the input ${one}: name another file; nothing written`,
    );
    expect(existsSync(join(scratch, "nested.csv"))).toBe(false);
  });
});

describe("a ZIP archive's file named as the archive names it", () => {
  it("whatever its name holds (a line break, 300 characters): shown printable, copied under a name of its own", async () => {
    const name = `exports/bill\nof "October" ${"x".repeat(300)}.csv`;
    const archive = await zipFile("odd-name.zip", { [name]: read(BILL) });
    const run = await runMain(["evaluate", archive, "-o", join(scratch, "odd-name.csv")]);
    expect(run.code, run.stderr).toBe(0);
    const shown = `${archive} (exports/bill\\x0aof "October" ${"x".repeat(300)}.csv)`;
    expect(run.stderr).toContain(`billing export ${shown}: AWS CUR 1.0`);
    expect(run.stderr).not.toContain(temporary);
  });
});

describe("a ZIP archive refused in one line, exit 2, nothing written", () => {
  const refusal = async (archive: string) => {
    const output = join(scratch, "never.csv");
    const run = await runMain(["evaluate", archive, "-o", output]);
    expect(existsSync(output)).toBe(false);
    expect(run.code).toBe(2);
    return run.stderr.trim().split("\n").at(-1);
  };

  it("names the files when it holds several or none: which one is the data is not guessed", async () => {
    const two = await zipFile("two.zip", {
      "a.csv": read(INVENTORY),
      "notes.txt": "the bill of May",
      "__MACOSX/._a.csv": "x",
    });
    expect(await refusal(two)).toBe(
      `impact-service: ${two}: the ZIP archive holds 2 files (a.csv, notes.txt); one is read: unzip it and name its files (one bill's parts are read together)`,
    );
    // Several bill files are read together, as one bill's: an inventory among them is refused so
    const mixed = await zipFile("mixed.zip", { "a.csv": read(INVENTORY), "b.csv": read(BILL) });
    expect(await refusal(mixed)).toBe(
      `impact-service: ${mixed} (a.csv): no billing export; several files are read as the parts of one billing export`,
    );
    const none = await zipFile("none.zip", { "folder/": "", ".DS_Store": "x" });
    expect(await refusal(none)).toBe(`impact-service: ${none}: the ZIP archive holds no file`);
  });

  it("says an archive damaged, cut short, password-protected or holding an archive", async () => {
    const whole = read(await zipFile("whole.zip", { "bill.csv": read(BILL) }));
    const cut = join(scratch, "cut.zip");
    writeFileSync(cut, whole.subarray(0, whole.length - 30));
    expect(await refusal(cut)).toMatch(
      new RegExp(`^impact-service: ${cut}: the ZIP archive is damaged or cut short \\(.+\\); nothing read$`),
    );
    // Bit 0 of the general purpose flags, in the entry's local header and in the directory: encrypted
    const locked = Buffer.from(whole);
    locked[6] |= 1;
    locked[locked.indexOf("PK\x01\x02", 0, "latin1") + 8] |= 1;
    const password = join(scratch, "password.zip");
    writeFileSync(password, locked);
    expect(await refusal(password)).toBe(
      `impact-service: ${password}: bill.csv is protected by a password: unzip it and give the file`,
    );
    // A directory that says the file is 100 bytes: it inflates past them, and is stopped there
    const lying = Buffer.from(whole);
    lying.writeUInt32LE(100, lying.indexOf("PK\x01\x02", 0, "latin1") + 24);
    const liar = join(scratch, "liar.zip");
    writeFileSync(liar, lying);
    expect(await refusal(liar)).toBe(
      `impact-service: ${liar}: the ZIP archive is damaged or cut short (too many bytes in the stream. expected 100. got at least ${read(BILL).length}); nothing read`,
    );
    // Method 12 (bzip2) in the local header and in the directory: not deflate
    const bzip2 = Buffer.from(whole);
    bzip2.writeUInt16LE(12, 8);
    bzip2.writeUInt16LE(12, bzip2.indexOf("PK\x01\x02", 0, "latin1") + 10);
    const method = join(scratch, "bzip2.zip");
    writeFileSync(method, bzip2);
    expect(await refusal(method)).toBe(
      `impact-service: ${method}: the ZIP archive is compressed by method 12, which is not read here (deflate is): unzip it and give the file`,
    );
    const nested = await zipFile("nested.zip", { "inner.zip": whole });
    expect(await refusal(nested)).toBe(
      `impact-service: ${nested} (inner.zip) is a ZIP archive itself: unzip both`,
    );
  });

  it("refuses an output that is the archive, which stays as it was", async () => {
    const archive = await zipFile("replace-me.zip", { "bill.csv": read(BILL) });
    const before = read(archive);
    const run = await runMain(["evaluate", archive, "-o", archive]);
    expect(run.code).toBe(2);
    expect(run.stderr.trim().split("\n").at(-1)).toBe(
      `impact-service: --output ${archive} is the input ${archive}: name another file; nothing written`,
    );
    expect(read(archive).equals(before)).toBe(true);
  });

  it("refuses a file the disk cannot hold unpacked, before a byte is written", async () => {
    const archive = await zipFile("large.zip", { "bill.csv": read(BILL) });
    const folder = mkdtempSync(join(scratch, "unpacked-"));
    // A disk with 1 KiB free beyond what the outputs need
    const refused = unpackedMember(archive, { folder, free: () => 256 * 1024 * 1024 + 1024 });
    await expect(refused).rejects.toThrow(
      new ArchiveRefusal(
        `${archive}: bill.csv holds ${read(BILL).length} bytes unpacked; the temporary folder's disk has room for 1024 (TMPDIR names another)`,
      ),
    );
    expect(readdirSync(folder)).toEqual([]);
  });
});

describe("an interruption while a ZIP archive's file is unpacked", () => {
  it("stops there: nothing written, the copy's folder removed, the signal's exit code", async () => {
    const archive = await zipFile("interrupted.zip", { "bill.csv": read(BILL) });
    const output = join(scratch, "interrupted.csv");
    const stdout = sink();
    const stderr = sink();
    const code = await main(["evaluate", archive, "-o", output], {
      stdin: Readable.from([]),
      stdout: stdout.stream,
      stderr: stderr.stream,
      interrupt: AbortSignal.abort("SIGINT"),
    });
    expect([code, stderr.text()]).toEqual([
      130,
      `impact-service: interrupted while unpacking ${archive}; nothing written\n`,
    ]);
    expect(existsSync(output)).toBe(false);
  });
});
