/**
 * An inventory's text as spreadsheets save it: `;` or tab between cells (told by the header: the
 * separator whose cells name the most inventory columns), and a line that is no UTF-8 (Latin-1,
 * as an older Excel saves "CSV") a bad row named by its line rather than read with `�` in it; a
 * header that is no UTF-8 refuses the file.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { separatorOf } from "../../src/cli/source.js";
import { evaluatedLines, runMain } from "../support/cli.js";

const scratch = mkdtempSync(join(tmpdir(), "inventory-text-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function inventory(name: string, text: string | Buffer): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

describe("an inventory's separator", () => {
  it("is the one whose header cells name the most inventory columns, else a comma", () => {
    expect(separatorOf("kind,quantity,usage_location")).toBe(",");
    expect(separatorOf("kind;quantity;Usage Location")).toBe(";");
    expect(separatorOf("kind\tquantity")).toBe("\t");
    // A comma inside a column's name does not outvote the semicolons between them
    expect(separatorOf("kind;quantity;Name, first")).toBe(";");
    expect(separatorOf("Name;Price")).toBe(",");
    expect(separatorOf("")).toBe(",");
  });

  it("reads `;` and tab inventories as the comma one, quoted cells and their line breaks included", async () => {
    const rows = [
      ["kind", "quantity", "usage_location", "name"],
      ["server", "2", "FRA", '"rack 1; row ""A"""'],
      ["laptop", "3", "DEU", '"two\nlines"'],
    ];
    const comma = await evaluatedLines(
      inventory("comma.csv", `${rows.map((row) => row.join(",")).join("\n")}\n`),
      join(scratch, "comma.out.csv"),
    );
    expect(comma.lines.map((line) => line.status)).toEqual(["evaluated", "evaluated"]);
    expect(comma.lines[0].name).toBe('rack 1; row "A"');
    for (const [name, separator] of [
      ["semicolon.csv", ";"],
      ["tab.tsv", "\t"],
    ]) {
      const read = await evaluatedLines(
        inventory(name, `${rows.map((row) => row.join(separator)).join("\r\n")}\r\n`),
        join(scratch, `${name}.out.csv`),
      );
      expect(read.lines).toEqual(comma.lines);
    }
  });

  it("says a decimal comma's number is none, not a guess", async () => {
    const read = await runMain(["evaluate", inventory("decimal.csv", "kind;quantity\nserver;1,5\n")]);
    expect(read.stderr).toContain('line 2: bad row: quantity is not a number: "1,5"');
  });
});

describe("an inventory that is no UTF-8", () => {
  it("has each such line a bad row named by its line; the lines after it are read", async () => {
    const text = Buffer.concat([
      Buffer.from("kind,name,quantity\nserver,Serveur r"),
      Buffer.from([0xe9]), // Latin-1 é
      Buffer.from("seau,2\nserver,ok,1\n"),
    ]);
    const read = await runMain([
      "evaluate",
      inventory("latin1.csv", text),
      "-o",
      join(scratch, "latin1.out.csv"),
    ]);
    expect(read.stderr).toContain(
      "line 2: bad row: not UTF-8 (save the file as CSV UTF-8); the line is not read\n",
    );
    const written = readFileSync(join(scratch, "latin1.out.csv"), "utf8");
    expect(written).not.toContain("\uFFFD");
    expect(written).toContain("server,ok,1,");
  });

  it("is refused when its header is (exit 2, nothing written)", async () => {
    const path = inventory("latin1-header.csv", Buffer.from("kind,Ger\xe4t\nserver,x\n", "latin1"));
    const output = join(scratch, "never.csv");
    const read = await runMain(["evaluate", path, "-o", output]);
    expect(read.code).toBe(2);
    expect(read.stderr).toBe(
      `impact-service: ${path}: line 1, the header, is not UTF-8: save the file as CSV UTF-8\n`,
    );
    expect(existsSync(output)).toBe(false);
  });
});
