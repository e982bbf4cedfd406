/**
 * The files `impact-service evaluate` is given: the file named is the file read (never a glob
 * pattern), -o never the input, a FIFO or a device written into and left what it is, a symbolic
 * link's target written, formula-like cells written as text, a stray quote costing its own line,
 * and options read alike before and after the file. The command's function (`runMain`) where a
 * test reads only what it writes (the arguments reach it as they reach the bin: no shell expands
 * them); the bin's process (`runCli`) where a FIFO is written, read by another party meanwhile.
 */
import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  createReadStream,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, runMain } from "../support/cli.js";
import { FORMULAS } from "../support/formulaCells.js";

/** Each run loads an edition, and a bin's run starts a process: seconds on a busy 2-core machine. */
const SLOW = { timeout: 180_000 };
const FOCUS = "test/fixtures/billing/focus-1.0.csv";
const scratch = mkdtempSync(join(tmpdir(), "cli-files-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;
/** A fresh folder of the scratch one. */
function folder(): string {
  const path = join(scratch, `case-${folders++}`);
  mkdirSync(path);
  return path;
}

const rowsOf = (text: string) => parse(text, { columns: true }) as Record<string, string>[];
const INVENTORY = "kind,quantity,note\nlaptop,1,a\nlaptop,2,b\n";
/** The FOCUS fixture's header and its first `count` lines. */
const focusLines = (count: number) =>
  readFileSync(FOCUS, "utf8")
    .split("\n")
    .slice(0, count + 1)
    .join("\n")
    .concat("\n");

/** A FIFO's whole text, read by another party while the command writes it. */
function readFifo(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    createReadStream(path, "utf8")
      .on("data", (chunk) => {
        text += chunk;
      })
      .on("end", () => resolve(text))
      .on("error", reject);
  });
}

describe("the file named is the file read", () => {
  it(
    "reads a billing export named h[ab].csv, not ha.csv and hb.csv; a glob names no file",
    SLOW,
    async () => {
      const dir = folder();
      copyFileSync(FOCUS, join(dir, "ha.csv"));
      copyFileSync(FOCUS, join(dir, "hb.csv"));
      writeFileSync(join(dir, "h[ab].csv"), focusLines(3));
      const named = await runMain(["evaluate", join(dir, "h[ab].csv"), "--criteria", "gwp"]);
      expect(named.code, named.stderr).toBe(0);
      expect(rowsOf(named.stdout)).toHaveLength(3);
      expect(named.stderr).toContain("  rows read: 3\n");
      const glob = await runMain(["evaluate", join(dir, "h*.csv"), "--criteria", "gwp"]);
      expect(glob.code).toBe(2);
      expect(glob.stderr).toBe(`impact-service: ${join(dir, "h*.csv")}: no such file or folder\n`);
    },
  );

  it("reads an inventory named i[ab].csv, not ia.csv", SLOW, async () => {
    const dir = folder();
    writeFileSync(join(dir, "ia.csv"), `${INVENTORY}laptop,3,c\n`);
    writeFileSync(join(dir, "i[ab].csv"), "kind,quantity\nlaptop,1\n");
    const { code, stdout, stderr } = await runMain(["evaluate", join(dir, "i[ab].csv"), "--format", "csv"]);
    expect(code, stderr).toBe(0);
    expect(rowsOf(stdout).map((row) => row.status)).toEqual(["evaluated"]);
  });
});

describe("-o naming the input", () => {
  for (const [kind, text] of [
    ["an inventory", INVENTORY],
    ["a billing export", readFileSync(FOCUS, "utf8")],
  ] as const) {
    it(
      `is refused for ${kind}, by another spelling or a link: exit 2, the input untouched`,
      SLOW,
      async () => {
        const dir = folder();
        const input = join(dir, "input.csv");
        writeFileSync(input, text);
        symlinkSync(input, join(dir, "link.csv"));
        for (const output of [join(dir, ".", "input.csv"), join(dir, "link.csv")]) {
          const { code, stdout, stderr } = await runMain([
            "evaluate",
            input,
            "--format",
            "csv",
            "-o",
            output,
          ]);
          expect(code).toBe(2);
          expect(stderr).toBe(
            `impact-service: --output ${output} is the input ${input}: name another file; nothing written\n`,
          );
          expect(stdout).toBe("");
          expect(readFileSync(input, "utf8")).toBe(text);
        }
      },
    );
  }
});

