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
import { separatorOf } from "../../src/cli/inventoryRecords.js";
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
});

describe("an inventory's decimal mark", () => {
  /** A row's impacts and energy: what the numbers read decide (the input's cells are echoed as written). */
  const impacts = (lines: readonly Record<string, string>[]) =>
    lines.map((line) =>
      Object.fromEntries(
        Object.entries(line).filter(([column]) => /^(energy_kwh|(gwp|adp|pe)_)/.test(column)),
      ),
    );
  const header = "kind;quantity;archetype;usage_location;hours;time_workload;ram_capacity";

  it("is the comma a `;` text's numbers are written with: 37,5 and 1.000 read as 37.5 and 1000", async () => {
    const points = await evaluatedLines(
      inventory(
        "points.csv",
        `${header.replaceAll(";", ",")}\nserver,2,platform_compute_medium,FRA,8760,37.5,\nserver,1,platform_compute_medium,FRA,1000,50,1500\n`,
      ),
      join(scratch, "points.out.csv"),
    );
    const file = inventory(
      "commas.csv",
      `${header}\nserver;2;platform_compute_medium;FRA;8760;37,5;\nserver;1;platform_compute_medium;FRA;1.000;50;1.500\n`,
    );
    const commas = await evaluatedLines(file, join(scratch, "commas.out.csv"));
    expect(commas.lines.map((line) => line.status)).toEqual(["evaluated", "evaluated"]);
    expect(impacts(commas.lines)).toEqual(impacts(points.lines));
    // As written in the input's columns
    expect(commas.lines[0].time_workload).toBe("37,5");
    expect(commas.stderr).toContain(
      `${file}: columns separated by ';'; numbers (quantity, hours, time_workload, ram_capacity) read with ',' as the decimal mark (12,5; 1.234,56 is 1234.56), as its first lines write them\n`,
    );
  });

  it("is the point when a `;` text's first rows write more numbers so; a cell of the other mark is a bad row", async () => {
    const file = inventory(
      "semicolon-points.csv",
      `${header}\nserver;2;platform_compute_medium;FRA;8760;37.5;\nserver;1;platform_compute_medium;FRA;1000;12.5;\nserver;1;platform_compute_medium;FRA;1000;50,5;\n`,
    );
    const read = await runMain(["evaluate", file, "-o", join(scratch, "semicolon-points.out.csv")]);
    expect(read.stderr).toContain(
      "numbers (quantity, hours, time_workload, ram_capacity) read with '.' as the decimal mark (12.5), as its first lines write them",
    );
    expect(read.stderr).toContain('line 4: bad row: time_workload is not a number: "50,5"');
    const commas = inventory(
      "semicolon-commas.csv",
      `${header}\nserver;2;platform_compute_medium;FRA;8760;37,5;\nserver;1;platform_compute_medium;FRA;1000;2,5;\nserver;1;platform_compute_medium;FRA;1000;12.5;\n`,
    );
    const other = await runMain(["evaluate", commas, "-o", join(scratch, "semicolon-commas.out.csv")]);
    expect(other.stderr).toContain(
      "line 4: bad row: time_workload is not a number written with ',' as the decimal mark (12,5 or 1.234,56), as the file writes them: \"12.5\"",
    );
  });

  it("is told before any row goes on, the rows and their bad rows kept in the file's order", async () => {
    const rows = [
      "server;1;platform_compute_medium;FRA;8760;1,5;",
      "server;1;platform_compute_medium;FRA;8760;50;;too;many",
      "laptop;2;;DEU;;;",
    ];
    const file = inventory("ordered.csv", `${header}\n${rows.join("\n")}\n`);
    const read = await runMain(["evaluate", file, "-o", join(scratch, "ordered.out.csv")]);
    expect(read.stderr).toContain("line 3: bad row: 9 cells where the header has 7");
    const written = readFileSync(join(scratch, "ordered.out.csv"), "utf8").trim().split("\n");
    expect(written.slice(1).map((line) => line.split(",")[0])).toEqual(["server", "server", "laptop"]);
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
