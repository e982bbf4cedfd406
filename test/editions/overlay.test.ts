/**
 * Overlay editions (EDITIONS_FILE `overlay: true`, docs/own-data.md): a folder holding only what
 * changes — one electricity factor, a few instance types added, changed or removed, one cell of a
 * server archetype — answers the change and the base's numbers everywhere else.
 */
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/main.js";
import { type LoadedEdition, loadEditions, StartupDataError } from "../../src/config/referenceData.js";
import { loadConfig } from "../../src/config/serviceConfig.js";
import { lazyApp, testConfig } from "../support/app.js";
import { call } from "../support/rest.js";

const scratch = mkdtempSync(join(tmpdir(), "overlay-"));
let folders = 0;

/** A folder of the given files and an EDITIONS_FILE serving it as `acme` over 2.4.1. */
function overlayEdition(files: Record<string, string>, overlay = true): string {
  const dir = join(scratch, `set-${++folders}`);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, ".."), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const file = join(scratch, `editions-${folders}.yml`);
  writeFileSync(
    file,
    `editions:\n  - id: acme\n    base: "2.4.1"\n    data: ${dir}\n${overlay ? "    overlay: true\n" : ""}`,
  );
  return file;
}

const file = overlayEdition({
  "factors.yml": "electricity:\n  FRA:\n    gwp:\n      value: 0.5\n",
  "archetypes/cloud/aws.csv": [
    "id,vcpu,memory,platform,overlay",
    // Changed: a1.large's memory (its empty cells and the columns not named are the base's).
    "a1.large,,64,,",
    // Added, after the base's rows.
    "acme.big,16,64,platform_compute_high,",
    // Removed.
    "a1.medium,,,,remove",
  ].join("\n"),
  "archetypes/server.csv": "id,CPU.units\nplatform_compute_low,4;2;8\n",
});
// The new row lacks vcpu: the merged table is checked as a whole (an added row has every column).
const broken = overlayEdition({ "archetypes/cloud/aws.csv": "id,memory\nacme.big,4\n" });
const app = lazyApp(() => createApp(testConfig({ EDITIONS_FILE: file })));

const cpuUse = async (edition: string, location: string) => {
  const body = { usage: { avg_power: 100, usage_location: location } };
  const url = `/v1/component/cpu?verbose=false&criteria=gwp&duration=1000&edition=${edition}`;
  const answer = await call(app, "POST", url, body);
  expect(answer.status).toBe(200);
  return answer.body.impacts.gwp.use;
};

describe("an overlay edition", () => {
  it("answers the changed electricity factor (100 W for 1,000 h in France: 100 kWh × 0.5)", async () => {
    expect((await cpuUse("acme", "FRA")).value).toBe(50);
    expect((await cpuUse("2.4.1", "FRA")).value).not.toBe(50);
  });

  it("answers the base's factors elsewhere, and keeps the changed factor's other fields", async () => {
    for (const location of ["DEU", "USA", "EEE"]) {
      expect(await cpuUse("acme", location)).toEqual(await cpuUse("2.4.1", location));
    }
    const acme = app.service.editions.get("acme")?.data;
    const base = app.service.editions.get("2.4.1")?.data;
    const fra = acme?.electricity.byLocation.get("FRA")?.factors.get("gwp");
    expect(fra).toEqual({ ...base?.electricity.byLocation.get("FRA")?.factors.get("gwp"), value: 0.5 });
    // Untouched locations are the base's very objects.
    const factors = (data: typeof acme) =>
      (data?.factors as { electricity?: Record<string, unknown> } | undefined)?.electricity?.DEU;
    expect(factors(acme)).toBeDefined();
    expect(factors(acme)).toBe(factors(base));
  });

  it("adds, changes and removes rows by id; the other rows and tables are the base's", async () => {
    const listed = await call(app, "GET", "/v1/cloud/instance/all_instances?provider=aws&edition=acme");
    const base = await call(app, "GET", "/v1/cloud/instance/all_instances?provider=aws&edition=2.4.1");
    expect(listed.body).toEqual([...base.body.filter((id: string) => id !== "a1.medium"), "acme.big"]);
    const acme = app.service.editions.get("acme")?.data;
    const aws = acme?.cloudInstances.get("aws")?.byId;
    expect(aws?.get("a1.large")?.cells).toMatchObject({
      vcpu: { default: 2 },
      memory: { default: 64 },
      platform: { default: "a1.metal" },
    });
    expect(acme?.cloudInstances.get("azure")).toBe(
      app.service.editions.get("2.4.1")?.data.cloudInstances.get("azure"),
    );
    // An unchanged instance type answers as in the base.
    const url = "/v1/cloud/instance?verbose=false&criteria=gwp&instance_type=a1.xlarge&provider=aws&edition=";
    expect((await call(app, "GET", `${url}acme`)).body).toEqual((await call(app, "GET", `${url}2.4.1`)).body);
  });

  it("changes one cell of a server archetype (the value;min;max syntax), keeping its others", async () => {
    const { body } = await call(
      app,
      "GET",
      "/v1/server/?criteria=gwp&archetype=platform_compute_low&edition=acme",
    );
    expect(body.verbose["CPU-1"].units).toEqual({ value: 4, status: "ARCHETYPE", min: 2, max: 8 });
    const base = await call(
      app,
      "GET",
      "/v1/server/?criteria=gwp&archetype=platform_compute_low&edition=2.4.1",
    );
    expect(body.verbose["RAM-1"]).toEqual(base.body.verbose["RAM-1"]);
  });
});

