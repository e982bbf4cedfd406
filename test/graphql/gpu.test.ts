/**
 * GPUs over GraphQL: the `gpu` root field and fleet kind, GPU entries in server inputs, GPU name
 * lookups — each selected per request with the `edition` argument.
 */

import { isEnumType, isInputObjectType, isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { buildSchema } from "../../src/schema/index.js";
import { sharedApp } from "../support/app.js";
import { graphqlClient } from "../support/graphql.js";

const app = sharedApp();
const graphql = graphqlClient(app);

const GWP_EMBEDDED = `impacts(criteria: [gwp]) { embedded { ... on Impact { value min max } ... on NotImplemented { reason } } }`;

describe("gpu asset", () => {
  it("evaluates a GPU in 2.4.1; 1.2.4 answers NOT_FOUND at the field's path", async () => {
    const { data } = await graphql(`{
      gpu(edition: V2_4_1, input: { units: 2, weight: 2.2, vram: 24, vramDies: 12 }) { kind archetype ${GWP_EMBEDDED} }
    }`);
    expect(data.gpu).toEqual({
      kind: "gpu",
      archetype: "DEFAULT",
      impacts: [{ embedded: { value: 477.2, min: 477.2, max: 477.2 } }],
    });
    const old = await graphql("{ gpu(edition: V1_2_4) { kind } }");
    expect(old.errors?.[0]).toMatchObject({ path: ["gpu"], extensions: { code: "NOT_FOUND" } });
  });

  it("takes part in component fleets of 2.4.1", async () => {
    const { data, errors } = await graphql(
      `query($inputs: [ComponentItemInput!]!) {
        components(inputs: $inputs, edition: V2_4_1) { count failed total(criteria: [gwp]) { embedded { value } } }
      }`,
      { inputs: [{ kind: "gpu" }, { kind: "gpu", gpu: { units: 3 } }] },
    );
    expect(errors).toBeUndefined();
    // 4 × 575.0875 kgCO2eq, rounded like an item.
    expect(data.components).toMatchObject({ count: 2, failed: 0, total: [{ embedded: { value: 2300 } }] });
  });

  it("lists the component kinds of each edition", async () => {
    const { data } = await graphql(
      `{ v1: componentKinds(edition: V1_2_4) v2: componentKinds(edition: V2_4_1) }`,
    );
    expect(data.v1).not.toContain("gpu");
    expect(data.v2).toContain("gpu");
    // Assembly is served in 1.2.4 only (an edition rule); GPU exists in 2.4.1 only.
    expect(data.v1).toContain("assembly");
    expect(data.v2).not.toContain("assembly");
    expect([...data.v2].sort()).toEqual([...data.v1.filter((k: string) => k !== "assembly"), "gpu"].sort());
  });
});

describe("server GPU entries", () => {
  it("adds the configured GPUs between the CPU and the RAM, with their power", async () => {
    const { data, errors } = await graphql(`{
      server(edition: V2_4_1, input: { configuration: { gpu: { units: 2, vram: 40, usage: { avgPower: 300 } } } }) {
        verbose(criteria: [gwp]) { components { key impacts { use { ... on Impact { value } ... on NotImplemented { reason } } } } }
      }
    }`);
    expect(errors).toBeUndefined();
    const keys = data.server.verbose.components.map((c: { key: string }) => c.key);
    expect(keys.indexOf("GPU-1")).toBe(keys.indexOf("CPU-1") + 1);
    const gpu = data.server.verbose.components.find((c: { key: string }) => c.key === "GPU-1");
    // The archetype (platform_compute_medium) has GPU.units 0; the input gives 2 × 300 W:
    // 0.38 kgCO2eq/kWh × 0.6 kW × 35040 h = 7989.1
    expect(gpu.impacts[0].use.value).toBe(8000);
  });

  it("refuses a GPU without VRAM size only where the reference fails: criteria reaching the GPU", async () => {
    // boaviztapi 2.4.1 sums a server's components in the order assembly, CPU, GPU…; the assembly has
    // factors for gwp, adp and pe only, so ap and ir switch to the generic SERVER factor before the GPU
    // (whose VRAM surface, None × 15.5 GB⁻¹ mm², fails the request) is read.
    const server = (criteria: string) => `{
      server(edition: V2_4_1, archetype: "dellR740", input: { configuration: { gpu: { vramDies: 4 } } }) {
        impacts(criteria: ${criteria}) { criterion embedded { ... on Impact { value min max warnings } } use { __typename } }
      }
    }`;
    const refused = await graphql(server("[ap, gwp]"));
    expect(refused.errors?.[0]).toMatchObject({
      message:
        "input.configuration.gpu.vram: required with vramDies, the server archetype dellR740 gives no GPU VRAM size",
      extensions: { code: "BAD_USER_INPUT", field: ["input", "configuration", "gpu", "vram"] },
    });
    const { data, errors } = await graphql(server("[ap, ir]"));
    expect(errors).toBeUndefined();
    // SERVER factors (ap 19.7 mol H+eq, ir 2320 kBq U235eq) × min(1, 35040 h / 35040 h), one server.
    expect(data.server.impacts).toEqual([
      {
        criterion: "ap",
        embedded: {
          value: 19.7,
          min: 19.7,
          max: 19.7,
          warnings: ["Generic data used for impact calculation."],
        },
        use: { __typename: "Impact" },
      },
      {
        criterion: "ir",
        embedded: {
          value: 2320,
          min: 2320,
          max: 2320,
          warnings: ["Generic data used for impact calculation."],
        },
        use: { __typename: "Impact" },
      },
    ]);
  });
});

describe("GPU names", () => {
  it("gpuByName gives the GpuInput fields of the best match; null without a match or in 1.2.4", async () => {
    const { data } = await graphql(`{
      a100: gpuByName(name: "A100", edition: V2_4_1) { name vram vramDies gpuSurface weight }
      none: gpuByName(name: "Radeon Instinct", edition: V2_4_1) { name }
      old: gpuByName(name: "A100", edition: V1_2_4) { name }
      names: gpuNames(edition: V2_4_1)
    }`);
    expect(data.a100).toEqual({
      name: "NVIDIA A100 PCIe 40GB",
      vram: 40,
      vramDies: 6,
      gpuSurface: 1798,
      weight: 1.23,
    });
    expect(data.none).toBeNull();
    expect(data.old).toBeNull();
    expect(data.names).toHaveLength(8);
  });
});

describe("GPU schema elements", () => {
  it("every GPU type, field, argument and enum value carries a description", () => {
    const schema = buildSchema();
    const missing: string[] = [];
    for (const name of ["GpuInput", "GpuSpec", "ComponentKind"]) {
      const type = schema.getType(name);
      if (!type?.description) missing.push(name);
      if (isInputObjectType(type) || isObjectType(type)) {
        for (const field of Object.values(type.getFields()))
          if (!field.description) missing.push(`${name}.${field.name}`);
      }
      if (isEnumType(type)) {
        for (const value of type.getValues()) if (!value.description) missing.push(`${name}.${value.name}`);
      }
    }
    const query = schema.getQueryType()?.getFields() ?? {};
    for (const name of ["gpu", "gpuByName", "gpuNames", "componentKinds"]) {
      const field = query[name];
      if (!field?.description) missing.push(`Query.${name}`);
      for (const arg of field?.args ?? []) {
        if (!arg.description && arg.name !== "archetype" && arg.name !== "input")
          missing.push(`Query.${name}(${arg.name})`);
      }
    }
    const configuration = schema.getType("ServerConfigurationInput");
    if (isInputObjectType(configuration) && !configuration.getFields().gpu?.description) {
      missing.push("ServerConfigurationInput.gpu");
    }
    expect(missing).toEqual([]);
  });
});
