/**
 * Data and settings checked whole at start-up (docs/own-data.md): a wrong file, column, cell
 * type or reference, an unknown setting or a bad value stops the start with one line naming file,
 * row and column — through the app factory, and once through the real process (exit code 2).
 */
import { execFileSync } from "node:child_process";
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/main.js";
import { loadEditions, StartupDataError } from "../../src/config/referenceData.js";
import { type Config, ConfigError, loadConfig } from "../../src/config/serviceConfig.js";
import { EDITION_IDS } from "../../src/editions/index.js";
import { testConfig } from "../support/app.js";
import { serviceStarter, startService } from "../support/process.js";

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

/**
 * The editions a case's start can stop on: its custom ones (each loaded over its base), and every
 * built-in one when the environment gives settings, which apply to them too. Without settings the
 * built-in editions pass (the first test below): loading the others again for each case checked
 * nothing new, at half of each case's CPU.
 */
const editionsAtStake = (config: Config): ReadonlySet<string> | null =>
  Object.keys(config.settingsOverrides).length > 0
    ? null
    : new Set(config.customEditions.map((edition) => edition.id));

/** What the start stops with (the configuration's or the data's problem), its message one line. */
function startupError(
  editionsFile: string,
  env: Record<string, string> = {},
): StartupDataError | ConfigError {
  try {
    const config = loadConfig({ EDITIONS_FILE: editionsFile, ...env });
    loadEditions(config.customEditions, config.settingsOverrides, editionsAtStake(config));
  } catch (error) {
    if (error instanceof StartupDataError || error instanceof ConfigError) {
      expect(error.message).not.toContain("\n");
      return error;
    }
    throw error;
  }
  throw new Error("the data set was accepted");
}

/** The one line the start stops with (the configuration's or the data's). */
const startupProblem = (editionsFile: string, env: Record<string, string> = {}): string =>
  startupError(editionsFile, env).message;

/**
 * The line the real start writes on stderr for it: a data problem after "invalid data: ", a
 * configuration problem as it is (src/app/main.ts; "the real start" below checks it on stderr).
 */
function refusalLine(editionsFile: string, env: Record<string, string> = {}): string {
  const error = startupError(editionsFile, env);
  return error instanceof StartupDataError ? `invalid data: ${error.message}` : error.message;
}

const edit = (dir: string, file: string, change: (text: string) => string) =>
  writeFileSync(join(dir, file), change(readFileSync(join(dir, file), "utf8")));

