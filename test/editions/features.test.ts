/**
 * An edition's features are data of its description, checked against its data and rules
 * at start-up (src/editions/features.ts), and the schema's availability texts are made from them.
 */

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { type LoadedEdition, loadEditions, StartupDataError } from "../../src/config/referenceData.js";
import { customEdition } from "../../src/editions/custom.js";
import { availability, editionsWhere, featureProblems } from "../../src/editions/features.js";
import { EDITIONS } from "../../src/editions/index.js";
import type { EditionDescription } from "../../src/editions/types.js";
import { EDITION_1_2_4 } from "../../src/editions/v1_2_4.js";
import { EDITION_2_4_1 } from "../../src/editions/v2_4_1.js";
import { EDITION_2_5_0 } from "../../src/editions/v2_5_0.js";

let loaded: LoadedEdition[];
beforeAll(() => {
  loaded = loadEditions();
}, 60_000);

function dataOf(id: string) {
  return (loaded.find((entry) => entry.edition.id === id) as LoadedEdition).data;
}

describe("edition features", () => {
  it("the built-in editions' data and rules bear out their features", () => {
    for (const edition of EDITIONS) expect(featureProblems(edition, dataOf(edition.id))).toEqual([]);
    expect(EDITION_1_2_4.features).toEqual({
      gpus: false,
      cloudRegions: false,
      assemblyComponent: true,
      vrDevices: false,
      finalEnergy: false,
    });
    expect(EDITION_2_4_1.features).toEqual({
      gpus: true,
      cloudRegions: true,
      assemblyComponent: false,
      vrDevices: true,
      finalEnergy: true,
    });
  });

  it("a feature declared without its data, or data without its feature, is named", () => {
    const claimsGpus: EditionDescription = {
      ...EDITION_1_2_4,
      features: { ...EDITION_1_2_4.features, gpus: true },
    };
    expect(featureProblems(claimsGpus, dataOf("1.2.4"))).toEqual([
      "edition 1.2.4 declares GPUs but lacks a GPU archetype table (archetypes/components/gpu.csv), " +
        "GPU models (crowdsourcing/gpu_specs.csv) and a GPU name threshold",
    ]);
    const hidesRegions: EditionDescription = {
      ...EDITION_2_4_1,
      features: { ...EDITION_2_4_1.features, cloudRegions: false, finalEnergy: false },
    };
    expect(featureProblems(hidesRegions, dataOf("2.4.1"))).toEqual([
      "edition 2.4.1 does not declare cloud regions but has a cloud regions table (archetypes/cloud/regions.csv)",
      "edition 2.4.1 does not declare criterion fe but has criterion fe among its criteria",
    ]);
  });

  it("a custom edition inherits its base's features, checked against its data at start-up", () => {
    const folder = mkdtempSync(join(tmpdir(), "features-"));
    const acme = customEdition(EDITION_2_4_1, "acme", folder, {});
    expect(acme.features).toEqual(EDITION_2_4_1.features);
    const loadedAcme = loadEditions([acme]).find((entry) => entry.edition.id === "acme");
    expect(loadedAcme?.data.cloudRegions).not.toBeNull();
    const wrong = { ...customEdition(EDITION_1_2_4, "old", folder, {}), features: EDITION_2_4_1.features };
    expect(() => loadEditions([wrong])).toThrow(StartupDataError);
    expect(() => loadEditions([wrong])).toThrow(/^edition old declares GPUs but lacks/);
  });

  it("availability texts name the editions from their features", () => {
    // Worked on three editions given, so that a new edition in the registry changes no figure here.
    const three = [EDITION_1_2_4, EDITION_2_4_1, EDITION_2_5_0];
    expect(availability("gpus", three)).toBe(
      "Only in editions with GPUs (2.4.1, 2.5.0 and custom editions based on them).",
    );
    expect(availability("assemblyComponent", three)).toBe(
      "Only in editions with the assembly component (1.2.4 and custom editions based on it).",
    );
    expect(editionsWhere((edition) => edition.rules.dieSizeInput === "honoured", three)).toBe(
      "2.4.1 and 2.5.0",
    );
    expect(editionsWhere(() => true, three)).toBe("1.2.4, 2.4.1 and 2.5.0");
  });
});
