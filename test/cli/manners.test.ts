/**
 * The command line's manners (issue 77), each kind through the real process (the command's bundle,
 * as `npx impact-service` runs it; a pseudo-terminal from util-linux's `script` for progress), the
 * further cases of a kind through the command's function in this process (`runMain`: the same
 * code, its exit code, stdout and stderr, without a process start of about 1 s of CPU each):
 * --version and --help on stdout with exit 0; an unknown option, command or value answered in one
 * line with the nearest valid ones; every file error a sentence naming the file, never a system
 * code; an empty file refused in the /evaluate page's words; --criteria's typo answered with the
 * edition's criteria; progress on a terminal's stderr for every kind of input (a bill: its stage
 * and lines read), none in a pipe; counts with separators and figures scaled as the report scales
 * them, the exact values in the output.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { parse } from "csv-parse/sync";
import ExcelJS from "exceljs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EDITION_IDS } from "../../src/editions/index.js";
import { EMPTY_FILE } from "../../src/support/namedFiles.js";
import { SERVICE_VERSION } from "../../src/support/serviceVersion.js";
import { CLI_BUNDLE, COMPILE_CACHE } from "../support/bundle.js";
import { type CliRun, runCli, runMain } from "../support/cli.js";
import { listedOr } from "../support/editions.js";
import { startTestServer, type TestServer } from "../support/httpServer.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const INVENTORY = join(ROOT, "examples/inventory.csv");
const FOCUS = join(ROOT, "test/fixtures/billing/focus-whole-bill.csv");
const CUR = join(ROOT, "test/fixtures/billing/cur-whole-bill.csv");
const dir = mkdtempSync(join(tmpdir(), "cli-manners-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** How a test runs the command: its process (runCli) or its function (runMain). */
type Runner = (args: readonly string[]) => Promise<CliRun>;

/**
 * A run's one line on stderr, exit 2, nothing on stdout; run by `runner`: the command's function,
 * unless a test asks for its process (the first case of each kind).
 */
async function refused(args: readonly string[], runner: Runner = runMain): Promise<string> {
  const run = await runner(args);
  expect(run.code, run.stderr).toBe(2);
  expect(run.stdout).toBe("");
  expect(run.stderr.split("\n"), run.stderr).toHaveLength(2);
  expect(run.stderr).not.toMatch(
    /\b(ENOENT|ENOTDIR|EISDIR|EACCES)\b|\b(stat|lstat|open)\b '|^usage:|^ {4}at /m,
  );
  return run.stderr.slice(0, -1);
}

describe("what the command says of itself", () => {
  it("--version: its version and editions on stdout, exit 0", async () => {
    const run = await runCli(["--version"]);
    expect(run).toEqual({
      code: 0,
      stdout: `impact-service ${SERVICE_VERSION} (editions ${EDITION_IDS.join(", ")})\n`,
      stderr: "",
    });
  });

  it("--help, -h and each command's --help: the usage on stdout, exit 0", async () => {
    for (const [index, args] of [
      ["--help"],
      ["-h"],
      ["evaluate", "--help"],
      ["evaluate", "x.csv", "-h"],
    ].entries()) {
      const run = await (index === 0 ? runCli : runMain)(args);
      expect([run.code, run.stderr], args.join(" ")).toEqual([0, ""]);
      expect(run.stdout).toMatch(/^usage: impact-service evaluate <file \| -> \[options\]\n/);
      expect(run.stdout).toContain("impact-service --version");
    }
    for (const command of ["coefficients", "sql", "tables"]) {
      const run = await runMain([command, "--help"]);
      expect([run.code, run.stderr]).toEqual([0, ""]);
      expect(run.stdout).toMatch(new RegExp(`^usage: impact-service ${command} `));
    }
  });
});

