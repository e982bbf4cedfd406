/**
 * The price list's reader a process running many bills keeps (keptPriceLists,
 * src/billing/priceList.ts): each list parsed once while its file stays as it was, read again
 * once it changes, and a list that cannot be read an error each time, as loadPriceList's.
 */
import { mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { keptPriceLists, listPrice, loadPriceList, PriceListError } from "../../src/billing/priceList.js";

const scratch = mkdtempSync(join(tmpdir(), "price-list-reader-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A list of one price of m5.large in eu-west-3. */
const listText = (usd: string) =>
  `# source: test figures\nprovider,region,instance_type,usd_per_hour\naws,eu-west-3,m5.large,${usd}\n`;

const priceOf = (list: ReturnType<typeof loadPriceList>) =>
  list === null ? null : listPrice(list, "aws", "m5.large", "eu-west-3").price;

describe("a kept price list reader", () => {
  it("parses a list once while its file is unchanged, and gives what loadPriceList gives", () => {
    const file = join(scratch, "same.csv");
    writeFileSync(file, listText("0.12"));
    const read = keptPriceLists();
    const first = read(file);
    expect(priceOf(first)).toBe(0.12);
    expect(first).toEqual(loadPriceList(file));
    // The same list, not one parsed again
    expect(read(file)).toBe(first);
    // Another reader keeps its own
    expect(keptPriceLists()(file)).not.toBe(first);
  });

  it("reads a list again once its file changed, whatever its size", () => {
    const file = join(scratch, "changed.csv");
    writeFileSync(file, listText("0.12"));
    const read = keptPriceLists();
    const first = read(file);
    // The same size, another figure, another modification time
    writeFileSync(file, listText("0.13"));
    utimesSync(file, new Date(2026, 0, 2), new Date(2026, 0, 2));
    const second = read(file);
    expect(second).not.toBe(first);
    expect(priceOf(second)).toBe(0.13);
    expect(read(file)).toBe(second);
  });

  it("says a missing or malformed list each time it is asked", () => {
    const read = keptPriceLists();
    const missing = join(scratch, "missing.csv");
    expect(() => read(missing)).toThrow(PriceListError);
    expect(() => read(missing)).toThrow(/no such file/);
    const malformed = join(scratch, "malformed.csv");
    writeFileSync(malformed, "# source: s\nregion,price\n");
    expect(() => read(malformed)).toThrow(/its header is not/);
    expect(() => read(malformed)).toThrow(/its header is not/);
  });
});
