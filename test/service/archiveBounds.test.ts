/**
 * A ZIP archive of a bill's parts sent to the /evaluate page, checked once received before its run
 * (src/service/fileEvaluation/archiveBounds.ts): bounded as one file, its parts counted together.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { checkArchive, MAX_BILL_PARTS } from "../../src/service/fileEvaluation/archiveBounds.js";
import { FILE_EVALUATION_BOUNDS, FileRefusal } from "../../src/service/fileEvaluation.js";
import { zipFileIn } from "../support/zipFiles.js";

const work = mkdtempSync(join(tmpdir(), "archive-bounds-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const refusal = (path: string, bounds = FILE_EVALUATION_BOUNDS) =>
  checkArchive(path, bounds).then(
    () => null,
    (error: unknown) => error,
  );

describe("a ZIP archive of a bill's parts", () => {
  it("within the bounds is left to the command: three months, a gzipped one among them", async () => {
    const zip = await zipFileIn(work, "months.zip", {
      "2026-04.csv": "a,b\n1,2\n",
      "2026-05.csv.gz": gzipSync("a,b\n3,4\n"),
      "2026-06.parquet": "PAR1 not counted",
      "__MACOSX/._2026-04.csv": "a desktop's leftover",
    });
    expect(await refusal(zip)).toBeNull();
  });

  it("counts its parts' lines together, a gzipped part's inflated: past the page's lines, 413", async () => {
    const half = "x\n".repeat(FILE_EVALUATION_BOUNDS.maxLines / 2);
    const zip = await zipFileIn(work, "lines.zip", { "a.csv": half, "b.csv.gz": gzipSync(`${half}x\n`) });
    expect(await refusal(zip)).toEqual(
      new FileRefusal(
        413,
        "the ZIP archive's files have more than 200,000 lines (the page's bound, its files counted as one)",
      ),
    );
  });

  it("bounds its parts and their bytes unpacked, from its directory", async () => {
    const entries = Object.fromEntries(
      Array.from({ length: MAX_BILL_PARTS + 1 }, (_, at) => [`p${at}.csv`, "a\n"]),
    );
    expect(await refusal(await zipFileIn(work, "many.zip", entries))).toEqual(
      new FileRefusal(
        413,
        "the ZIP archive holds 37 files; the page reads 36 files of one bill at most (the page's bound)",
      ),
    );
    const wide = await zipFileIn(work, "wide.zip", { "a.csv": "a".repeat(2 * 1024 * 1024) });
    expect(await refusal(wide, { ...FILE_EVALUATION_BOUNDS, maxBytes: 1024 * 1024 })).toEqual(
      new FileRefusal(
        413,
        "the ZIP archive's files hold 2,097,152 bytes unpacked, more than 1 MiB (the page's bound, its files counted as one)",
      ),
    );
  });

  it("leaves what it cannot read to the command: another file's name, a damaged archive", async () => {
    expect(await refusal(join(work, "bill.csv"))).toBeNull();
    const damaged = join(work, "damaged.zip");
    writeFileSync(damaged, "PK\x03\x04 cut short");
    expect(await refusal(damaged)).toBeNull();
  });
});