describe("a command line it cannot read", () => {
  it("names the nearest option, command or value, in one line", async () => {
    expect(await refused(["evaluate", INVENTORY, "--edtion", "2.5.0"], runCli)).toBe(
      "impact-service: unknown option --edtion; did you mean --edition?",
    );
    expect(await refused(["evaluate", INVENTORY, "--ouput=x.csv"])).toBe(
      "impact-service: unknown option --ouput; did you mean --output?",
    );
    expect(await refused(["coefficients", "--critera", "gwp"])).toBe(
      "impact-service: unknown option --critera; did you mean --criteria?",
    );
    expect(await refused(["evalute", INVENTORY])).toBe(
      "impact-service: unknown command evalute; did you mean evaluate? (commands: evaluate, coefficients, sql, tables, scan; impact-service --help)",
    );
    expect(await refused([])).toBe(
      "impact-service: no command: impact-service evaluate <file> [options] evaluates an inventory or a billing export (impact-service --help lists the commands and options)",
    );
    expect(await refused(["evaluate", INVENTORY, "--edition"])).toBe(
      "impact-service: --edition needs a value: --edition <value>",
    );
    for (const file of [INVENTORY, FOCUS]) {
      expect(await refused(["evaluate", file, "--edition", "2.5"])).toBe(
        `impact-service: --edition is ${listedOr(EDITION_IDS)}, not 2.5; did you mean 2.5.0?`,
      );
    }
    expect(await refused(["evaluate", INVENTORY, "--input", "cvs"])).toBe(
      "impact-service: --input is csv, xlsx or ndjson for an inventory, not cvs; did you mean csv?",
    );
    expect(await refused(["evaluate", FOCUS, "--format", "parket", "-o", join(dir, "x.parquet")])).toBe(
      "impact-service: --format is csv or parquet, not parket; did you mean parquet?",
    );
    expect(await refused(["sql", "--engine", "trinno", "--header", FOCUS])).toBe(
      "impact-service: --engine is duckdb, spark, trino or bigquery, not trinno; did you mean trino?",
    );
  });

  it("lists the edition's criteria for a criterion it does not know, an inventory's and a bill's alike", async () => {
    const criteria =
      "gwp, adp, pe, gwppb, gwppf, gwpplu, ir, lu, odp, pm, pocp, wu, mips, adpe, adpf, ap, ctue, ctuh_c, ctuh_nc, epf, epm, ept, fw, fe";
    for (const file of [INVENTORY, FOCUS]) {
      expect(await refused(["evaluate", file, "--criteria", "gwpp"], file === FOCUS ? runCli : runMain)).toBe(
        `impact-service: --criteria: gwpp is not a criterion of edition 2.5.0; did you mean gwp, gwppb or gwppf? (its criteria: ${criteria})`,
      );
    }
    // 1.2.4 has no `fe`: its own list, without it.
    const old = await refused(["evaluate", INVENTORY, "--edition", "1.2.4", "--criteria", "gwp,fe"]);
    expect(old).toMatch(
      /^impact-service: --criteria: fe is not a criterion of edition 1\.2\.4; did you mean /,
    );
    expect(old).not.toMatch(/its criteria: .*\bfe\b/);
  });
});

describe("a file it cannot use", () => {
  beforeAll(() => {
    writeFileSync(join(dir, "a-file"), "kind\nlaptop\n");
    mkdirSync(join(dir, "folder"));
    writeFileSync(join(dir, "empty.csv"), "");
    writeFileSync(join(dir, "empty.parquet"), "");
  });

  it("is named in a sentence, never with a system code, before anything is written", async () => {
    const absent = join(dir, "absent.csv");
    expect(await refused(["evaluate", absent], runCli)).toBe(
      `impact-service: ${absent}: no such file or folder`,
    );
    expect(await refused(["evaluate", FOCUS, absent])).toBe(
      `impact-service: ${absent}: no such file or folder`,
    );
    const through = join(dir, "a-file", "inside.csv");
    expect(await refused(["evaluate", through])).toBe(
      `impact-service: ${through}: a part of its path is a file, not a folder`,
    );
    expect(await refused(["evaluate", join(dir, "folder")])).toBe(
      `impact-service: ${join(dir, "folder")}: a folder, not a file`,
    );
    const nowhere = join(dir, "no-folder", "out.csv");
    expect(await refused(["evaluate", INVENTORY, "-o", nowhere])).toBe(
      `impact-service: --output ${nowhere}: its folder ${join(dir, "no-folder")} does not exist`,
    );
    expect(await refused(["evaluate", INVENTORY, "--report", nowhere])).toBe(
      `impact-service: --report ${nowhere}: its folder ${join(dir, "no-folder")} does not exist`,
    );
    expect(await refused(["evaluate", FOCUS, "-o", nowhere])).toBe(
      `impact-service: --output ${nowhere}: its folder ${join(dir, "no-folder")} does not exist`,
    );
    expect(await refused(["coefficients", "-o", nowhere])).toBe(
      `impact-service: --output ${nowhere}: its folder ${join(dir, "no-folder")} does not exist`,
    );
  });

  describe("an empty file", () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer({ LOG_LEVEL: "silent" });
    });
    afterAll(() => server.close());

    it("is refused as the /evaluate page refuses it, whatever its name says it is", async () => {
      const page = await fetch(`${server.url}/v1/evaluate?name=empty.csv`, { method: "POST", body: "" });
      expect([page.status, await page.json()]).toEqual([422, { detail: EMPTY_FILE }]);
      for (const name of ["empty.csv", "empty.parquet"]) {
        expect(await refused(["evaluate", join(dir, name)], name === "empty.csv" ? runCli : runMain)).toBe(
          `impact-service: ${join(dir, name)}: ${EMPTY_FILE}`,
        );
      }
    });
  });
});

