/**
 * Every setting changes the answers (docs/own-data.md): default criteria, the rounding
 * settings, the three name-matching thresholds and the default archetypes, through an
 * EDITIONS_FILE entry's `settings` (custom editions over an empty folder: the base's tables with
 * other settings) and through the environment (`BOAVIZTA_<KEY>`, edition 2.4.1).
 *
 * The worked example: a CPU of given power 123.4 W for 1,000 h (docs/methodology.md §5), at the
 * default location EEE of the published data: value 0.1234 × 1000 × 0.38 = 46.892 kgCO2eq, min
 * and max with the global bounds 0.023 and 1.13161: 2.8382 and 139.640674. In France (an input
 * location: min = max = value) 0.1234 × 1000 × 0.098 = 12.0932.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/app/main.js";
import { lazyApp, testConfig } from "../support/app.js";
import { call, UNCERTAINTY } from "../support/rest.js";

const empty = mkdtempSync(join(tmpdir(), "settings-"));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const EDITIONS: Record<string, [base: string, settings: string]> = {
  criteria: ["1.2.4", "default_criteria: [gwp]"],
  uncertainty1: ["1.2.4", "uncertainty: 1"],
  uncertainty01: ["1.2.4", "uncertainty: 0.1"],
  uncertainty100: ["1.2.4", "uncertainty: 100"],
  "min-sig-fig": ["1.2.4", "{uncertainty: 100, min_sig_fig: 2}"],
  "max-sig-fig": ["1.2.4", "max_sig_fig: 2"],
  "cpu-threshold": ["1.2.4", "cpu_name_fuzzymatch_threshold: 60"],
  "gpu-threshold": ["2.4.1", "gpu_name_fuzzymatch_threshold: 60"],
  "cloud-threshold": ["2.4.1", "cloud_instance_name_fuzzymatch_threshold: 95"],
  "default-server": ["1.2.4", "default_server: dellR740"],
  "default-location": ["1.2.4", "default_location: FRA"],
};
const editionsFile = join(empty, "editions.yml");
writeFileSync(
  editionsFile,
  `editions:\n${Object.entries(EDITIONS)
    .map(([id, [base, settings]]) => {
      const body = settings.startsWith("{") ? settings : `{${settings}}`;
      return `  - {id: ${id}, base: "${base}", data: ${empty}, settings: ${body}}\n`;
    })
    .join("")}`,
);

const app = lazyApp(() => createApp(testConfig({ EDITIONS_FILE: editionsFile })));

/** The gwp use of the worked example's CPU in an edition (EEE unless a location is given). */
async function cpuUse(edition: string, location?: string, theApp = app) {
  const usage = { avg_power: 123.4, ...(location ? { usage_location: location } : {}) };
  const answer = await call(
    theApp,
    "POST",
    `/v1/component/cpu?verbose=false&criteria=gwp&duration=1000&edition=${edition}`,
    { usage },
  );
  expect(answer.status).toBe(200);
  return answer.body.impacts.gwp.use;
}

