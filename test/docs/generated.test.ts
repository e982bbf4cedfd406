/**
 * The documentation's generated tables (scripts/docs.ts, `npm run docs`) are the ones their
 * descriptions make: the configuration table from src/config/environment.ts, the inventory's columns from
 * src/cli/inventory/inventory.ts, the billing line relation from src/billing/formats/format.ts. A stale page fails here, naming the command that rewrites it.
 */
import { describe, expect, it } from "vitest";
import { GENERATED_TABLES, generatedPages, withTables } from "../../scripts/docs.js";
import { LINE_RELATION, relationTable } from "../../src/billing/formats/format.js";
import { columnTable, INVENTORY_COLUMNS } from "../../src/cli/inventory/inventory.js";
import { configurationTable, SETTINGS } from "../../src/config/environment.js";

describe("generated tables (npm run docs)", () => {
  it("are written between their markers, the rest of the page kept", () => {
    const page = "# Page\n\nbefore\n<!-- generated:t -->\n| old |\n<!-- /generated -->\nafter\n";
    expect(withTables(page, { t: "| a |\n|---|\n| 1 |" })).toBe(
      "# Page\n\nbefore\n<!-- generated:t -->\n| a |\n|---|\n| 1 |\n<!-- /generated -->\nafter\n",
    );
  });

  it("refuse a block of an unknown name and a page lacking its block", () => {
    expect(() => withTables("<!-- generated:x -->\n<!-- /generated -->", {})).toThrow(
      'unknown generated table "x"',
    );
    expect(() => withTables("no block", { t: "| a |" })).toThrow("no <!-- generated:t --> block");
  });

  it("describe every setting and every inventory column", () => {
    for (const name of Object.keys(SETTINGS)) expect(configurationTable()).toContain(`| \`${name}\` |`);
    for (const column of INVENTORY_COLUMNS) expect(columnTable()).toContain(`| \`${column.column}\` |`);
    for (const column of LINE_RELATION) expect(relationTable()).toContain(`| \`${column.name}\` |`);
    expect(Object.values(GENERATED_TABLES).map(({ page }) => page)).toEqual([
      "docs/operations.md",
      "docs/inventory.md",
      "docs/billing-code.md",
    ]);
  });

  it.each(generatedPages())(
    "$page holds the tables of today's sources (else run npm run docs)",
    ({ current, fresh }) => {
      expect(current).toBe(fresh);
    },
  );
});
