/**
 * Public sample exports published in other repositories (the FinOps Foundation's FOCUS sample, the
 * FOCUS converters' legacy CUR and OCI cost report). The project keeps no file taken from another
 * repository: they are read from `shared/public-exports/` beside the checkout, where every checkout
 * and CI have them, its SOURCES.md naming each file's repository, path and licence.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** `../shared/public-exports` from the checkout's root. */
export const PUBLIC_EXPORTS = fileURLToPath(new URL("../../../shared/public-exports/", import.meta.url));

/** The public exports the tests read, by the name SOURCES.md gives them. */
const NAMES = [
  "focus-1.0-finops-sample.csv",
  "cur-1.0-focus-converters-aws.csv.gz",
  "oci-focus-converters-cost.csv.gz",
] as const;
export type PublicExportName = (typeof NAMES)[number];

/** The project's own billing fixtures. */
const BILLING_FIXTURES = fileURLToPath(new URL("../fixtures/billing/", import.meta.url));

/**
 * The absolute path of a public export; throws, naming the folder, when it is not there, so a
 * checkout without `shared/` fails with that reason rather than with a missing-file error deep in
 * a run.
 */
export function publicExport(name: PublicExportName): string {
  const path = join(PUBLIC_EXPORTS, name);
  if (!existsSync(path)) {
    throw new Error(
      `public sample export ${name} not found at ${path}: the tests read the public exports from ` +
        "shared/public-exports beside the checkout (test/fixtures/README.md)",
    );
  }
  return path;
}

/**
 * A billing export the tests name by its file name (or a path under test/fixtures/billing): a
 * public export from shared/, any other from the project's own fixtures.
 */
export function billingFixture(name: string): string {
  const known = NAMES.find((publicName) => publicName === name);
  return known === undefined ? join(BILLING_FIXTURES, name) : publicExport(known);
}
