/**
 * What tests expect of the list of built-in editions, derived from the registry (`EDITIONS`) so that
 * adding an edition (docs/architecture.md, "Recipe: add an edition") changes no test.
 */
import { readFileSync } from "node:fs";
import { editionsWhere } from "../../src/editions/features.js";
import { EDITIONS } from "../../src/editions/index.js";

/** Edition ids as pydantic 1 lists an enumeration's members: `'1.2.4', '2.4.1'`. */
export const permitted = (ids: readonly string[]): string => ids.map((id) => `'${id}'`).join(", ");

/** Edition ids as the command line lists its choices: `1.2.4, 2.4.1 or 2.5.0`. */
export const listedOr = (ids: readonly string[]): string =>
  ids.length > 1 ? `${ids.slice(0, -1).join(", ")} or ${ids[ids.length - 1]}` : ids[0];

/** The built-in editions allocating a terminal's embedded impact, as a note names them ("2.4.1 and 2.5.0"). */
export const ALLOCATING = editionsWhere((edition) => edition.rules.userDeviceEmbedded === "allocated");

/** The built-in editions whose typed data list an instance type of a provider. */
export function editionsListing(provider: string, instanceType: string): string[] {
  return EDITIONS.filter((edition) => {
    try {
      const table = readFileSync(
        new URL(`../../data/${edition.id}/archetypes/cloud/${provider}.csv`, import.meta.url),
      );
      return table.toString("utf8").includes(`\n${instanceType},`);
    } catch {
      return false;
    }
  }).map((edition) => edition.id);
}
