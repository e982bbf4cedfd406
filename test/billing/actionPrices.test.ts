/**
 * The share of the what-if's actions that carry money (docs/billing.md, "What-if"): `--what-if` on
 * every bill of the project's billing fixtures and of the public exports (../shared/public-exports,
 * edition 2.5.0, `months/` read as one bill), with the price list `npm test`'s pretest derives
 * (scripts/ensure-price-list.sh, in its cache); an action carries money where its `saved_cost` is a
 * number, its `price_origin` beside it, else its `price_read` says "price unknown" and why. Each
 * bill set's share, the whole share, each provider's and each origin's count are asserted at the
 * floor measured with the list (91.7 %; docs/billing.md, "What-if", says what stays unpriced and
 * why). No region move goes to a region the list says sells none of its type.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_PRICE_LIST, loadPriceList, offeredAt } from "../../src/billing/priceList.js";
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
/** Each value of `key` among `rows`: its actions, and how many of them carry money. */
function countsBy(
  rows: readonly Row[],
  key: (row: Row) => string,
): Map<string, { priced: number; all: number }> {
  const counts = new Map<string, { priced: number; all: number }>();
  for (const row of rows) {
    const count = counts.get(key(row)) ?? { priced: 0, all: 0 };
    count.all += 1;
    if (row.saved_cost !== "") count.priced += 1;
    counts.set(key(row), count);
  }
  return counts;
}

/** The share of each provider's actions that carry money, at least (measured: 194/214, 92/96, 1/3). */
const PROVIDER_FLOORS: Readonly<Record<string, number>> = { aws: 0.9, azure: 0.95, gcp: 0.33 };

/** The actions priced by each origin, at least, as measured with the list. */
const ORIGIN_FLOORS: Readonly<Record<string, number>> = {
  "bill's rate × list ratio": 119,
  "bill's billed rate × list ratio": 4,
  "list price, both sides": 102,
  "bill's rate × AWS size factor": 51,
  "bill's billed rate × AWS size factor": 6,
  "bill's rate": 4,
  "bill's rate × Google's vCPUs in the series": 1,
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
    // Measured with the list: 259 of 285 (90.9 %) in the fixtures' 47 bills with actions, 28 of 28
    // in the public exports (the FOCUS sample: the converters' and OCI's have none); 287 of 313
    // (91.7 %) in all
    expect(fixtures.size).toBeGreaterThanOrEqual(40);
    expect(ofFixtures.priced / ofFixtures.all).toBeGreaterThanOrEqual(0.9);
    expect(ofExports.all).toBe(28);
    expect(ofExports.priced).toBe(28);
    expect((ofFixtures.priced + ofExports.priced) / (ofFixtures.all + ofExports.all)).toBeGreaterThanOrEqual(
      0.9,
    );
  });

  it("are at least the measured share of each provider's actions, and of each origin", () => {
    const rows = [...fixtures.values(), ...exports.values()].flat();
    // Measured with the list: AWS 194 of 214 (its moves of a db. node whose engine the usage
    // does not name, to t8i, are not), Azure 92 of 96, Google 1 of 3 (docs/billing.md, "What-if")
    const byProvider = countsBy(rows, (row) => row.provider);
    for (const [provider, floor] of Object.entries(PROVIDER_FLOORS)) {
      const count = byProvider.get(provider) ?? { priced: 0, all: 0 };
      expect(count.priced / count.all, provider).toBeGreaterThanOrEqual(floor);
    }
    const byOrigin = countsBy(
      rows.filter((row) => row.saved_cost !== ""),
      (row) => row.price_origin,
    );
    for (const [origin, floor] of Object.entries(ORIGIN_FLOORS))
      expect(byOrigin.get(origin)?.all ?? 0, origin).toBeGreaterThanOrEqual(floor);
  });

  it("move to no region the list says sells none of their type", () => {
    const list = loadPriceList(LIST);
    if (list === null) throw new Error(`no price list at ${LIST}`);
    const moves = [...fixtures.values(), ...exports.values()].flat().filter((row) => row.change === "region");
    expect(moves.length).toBeGreaterThan(100);
    for (const row of moves)
      expect(
        offeredAt(list, row.provider, row.instance_type, row.to_place),
        `${row.instance_type} to ${row.to_place}`,
      ).toBe(true);
    // Where one lower was passed over, the why says so
    expect(moves.some((row) => /sells? none by the price list$/.test(row.why))).toBe(true);
  });
});
