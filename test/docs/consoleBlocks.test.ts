/**
 * Every console block of README.md and docs/*.md run as written (issue 88): each `$ ` command,
 * in order, by bash in a scratch folder of its page (the checkout's folders a command names linked
 * into it: `examples/`, `test/`, `node_modules/`…; the files a block makes, made there), its output
 * (stdout and stderr as a terminal shows them) held to what the text shows under it. The one
 * change to a command: the service it asks (`localhost:8080`, `npm start`'s) is the one this test
 * starts, on a free port. What the text shows is matched with its line breaks and indentation
 * aside (a page wraps a long JSON answer), `…` standing for any text (a column cut, lines left
 * out); a command showing no output must succeed, and every one must end with exit 0.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { portOf, startService } from "../support/process.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const WAIT_MS = 300_000;
/** The checkout's entries a scratch folder links: what the pages' commands read and run. */
const LINKED = [
  "package.json",
  "node_modules",
  "bin",
  "dist",
  "src",
  "sql",
  "data",
  "examples",
  "test",
  "schema",
];

/** A console block's commands, each with the output the text shows under it (null: none). */
interface Step {
  readonly command: string;
  readonly shown: string | null;
}

/** Whether bash reads `text` as whole commands (no quote left open, no line continued). */
function whole(text: string): boolean {
  if (/\\$/.test(text)) return false;
  return spawnSync("bash", ["-n", "-c", text]).status === 0;
}

/** The steps of a console block's text. */
function stepsOf(block: string): Step[] {
  const steps: { command: string; shown: string[] }[] = [];
  let open: string | null = null;
  for (const line of block.split("\n")) {
    if (open !== null) {
      open = `${open}\n${line}`;
      if (whole(open)) {
        steps.push({ command: open, shown: [] });
        open = null;
      }
    } else if (line.startsWith("$ ")) {
      const command = line.slice(2);
      if (whole(command)) steps.push({ command, shown: [] });
      else open = command;
    } else if (steps.length > 0) steps[steps.length - 1].shown.push(line);
  }
  if (open !== null) throw new Error(`a command never ends: ${open}`);
  return steps.map(({ command, shown }) => {
    const text = shown.join("\n").trim();
    return { command, shown: text === "" ? null : text };
  });
}

/** Whether `output` is what `shown` shows: line breaks and indentation aside, `…` any text. */
function shows(output: string, shown: string): boolean {
  const flat = (text: string) =>
    text
      .replace(/\r/g, "")
      .replace(/\n[ \t]*/g, "")
      .trim();
  const pieces = flat(shown)
    .split("…")
    .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  return new RegExp(`^${pieces.join("[\\s\\S]*?")}$`).test(flat(output));
}

/** The console blocks of a page, in order. */
function blocksOf(page: string): string[] {
  const text = readFileSync(join(ROOT, page), "utf8");
  return [...text.matchAll(/^```console\n([\s\S]*?)^```$/gm)].map((match) => match[1]);
}

const PAGES = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
].filter((page) => blocksOf(page).length > 0);

let service: ReturnType<typeof startService>;
let address = "";
const scratches: string[] = [];

beforeAll(async () => {
  service = startService({});
  const [listening] = await service.waitFor(/^listening on /);
  address = `127.0.0.1:${portOf(listening)}`;
}, WAIT_MS);

afterAll(() => {
  service?.killAll();
  for (const scratch of scratches) rmSync(scratch, { recursive: true, force: true });
});

/** A scratch folder with the checkout's entries linked in. */
function scratchFolder(): string {
  const scratch = mkdtempSync(join(tmpdir(), "console-blocks-"));
  scratches.push(scratch);
  for (const entry of LINKED) symlinkSync(join(ROOT, entry), join(scratch, entry));
  return scratch;
}

describe("the console helpers", () => {
  it("read a command over several lines and what it shows", () => {
    expect(stepsOf("$ echo 'a\n  b'\na\n  b\n$ true\n")).toEqual([
      { command: "echo 'a\n  b'", shown: "a\n  b" },
      { command: "true", shown: null },
    ]);
    expect(shows('{"a":1,\n  "b":2}\n', '{"a":1,"b":2}')).toBe(true);
    expect(shows("x,y,z\nsummary line\nmore\n", "x,…,z\n…")).toBe(true);
    expect(shows("x,y,z\n", "x,y")).toBe(false);
  });
});

/** The environment of the commands: the test's, no EDITION (each page says which edition it runs in). */
const { EDITION: _edition, ...environment } = process.env;

describe.each(PAGES)("the console blocks of %s", (page) => {
  let scratch = "";
  beforeAll(() => {
    scratch = scratchFolder();
  });
  it.each(blocksOf(page).map((block, index) => [index + 1, block] as const))(
    "block %i runs as written and shows what the text shows",
    (_, block) => {
      for (const step of stepsOf(block)) {
        const command = step.command.replaceAll("localhost:8080", address);
        const run = spawnSync("bash", ["-c", `{ ${command}\n} 2>&1`], {
          cwd: scratch,
          encoding: "utf8",
          env: { ...environment, LOG_LEVEL: "silent" },
          timeout: WAIT_MS,
          maxBuffer: 64 * 1024 * 1024,
        });
        expect(run.status, `${step.command}\n${run.stdout}`).toBe(0);
        if (step.shown !== null)
          expect(
            shows(run.stdout, step.shown),
            `${step.command}\n--- ran:\n${run.stdout}\n--- shown:\n${step.shown}`,
          ).toBe(true);
      }
    },
    WAIT_MS,
  );
});
