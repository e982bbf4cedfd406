/**
 * The /evaluate page of the service as `npm start` runs it: the server's bundle in a process of
 * its own (SERVER_BUNDLE, scripts/build.ts's build), which runs the command's bundle beside it for
 * each file (CLI_BUNDLE; the bin through tsx is test/cli/bin.test.ts's). In headless Chromium
 * (Debian's `chromium`, driven by playwright-core): a person chooses an inventory, drops a FOCUS
 * export, sees the command's summary and report and downloads the output and the report — each
 * byte equal to what `impact-service evaluate` writes for the same file; a file over a bound and a
 * malformed file get their sentence on the page; a client that leaves mid-run leaves no temporary
 * folder. Every wait is on a page condition or the folder's content, never a duration.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import ExcelJS from "exceljs";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CLI_BUNDLE } from "../support/bundle.js";
import { headlessChromium } from "../support/chromium.js";
import { firstLine, postFrom } from "../support/clientAddress.js";
import { portOf, startService } from "../support/process.js";

const WAIT_MS = 120_000;
const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const INVENTORY = join(ROOT, "examples/inventory.csv");
const FOCUS = join(ROOT, "test/fixtures/billing/focus-whole-bill.csv");

/**
 * An inventory whose run lasts seconds past its first `running` event (one a second): 150,000
 * rows, which the bundled command evaluates at about 13,000 a second on the 2-core machine, after
 * its start. The tests that use it end the run long before its end.
 */
const LONG_RUN = `kind,usage_location,quantity\n${"server,FRA,1\n".repeat(150_000)}`;

let service: ReturnType<typeof startService>;
let server: { readonly url: string };
let browser: BrowserContext;
/** The service's temporary folder (its TMPDIR): the runs' folders go there. */
let temporary: string;
let work: string;
/** The service's "listening on …" line: it says which command /evaluate runs. */
let listening: string;
/**
 * The day both the page's runs and the command's are dated (2026-01-01 UTC): a report says the
 * day it was written, and a run either side of midnight would otherwise differ from the other.
 */
const SOURCE_DATE_EPOCH = "1767225600";

beforeAll(async () => {
  temporary = mkdtempSync(join(tmpdir(), "evaluate-page-tmp-"));
  work = mkdtempSync(join(tmpdir(), "evaluate-page-cli-"));
  // Every line logged, to check that none holds a file's content.
  service = startService({ LOG_LEVEL: "debug", TMPDIR: temporary, SOURCE_DATE_EPOCH });
  [listening] = await service.waitFor(/^listening on /);
  server = { url: `http://127.0.0.1:${portOf(listening)}` };
  browser = await headlessChromium(true);
}, WAIT_MS);

afterAll(async () => {
  await browser?.close();
  service?.killAll();
  for (const dir of [temporary, work]) if (dir) rmSync(dir, { recursive: true, force: true });
});

const runFolders = () => readdirSync(temporary).filter((name) => name.startsWith("impact-evaluate-"));

/** What the command line writes for `file` (copied under its own name: the summary names it). */
function commandLine(file: string, args: readonly string[]) {
  const dir = mkdtempSync(join(work, "run-"));
  copyFileSync(file, join(dir, basename(file)));
  mkdirSync(join(dir, "out"));
  const stem = basename(file).replace(/\.(csv|xlsx)$/, "");
  const output = `out/${stem}-impacts.csv`;
  const { stderr } = spawnSync(
    process.execPath,
    [
      // The command's bundle, which the page's server runs for each file.
      join(ROOT, CLI_BUNDLE),
      "evaluate",
      basename(file),
      "-o",
      output,
      "--report",
      "out/report.html",
      ...args,
    ],
    {
      cwd: dir,
      env: { ...process.env, SOURCE_DATE_EPOCH },
      stdio: ["ignore", "ignore", "pipe"],
      encoding: "utf8",
    },
  );
  return {
    output: readFileSync(join(dir, output)),
    report: readFileSync(join(dir, "out/report.html")),
    summary: stderr,
  };
}