/** A run on a pseudo-terminal (util-linux's `script`): what the terminal shows, stdout and stderr together. */
function onTerminal(args: readonly string[]): { code: number | null; shown: string } {
  const quoted = [process.execPath, join(ROOT, CLI_BUNDLE), ...args]
    .map((arg) => `'${arg.replaceAll("'", "'\\''")}'`)
    .join(" ");
  const run = spawnSync("script", ["-q", "-e", "-c", quoted, "/dev/null"], {
    cwd: dir,
    env: { ...process.env, LOG_LEVEL: "silent", NODE_COMPILE_CACHE: COMPILE_CACHE },
    encoding: "utf8",
    timeout: 120_000,
  });
  return { code: run.status, shown: run.stdout };
}

/** The lines a terminal was drawn, each redraw (`\r`) a line of its own, escapes dropped. */
const drawn = (shown: string) =>
  shown
    .replaceAll("\u001b[K", "")
    .split(/\r\n|\r|\n/)
    .filter((line) => line !== "");

describe("progress", () => {
  beforeAll(async () => {
    const [header, ...rows] = readFileSync(INVENTORY, "utf8").trim().split("\n");
    // 2,000 rows: more than one chunk evaluated, so that the bar is drawn before the end.
    writeFileSync(
      join(dir, "many.csv"),
      [header, ...Array.from({ length: 100 }, () => rows).flat()].join("\n"),
    );
    const line = JSON.stringify({
      method: "GET",
      path: "/v1/cloud/instance?provider=aws&instance_type=m5.xlarge",
    });
    writeFileSync(join(dir, "batch.ndjson"), `${`${line}\n`.repeat(2_000)}`);
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("assets");
    sheet.addRow(["kind", "provider", "instance_type", "hours"]);
    for (let row = 0; row < 2_000; row += 1) sheet.addRow(["cloud", "aws", "m5.xlarge", 8760]);
    await workbook.xlsx.writeFile(join(dir, "book.xlsx"));
  });

  it("is drawn on a terminal for an inventory, a workbook and a batch: rows with separators", () => {
    for (const [file, rows] of [
      ["many.csv", "1,900"],
      ["book.xlsx", "2,000"],
      ["batch.ndjson", "2,000"],
    ]) {
      const { code, shown } = onTerminal(["evaluate", file, "-o", `${file}.out.csv`, "--format", "csv"]);
      expect(code, shown).toBe(0);
      const lines = drawn(shown);
      // The bar, redrawn in place, then the summary line.
      expect(
        lines.some((line) => / rows, [\d,]+ rows\/s/.test(line) && !line.includes("(")),
        shown,
      ).toBe(true);
      expect(lines.at(-1)).toMatch(new RegExp(`^${file}: ${rows} rows \\(${rows} ok, 0 errors`));
    }
  });

  it("is drawn on a terminal for a bill: its stages, then the lines read", () => {
    const { code, shown } = onTerminal(["evaluate", FOCUS, "-o", "bill.csv"]);
    expect(code, shown).toBe(0);
    const stages = drawn(shown).filter((line) => line.startsWith(`${FOCUS}: `));
    expect(stages[0]).toMatch(/: reading the export(, \d+ %)?, \d+ s$/);
    // The run's share, one figure never going back (a stage's queries each start from 0 %)
    const shares = stages.flatMap((line) => /, (\d+) %, \d+ s$/.exec(line)?.slice(1).map(Number) ?? []);
    expect(shares.length).toBeGreaterThan(0);
    for (let at = 1; at < shares.length; at++) expect(shares[at]).toBeGreaterThanOrEqual(shares[at - 1]);
    expect(stages.some((line) => / telling its lines apart(, \d+ %)?, \d+ s$/.test(line))).toBe(true);
    expect(
      stages.some((line) => / looking up their impacts, 31 lines read(, \d+ %)?, \d+ s$/.test(line)),
    ).toBe(true);
    // The line cleared, the summary follows.
    expect(drawn(shown).some((line) => line.startsWith("billing export "))).toBe(true);
  });

  it("names a bill as its summary names it: by its manifest", () => {
    // A legacy CUR in two gzip parts beside the manifest that names them
    const [header, ...lines] = readFileSync(CUR, "utf8").trimEnd().split("\n");
    const half = Math.ceil(lines.length / 2);
    const keys = ["report-00001.csv.gz", "report-00002.csv.gz"];
    keys.forEach((key, index) => {
      const part = [header, ...lines.slice(index * half, (index + 1) * half)].join("\n");
      writeFileSync(join(dir, key), gzipSync(`${part}\n`));
    });
    const manifest = {
      assemblyId: "a1",
      reportName: "report",
      billingPeriod: { start: "20261101T000000.000Z", end: "20261201T000000.000Z" },
      reportKeys: keys.map((key) => `cur/report/20261101-20261201/a1/${key}`),
    };
    writeFileSync(join(dir, "report-Manifest.json"), JSON.stringify(manifest));
    const { code, shown } = onTerminal(["evaluate", "report-Manifest.json", "-o", "manifest.csv"]);
    expect(code, shown).toBe(0);
    const summary = drawn(shown).find((line) => line.startsWith("billing export "));
    const name = summary?.slice("billing export ".length, summary.indexOf(": "));
    expect(name).toBe("report-Manifest.json (its 2 parts)");
    const stages = drawn(shown).filter((line) => line.startsWith(`${name}: `));
    expect(
      stages.some((line) => / looking up their impacts, \d+ lines read/.test(line)),
      shown,
    ).toBe(true);
  });

  it("is not drawn in a pipe: no carriage return, no escape", async () => {
    for (const file of [join(dir, "many.csv"), FOCUS]) {
      const run = await runCli(["evaluate", file, "-o", join(dir, "piped.csv")]);
      expect(run.code).toBe(0);
      expect(run.stderr.includes("\r") || run.stderr.includes("\u001b")).toBe(false);
    }
  });
});