/** The one line the start stops with. */
function problem(files: Record<string, string>, overlay = true): string {
  try {
    loadEditions(loadConfig({ EDITIONS_FILE: overlayEdition(files, overlay) }).customEditions);
  } catch (error) {
    if (error instanceof StartupDataError) return error.message;
    throw error;
  }
  throw new Error("accepted");
}

describe("an overlay's mistakes stop the start with one line", () => {
  const at = () => join(scratch, `set-${folders}`);

  it("a row checked as merged: an added instance type without its vcpu", () => {
    expect(() => loadEditions(loadConfig({ EDITIONS_FILE: broken }).customEditions)).toThrow(
      new StartupDataError(`${join(scratch, "set-2")}/archetypes/cloud/aws.csv:2:vcpu: empty cell`),
    );
  });

  it("an overlay file without the key column, an unknown action, a removal of nothing", () => {
    expect(problem({ "archetypes/server.csv": "name,CPU.units\nx,2\n" })).toBe(
      `${at()}/archetypes/server.csv:1:id: missing column (an overlay's rows are matched to the base's by id)`,
    );
    expect(problem({ "archetypes/server.csv": "id,overlay\nplatform_compute_low,delete\n" })).toBe(
      `${at()}/archetypes/server.csv:2:overlay: expected "remove" or an empty cell, found "delete"`,
    );
    expect(problem({ "archetypes/server.csv": "id,overlay\nno_such_server,remove\n" })).toBe(
      `${at()}/archetypes/server.csv:2: removes no row of the base's table`,
    );
    expect(problem({ "factors.yml": "electricity:\n  XXX: ~\n" })).toBe(
      `${at()}/factors.yml:electricity:XXX: removes nothing (not in the base's)`,
    );
  });

  it("without the opt-in, a factors.yml of one factor is the whole file, as before", () => {
    // No component sections, no default location EEE: the whole-file reading refuses it at the
    // first section a served component kind reads.
    expect(problem({ "factors.yml": "electricity:\n  FRA:\n    gwp:\n      value: 0.5\n" }, false)).toBe(
      'edition acme: factors.yml has no "cpu" section, which component kind cpu reads',
    );
  });
});

describe("a data folder mounted as Kubernetes mounts a ConfigMap", () => {
  it("its top-level names are links into a hidden folder: read, and no file reported unread", () => {
    const dir = join(scratch, "mounted");
    const hidden = join(dir, "..2026_11_24_00_00_00.000000001");
    mkdirSync(join(hidden, "archetypes/cloud"), { recursive: true });
    writeFileSync(
      join(hidden, "archetypes/cloud/aws.csv"),
      "id,vcpu,memory,ssd_storage,hdd_storage,platform\nacme.small,2,8,0,0,platform_compute_low\n",
    );
    symlinkSync("..2026_11_24_00_00_00.000000001", join(dir, "..data"));
    symlinkSync("..data/archetypes", join(dir, "archetypes"));
    const file = join(scratch, "mounted.yml");
    writeFileSync(file, `editions:\n  - id: acme\n    base: "2.4.1"\n    data: ${dir}\n`);
    const acme = loadEditions(loadConfig({ EDITIONS_FILE: file }).customEditions).at(-1) as LoadedEdition;
    expect(acme.data.cloudInstances.get("aws")?.ids).toEqual(["acme.small"]);
    expect(acme.warnings).toEqual([]);
    // A stray file under the link is reported by its path in the folder.
    writeFileSync(join(hidden, "archetypes/aws.csv"), "id\n");
    const again = loadEditions(loadConfig({ EDITIONS_FILE: file }).customEditions).at(-1) as LoadedEdition;
    expect(again.warnings).toEqual([
      `edition acme: ${dir}/archetypes/aws.csv: not read (not a file of edition 2.4.1's data layout, docs/own-data.md)`,
    ]);
  });
});
