/**
 * `--what-if`'s rows of a bill evaluated in edition 2.5.0 by the command in this process, the
 * run's price list `list` where one is named (PRICE_LIST, put back after the run).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { evaluated250 } from "./cli.js";

export type WhatIfRow = Record<string, string>;

export async function whatIfRows(
  bill: string,
  scratch: string,
  name: string,
  list?: string,
): Promise<WhatIfRow[]> {
  const before = process.env.PRICE_LIST;
  if (list !== undefined) process.env.PRICE_LIST = list;
  try {
    const out = join(scratch, `${name}-what-if.csv`);
    await evaluated250(bill, ["-o", join(scratch, `${name}.csv`), "--what-if", out]);
    return parse(readFileSync(out, "utf8"), { columns: true }) as WhatIfRow[];
  } finally {
    if (before === undefined) delete process.env.PRICE_LIST;
    else process.env.PRICE_LIST = before;
  }
}