describe("a folder", () => {
  it("as the input or -o is one line and exit 2, for an inventory and a billing export", SLOW, async () => {
    const dir = folder();
    const inventory = join(dir, "inventory.csv");
    writeFileSync(inventory, INVENTORY);
    const runs = await Promise.all([
      runMain(["evaluate", dir]),
      runMain(["evaluate", inventory, "-o", dir]),
      runMain(["evaluate", FOCUS, "-o", dir]),
    ]);
    expect(runs.map(({ code, stderr }) => [code, stderr])).toEqual([
      [2, `impact-service: ${dir}: a folder, not a file\n`],
      [2, `impact-service: --output ${dir}: a folder, not a file\n`],
      [2, `impact-service: ${dir}: a folder, not a file\n`],
    ]);
  });
});

describe("what is said first", () => {
  it("the run's terms before its files, for a billing export as for an inventory", SLOW, async () => {
    const dir = folder();
    const inventory = join(dir, "inventory.csv");
    writeFileSync(inventory, INVENTORY);
    const runs = await Promise.all([
      runMain(["evaluate", FOCUS, "--load", "150", "-o", dir]),
      runMain(["evaluate", inventory, "--criteria", "nope", "-o", dir]),
    ]);
    expect(runs.map(({ code }) => code)).toEqual([2, 2]);
    expect(runs[0].stderr).toBe("impact-service: load must be a percentage from 0 to 100, not 150\n");
    expect(runs[1].stderr).toMatch(/^impact-service: --criteria: nope is not a criterion of edition /);
  });
});

