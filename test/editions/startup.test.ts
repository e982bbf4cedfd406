/**
 * Data and settings checked whole at start-up (README "Your own data"): a wrong file, column, cell
 * type or reference, an unknown setting or a bad value stops the start with one line naming file,
 * row and column — through the app factory, and once through the real process (exit code 2).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../src/config.js";
import { loadEditions, StartupDataError } from "../../src/referenceData.js";
import { appOptionsOf, createApp } from "../../src/server.js";
import { startService } from "../support/process.js";

const TESTDATA = fileURLToPath(new URL("../fixtures/testdata-1.2.4/", import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), "startup-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

let folders = 0;

/** A copy of the 1.2.4 test data with one file changed, and an EDITIONS_FILE serving it as `acme`. */
function dataSet(change: (dir: string) => void, settings = ""): { dir: string; file: string } {
  const dir = join(scratch, `set-${++folders}`);
  cpSync(TESTDATA, dir, { recursive: true });
  change(dir);
  const file = join(dir, "editions.yml");
  writeFileSync(file, `editions:\n  - id: acme\n    base: "1.2.4"\n    data: ${dir}\n${settings}`);
  return { dir, file };
}

/** The one line the start stops with (the configuration's or the data's). */
function startupProblem(editionsFile: string, env: Record<string, string> = {}): string {
  try {
    const config = loadConfig({ EDITIONS_FILE: editionsFile, ...env });
    loadEditions(config.customEditions, config.settingsOverrides);
  } catch (error) {
    if (error instanceof StartupDataError || error instanceof ConfigError) {
      expect(error.message).not.toContain("\n");
      return error.message;
    }
    throw error;
  }
  throw new Error("the data set was accepted");
}

const edit = (dir: string, file: string, change: (text: string) => string) =>
  writeFileSync(join(dir, file), change(readFileSync(join(dir, file), "utf8")));