describe("settings of a custom edition take effect", () => {
  it("default_criteria: a request naming no criteria gets those", async () => {
    expect(
      Object.keys((await call(app, "GET", "/v1/component/ram?verbose=false&edition=criteria")).body.impacts),
    ).toEqual(["gwp"]);
    expect(
      Object.keys((await call(app, "GET", "/v1/component/ram?verbose=false&edition=1.2.4")).body.impacts),
    ).toEqual(["gwp", "adp", "pe"]);
  });

  it("uncertainty: the value keeps the digits above (max − min) × uncertainty / 100 (§12.3)", async () => {
    // 10 %: Δ = 13.68 → rounded at tens → 50; 1 %: Δ = 1.368 → units → 47; 0.1 %: tenths → 46.9.
    expect(await cpuUse("1.2.4")).toEqual({ value: 50, min: 2.838, max: 139.6 });
    expect(await cpuUse("uncertainty1")).toEqual({ value: 47, min: 2.838, max: 139.6 });
    expect(await cpuUse("uncertainty01")).toEqual({ value: 46.9, min: 2.838, max: 139.6 });
  });

  it("min_sig_fig: the figures of a value the uncertainty swallows", async () => {
    // 100 %: Δ = 136.8 → rounded at hundreds → 0: the raw 46.892 to min_sig_fig figures, warned.
    expect(await cpuUse("uncertainty100")).toEqual({
      value: 50,
      min: 2.838,
      max: 139.6,
      warnings: [UNCERTAINTY],
    });
    expect(await cpuUse("min-sig-fig")).toEqual({
      value: 47,
      min: 2.838,
      max: 139.6,
      warnings: [UNCERTAINTY],
    });
  });

  it("max_sig_fig: the figures of min, max and a value without uncertainty", async () => {
    expect(await cpuUse("1.2.4", "FRA")).toEqual({ value: 12.09, min: 12.09, max: 12.09 });
    expect(await cpuUse("max-sig-fig", "FRA")).toEqual({ value: 12, min: 12, max: 12 });
    expect(await cpuUse("max-sig-fig")).toEqual({ value: 50, min: 2.8, max: 140 });
  });

  it("cpu_name_fuzzymatch_threshold: a name scoring 78 (token set ratio) matches at 60, not at 80", async () => {
    // "xeon 6134 zzzz" against "Intel Xeon Gold 6134": common "6134 xeon" (9 characters), with
    // "zzzz": 2 × 9 / (9 + 14) = 78.3.
    const url = "/v1/utils/name_to_cpu?cpu_name=xeon%206134%20zzzz&edition=";
    expect((await call(app, "GET", `${url}1.2.4`)).body).toBe(
      "CPU name xeon 6134 zzzz is not found in our database",
    );
    expect((await call(app, "GET", `${url}cpu-threshold`)).body.name).toMatch(/Xeon.*6134/);
  });

  it("gpu_name_fuzzymatch_threshold: matches at 60, not at 80", async () => {
    // "nvidia 1080 zzzzzz": against "NVIDIA GTX 1080 Ti" common "1080 nvidia" (11), 2 × 11 / 29 = 75.9;
    // against "NVIDIA L4" common "nvidia" (6) with "nvidia l4" (9), 2 × 6 / 15 = 80, the best, which
    // must be above the threshold.
    const url = "/v1/utils/name_to_gpu?gpu_name=nvidia%201080%20zzzzzz&edition=";
    expect((await call(app, "GET", `${url}2.4.1`)).body).toBe(
      "GPU name nvidia 1080 zzzzzz is not found in our database",
    );
    expect((await call(app, "GET", `${url}gpu-threshold`)).body.name).toBe("NVIDIA L4");
  });

  it("cloud_instance_name_fuzzymatch_threshold: m5.xlarg (94 % like m5.xlarge) is approximate at 80, unknown at 95", async () => {
    const url = "/v1/cloud/instance?provider=aws&instance_type=m5.xlarg&verbose=false&criteria=gwp&edition=";
    const at80 = await call(app, "GET", `${url}2.4.1`);
    expect(at80.status).toBe(200);
    expect(at80.body.warnings).toEqual([
      "Instance 'm5.xlarg' not found; using closest match 'm5.xlarge' (fuzzy match)",
    ]);
    expect((await call(app, "GET", `${url}cloud-threshold`)).status).toBe(404);
  });

  it("default_server: the server of a request naming no archetype", async () => {
    const custom = await call(app, "GET", "/v1/server/?verbose=false&edition=default-server");
    const dell = await call(app, "GET", "/v1/server/?verbose=false&archetype=dellR740&edition=1.2.4");
    const medium = await call(app, "GET", "/v1/server/?verbose=false&edition=1.2.4");
    expect(custom.body).toEqual(dell.body);
    expect(custom.body).not.toEqual(medium.body);
  });

  it("default_location: the location of a usage naming none", async () => {
    // France's factor for the value (12.0932); a default location keeps the global bounds (§5.2):
    // Δ = 13.68 → rounded at tens → 10. At EEE the value is 50 (above).
    expect(await cpuUse("default-location")).toEqual({ value: 10, min: 2.838, max: 139.6 });
  });
});

describe("BOAVIZTA_<KEY> settings of edition 2.4.1 take effect", () => {
  const configured = createApp(
    testConfig({
      BOAVIZTA_DEFAULT_CRITERIA: '["pe"]',
      BOAVIZTA_MAX_SIG_FIG: "2",
      BOAVIZTA_MIN_SIG_FIG: "2",
      BOAVIZTA_UNCERTAINTY: "100",
    }),
  );

  it("default criteria, uncertainty, max and min significant figures", async () => {
    const ram = await call(configured, "GET", "/v1/component/ram?verbose=false&edition=2.4.1");
    expect(Object.keys(ram.body.impacts)).toEqual(["pe"]);
    // France: no range, 12.0932 to 2 figures.
    expect(await cpuUse("2.4.1", "FRA", configured)).toEqual({ value: 12, min: 12, max: 12 });
    // EEE, 100 %: Δ = 136.8; 2.4.1 caps the magnitude at the value's own (tens, §19.2) → 50, with the
    // warning (hundreds would give 0); min and max to 2 figures.
    expect(await cpuUse("2.4.1", undefined, configured)).toEqual({
      value: 50,
      min: 2.8,
      max: 140,
      warnings: [UNCERTAINTY],
    });
    // 1.2.4 keeps its own settings.
    expect(await cpuUse("1.2.4", "FRA", configured)).toEqual({ value: 12.09, min: 12.09, max: 12.09 });
  });

  it("GET /v1/server/ differs from the unconfigured answer", async () => {
    const plain = await call(app, "GET", "/v1/server/?edition=2.4.1");
    const set = await call(configured, "GET", "/v1/server/?edition=2.4.1");
    expect(JSON.stringify(set.body)).not.toBe(JSON.stringify(plain.body));
    expect(Object.keys(set.body.impacts)).toEqual(["pe"]);
  });
});
