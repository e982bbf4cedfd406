/**
 * The layer rules of src/ (.dependency-cruiser.cjs, docs/architecture.md), checked with
 * dependency-cruiser's API: a wrong import fails `npm test`, with the offending imports listed.
 */

import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { beforeAll, describe, expect, it } from "vitest";

const RULES_FILE = "./.dependency-cruiser.cjs";
const ALLOW_LIST_RULE = "rest-imports-engine-only-from-allow-list";

function line(violation: IViolation): string {
  const cycle = violation.cycle?.length
    ? ` (circle: ${violation.cycle.map((step) => step.name).join(" -> ")})`
    : "";
  return `${violation.rule.name}: ${violation.from} -> ${violation.to}${cycle}`;
}

describe("layer rules (.dependency-cruiser.cjs)", () => {
  let result: ICruiseResult;
  let allowList: readonly { from: string; to: string }[];

  beforeAll(async () => {
    const options = await extractDepcruiseOptions(RULES_FILE);
    allowList = (options.knownViolations ?? []).map(({ from, to }) => ({ from, to }));
    const reported = await cruise(["src"], options, undefined, {
      tsConfig: extractTSConfig("tsconfig.json"),
    });
    result = reported.output as ICruiseResult;
  }, 60_000);

  it("reads the whole of src/: every relative import is resolved", () => {
    const unresolved = result.modules.flatMap((module) =>
      module.dependencies
        .filter((dependency) => dependency.couldNotResolve && dependency.module.startsWith("."))
        .map((dependency) => `${module.source} -> ${dependency.module}`),
    );
    expect(unresolved).toEqual([]);
    expect(result.summary.totalCruised).toBeGreaterThan(100);
  });

  it("no import breaks a rule (no circle; data, engine and numeric import nothing above them)", () => {
    const broken = result.summary.violations.filter((violation) => violation.rule.severity !== "ignore");
    expect(broken.map(line), "imports breaking the layer rules").toEqual([]);
  });

  it("the rest -> engine allow-list names only imports that still exist (it may only shrink)", () => {
    const allowed = result.summary.violations.filter(
      (violation) => violation.rule.severity === "ignore" && violation.rule.name === ALLOW_LIST_RULE,
    );
    // Printed on each run: the imports the use-case layer is to take over.
    console.info(
      `REST_TO_ENGINE_ALLOW_LIST (${allowed.length}, expected to shrink to empty):\n${allowed
        .map((violation) => `  ${violation.from} -> ${violation.to}`)
        .join("\n")}`,
    );
    const stale = allowList.filter(
      (entry) => !allowed.some((violation) => violation.from === entry.from && violation.to === entry.to),
    );
    expect(
      stale.map((entry) => `${entry.from} -> ${entry.to}`),
      "allow-list entries to delete",
    ).toEqual([]);
  });
});
