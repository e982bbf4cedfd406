/**
 * The share of the what-if's actions that carry money (docs/billing.md, "What-if"): `--what-if` on
 * every bill of the project's billing fixtures and of the public exports (../shared/public-exports,
 * edition 2.5.0, `months/` read as one bill), with the price list `npm test`'s pretest derives
 * (scripts/ensure-price-list.sh, in its cache); an action carries money where its `saved_cost` is a
 * number, its `price_origin` beside it, else its `price_read` says "price unknown" and why. Each
 * bill set's share is asserted at the floor measured with the list (the issue's 90 % is not met:
 * docs/billing.md says what is missing).
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PRICE_LIST } from "../../src/billing/priceList.js";
import { PUBLIC_EXPORTS } from "../support/publicExports.js";
import { whatIfRows } from "../support/whatIfRows.js";

const scratch = mkdtempSync(join(tmpdir(), "action-prices-"));
const listBefore = process.env.PRICE_LIST;
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  if (listBefore === undefined) delete process.env.PRICE_LIST;
  else process.env.PRICE_LIST = listBefore;
});

type Row = Record<string, string>;
const FIXTURES = fileURLToPath(new URL("../fixtures/billing/", import.meta.url));
const BILL = /\.(csv|csv\.gz|parquet|json|json\.gz)$/;

/** The bills of a folder (its files, not its subfolders). */
const billsIn = (folder: string) =>
  readdirSync(folder)
    .map((name) => join(folder, name))
    .filter((path) => statSync(path).isFile() && BILL.test(path));

/** Each bill's actions (none where the run writes none: a bill without an instance's hours, not a bill). */
async function actionsOf(bills: readonly string[]): Promise<Map<string, Row[]>> {
  const found = new Map<string, Row[]>();
  for (const [index, bill] of bills.entries()) {
    // A run refused, or that writes no what-if, has no action
    const rows = await whatIfRows(bill, scratch, String(index)).catch(() => []);
    if (rows.length > 0) found.set(bill, rows);
  }
  return found;
}

const priced = (rows: readonly Row[]) => rows.filter((row) => row.saved_cost !== "").length;
const share = (actions: Map<string, Row[]>) => {
  const rows = [...actions.values()].flat();
  return { priced: priced(rows), all: rows.length };
};

let fixtures = new Map<string, Row[]>();
let exports = new Map<string, Row[]>();

// Where scripts/ensure-price-list.sh wrote it: its cache, as the script reads it
const LIST =
  process.env.IMPACT_PRICE_LIST_CACHE === undefined
    ? DEFAULT_PRICE_LIST
    : join(process.env.IMPACT_PRICE_LIST_CACHE, "on-demand-linux.csv");

beforeAll(async () => {
  if (!existsSync(LIST))
    throw new Error(
      `the price list ${LIST} is not there: scripts/ensure-price-list.sh (npm test's pretest) makes it and says on stderr why it could not`,
    );
  process.env.PRICE_LIST = LIST;
  fixtures = await actionsOf([
    ...billsIn(FIXTURES),
    ...billsIn(join(FIXTURES, "arrivals")),
    join(FIXTURES, "months"),
  ]);
  exports = await actionsOf(billsIn(PUBLIC_EXPORTS));
}, 1_800_000);

describe("the actions that carry money", () => {
  it("each say their origin beside the figure, else price unknown and why", () => {
    for (const rows of [...fixtures.values(), ...exports.values()])
      for (const row of rows) {
        if (row.saved_cost === "") {
          expect(row.price_origin).toBe("");
          // An inventory-like usage at the default place says nothing yet (a known gap)
          if (row.place !== "(default place)") expect(row.price_read).toMatch(/^price unknown: .+; .+/);
        } else {
          expect(row.price_origin).toMatch(/^(bill's (billed )?rate( × .+)?|list price, both sides)$/);
          expect(row.price_read).toMatch(/^as (billed|listed)/);
        }
      }
  });

  it("are at least the measured share of each bill set's actions", () => {
    const ofFixtures = share(fixtures);
    const ofExports = share(exports);
    // Measured with the list: 103 of 289 (35.6 %) in the fixtures' 47 bills with actions, 18 of 28
    // in the public exports (the FOCUS sample: the converters' and OCI's have none)
    expect(fixtures.size).toBeGreaterThanOrEqual(40);
    expect(ofFixtures.priced / ofFixtures.all).toBeGreaterThanOrEqual(0.35);
    expect(ofExports.all).toBe(28);
    expect(ofExports.priced).toBeGreaterThanOrEqual(18);
    // Some money comes from the list alone, some from the bill's rate scaled by the list's ratio:
    // the bill's rates and size factors price fewer
    const rows = [...fixtures.values(), ...exports.values()].flat();
    expect(rows.filter((row) => row.price_origin === "list price, both sides").length).toBeGreaterThan(0);
    expect(rows.filter((row) => row.price_origin.endsWith("× list ratio")).length).toBeGreaterThan(0);
  });
});