describe("data checked at start-up: one line file:row:column: problem", () => {
  it("the built-in data sets and boaviztapi's test data pass", () => {
    const { file } = dataSet(() => undefined);
    const loaded = loadEditions(loadConfig({ EDITIONS_FILE: file }).customEditions);
    expect(loaded.map((edition) => edition.edition.id)).toEqual([...EDITION_IDS, "acme"]);
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
      `invalid configuration: EDITIONS_FILE ${file}: editions.0.base: unknown edition "3.0" (allowed: ${EDITION_IDS.join(", ")})`,
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
    const config = testConfig({ EDITIONS_FILE: file, EDITION: "acme" });
    const app = createApp(config);
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

/**
 * A custom data folder is an organisation's: whatever it holds, the start reads only regular files
 * inside it, within the bounds, and stops with one line on stderr and exit code 2 (no stack trace,
 * no hang, no heap exhaustion). Through the real process, as an operator meets it, where a
 * regression could hang or fill a heap (FIFOs, a 2 GB file, 10⁶ rows: the process is killed, not
 * the test runner); the other refusals' lines from the start's own check in this process
 * (`refusalLine`: loadConfig, then loadEditions), whose exit code 2 and one line on stderr
 * "the real start" above proves.
 */
describe("the real start refuses a data folder that reads outside itself or past its bounds", () => {
  const start = serviceStarter();

  /** The start's exit and its stderr, which must be one line. */
  async function refusal(file: string, env: Record<string, string> = {}): Promise<string> {
    const service = start({ EDITIONS_FILE: file, ...env });
    expect(await service.exited).toEqual({ code: 2, signal: null });
    const lines = service.stderrLines.filter((line) => line.trim() !== "");
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/\bat .*:\d+:\d+\)?$/);
    expect(service.lines.some((line) => line.startsWith("listening on"))).toBe(false);
    return lines[0];
  }

  // A folder outside the data folder, with a file the start must never serve.
  const outside = join(scratch, "outside");
  mkdirSync(outside, { recursive: true });
  writeFileSync(
    join(outside, "notes.csv"),
    "id,vcpu,memory,ssd_storage,hdd_storage,platform\nsecret,1,1,0,0,x\n",
  );

  it("a provider name that climbs out of the folder", () => {
    const { dir, file } = dataSet((dir) =>
      writeFileSync(
        join(dir, "archetypes/cloud/providers.csv"),
        `provider.name,provider.description\naws,AWS\n../../../../../../../..${outside}/notes,x\n`,
      ),
    );
    expect(refusalLine(file)).toBe(
      `invalid data: ${dir}/archetypes/cloud/providers.csv:provider.name: "../../../../../../../../tmp/startup-" is not a file name (letters, digits, '_', '-', '.', not first)`.replace(
        "../../../../../../../../tmp/startup-",
        `../../../../../../../..${outside}`.slice(0, 40),
      ),
    );
  }, 60_000);

  it("a table that is a symbolic link leading outside the folder", () => {
    const { dir, file } = dataSet((dir) => {
      unlinkSync(join(dir, "archetypes/cloud/aws.csv"));
      symlinkSync(join(outside, "notes.csv"), join(dir, "archetypes/cloud/aws.csv"));
    });
    expect(refusalLine(file)).toBe(
      `invalid data: ${dir}/archetypes/cloud/aws.csv: a symbolic link leading outside the data folder ${dir}`,
    );
  }, 60_000);

  it("a folder symlinked out: the tables under it are outside too", () => {
    const { dir, file } = dataSet((dir) => {
      rmSync(join(dir, "crowdsourcing"), { recursive: true });
      cpSync(join(TESTDATA, "crowdsourcing"), join(outside, "crowdsourcing"), { recursive: true });
      symlinkSync(join(outside, "crowdsourcing"), join(dir, "crowdsourcing"));
    });
    expect(refusalLine(file)).toMatch(
      new RegExp(
        `^invalid data: ${dir}/crowdsourcing/\\w+\\.csv: a symbolic link leading outside the data folder`,
      ),
    );
  }, 60_000);

  it("a table linked to a FIFO outside the folder: refused before it is opened (no hang)", async () => {
    // The FIFO is made in a temporary folder of its own: opening it would wait for a writer.
    const fifo = join(mkdtempSync(join(tmpdir(), "impact-fifo-")), "endless");
    execFileSync("mkfifo", [fifo]);
    const { dir, file } = dataSet((dir) => {
      unlinkSync(join(dir, "archetypes/server.csv"));
      symlinkSync(fifo, join(dir, "archetypes/server.csv"));
    });
    // Outside the folder first: a link's target is checked before its kind.
    expect(await refusal(file)).toBe(
      `invalid data: ${dir}/archetypes/server.csv: a symbolic link leading outside the data folder ${dir}`,
    );
  }, 60_000);

  it("a FIFO as a table: refused at once, no hang", async () => {
    const { dir, file } = dataSet((dir) => {
      unlinkSync(join(dir, "archetypes/server.csv"));
      execFileSync("mkfifo", [join(dir, "archetypes/server.csv")]);
    });
    expect(await refusal(file)).toBe(
      `invalid data: ${dir}/archetypes/server.csv: a FIFO, expected a regular file`,
    );
  }, 60_000);

  it("a folder where a table should be", () => {
    const { dir, file } = dataSet((dir) => {
      unlinkSync(join(dir, "archetypes/server.csv"));
      mkdirSync(join(dir, "archetypes/server.csv"));
    });
    expect(refusalLine(file)).toBe(
      `invalid data: ${dir}/archetypes/server.csv: a folder, expected a regular file`,
    );
  }, 60_000);

  it("a broken factors.json", () => {
    const { dir, file } = dataSet((dir) => writeFileSync(join(dir, "factors.json"), '{"electricity": {'));
    expect(refusalLine(file)).toMatch(new RegExp(`^invalid data: ${dir}/factors.json: .*JSON`));
  }, 60_000);

  it("a broken factors.yml", () => {
    const { dir, file } = dataSet((dir) =>
      writeFileSync(join(dir, "factors.yml"), "electricity:\n  FRA: [\n"),
    );
    expect(refusalLine(file)).toMatch(new RegExp(`^invalid data: ${dir}/factors.yml:\\d+: `));
  }, 60_000);

  it("a 2 GB CSV: its size refused before a byte is read", async () => {
    const { dir, file } = dataSet((dir) => truncateSync(join(dir, "crowdsourcing/cpu_specs.csv"), 2 ** 31));
    const line = await refusal(file);
    expect(line).toMatch(
      new RegExp(
        `^invalid data: ${dir}/crowdsourcing/cpu_specs.csv: 2147483648 bytes, more than the \\d+ left of MAX_CUSTOM_DATA_BYTES=16777216 \\(the bytes of every custom data folder together\\)$`,
      ),
    );
  }, 60_000);

  it("a 10⁶-row aws.csv: refused at the row bound, not by the heap", async () => {
    const { dir, file } = dataSet((dir) => {
      const rows = "a,1,1,0,0,p\n".repeat(1_000_000);
      writeFileSync(
        join(dir, "archetypes/cloud/aws.csv"),
        `id,vcpu,memory,ssd_storage,hdd_storage,platform\n${rows}`,
      );
    });
    expect(await refusal(file)).toMatch(
      new RegExp(
        `^invalid data: ${dir}/archetypes/cloud/aws.csv: more than the \\d+ rows left of MAX_CUSTOM_DATA_ROWS=50000 \\(the rows of every custom data folder together\\)$`,
      ),
    );
  }, 60_000);

  it("the bounds are settings: a smaller MAX_CUSTOM_DATA_BYTES refuses the test data", () => {
    const { dir, file } = dataSet(() => undefined);
    // The test data's factors.yml is its largest file, read first.
    expect(refusalLine(file, { MAX_CUSTOM_DATA_BYTES: "4096" })).toMatch(
      new RegExp(
        `^invalid data: ${dir}/factors.yml: \\d+ bytes, more than the 4096 left of MAX_CUSTOM_DATA_BYTES=4096 `,
      ),
    );
    expect(refusalLine(file, { MAX_CUSTOM_YAML_BYTES: "1024" })).toMatch(
      new RegExp(
        `^invalid data: ${dir}/factors.yml: \\d+ bytes, more than MAX_CUSTOM_YAML_BYTES=1024 \\(the bytes of one YAML file; factors.json has no such bound\\)$`,
      ),
    );
    expect(refusalLine(file, { MAX_CUSTOM_DATA_ROWS: "0" })).toMatch(
      /^invalid configuration: MAX_CUSTOM_DATA_ROWS="0" must be at least 1/,
    );
  }, 60_000);

  it("prototype keys in settings and in factors.yml", () => {
    const proto = dataSet(
      () => undefined,
      "    settings:\n      __proto__:\n        default_server: DEFAULT\n",
    );
    expect(refusalLine(proto.file)).toBe(
      `invalid configuration: EDITIONS_FILE ${proto.file}: editions.0.settings.__proto__: "__proto__" is not a key`,
    );
    const ctor = dataSet(() => undefined, "    settings:\n      constructor: 1\n");
    expect(refusalLine(ctor.file)).toBe(
      `invalid configuration: EDITIONS_FILE ${ctor.file}: editions.0.settings.constructor: "constructor" is not a key`,
    );
    const factors = dataSet((dir) =>
      edit(dir, "factors.yml", (text) => `${text}\n__proto__:\n  polluted: true\n`),
    );
    expect(refusalLine(factors.file)).toBe(
      `invalid data: ${factors.dir}/factors.yml:__proto__: "__proto__" is not a key`,
    );
  }, 60_000);

  it("files the edition does not read: a warning each, and the service starts", async () => {
    const { dir, file } = dataSet((dir) => {
      // A table put one folder too high, and a misspelt one.
      cpSync(join(dir, "archetypes/cloud/aws.csv"), join(dir, "archetypes/aws.csv"));
      writeFileSync(join(dir, "archetypes/servers.csv"), "id\nx\n");
    });
    const service = start({ EDITIONS_FILE: file });
    await service.waitFor(/^listening on/);
    const warnings = service.records.filter((record) => record.level === 40).map((record) => record.msg);
    const unread = (name: string) =>
      `edition acme: ${dir}/${name}: not read (not a file of edition 1.2.4's data layout, docs/own-data.md)`;
    // The EDITIONS_FILE inside the folder is no stray file; boaviztapi's own extra files are.
    expect(warnings).toEqual([
      unread("archetypes/aws.csv"),
      unread("archetypes/components/usage.csv"),
      unread("archetypes/servers.csv"),
      unread("crowdsourcing/missing_cpu_manufacture.csv"),
      unread("electricity/electricity_impact_factors.csv"),
    ]);
  }, 60_000);
});