describe("-o naming what is not a regular file", () => {
  for (const [kind, input] of [
    ["an inventory", "inventory.csv"],
    ["a billing export", FOCUS],
  ] as const) {
    it(`writes ${kind}'s output into a FIFO, which stays a FIFO`, SLOW, async () => {
      const dir = folder();
      const source = input === FOCUS ? FOCUS : join(dir, input);
      if (source !== FOCUS) writeFileSync(source, INVENTORY);
      const fifo = join(dir, "out.csv");
      execFileSync("mkfifo", [fifo]);
      const [run, received] = await Promise.all([
        runCli(["evaluate", source, "--format", "csv", "--criteria", "gwp", "-o", fifo]),
        readFifo(fifo),
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(rowsOf(received)).toHaveLength(input === FOCUS ? 60 : 2);
      expect(lstatSync(fifo).isFIFO()).toBe(true);
    });
  }

  it.skipIf(process.getuid?.() !== 0)(
    "writes into a character device (null's numbers, made in a temporary folder), which stays one",
    SLOW,
    async () => {
      const device = join(folder(), "null");
      execFileSync("mknod", [device, "c", "1", "3"]);
      const { code, stderr } = await runMain(["evaluate", FOCUS, "--criteria", "gwp", "-o", device]);
      expect(code, stderr).toBe(0);
      expect(lstatSync(device).isCharacterDevice()).toBe(true);
    },
  );

  it("writes a symbolic link's target and keeps the link", SLOW, async () => {
    const dir = folder();
    const target = join(dir, "target.csv");
    writeFileSync(target, "old\n");
    const link = join(dir, "link.csv");
    symlinkSync(target, link);
    const { code, stderr } = await runMain(["evaluate", FOCUS, "--criteria", "gwp", "-o", link]);
    expect(code, stderr).toBe(0);
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(rowsOf(readFileSync(target, "utf8"))).toHaveLength(60);
  });
});

/** A CSV cell always quoted (as an export may write it). */
const quoted = (cell: string) => `"${cell.replaceAll('"', '""')}"`;

describe("formula-like text cells", () => {
  it("are written as text in an inventory's CSV, numbers as they are", SLOW, async () => {
    const dir = folder();
    const input = join(dir, "inventory.csv");
    writeFileSync(input, `kind,note\n${FORMULAS.map(([cell]) => `laptop,${quoted(cell)}`).join("\n")}\n`);
    const { code, stdout, stderr } = await runMain([
      "evaluate",
      input,
      "--format",
      "csv",
      "--criteria",
      "gwp",
    ]);
    expect(code, stderr).toBe(0);
    const rows = rowsOf(stdout);
    expect(rows.slice(0, FORMULAS.length).map((row) => row.note)).toEqual(
      FORMULAS.map(([, written]) => written),
    );
    expect(Number(rows[0].gwp_embedded_kgco2eq)).toBeGreaterThan(0);
  });

  it("are written as text in a billing export's CSV and its groups file", SLOW, async () => {
    const dir = folder();
    const [header, ...lines] = readFileSync(FOCUS, "utf8").trimEnd().split("\n");
    const input = join(dir, "export.csv");
    // Each line's sub-account is one of the formulas (a tag-like text anyone writes).
    const column = header.split(",").indexOf("SubAccountId");
    const tagged = lines.map((line, index) => {
      const cells = parse(line)[0] as string[];
      cells[column] = FORMULAS[index % FORMULAS.length][0];
      return cells.map(quoted).join(",");
    });
    writeFileSync(input, `${header}\n${tagged.join("\n")}\n`);
    const output = join(dir, "lines.csv");
    const run = await runMain([
      "evaluate",
      input,
      "--criteria",
      "gwp",
      "--group-by",
      "SubAccountId",
      "-o",
      output,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const written = rowsOf(readFileSync(output, "utf8"));
    expect(written.slice(0, FORMULAS.length).map((row) => row.SubAccountId)).toEqual(
      FORMULAS.map(([, text]) => text),
    );
    expect(written.some((row) => Number(row.gwp_use_kgco2eq) > 0)).toBe(true);
    const groups = rowsOf(readFileSync(join(dir, "lines.groups.csv"), "utf8")).map((row) => row.SubAccountId);
    const texts = FORMULAS.map(([, text]) => text);
    expect(groups.filter((group) => !texts.includes(group))).toEqual([]);
    expect(groups.length).toBeGreaterThan(1);
  });
});

describe("quotes in an inventory", () => {
  it(
    "reads a quote amid a cell as text; an unclosed quote costs its line, kept with its cells",
    SLOW,
    async () => {
      const input = join(folder(), "quotes.csv");
      writeFileSync(
        input,
        'kind,quantity,note\nlaptop,1,Dell P2419H 24" screen\nlaptop,2,"unclosed\nlaptop,3,after\nlaptop,4,"two\nlines"\n',
      );
      const { code, stdout, stderr } = await runMain([
        "evaluate",
        input,
        "--format",
        "csv",
        "--criteria",
        "gwp",
      ]);
      expect(code, stderr).toBe(0);
      expect(stderr.match(/^line .*/gm)).toEqual([
        "line 3: bad row: a quote opened on this line is not closed where a cell ends; the line is not read",
      ]);
      const rows = rowsOf(stdout);
      expect(rows.map((row) => [row.quantity, row.note, row.status])).toEqual([
        ["1", 'Dell P2419H 24" screen', "evaluated"],
        [
          "2",
          '"unclosed',
          "bad row: a quote opened on this line is not closed where a cell ends; the line is not read",
        ],
        ["3", "after", "evaluated"],
        ["4", "two\nlines", "evaluated"],
      ]);
    },
  );
});

describe("options before or after the file", () => {
  it("give the same run, for a billing export and an inventory; --help lists both kinds'", SLOW, async () => {
    const dir = folder();
    const inventory = join(dir, "inventory.csv");
    writeFileSync(inventory, INVENTORY);
    for (const input of [FOCUS, inventory]) {
      const before = join(dir, "before.csv");
      const after = join(dir, "after.csv");
      const first = await runMain(["evaluate", "-o", before, "--format", "csv", input, "--criteria", "gwp"]);
      const second = await runMain(["evaluate", input, "--criteria", "gwp", "--format", "csv", "-o", after]);
      expect([first.code, second.code], first.stderr + second.stderr).toEqual([0, 0]);
      expect(readFileSync(before, "utf8")).toBe(readFileSync(after, "utf8"));
      expect(rowsOf(readFileSync(after, "utf8"))[0].status).not.toMatch(/kind is missing/);
    }
    const help = await runMain(["evaluate", "--help"]);
    expect(help.code).toBe(0);
    expect(help.stderr).toBe("");
    for (const option of ["--load <percent>", "--instance-type-column", "--workers <n>", "--report"]) {
      expect(help.stdout).toContain(option);
    }
  });
});
