/**
 * The reference docs (README.md and docs/*.md) describe the present in the words of the field.
 * A doc fails here, naming its file, line and word, when it:
 * - cites a commit hash (a 7–40 hex word that is an object of this repository, or that follows
 *   "commit" or "at"): the history of the code is git's and CHANGELOG.md's;
 * - dates what it says: a day of the project's own life (PROJECT_BEGAN to today), as a run's
 *   "on 2026-11-27" or a stamp "(2026-11-27)"; an earlier day is an example's data, a later one
 *   a date ahead;
 * - cites an issue ("issue 86", "#86", "issue's"): an issue is the project's work queue, not a
 *   reference a reader can open;
 * - uses one of the project's private words: room, floor, climb, stay, trip, spell (folder,
 *   layer, a call back to a higher layer, a module a value passes through, a run's files,
 *   written as…), outside code and the names of the scripts that keep them;
 * - holds a sentence of prose over MAX_SENTENCE_WORDS words (code blocks and tables aside).
 * Hashes and dates are history wherever they are written: in prose, in `inline code` and in code
 * blocks alike (a console block stamped `# on 2026-11-28` is a past run's record).
 * CHANGELOG.md is history by design. bench/README.md is the dated record of measurements, each
 * pinned to the commit it measured, and is not checked either.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/**
 * The longest sentence of prose a reference doc holds, in words. A sentence longer than this is
 * most often a paragraph joined by semicolons and dashes; the checked docs' longest is 58 words
 * (a sentence holding a list of names), where the unchecked ones reach 100 to 250.
 */
const MAX_SENTENCE_WORDS = 60;

/**
 * The day of the repository's first commit (`git log --reverse --format=%as | head -1`). A date
 * from it to today is a day of the project's history; one before it is a bill's or a series'
 * example data (`2024-01-01T00:00:00Z`), one after today a date ahead (a release's end of life).
 */
const PROJECT_BEGAN = "2026-11-22";

const DOCS = [
  "README.md",
  ...readdirSync(join(ROOT, "docs"))
    .filter((name) => name.endsWith(".md"))
    .sort()
    .map((name) => `docs/${name}`),
];

/** Lines of a doc read together, from line index `start`. */
interface Block {
  readonly start: number;
  readonly text: string;
}

/** One thing a doc should not say: where, what kind and the words themselves. */
interface Finding {
  readonly line: number;
  readonly kind: "commit" | "date" | "issue" | "private word" | "long sentence";
  readonly words: string;
}

const PRIVATE_WORDS =
  /\b(rooms?|floors?|climb(?:s|ed|ing)?|stay(?:s|ed|ing)?|trips?|spell(?:s|ed|ing|t)?)\b/gi;
/** "round trip" is the network's word, not the project's. */
const FIELD_PHRASES = /\bround[- ]trips?\b/gi;
const ISSUES = /\bissues?\s+#?\d+|\bissue's\b|(?<![\w&/])#\d+\b|\/issues\/\d+/gi;
const HEX_WORD = /(?<![\w-])[0-9a-f]{7,40}(?![\w-])/gi;
const COMMIT_CONTEXT = /\b(?:commits?|at|sha)\W{0,3}$/i;
const NAMED_COMMIT = /\b(?:commits?|sha)\W{0,3}$/i;
const ISO_DAY = /(?<![\w-])\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?![\d-])/g;

/** Whether a day (`YYYY-MM-DD`) falls in the project's life, from PROJECT_BEGAN to `today`. */
const inProjectLife = (day: string, today: string) => day >= PROJECT_BEGAN && day <= today;

/** The hex words that are objects of this repository (`git cat-file --batch-check`). */
function gitObjects(candidates: Iterable<string>): Set<string> {
  const names = [...new Set(candidates)];
  if (names.length === 0) return new Set();
  const run = spawnSync("git", ["cat-file", "--batch-check"], {
    cwd: ROOT,
    input: `${names.join("\n")}\n`,
    encoding: "utf8",
  });
  if (run.status !== 0) return new Set();
  const lines = run.stdout.split("\n");
  return new Set(names.filter((_name, index) => !/ (missing|ambiguous)$/.test(lines[index] ?? "")));
}

/** A text with each span `what` matches blanked, line breaks kept, so offsets keep their line. */
const blank = (text: string, what: RegExp, keep?: (match: string) => string) =>
  text.replace(what, (match) => keep?.(match) ?? match.replace(/[^\n]/g, " "));