describe("figures", () => {
  it("a bill's summary: counts separated, figures to four figures in the report's scale, exact in the output", async () => {
    const output = join(dir, "figures.csv");
    // What the command writes (stderr, the output), read from its function: the pipe's case is above
    const run = await runMain(["evaluate", FOCUS, "--edition", "2.4.1", "-o", output]);
    expect(run.code).toBe(0);
    // 22.50735094 kgCO2eq (edition 2.4.1: the /evaluate page's worked figure), adp in mgSbeq
    expect(run.stderr).toMatch(/^ {2}gwp embedded: 22\.51 kgCO2eq \(min [\d.]+, max [\d.]+\)$/m);
    expect(run.stderr).toMatch(/^ {2}adp embedded: [\d.,]+ mgSbeq /m);
    expect(run.stderr).toContain(
      "coverage: 26 of 31 lines estimated; 1,187 of 1,237 USD positive cost (95.9 %)",
    );
    const figures = run.stderr.split("\n").filter((line) => /^( {2}(gwp|adp|pe) |coverage: )/.test(line));
    expect(figures).toHaveLength(7);
    for (const line of figures) expect(line).not.toMatch(/\d{4}|\de-?\d/);
    // The exact values are the output's.
    const rows: Record<string, string>[] = parse(readFileSync(output, "utf8"), { columns: true });
    const exact = rows.reduce((sum, row) => sum + (Number(row.gwp_embedded_kgco2eq) || 0), 0);
    expect(exact).toBeCloseTo(22.50735094, 6);
  });
});
