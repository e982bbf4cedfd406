/** What a file is by its first bytes: the formats read, and those named and refused (src/support/fileStart.ts). */
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  contentOf,
  foreignContentMessage,
  regularFileStart,
  ZIP_ON_A_PIPE,
} from "../../src/support/fileStart.js";

const bytes = (text: string) => Buffer.from(text, "latin1");

describe("a file's content by its first bytes", () => {
  it("is text for UTF-8 and for another 8-bit encoding (its reader names the line), gzip, Parquet and ZIP by their marks", () => {
    expect(contentOf(bytes("BilledCost,BillingAccountId\n1,2\n"))).toBe("text");
    // Latin-1 `é` (0xE9) is no NUL: text, whose reader says which line is not UTF-8
    expect(contentOf(bytes("name,cost\nS\xe9ries,1\n"))).toBe("text");
    expect(contentOf(Buffer.from("\uFEFFa,b\n", "utf8"))).toBe("text");
    expect(contentOf(bytes(""))).toBe("text");
    expect(contentOf(bytes("\x1f\x8b\x08\x00"))).toBe("gzip");
    expect(contentOf(bytes("PAR1\x15\x04"))).toBe("parquet");
    // A ZIP file's one file is unpacked (src/support/zipArchive.ts), a workbook read as one
    expect(contentOf(bytes("PK\x03\x04\x14\x00"))).toBe("zip");
  });

  it("names archives, other compressions, old workbooks, documents and images", () => {
    const named = (start: string) => {
      const content = contentOf(bytes(start));
      return typeof content === "object" ? content.name : content;
    };
    expect(named("PK\x05\x06")).toBe("an empty ZIP archive");
    expect(named("\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1\x00")).toBe("an Excel 97–2003 workbook (.xls)");
    expect(named("BZh91AY")).toBe("a bzip2 file");
    expect(named("\xfd7zXZ\x00\x00")).toBe("an xz file");
    expect(named("\x28\xb5\x2f\xfd")).toBe("a zstd file");
    expect(named("%PDF-1.7\n")).toBe("a PDF document");
    expect(named("\x89PNG\r\n\x1a\n")).toBe("a PNG image");
    expect(named("SQLite format 3\x00")).toBe("an SQLite database");
  });

  it("names a page a download answered with instead of the file: HTML, or a storage's XML error", () => {
    const named = (start: Buffer) => {
      const content = contentOf(start);
      return typeof content === "object" ? content.name : content;
    };
    expect(named(bytes("<!DOCTYPE html>\n<html><head><title>Sign in</title>"))).toBe("an HTML page");
    expect(named(Buffer.from("\uFEFF\r\n  <html lang=en>\n<body>", "utf8"))).toBe("an HTML page");
    expect(named(bytes('<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>AccessDenied</Code>'))).toBe(
      "an XML document",
    );
    // Text that only starts with a bracket, or names a column so, is still text.
    expect(named(bytes("<kind>,quantity\nserver,1\n"))).toBe("text");
    expect(named(bytes("htmlpage,quantity\n"))).toBe("text");
    const html = contentOf(bytes("<html>"));
    expect(typeof html === "object" && foreignContentMessage("cur.csv", html)).toBe(
      "cur.csv is an HTML page, which is not read here: it holds no data; download the file again (a link that expired, or that needs a sign-in, answers with a page)",
    );
  });

  it("tells UTF-16 with or without its byte order mark from another binary by where its NUL bytes fall", () => {
    const little = Buffer.from("MeterCategory,Quantity\nVirtual Machines,1\n", "utf16le");
    const big = Buffer.from(little).swap16();
    const name = (start: Buffer) => {
      const content = contentOf(start);
      return typeof content === "object" ? content.name : content;
    };
    expect(name(little)).toBe("UTF-16 text");
    expect(name(big)).toBe("UTF-16 text");
    expect(name(Buffer.concat([Buffer.from([0xff, 0xfe]), little]))).toBe("UTF-16 text");
    expect(name(Buffer.concat([Buffer.from([0xfe, 0xff]), big]))).toBe("UTF-16 text");
    // NUL bytes here and there, not every other byte: a binary
    expect(name(bytes("abc\x00\x01\x02defghij\x00klmnop"))).toBe("a binary file (it holds NUL bytes)");
  });

  it("is refused in one sentence naming the file, what it is and what to do", () => {
    const content = contentOf(bytes("7z\xbc\xaf\x27\x1c\x00\x04"));
    if (typeof content !== "object") throw new Error("a 7-Zip archive is named");
    expect(foreignContentMessage("bill.7z", content)).toBe(
      "bill.7z is a 7-Zip archive, which is not read here: unzip it and give the file it holds (CSV, CSV.gz or Parquet)",
    );
    expect(foreignContentMessage("stdin", ZIP_ON_A_PIPE)).toBe(
      "stdin is a ZIP archive, which is not read here: save it to a file and name that file (an Excel workbook on standard input is read with --input xlsx)",
    );
  });
});

describe("a regular file's start, read once for the decisions on it", () => {
  it("is read from a regular file, gzip inflated; null for a folder and a FIFO, whose start a read would consume", () => {
    const folder = mkdtempSync(join(tmpdir(), "file-start-"));
    try {
      const plain = join(folder, "bill.csv");
      writeFileSync(plain, "\uFEFFBilledCost,ChargePeriodStart\n1.5,2024-01-01\n");
      const start = regularFileStart(plain, 1);
      expect(start).not.toBeInstanceOf(Error);
      expect(start === null || start instanceof Error ? null : [start.content, start.text()]).toEqual([
        "text",
        // the byte-order mark left out; one record asked, the whole start kept
        { text: "BilledCost,ChargePeriodStart\n1.5,2024-01-01\n", gzip: false },
      ]);
      const zipped = join(folder, "bill.csv.gz");
      writeFileSync(zipped, gzipSync("a,b\n1,2\n"));
      const inflated = regularFileStart(zipped, 1);
      expect(inflated === null || inflated instanceof Error ? null : inflated.text()?.gzip).toBe(true);
      expect(regularFileStart(folder, 1)).toBeNull();
      const fifo = join(folder, "pipe");
      execFileSync("mkfifo", [fifo]);
      expect(regularFileStart(fifo, 1)).toBeNull();
      expect(regularFileStart("-", 1)).toBeNull();
      expect(regularFileStart(join(folder, "absent.csv"), 1)).toBeNull();
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