/** Prose as a reader reads it: no inline code, no link targets, no HTML comments. */
function readable(text: string): string {
  const noComments = blank(text, /<!--[\s\S]*?-->/g);
  const noCode = blank(noComments, /`[^`]*`/g);
  return blank(noCode, /\]\([^)]*\)/g, (link) => `]${link.slice(1).replace(/[^\n]/g, " ")}`);
}

/** A doc's prose blocks (paragraphs, list items) and its single lines of tables and headings. */
function blocksOf(text: string): { prose: Block[]; lines: Block[] } {
  const prose: Block[] = [];
  const lines: Block[] = [];
  let fenced = false;
  let open: { start: number; lines: string[] } | null = null;
  const close = () => {
    if (open) prose.push({ start: open.start, text: open.lines.join("\n") });
    open = null;
  };
  text.split("\n").forEach((line, index) => {
    const fence = /^\s*(```|~~~)/.test(line);
    if (fence) fenced = !fenced;
    if (fence || fenced || /^\s*$/.test(line)) {
      close();
      return;
    }
    if (/^\s*\||^#{1,6} /.test(line)) {
      close();
      lines.push({ start: index, text: line });
      return;
    }
    if (/^\s*([-*+]|\d+\.)\s/.test(line)) close();
    if (!open) open = { start: index, lines: [] };
    open.lines.push(line);
  });
  close();
  return { prose, lines };
}

/** The line (from 1) of offset `at` in a block starting at line index `start`. */
const lineAt = (text: string, start: number, at: number) =>
  start + 1 + (text.slice(0, at).match(/\n/g)?.length ?? 0);

