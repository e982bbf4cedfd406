/**
 * The layer rules of src/ (.dependency-cruiser.cjs, docs/architecture.md), checked with
 * dependency-cruiser's API: a wrong import fails `npm test`, with the offending imports listed.
 */

import { cruise, type ICruiseResult, type IViolation } from "dependency-cruiser";
import extractDepcruiseOptions from "dependency-cruiser/config-utl/extract-depcruise-options";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { beforeAll, describe, expect, it } from "vitest";

const RULES_FILE = "./.dependency-cruiser.cjs";

function line(violation: IViolation): string {
  const cycle = violation.cycle?.length
    ? ` (circle: ${violation.cycle.map((step) => step.name).join(" -> ")})`
    : "";
  return `${violation.rule.name}: ${violation.from} -> ${violation.to}${cycle}`;
}

describe("layer rules (.dependency-cruiser.cjs)", () => {
  let result: ICruiseResult;

  beforeAll(async () => {
    const options = await extractDepcruiseOptions(RULES_FILE);
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

  it("no two folders of src/billing's providers, rules' language and registry import each other", () => {
    const folderOf = (source: string) => source.slice(0, source.lastIndexOf("/"));
    const imports = new Set(
      result.modules.flatMap((module) =>
        module.dependencies
          .filter((dependency) => dependency.resolved.startsWith("src/"))
          .map((dependency) => `${folderOf(module.source)} -> ${folderOf(dependency.resolved)}`),
      ),
    );
    const watched = ["src/billing/providers", "src/billing/rules", "src/billing/registry"];
    const circles = watched.flatMap((from) =>
      watched
        .filter((to) => from < to && imports.has(`${from} -> ${to}`) && imports.has(`${to} -> ${from}`))
        .map((to) => `${from} <-> ${to}`),
    );
    expect(circles, "folders importing each other").toEqual([]);
    // The direction is the registry reading the providers (their rows, spellings, rule words).
    expect(imports.has("src/billing/registry -> src/billing/providers")).toBe(true);
  });

  it("a bill's report and its stages are one way: report/ reads stages/, never the reverse", () => {
    const between = (from: string, to: string) =>
      result.modules
        .filter((module) => module.source.startsWith(from))
        .flatMap((module) =>
          module.dependencies
            .filter((dependency) => dependency.resolved.startsWith(to))
            .map((dependency) => `${module.source} -> ${dependency.resolved}`),
        );
    const reportReadsStages = between("src/billing/report/", "src/billing/stages/");
    expect(reportReadsStages.length, "src/billing/report reads the stages' results").toBeGreaterThan(0);
    // Type-only imports count: a circle of types between the folders is still a circle
    expect(
      between("src/billing/stages/", "src/billing/report/"),
      "src/billing/stages imports the report",
    ).toEqual([]);
  });

  it("the transports reach the engine through the use-case layer (src/service)", () => {
    const importsOf = (source: string) =>
      result.modules.find((module) => module.source === source)?.dependencies.map((d) => d.resolved) ?? [];
    const reachService = (sources: readonly string[]) =>
      sources.some((source) => importsOf(source).some((to) => to.startsWith("src/service/")));
    const inFolder = (folder: string) =>
      result.modules.map((module) => module.source).filter((source) => source.startsWith(folder));
    expect(reachService(inFolder("src/schema/")), "src/schema imports src/service").toBe(true);
    expect(reachService(inFolder("src/rest/")), "src/rest imports src/service").toBe(true);
    expect(reachService(["src/app/main.ts"]), "src/app/main.ts imports src/service").toBe(true);
    const toEngine = [...inFolder("src/schema/"), ...inFolder("src/rest/")].flatMap((source) =>
      importsOf(source)
        .filter((to) => to.startsWith("src/engine/"))
        .map((to) => `${source} -> ${to}`),
    );
    // Types-only imports count too: the use-case layer re-exports the types the transports read.
    expect(toEngine, "src/schema and src/rest import nothing of src/engine").toEqual([]);
  });
});