/** The summary without its timing (`in 0.1 s, 183 rows/s` differs between two runs). */
const untimed = (summary: string) => summary.replace(/ in [\d.]+ s, [\d.]+ rows\/s/g, "");

async function openPage(): Promise<Page> {
  const page = await browser.newPage();
  await page.goto(`${server.url}/evaluate`);
  return page;
}

/** Drops `content` as a file named `name` on the page's drop zone, as a person's drag would. */
async function drop(page: Page, name: string, content: string | { zeros: number } | { base64: string }) {
  await page.evaluate(
    ([fileName, text]) => {
      const transfer = new DataTransfer();
      const bytes =
        typeof text === "string"
          ? [text]
          : "zeros" in text
            ? [new Uint8Array(text.zeros)]
            : [Uint8Array.from(atob(text.base64), (c) => c.charCodeAt(0))];
      transfer.items.add(new File(bytes, fileName));
      document
        .getElementById("drop")
        ?.dispatchEvent(new DragEvent("drop", { dataTransfer: transfer, bubbles: true }));
    },
    [name, content] as const,
  );
}

async function evaluated(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Evaluate" }).click();
  await page.waitForSelector("#results:not([hidden])", { timeout: WAIT_MS });
  // The report shows first; the run is done once the output and the summary have arrived.
  await page.waitForFunction(() => /^Done/.test(document.getElementById("status")?.textContent ?? ""), null, {
    timeout: WAIT_MS,
  });
}

async function downloaded(page: Page, role: "output" | "report"): Promise<Buffer> {
  const [download] = await Promise.all([
    page.waitForEvent("download"),
    page.click(`#downloads a[data-role=${role}]`),
  ]);
  return Buffer.concat(await (await download.createReadStream()).toArray());
}