describe("data checked at start-up: one line file:row:column: problem", () => {
  it("the built-in data sets and boaviztapi's test data pass", () => {
    const { file } = dataSet(() => undefined);
    const loaded = loadEditions(loadConfig({ EDITIONS_FILE: file }).customEditions);
    expect(loaded.map((edition) => edition.edition.id)).toEqual(["1.2.4", "2.4.1", "acme"]);
  });

  it("an emptied aws.csv", () => {
    const { dir, file } = dataSet((dir) => writeFileSync(join(dir, "archetypes/cloud/aws.csv"), ""));
    expect(startupProblem(file)).toBe(
      `${dir}/archetypes/cloud/aws.csv:1: empty file, expected a header with the columns id, vcpu, memory, ssd_storage, hdd_storage, platform`,
    );
  });

  it("an aws.csv with its header only", () => {
    const { dir, file } = dataSet((dir) =>
      edit(dir, "archetypes/cloud/aws.csv", (text) => `${text.split("\n")[0]}\n`),
    );
    expect(startupProblem(file)).toBe(`${dir}/archetypes/cloud/aws.csv:2: no rows (only a header)`);
  });

  it("a truncated cpu_specs.csv", () => {
    const { dir, file } = dataSet((dir) =>
      // Cut in the middle of line 3's name.
      edit(dir, "crowdsourcing/cpu_specs.csv", (text) =>
        text.split("\n").slice(0, 2).join("\n").concat("\nIntel Xe"),
      ),
    );
    expect(startupProblem(file)).toBe(
      `${dir}/crowdsourcing/cpu_specs.csv:3:manufacturer: truncated file (the last row has 1 of 11 cells and no line break)`,
    );
  });

  it("a renamed column", () => {
    const { dir, file } = dataSet((dir) =>
      edit(dir, "archetypes/cloud/aws.csv", (text) => text.replace("id,vcpu,memory", "id,vcpus,memory")),
    );
    expect(startupProblem(file)).toBe(`${dir}/archetypes/cloud/aws.csv:1:vcpu: missing column`);
  });

  it("a cell of the wrong type", () => {
    const { dir, file } = dataSet((dir) =>
      edit(dir, "archetypes/cloud/aws.csv", (text) => text.replace("\na1.large,2,", "\na1.large,two,")),
    );
    const line = readFileSync(join(dir, "archetypes/cloud/aws.csv"), "utf8")
      .split("\n")
      .indexOf(
        readFileSync(join(dir, "archetypes/cloud/aws.csv"), "utf8")
          .split("\n")
          .find((l) => l.startsWith("a1.large,")) ?? "",
      );
    expect(startupProblem(file)).toBe(
      `${dir}/archetypes/cloud/aws.csv:${line + 1}:vcpu: expected a number, found "two"`,
    );
  });

  it("a row lacking a required cell (an instance type without its platform)", () => {
    const { dir, file } = dataSet((dir) =>
      edit(dir, "archetypes/cloud/aws.csv", (text) => {
        const lines = text.split("\n");
        lines[1] = lines[1].replace(/,[^,]*,([^,]*)$/, ",,$1");
        return lines.join("\n");
      }),
    );
    expect(startupProblem(file)).toBe(`${dir}/archetypes/cloud/aws.csv:2:platform: empty cell`);
  });

  it("a default archetype the data lacks, in the data set's config.yml", () => {
    const { dir, file } = dataSet((dir) =>
      edit(dir, "config.yml", (text) => text.replace('default_server: "DEFAULT"', 'default_server: "nope"')),
    );
    expect(startupProblem(file)).toMatch(
      new RegExp(`^${dir}/config.yml:default_server: archetype "nope" not found \\(server ids: DEFAULT, `),
    );
  });

  it("a default archetype the data lacks, in EDITIONS_FILE settings", () => {
    const { file } = dataSet(() => undefined, "    settings:\n      default_laptop: nope\n");
    expect(startupProblem(file)).toMatch(
      /^EDITIONS_FILE: edition acme: settings.default_laptop: archetype "nope" not found \(laptop ids: laptop-pro, /,
    );
  });

  it("a default archetype the data lacks, in the environment (BOAVIZTA_DEFAULT_SERVER)", () => {
    const { file } = dataSet(() => undefined);
    expect(startupProblem(file, { BOAVIZTA_DEFAULT_SERVER: "nope" })).toMatch(
      /^edition 2\.4\.1: setting default_server \(BOAVIZTA_DEFAULT_SERVER\): archetype "nope" not found/,
    );
  });

  it("an unknown setting, and a value out of range", () => {
    const unknown = dataSet(() => undefined, "    settings:\n      default_serverr: DEFAULT\n");
    expect(startupProblem(unknown.file)).toMatch(
      /^EDITIONS_FILE: edition acme: settings.default_serverr: unknown setting \(allowed: default_location, /,
    );
    const range = dataSet(() => undefined, "    settings:\n      max_sig_fig: 0\n");
    expect(startupProblem(range.file)).toBe(
      "EDITIONS_FILE: edition acme: settings.max_sig_fig: expected a whole number at least 1 and at most 17, found 0",
    );
    // A 1.2.4 base has no GPU threshold.
    const gpu = dataSet(() => undefined, "    settings:\n      gpu_name_fuzzymatch_threshold: 60\n");
    expect(startupProblem(gpu.file)).toMatch(/settings.gpu_name_fuzzymatch_threshold: unknown setting/);
  });

  it("a default criterion the edition lacks", () => {
    const { file } = dataSet(() => undefined, "    settings:\n      default_criteria: [gwp, fe]\n");
    expect(startupProblem(file)).toMatch(
      /^EDITIONS_FILE: edition acme: settings.default_criteria: unknown criterion "fe" \(allowed: gwp, adp, pe, /,
    );
  });

  it("a wrong EDITIONS_FILE: built-in id, unknown base, missing folder, bad id, unknown key", () => {
    const entry = (lines: string) => {
      const file = join(scratch, `editions-${++folders}.yml`);
      writeFileSync(file, `editions:\n  - ${lines.trim().split("\n").join("\n    ")}\n`);
      return file;
    };
    const problem = (file: string) => startupProblem(file);
    let file = entry(`id: "2.4.1"\nbase: "2.4.1"\ndata: ${scratch}`);
    expect(problem(file)).toBe(
      `invalid configuration: EDITIONS_FILE ${file}: editions.0.id: "2.4.1" is a built-in edition's id`,
    );
    file = entry(`id: acme\nbase: "3.0"\ndata: ${scratch}`);
    expect(problem(file)).toBe(
      `invalid configuration: EDITIONS_FILE ${file}: editions.0.base: unknown edition "3.0" (allowed: 1.2.4, 2.4.1)`,
    );
    file = entry(`id: acme\nbase: "1.2.4"\ndata: ${scratch}/nowhere`);
    expect(problem(file)).toBe(
      `invalid configuration: EDITIONS_FILE ${file}: editions.0.data: no such folder ${scratch}/nowhere`,
    );
    file = entry(`id: Acme\nbase: "1.2.4"\ndata: ${scratch}`);
    expect(problem(file)).toMatch(/editions\.0\.id: expected lower-case letters, digits/);
    file = entry(`id: acme\nbase: "1.2.4"\ndata: ${scratch}\ncolour: blue`);
    expect(problem(file)).toMatch(/editions\.0: Unrecognized key: "colour"/);
    expect(problem(join(scratch, "absent.yml"))).toBe(
      `invalid configuration: EDITIONS_FILE ${join(scratch, "absent.yml")}: no such file`,
    );
  });

  it("EDITION may name a custom edition", () => {
    const { file } = dataSet(() => undefined);
    const config = loadConfig({ EDITIONS_FILE: file, EDITION: "acme" });
    const app = createApp({ ...appOptionsOf(config) });
    expect(app.service.defaultEdition).toBe("acme");
  });
});

describe("the real start", () => {
  it("stops with exit code 2 and one line on stderr, before listening", async () => {
    const { dir, file } = dataSet((dir) => writeFileSync(join(dir, "archetypes/cloud/aws.csv"), ""));
    const service = startService({ EDITIONS_FILE: file });
    expect(await service.exited).toEqual({ code: 2, signal: null });
    expect(service.stderrLines.filter((line) => line.trim() !== "")).toEqual([
      `invalid data: ${dir}/archetypes/cloud/aws.csv:1: empty file, expected a header with the columns id, vcpu, memory, ssd_storage, hdd_storage, platform`,
    ]);
    expect(service.lines.some((line) => line.startsWith("listening on"))).toBe(false);
  }, 60_000);
});
