/**
 * A line whose quantity times its unit passes the bound every number is held to (1e30:
 * src/support/numbers.ts) is a bad row named with its lines and cost, and the rest of the bill is
 * read (src/billing/stages/classify.ts keeps such lines apart from the others of their
 * description): a FOCUS bill of four lines, one of them 1e29 of unit `1K` (1e32 tokens), and
 * 30,000-line generative-AI bills (FOCUS and Azure) a share of whose lines are absurd.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { evaluatedLines } from "../support/cli.js";
import { csvText, type Rows } from "../support/csvText.js";

const SLOW = { timeout: 300_000 };
const scratch = mkdtempSync(join(tmpdir(), "billing-absurd-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A fixture's rows repeated to `count` lines, every `every`-th line's quantity `absurd`. */
function bill(fixture: string, quantity: string, count: number, every: number, absurd: string): Rows {
  const [header, ...lines] = parse(readFileSync(fixture)) as Rows;
  const at = header.indexOf(quantity);
  const rows = Array.from({ length: count }, (_, index) => {
    const line = [...lines[index % lines.length]];
    if (index % every === every - 1) line[at] = absurd;
    return line;
  });
  return [header, ...rows];
}

const PAST = /^bad row: quantity times its unit (.+) past 1e30$/;

describe("a line past the bound of a quantity times its unit", () => {
  it(
    "FOCUS, four lines, one 1e29 of 1K tokens: that line a bad row, the other three read",
    SLOW,
    async () => {
      const rows = bill("test/fixtures/billing/genai-focus.csv", "ConsumedQuantity", 4, 4, "1e29");
      // The absurd line is the fourth: the first's description again (Claude Sonnet 4.5 output, 1K tokens)
      const [header, first] = rows;
      const absurd = [...first];
      absurd[header.indexOf("ConsumedQuantity")] = "1e29";
      const file = join(scratch, "focus-four.csv");
      writeFileSync(file, csvText([header, ...rows.slice(1, 4), absurd]));
      const { stderr, lines } = await evaluatedLines(file, join(scratch, "focus-four.out.csv"));
      expect(lines.map((line) => line.status)).toEqual([
        "evaluated",
        "not compute",
        "evaluated",
        "bad row: quantity times its unit 1K tokens past 1e30",
      ]);
      expect(stderr).toContain("  rows read: 4\n");
      expect(stderr).toContain(
        "bad rows:\n  bad row: quantity times its unit 1K tokens past 1e30: 1 row, cost 3.75 USD\n",
      );
    },
  );

  for (const [name, fixture, quantity] of [
    ["FOCUS", "test/fixtures/billing/genai-focus.csv", "ConsumedQuantity"],
    ["Azure", "test/fixtures/billing/genai-azure.csv", "Quantity"],
  ] as const) {
    it(
      `${name}, 30,000 generative-AI lines, one in 45 absurd: those named, the rest evaluated`,
      SLOW,
      async () => {
        const file = join(scratch, `${name}.csv`);
        writeFileSync(file, csvText(bill(fixture, quantity, 30_000, 45, "1e29")));
        const alone = join(scratch, `${name}-sane.csv`);
        // The same bill without its absurd lines: what the rest must read as
        const [header, ...rows] = bill(fixture, quantity, 30_000, 45, "1e29");
        const at = header.indexOf(quantity);
        writeFileSync(alone, csvText([header, ...rows.filter((row) => row[at] !== "1e29")]));
        const { stderr, lines } = await evaluatedLines(file, join(scratch, `${name}.out.csv`));
        const sane = await evaluatedLines(alone, join(scratch, `${name}-sane.out.csv`));
        expect(lines).toHaveLength(30_000);
        const past = lines.filter((line) => PAST.test(line.status));
        const absurdLines = lines.filter((line) => line[quantity] === "1e29");
        // Every absurd line whose unit multiplies (1K, 1M tokens) is past the bound; none other is
        expect(past.length).toBeGreaterThan(0);
        expect(past.every((line) => line[quantity] === "1e29")).toBe(true);
        expect(absurdLines.length).toBe(666);
        // The other lines read as they do without the absurd ones
        const others = lines.filter((line) => line[quantity] !== "1e29");
        expect(others.map((line) => [line.status, line.gwp_use_kgco2eq])).toEqual(
          sane.lines.map((line) => [line.status, line.gwp_use_kgco2eq]),
        );
        const named = /\n {2}bad row: quantity times its unit (.+) past 1e30: ([\d,]+) rows?, cost/g;
        const counted = [...stderr.matchAll(named)].reduce(
          (sum, match) => sum + Number(match[2].replace(",", "")),
          0,
        );
        expect(counted).toBe(past.length);
        expect(stderr).toContain("  rows read: 30,000\n");
      },
    );
  }
});