describe("the /evaluate page", () => {
  it("runs the command's bundle beside the server's, and says so on its start-up line", () => {
    expect(listening).toContain(`/evaluate runs the bundled command ${join(ROOT, CLI_BUNDLE)}`);
  });

  it("is linked from the start page", async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.getByRole("link", { name: "Evaluate a file" }).click();
    await page.waitForSelector("#drop");
    expect(new URL(page.url()).pathname).toBe("/evaluate");
    await page.close();
  });

  it(
    "without an edition chosen, gives the bytes the command gives without --edition: an inventory and a bill",
    async () => {
      // A person who chooses nothing on either side: one default for new work (newWorkEdition).
      for (const [file, name] of [
        [INVENTORY, "inventory.csv"],
        [FOCUS, "focus-whole-bill.csv"],
      ] as const) {
        const page = await openPage();
        await drop(page, name, readFileSync(file, "utf8"));
        await evaluated(page);
        const cli = commandLine(file, []);
        expect(untimed(cli.summary)).toMatch(
          name === "inventory.csv" ? /: 19 rows \(19 ok/ : /edition 2\.5\.0\n/,
        );
        expect(untimed(String(await page.textContent("#summary")))).toBe(untimed(cli.summary));
        expect(await downloaded(page, "output"), name).toEqual(cli.output);
        expect(await downloaded(page, "report"), name).toEqual(cli.report);
        await page.close();
      }
    },
    WAIT_MS,
  );

  it(
    "evaluates a chosen inventory: the command's summary, output and report, byte for byte",
    async () => {
      const page = await openPage();
      await page.setInputFiles("#file", INVENTORY);
      await page.selectOption("select[name=edition]", "2.4.1");
      await evaluated(page);
      const cli = commandLine(INVENTORY, [
        "--format",
        "csv",
        "--edition",
        "2.4.1",
        "--criteria",
        "gwp,adp,pe",
      ]);
      expect(untimed(await page.textContent("#summary").then(String))).toBe(untimed(cli.summary));
      expect(await downloaded(page, "output")).toEqual(cli.output);
      expect(await downloaded(page, "report")).toEqual(cli.report);
      // The report shown is the command's: its rows are the inventory's 19.
      const frame = page.frameLocator("#report");
      await expect.poll(() => frame.locator("body").textContent(), { timeout: WAIT_MS }).toContain("19");
      await page.close();
    },
    WAIT_MS,
  );

  it(
    "shows the report in a sandboxed frame: its scripts run in an origin of their own, never the service's",
    async () => {
      const page = await openPage();
      await page.setInputFiles("#file", INVENTORY);
      await evaluated(page);
      const frame = page.frames().find((f) => f !== page.mainFrame());
      if (frame === undefined) throw new Error("no report frame");
      // Its charts drawn (its scripts ran), its height told to the page
      await expect
        .poll(() => frame.evaluate(() => document.body.dataset.charts ?? null), { timeout: WAIT_MS })
        .not.toBeNull();
      await expect
        .poll(() => page.evaluate(() => document.getElementById("report")?.style.height ?? ""), {
          timeout: WAIT_MS,
        })
        .toMatch(/^\d+px$/);
      expect(await page.getAttribute("#report", "sandbox")).toBe("allow-scripts");
      expect(await frame.evaluate(() => window.origin)).toBe("null");
      // Neither reaches the other: the page, the report's document; the report, the page's and its storage
      expect(
        await page.evaluate(() => (document.getElementById("report") as HTMLIFrameElement).contentDocument),
      ).toBeNull();
      expect(
        await frame.evaluate(() => {
          const reached: string[] = [];
          try {
            reached.push(window.parent.document.title);
          } catch {}
          try {
            reached.push(String(window.localStorage.length));
          } catch {}
          try {
            reached.push(document.cookie);
          } catch {}
          return reached;
        }),
      ).toEqual([]);
      await page.close();
    },
    WAIT_MS,
  );

  it(
    "evaluates a dropped Excel workbook inventory as the command does",
    async () => {
      // The first rows of examples/inventory.csv, numbers as numbers, in a workbook's first sheet.
      const [header, ...rows] = readFileSync(INVENTORY, "utf8").trim().split("\n").slice(0, 4);
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet("assets");
      sheet.addRow(header.split(","));
      for (const row of rows) {
        sheet.addRow(
          row
            .split(",")
            .map((cell) => (cell === "" ? null : Number.isNaN(Number(cell)) ? cell : Number(cell))),
        );
      }
      const file = join(mkdtempSync(join(work, "book-")), "assets.xlsx");
      await workbook.xlsx.writeFile(file);
      const page = await openPage();
      await drop(page, "assets.xlsx", { base64: readFileSync(file).toString("base64") });
      await evaluated(page);
      // The page preselects the edition for new work (docs/editions.md), as `--edition` names it.
      const cli = commandLine(file, ["--format", "csv", "--edition", "2.5.0", "--criteria", "gwp,adp,pe"]);
      expect(untimed(await page.textContent("#summary").then(String))).toBe(untimed(cli.summary));
      expect(untimed(cli.summary)).toContain("assets.xlsx: 3 rows (3 ok, 0 errors");
      expect(await downloaded(page, "output")).toEqual(cli.output);
      await page.close();
    },
    WAIT_MS,
  );

  it(
    "evaluates a dropped FOCUS export: the totals the command prints, its lines and its report",
    async () => {
      const page = await openPage();
      await drop(page, "focus-whole-bill.csv", readFileSync(FOCUS, "utf8"));
      await page.selectOption("select[name=edition]", "2.4.1");
      await page.uncheck("input[name=criterion][value=pe]");
      await evaluated(page);
      const cli = commandLine(FOCUS, ["--format", "csv", "--edition", "2.4.1", "--criteria", "gwp,adp"]);
      const summary = String(await page.textContent("#summary"));
      expect(summary).toBe(cli.summary);
      // Worked figures of the fixture (README, "A cloud bill"): the page shows the command's totals.
      // Figures as the report writes them (four significant, thousands separated).
      expect(summary).toContain("gwp embedded: 22.51 kgCO2eq");
      expect(summary).toContain(
        "coverage: 26 of 31 lines estimated; 1,187 of 1,237 USD positive cost (95.9 %)",
      );
      expect(await downloaded(page, "output")).toEqual(cli.output);
      const report = await downloaded(page, "report");
      expect(report.toString("utf8")).toContain("2026-01-01");
      expect(report).toEqual(cli.report);
      await page.close();
    },
    WAIT_MS,
  );

  it(
    "says why a file over a bound is refused: bytes on the page, lines by the service",
    async () => {
      const page = await openPage();
      await drop(page, "huge.csv", { zeros: 51 * 1024 * 1024 });
      await page.getByRole("button", { name: "Evaluate" }).click();
      await expect
        .poll(() => page.textContent("#status"), { timeout: WAIT_MS })
        .toContain("The file exceeds 50 MiB (the page's bound): huge.csv is 51.0 MiB.");
      expect(await page.textContent("#instead-command")).toMatch(
        /^npx impact-service evaluate huge\.csv --edition /,
      );
      await drop(page, "long.csv", `kind,quantity\n${"server,1\n".repeat(200_001)}`);
      await page.getByRole("button", { name: "Evaluate" }).click();
      await expect
        .poll(() => page.textContent("#status"), { timeout: WAIT_MS })
        .toBe("Refused: the file has more than 200,000 lines (the page's bound)");
      // Beside the bound, the command line that runs the same file with no bound but the machine's
      const edition = await page.inputValue('select[name="edition"]');
      expect(await page.isVisible("#instead")).toBe(true);
      expect(await page.textContent("#instead-command")).toBe(
        `npx impact-service evaluate long.csv --edition ${edition} -o long-impacts.csv --report long-report.html`,
      );
      expect(runFolders()).toEqual([]);
      await page.close();
    },
    WAIT_MS,
  );

  it(
    "offers the command line only past a bound: an image or an empty file, which the command refuses too, gets none",
    async () => {
      const page = await openPage();
      const png = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex").toString("base64");
      // Refused by its name's ending (422), by its emptiness (422), by the command (an image named .csv)
      for (const [name, content] of [
        ["real.png", { base64: png }],
        ["empty.csv", ""],
        ["image.csv", { base64: png }],
      ] as const) {
        await drop(page, name, content);
        await page.getByRole("button", { name: "Evaluate" }).click();
        await expect.poll(() => page.getAttribute("#status", "class"), { timeout: WAIT_MS }).toBe("refused");
        await page.waitForFunction(
          () => !(document.querySelector("button[name=run]") as HTMLButtonElement).disabled,
        );
        expect(await page.textContent("#status"), name).toMatch(/^Refused: /);
        expect(await page.isVisible("#instead"), name).toBe(false);
        await page.evaluate(() => {
          const status = document.getElementById("status") as HTMLElement;
          status.className = "";
        });
      }
      expect(runFolders()).toEqual([]);
      await page.close();
    },
    WAIT_MS,
  );

  it(
    "bounds a file's lines as its first bytes tell it: a gzip named .csv by its inflated lines, whatever its chunks",
    async () => {
      // 3.5 KB of gzip standing for 200,001 lines: named .csv, it was counted as the compressed bytes
      const bomb = gzipSync(`kind,quantity\n${"server,1\n".repeat(200_001)}`);
      // Whole, and in chunks that cut the gzip mark itself
      const chunked = () =>
        Readable.toWeb(Readable.from([bomb.subarray(0, 1), bomb.subarray(1, 3), bomb.subarray(3)]));
      for (const body of [() => bomb, chunked]) {
        const answer = await fetch(`${server.url}/v1/evaluate?name=bomb.csv`, {
          method: "POST",
          body: body() as BodyInit,
          duplex: "half",
        } as RequestInit);
        expect(answer.status).toBe(413);
        expect(await answer.json()).toEqual({
          detail: "the file has more than 200,000 lines (the page's bound)",
        });
      }
      expect(runFolders()).toEqual([]);
    },
    WAIT_MS,
  );

  it(
    "refuses a ZIP archive named as another file: only one named .zip is checked as a bill's parts",
    async () => {
      // What the command would unpack (src/support/zipArchive.ts), here named as a CSV
      const answer = await fetch(`${server.url}/v1/evaluate?name=report-00001.csv`, {
        method: "POST",
        body: Buffer.from("PK\x03\x04\x14\x00\x00\x00\x08\x00", "latin1"),
      });
      expect(answer.status).toBe(415);
      expect(await answer.json()).toEqual({
        detail:
          "the file is a ZIP archive named as another file: name it .zip (its files are read as one bill's parts)",
      });
      expect(runFolders()).toEqual([]);
    },
    WAIT_MS,
  );

  it(
    "says why a malformed file is refused: the command's own line",
    async () => {
      const page = await openPage();
      await drop(page, "bill.parquet", "not a parquet file\n");
      await page.getByRole("button", { name: "Evaluate" }).click();
      await expect
        .poll(() => page.textContent("#status"), { timeout: WAIT_MS })
        // Named .parquet but text: read by its content, and named as neither a bill nor an inventory.
        .toContain("Refused: bill.parquet: neither a billing export nor an inventory");
      // gzip's mark, then no gzip: told by its bytes (a plain text named .gz is read as text)
      await drop(page, "bill.csv.gz", {
        base64: Buffer.from("\x1f\x8bnot gzip\n", "latin1").toString("base64"),
      });
      await page.getByRole("button", { name: "Evaluate" }).click();
      await expect
        .poll(() => page.textContent("#status"), { timeout: WAIT_MS })
        .toContain("Refused: the gzip file is damaged or cut short");
      await page.close();
    },
    WAIT_MS,
  );

  it(
    "keeps no temporary file once a client leaves mid-run",
    async () => {
      const page = await openPage();
      await page.setInputFiles("#file", {
        name: "servers.csv",
        mimeType: "text/csv",
        buffer: Buffer.from(LONG_RUN),
      });
      await page.getByRole("button", { name: "Evaluate" }).click();
      await expect
        .poll(() => page.textContent("#status"), { timeout: WAIT_MS })
        .toMatch(/^\d+ % · Evaluating servers\.csv…/);
      expect(runFolders()).toHaveLength(1);
      await page.close();
      await vi.waitFor(() => expect(runFolders()).toEqual([]), { timeout: WAIT_MS, interval: 50 });
    },
    WAIT_MS,
  );

  it(
    "admits two files at once, one a client, and refuses a third with its sentence, while they run",
    async () => {
      const port = portOf(listening);
      const post = (from: string) =>
        postFrom(from, port, "/v1/evaluate?name=servers.csv&criteria=gwp", LONG_RUN);
      const running = await Promise.all([post("127.0.0.1"), post("127.0.0.2")]);
      // Each has started its run (its first event): both are admitted and running.
      for (const answer of running) expect(await firstLine(answer)).toMatch(/^\{"event":"running"/);
      const third = await post("127.0.0.3");
      expect(third.status).toBe(503);
      expect(third.headers["retry-after"]).toBe("10");
      expect(JSON.parse(await third.text())).toEqual({
        detail: "as many files as the service evaluates at once are running: try again in a minute",
      });
      for (const answer of running) answer.body.destroy();
      await vi.waitFor(() => expect(runFolders()).toEqual([]), { timeout: WAIT_MS, interval: 50 });
      // Admission given back: a new file runs.
      const again = await post("127.0.0.3");
      expect(again.status).toBe(200);
      again.body.destroy();
      await vi.waitFor(() => expect(runFolders()).toEqual([]), { timeout: WAIT_MS, interval: 50 });
    },
    WAIT_MS,
  );

  it(
    "evaluates BigQuery's gzipped JSON export sent to its route, as the command does",
    async () => {
      const file = join(ROOT, "test/fixtures/billing/gcp-bigquery-standard.json.gz");
      const answer = await fetch(`${server.url}/v1/evaluate?name=bill.json.gz&criteria=gwp&edition=2.4.1`, {
        method: "POST",
        body: readFileSync(file),
      });
      expect(answer.status).toBe(200);
      const events = (await answer.text())
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as { event: string; exitCode?: number; summary?: string });
      const done = events.find((event) => event.event === "done");
      expect(done?.exitCode).toBe(0);
      const cli = commandLine(file, ["--format", "csv", "--edition", "2.4.1", "--criteria", "gwp"]);
      expect(done?.summary).toBe(cli.summary.replaceAll(basename(file), "bill.json.gz"));
      expect(done?.summary).toContain("Google Cloud billing export (BigQuery, standard)");
    },
    WAIT_MS,
  );

  it("logs no content of the files it was sent", () => {
    const logged = JSON.stringify(service.records);
    expect(service.records.some((line) => line.path === "/v1/evaluate")).toBe(true);
    // Names and figures of the fixtures' lines: an account, a service, a resource, a row.
    for (const content of ["team-od", "AmazonCloudWatch", "vm-1", "kind,quantity", "22.50735094"]) {
      expect(logged).not.toContain(content);
    }
  });

  it(
    "serves the documents so that a phone never scrolls sideways: wide code blocks scroll in their box",
    async () => {
      const page = await browser.newPage();
      await page.setViewportSize({ width: 390, height: 844 });
      const root = await (await fetch(server.url)).text();
      const pages = [...root.matchAll(/href="(\/(?:README|docs\/[a-z-]+|bench\/README))"/g)].map((m) => m[1]);
      expect(pages).toEqual(expect.arrayContaining(["/README", "/docs/billing", "/docs/limits"]));
      const wide: string[] = [];
      let scrolling = 0;
      for (const path of new Set(pages)) {
        await page.goto(`${server.url}${path}`);
        const read = await page.evaluate(() => ({
          page: document.scrollingElement?.scrollWidth ?? 0,
          blocks: [...document.querySelectorAll("pre")].map((pre) => ({
            wide: pre.scrollWidth > pre.clientWidth,
            scrolls: getComputedStyle(pre).overflowX === "auto",
          })),
          images: [...document.querySelectorAll("img")].map((img) => img.complete && img.naturalWidth > 0),
        }));
        if (read.page > 390) wide.push(`${path}: ${read.page} px`);
        scrolling += read.blocks.filter((block) => block.wide && block.scrolls).length;
        expect(
          read.blocks.every((block) => block.scrolls),
          path,
        ).toBe(true);
        expect(read.images.every(Boolean), `${path}: an image did not load`).toBe(true);
      }
      expect(wide).toEqual([]);
      // Wide code blocks exist and scroll (rather than being cut or widening the page).
      expect(scrolling).toBeGreaterThan(10);
      await page.close();
    },
    WAIT_MS,
  );

  // Last: the service stops (SIGTERM, as `docker stop` sends it).
  it(
    "ends its runs when the service stops: children killed, folders removed",
    async () => {
      const body = LONG_RUN;
      const answer = await fetch(`${server.url}/v1/evaluate?name=servers.csv&criteria=gwp`, {
        method: "POST",
        body,
      });
      const reader = answer.body?.getReader();
      expect(new TextDecoder().decode((await reader?.read())?.value)).toMatch(/^\{"event":"running"/);
      expect(runFolders()).toHaveLength(1);
      service.child.kill("SIGTERM");
      await vi.waitFor(() => expect(runFolders()).toEqual([]), { timeout: WAIT_MS, interval: 50 });
      // The answer ends without a `done`: the run did not finish.
      let rest = "";
      for (let part = await reader?.read(); part && !part.done; part = await reader?.read()) {
        rest += new TextDecoder().decode(part.value);
      }
      expect(rest).not.toContain('"event":"done"');
    },
    WAIT_MS,
  );
});
