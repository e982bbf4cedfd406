/**
 * Where a CSV text's records end (src/support/recordEnds.ts): at a line end outside quotes, as
 * csv-parse cuts them (its relax_quotes: a quote amid a cell is text), whatever the pieces the
 * text arrives in.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { RecordEnds, wholeRecords } from "../../src/support/recordEnds.js";

describe("a CSV text's records", () => {
  it.each([
    ["plain lines", "a,b\n1,2\n", ["a,b", "1,2"], [1, 1]],
    ["a quoted line break", 'a,"b\nc"\n1,2\n', ['a,"b\nc"', "1,2"], [2, 1]],
    ["an escaped quote before a line break", 'a,"b""\nc"\n1,2\n', ['a,"b""\nc"', "1,2"], [2, 1]],
    ["a quote amid a cell (text)", 'a,24" screen\n1,2\n', ['a,24" screen', "1,2"], [1, 1]],
    ["a quoted cell after ;", 'a;"b\nc"\n1;2\n', ['a;"b\nc"', "1;2"], [2, 1]],
    ["CRLF ends, the CR the line's", 'a,"b\r\nc"\r\n1,2\r\n', ['a,"b\r\nc"\r', "1,2\r"], [2, 1]],
    ["a last line without its end, left out", "a,b\n1,2", ["a,b"], [1]],
  ])("%s", (_name, text, records, lines) => {
    const found = wholeRecords(text, "\n", 10);
    expect(found.map((record) => record.text)).toEqual(records);
    expect(found.map((record) => record.lines)).toEqual(lines);
    // Each record is what csv-parse reads as one.
    const delimiter = text.includes(";") ? ";" : ",";
    for (const record of found) expect(parse(record.text, { relax_quotes: true, delimiter })).toHaveLength(1);
  });

  it("cuts CR-ended texts (a classic Mac CSV) at CR", () => {
    expect(wholeRecords('a,"b\rc"\r1,2\r', "\r", 10).map((record) => record.text)).toEqual([
      'a,"b\rc"',
      "1,2",
    ]);
  });

  it("finds a record's end whatever the pieces: a quote pair cut between two", () => {
    const scanner = new RecordEnds("any");
    expect(scanner.next(Buffer.from('a,"b"')).end).toBe(-1);
    expect(scanner.next(Buffer.from('"\nc"\nd')).end).toBe(4);
  });
});
