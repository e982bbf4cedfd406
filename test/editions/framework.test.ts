/**
 * The edition framework: both editions loaded by one process, chosen per request (REST `edition`
 * query parameter, GraphQL `edition` argument), the service default from `EDITION`, and the typed
 * data copies being byte-for-byte copies of the raw reference files kept in the repository, and
 * their tables stored parsed (tables.json) as the loader parses the copies.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/app/main.js";
import { dataFolder } from "../../src/data/folder.js";
import { editionDataDir, parseCsvFile } from "../../src/data/load.js";
import {
  DEFAULT_EDITION_ID,
  defaultEditionFromEnv,
  EDITION_IDS,
  EDITIONS,
  editionById,
  UnknownEditionError,
} from "../../src/editions/index.js";
import { SettingsError, settingsWithOverrides } from "../../src/editions/servedRules.js";
import { sharedApp, testConfig } from "../support/app.js";
import { permitted } from "../support/editions.js";
import { graphqlClient } from "../support/graphql.js";
import { call } from "../support/rest.js";

const app = sharedApp();
const graphql = graphqlClient(app);

describe("edition descriptions", () => {
  it("each edition has a distinct id and GraphQL name", () => {
    expect(new Set(EDITIONS.map((e) => e.id)).size).toBe(EDITIONS.length);
    expect(new Set(EDITIONS.map((e) => e.graphqlName)).size).toBe(EDITIONS.length);
    // A built-in edition is a boaviztapi version, named V<major>_<minor>_<patch> in GraphQL, oldest first.
    for (const edition of EDITIONS) {
      expect(edition.id).toMatch(/^\d+\.\d+\.\d+$/);
      expect(edition.graphqlName).toBe(`V${edition.id.replaceAll(".", "_")}`);
    }
    const versions = EDITIONS.map((e) => e.id.split(".").map(Number));
    const ordered = [...versions].sort((a, b) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2]);
    expect(versions).toEqual(ordered);
  });

  it("EDITION defaults to 1.2.4, accepts each id and rejects others naming the allowed values", () => {
    expect(defaultEditionFromEnv({})).toBe("1.2.4");
    expect(defaultEditionFromEnv({ EDITION: "" })).toBe(DEFAULT_EDITION_ID);
    expect(defaultEditionFromEnv({ EDITION: "2.4.1" })).toBe("2.4.1");
    expect(defaultEditionFromEnv({ EDITION: " 1.2.4 " })).toBe("1.2.4");
    expect(() => defaultEditionFromEnv({ EDITION: "2.4" })).toThrow(UnknownEditionError);
    expect(() => defaultEditionFromEnv({ EDITION: "v2.4.1" })).toThrow(/allowed values: 1\.2\.4, 2\.4\.1/);
  });

  it("the typed copies are byte-for-byte copies of the raw reference files (npm run data)", () => {
    for (const edition of EDITIONS) {
      for (const table of edition.dataSet.tables) {
        const raw = readFileSync(
          new URL(`../../data/raw/${edition.dataSet.raw}/${table.file}`, import.meta.url),
        );
        const copy = readFileSync(new URL(`../../data/${edition.id}/${table.file}`, import.meta.url));
        expect(copy.equals(raw), `${edition.id}/${table.file}`).toBe(true);
      }
    }
  });

  it("each built-in data set's tables.json holds every CSV table as the loader parses it (npm run data)", () => {
    for (const edition of EDITIONS) {
      const dir = editionDataDir(edition);
      const stored = dataFolder(dir, null).stored;
      const parsing = dataFolder(dir, null, false);
      const csvFiles = edition.dataSet.tables
        .map((table) => table.file)
        .filter((file) => file.endsWith(".csv"));
      expect(csvFiles.length, edition.id).toBeGreaterThan(5);
      expect([...(stored?.keys() ?? [])].sort(), edition.id).toEqual([...csvFiles].sort());
      // What the loader reads of a parsed table: its header, and each row's line and cells in the
      // parser's key order
      const read = ({ header, records }: ReturnType<typeof parseCsvFile>) => ({
        header,
        rows: records.map(({ record, info }) => [info.lines, Object.entries(record)]),
      });
      for (const file of csvFiles) {
        const table = stored?.get(file);
        expect(table && read(table), `${edition.id}/${file}`).toStrictEqual(
          read(parseCsvFile(parsing, file)),
        );
      }
    }
  });

  it("2.4.1 settings are compiled in (no config.yml) with the same defaults as 1.2.4 (docs/methodology.md §19.1.2)", () => {
    const v1 = app.service.editions.get("1.2.4")?.data.config;
    const v2 = app.service.editions.get("2.4.1")?.data.config;
    expect(editionById("2.4.1").dataSet.tables.some((t) => t.file === "config.yml")).toBe(false);
    expect(v2?.defaultLocation).toBe(v1?.defaultLocation);
    expect(v2?.cpuNameFuzzyThreshold).toBe(v1?.cpuNameFuzzyThreshold);
    for (const [kind, id] of Object.entries(v1?.defaultArchetypes ?? {})) {
      expect(v2?.defaultArchetypes[kind], kind).toBe(id);
    }
    expect(v2?.defaultArchetypes.vr_headset).toBe("vr-headset-lcd");
    expect(v2?.gpuNameFuzzyThreshold).toBe(80);
    expect(v1?.gpuNameFuzzyThreshold).toBeNull();
  });
});

describe("per-request edition through REST", () => {
  it("one process answers each edition's data set", async () => {
    const byDefault = await call(app, "GET", "/v1/cloud/instance/all_providers");
    const v124 = await call(app, "GET", "/v1/cloud/instance/all_providers?edition=1.2.4");
    const v241 = await call(app, "GET", "/v1/cloud/instance/all_providers?edition=2.4.1");
    expect(byDefault).toEqual({ status: 200, body: ["aws"] });
    expect(v124).toEqual(byDefault);
    expect(v241).toEqual({ status: 200, body: ["aws", "azure", "gcp", "ovhcloud", "scaleway"] });
  });

  it("the edition reaches evaluations (an instance type added in 2.4.1 is unknown to 1.2.4)", async () => {
    const types = await call(app, "GET", "/v1/cloud/instance/all_instances?provider=aws&edition=2.4.1");
    const old = await call(app, "GET", "/v1/cloud/instance/all_instances?provider=aws");
    const added = (types.body as string[]).find((t) => !(old.body as string[]).includes(t));
    expect(added).toBeDefined();
    const url = `/v1/cloud/instance?provider=aws&instance_type=${added}&verbose=false&criteria=gwp`;
    expect((await call(app, "GET", url)).status).toBe(404);
    expect((await call(app, "GET", `${url}&edition=2.4.1`)).status).toBe(200);
  });

  it("an unknown edition is a 422 naming the parameter and the allowed values", async () => {
    for (const url of [
      "/v1/server/?edition=3.0",
      "/v1/utils/country_code?edition=",
      "/v1/cloud/instance/all_providers?edition=latest",
    ]) {
      const answer = await call(app, "GET", url);
      expect(answer.status, url).toBe(422);
      expect(answer.body.detail[0].loc).toEqual(["query", "edition"]);
      // Worded as pydantic 1 words an enum (the default edition's dialect: the request's is unknown).
      expect(answer.body.detail[0]).toEqual({
        loc: ["query", "edition"],
        msg: `value is not a valid enumeration member; permitted: ${permitted(EDITION_IDS)}`,
        type: "type_error.enum",
        ctx: { enum_values: EDITION_IDS },
      });
    }
    const posted = await call(app, "POST", "/v1/component/ram?edition=x", { units: 2 });
    expect(posted.status).toBe(422);
  });
});

describe("per-request edition through GraphQL", () => {
  it("root fields take a typed edition argument; one request may ask both editions", async () => {
    const { data, errors } = await graphql(`{
      old: cloudProviders { name }
      v124: cloudProviders(edition: V1_2_4) { name }
      v241: cloudProviders(edition: V2_4_1) { name }
      serverArchetypes(edition: V2_4_1)
    }`);
    expect(errors).toBeUndefined();
    expect(data.old).toEqual([{ name: "aws" }]);
    expect(data.v124).toEqual(data.old);
    expect(data.v241.map((p: { name: string }) => p.name)).toEqual([
      "aws",
      "azure",
      "gcp",
      "ovhcloud",
      "scaleway",
    ]);
    expect(data.serverArchetypes.length).toBeGreaterThan(200);
  });

  it("an unknown edition is a validation error naming the enum", async () => {
    const { data, errors } = await graphql(`{ cloudProviders(edition: V9) { name } }`);
    expect(data).toBeUndefined();
    expect(errors?.[0].message).toMatch(/Edition/);
    expect(errors?.[0].extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("every root field that evaluates or lists takes the edition argument", () => {
    const query = app.schema.getQueryType();
    // Generative-AI usage is evaluated in its own edition, EcoLogits' release, whatever Boavizta
    // edition a request names (docs/methodology.md, "Generative AI"): its fields take none.
    const fields = Object.values(query?.getFields() ?? {}).filter(
      (field) => !field.name.startsWith("generativeAi"),
    );
    expect(fields.length).toBeGreaterThan(20);
    for (const field of fields) {
      const arg = field.args.find((a) => a.name === "edition");
      expect(arg, field.name).toBeDefined();
      expect(String(arg?.type), field.name).toBe("Edition");
      expect(arg?.description, field.name).toBeTruthy();
    }
  });
});

describe("the service default edition", () => {
  it("EDITION=2.4.1 makes requests without an edition answer 2.4.1, and 1.2.4 stays reachable", async () => {
    const app241 = createApp(testConfig({ EDITION: "2.4.1" }));
    expect((await call(app241, "GET", "/v1/cloud/instance/all_providers")).body).toHaveLength(5);
    expect((await call(app241, "GET", "/v1/cloud/instance/all_providers?edition=1.2.4")).body).toEqual([
      "aws",
    ]);
    const { data } = await graphqlClient(app241)(`{ cloudProviders { name } }`);
    expect(data.cloudProviders).toHaveLength(5);
  });
});

describe("2.4.1 settings overrides (docs/methodology.md §19.1.2)", () => {
  const base = editionById("2.4.1").settings;
  if (!("values" in base)) throw new Error("2.4.1 settings are compiled in");

  it("BOAVIZTA_<KEY> overrides a setting; other variables are ignored", () => {
    const settings = settingsWithOverrides(base.values, "BOAVIZTA_", {
      BOAVIZTA_DEFAULT_SERVER: "dellR740",
      BOAVIZTA_CPU_NAME_FUZZYMATCH_THRESHOLD: "60",
      BOAVIZTA_DEFAULT_CRITERIA: '["gwp","pe"]',
      BOAVIZTA_UNKNOWN: "x",
      DEFAULT_SERVER: "ignored",
    });
    expect(settings.defaultArchetypes.server).toBe("dellR740");
    expect(settings.cpuNameFuzzyThreshold).toBe(60);
    expect(settings.defaultCriteria).toEqual(["gwp", "pe"]);
    expect(settings.defaultArchetypes.cpu).toBe("DEFAULT");
    expect(settingsWithOverrides(base.values, "BOAVIZTA_", {})).toEqual(base.values);
  });

  it("an unreadable value names its variable", () => {
    expect(() =>
      settingsWithOverrides(base.values, "BOAVIZTA_", { BOAVIZTA_GPU_NAME_FUZZYMATCH_THRESHOLD: "high" }),
    ).toThrow(/BOAVIZTA_GPU_NAME_FUZZYMATCH_THRESHOLD: expected a number/);
    expect(() =>
      settingsWithOverrides(base.values, "BOAVIZTA_", { BOAVIZTA_DEFAULT_CRITERIA: "gwp" }),
    ).toThrow(SettingsError);
  });

  it("the overrides reach the 2.4.1 edition only, in the service that read them", async () => {
    const custom = createApp(testConfig({ EDITION: "1.2.4", BOAVIZTA_DEFAULT_SERVER: "dellR740" }));
    const v2 = await call(custom, "GET", "/v1/server/?verbose=false&criteria=gwp&edition=2.4.1");
    const dell = await call(
      custom,
      "GET",
      "/v1/server/?verbose=false&criteria=gwp&edition=2.4.1&archetype=dellR740",
    );
    expect(v2.body).toEqual(dell.body);
    const v1 = await call(custom, "GET", "/v1/server/?verbose=false&criteria=gwp");
    const v1Dell = await call(custom, "GET", "/v1/server/?verbose=false&criteria=gwp&archetype=dellR740");
    expect(v1.body).not.toEqual(v1Dell.body);
  });
});