/** The sentences of a prose block over the bound, each with the line it starts on. */
function longSentences(text: string, start: number): Finding[] {
  const found: Finding[] = [];
  const clean = readable(text.replace(/`[^`]*`/g, (code) => `\`${code.slice(1, -1).replace(/\s/g, "_")}\``));
  const sentence = /(?:[^.!?]|[.!?](?!\s|$))+[.!?]?/g;
  for (const match of clean.matchAll(sentence)) {
    const words = match[0].split(/\s+/).filter((word) => /[\w`]/.test(word));
    if (words.length <= MAX_SENTENCE_WORDS) continue;
    const offset = (match.index ?? 0) + (match[0].length - match[0].trimStart().length);
    found.push({
      line: lineAt(text, start, offset),
      kind: "long sentence",
      words: `${words.length} words: "${words.slice(0, 8).join(" ")} …"`,
    });
  }
  return found;
}

/**
 * What a doc's text says that a reference should not (`objects`: the repository's hex words;
 * `today`: the last day of the project's life, `YYYY-MM-DD`).
 */
function findingsOf(
  text: string,
  objects: ReadonlySet<string>,
  today = new Date().toISOString().slice(0, 10),
): Finding[] {
  const found: Finding[] = [];
  const lines = text.split("\n");
  lines.forEach((line, index) => {
    for (const match of line.matchAll(ISO_DAY))
      if (inProjectLife(match[0], today)) found.push({ line: index + 1, kind: "date", words: match[0] });
    for (const match of line.matchAll(HEX_WORD)) {
      const word = match[0];
      const before = line.slice(0, match.index);
      // After "commit" a hash of digits alone is still a hash; elsewhere a number is a number.
      const named = NAMED_COMMIT.test(before);
      if (!named && (!/\d/.test(word) || !/[a-f]/i.test(word))) continue;
      if (named || objects.has(word) || COMMIT_CONTEXT.test(before))
        found.push({ line: index + 1, kind: "commit", words: word });
    }
  });
  const { prose, lines: single } = blocksOf(text);
  for (const block of [...prose, ...single]) {
    for (const match of block.text.matchAll(ISSUES))
      found.push({ line: lineAt(block.text, block.start, match.index ?? 0), kind: "issue", words: match[0] });
    const words = blank(readable(block.text), FIELD_PHRASES);
    for (const match of words.matchAll(PRIVATE_WORDS))
      found.push({
        line: lineAt(block.text, block.start, match.index ?? 0),
        kind: "private word",
        words: match[0],
      });
  }
  for (const block of prose) found.push(...longSentences(block.text, block.start));
  return found.sort((a, b) => a.line - b.line);
}

const texts = new Map(DOCS.map((doc) => [doc, readFileSync(join(ROOT, doc), "utf8")]));
const objects = gitObjects(
  [...texts.values()].flatMap((text) => [...text.matchAll(HEX_WORD)].map((match) => match[0])),
);
const findings = new Map([...texts].map(([doc, text]) => [doc, findingsOf(text, objects)]));
const listed = (doc: string) =>
  (findings.get(doc) ?? []).map(({ line, kind, words }) => `${doc}:${line}: ${kind}: ${words}`);

describe("the reference docs' words", () => {
  it("find a commit, an issue, a private word and a long sentence, each on its line", () => {
    const long = Array.from({ length: MAX_SENTENCE_WORDS + 1 }, () => "word").join(" ");
    const text = [
      "Measured at 60cf240 on a quiet machine.",
      "Decided in issue 78, see #86; the issue's targets.",
      "",
      "The trip climbs",
      `two floors. ${long}.`,
    ].join("\n");
    expect(findingsOf(text, new Set())).toEqual([
      { line: 1, kind: "commit", words: "60cf240" },
      { line: 2, kind: "issue", words: "issue 78" },
      { line: 2, kind: "issue", words: "#86" },
      { line: 2, kind: "issue", words: "issue's" },
      { line: 4, kind: "private word", words: "trip" },
      { line: 4, kind: "private word", words: "climbs" },
      { line: 5, kind: "private word", words: "floors" },
      { line: 5, kind: "long sentence", words: expect.stringMatching(/^61 words/) },
    ]);
  });

  it("leave code, link targets, digests, colours, UUIDs and round trips alone", () => {
    const digest = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    const text = [
      "Run `npx tsx scripts/billing-trip.ts`, [its source](../scripts/billing-climbs.ts).",
      `The file's sha256 is ${digest}; the colour #1f2937a; id 123e4567-e89b-12d3-a456-426614174000.`,
      "A round trip to the server; see [Enum values](#enum-values).",
      "```",
      "$ git log   # the trip",
      "```",
      "| trip | at 60cf240 |",
    ].join("\n");
    expect(findingsOf(text, new Set())).toEqual([
      { line: 7, kind: "commit", words: "60cf240" },
      { line: 7, kind: "private word", words: "trip" },
    ]);
  });

  it("find a dated run and a stamped hash inside backticks and code blocks", () => {
    const text = [
      "The trip is `52 files on 2026-11-27`, `measured at 60cf240`.",
      "```",
      "$ npx tsx scripts/billing-trip.ts   # on 2026-11-28",
      "```",
      "A series of `2024-01-01T00:00:00Z`, Node 20's end on 2026-04-30, a release on 2027-05-01.",
    ].join("\n");
    expect(findingsOf(text, new Set(), "2026-11-28")).toEqual([
      { line: 1, kind: "date", words: "2026-11-27" },
      { line: 1, kind: "commit", words: "60cf240" },
      { line: 1, kind: "private word", words: "trip" },
      { line: 3, kind: "date", words: "2026-11-28" },
    ]);
    // The project's first and last days are history too; the day before it began is not.
    expect(findingsOf("(2026-11-22) `2026-11-21` 2026-12-01", new Set(), "2026-12-01")).toEqual([
      { line: 1, kind: "date", words: "2026-11-22" },
      { line: 1, kind: "date", words: "2026-12-01" },
    ]);
  });

  it("know a commit of this repository by its hash alone", () => {
    const log = spawnSync("git", ["log", "--format=%h", "--abbrev=9", "-n", "50"], {
      cwd: ROOT,
      encoding: "utf8",
    });
    expect(log.status).toBe(0);
    // A hash with a letter: one of digits alone is read as a number unless "commit" names it
    const hash = log.stdout.split("\n").find((line) => /^(?=.*[a-f])[0-9a-f]{9}$/.test(line)) ?? "";
    expect(gitObjects([hash, "abc1234def"])).toEqual(new Set([hash]));
    expect(findingsOf(`Its map is ${hash}.`, new Set([hash]))).toEqual([
      { line: 1, kind: "commit", words: hash },
    ]);
  });

  for (const doc of DOCS) {
    it(`${doc} describes the present in plain words`, () => {
      expect(listed(doc)).toEqual([]);
    });
  }
});
