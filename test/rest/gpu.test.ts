/**
 * GPU routes of the v1 shim (docs/methodology.md §19.5, §6, §11): one process answering both editions, the
 * GPU existing only in 2.4.1.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";
import { call, EOL } from "../support/rest.js";
import { COMPLETE_CONFIGURATION_V1 } from "../support/servers.js";

const app = sharedApp();
const get = (url: string) => call(app, "GET", url);
const post = (url: string, body: unknown) => call(app, "POST", url, body);

describe("/v1/component/gpu", () => {
  it("evaluates the default GPU in 2.4.1 and is not a 1.2.4 component", async () => {
    const v2 = await get("/v1/component/gpu?verbose=false&edition=2.4.1");
    expect(v2.status).toBe(200);
    expect(v2.body.impacts.gwp).toEqual({
      unit: "kgCO2eq",
      description: "Total climate change",
      embedded: { value: 575.1, min: 575.1, max: 575.1 },
      use: "not implemented",
    });
    // The route does not exist in 1.2.4: its reference's 404.
    const v1 = await get("/v1/component/gpu?verbose=false&edition=1.2.4");
    expect(v1).toEqual({ status: 404, body: { detail: "Not Found" } });
  });

  it("POST: units and a given power (§5.4), verbose attributes in declaration order", async () => {
    const { status, body } = await post("/v1/component/gpu?edition=2.4.1&criteria=gwp", {
      units: 2,
      usage: { avg_power: 300 },
    });
    expect(status).toBe(200);
    expect(body.impacts.gwp.embedded).toEqual({ value: 1150, min: 1150, max: 1150 });
    expect(body.impacts.gwp.use).toEqual({ value: 6000, min: 362.7, max: 17840 });
    const keys = Object.keys(body.verbose);
    expect(keys.slice(0, 3)).toEqual(["impacts", "units", "weight"]);
    expect(keys.indexOf("vram_surface")).toBeLessThan(keys.indexOf("transport_boat"));
    expect(keys).toContain("avg_power");
    expect(body.verbose.units).toEqual({ value: 2, status: "INPUT" });
  });

  it("refuses a non-integer VRAM size like any integer field (422 naming it)", async () => {
    const { status, body } = await post("/v1/component/gpu?edition=2.4.1", { vram: "many" });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "vram"]);
  });

  it("lists its archetypes and their configuration", async () => {
    expect((await get("/v1/component/gpu/archetype?edition=2.4.1")).body).toEqual(["DEFAULT"]);
    const config = await get("/v1/component/gpu/archetype_config?archetype=DEFAULT&edition=2.4.1");
    expect(config.body.gpu_surface).toEqual({ default: 814 });
    expect((await get("/v1/component/gpu/archetype_config?archetype=nope&edition=2.4.1")).status).toBe(404);
  });

  it("appears second in /v1/component/all of 2.4.1 only (§11.2)", async () => {
    const v2 = (await get("/v1/component/all?edition=2.4.1")).body;
    expect(Object.keys(v2)).toEqual([
      "cpu",
      "gpu",
      "ram",
      "ssd",
      "hdd",
      "motherboard",
      "power_supply",
      "case",
    ]);
    expect(v2.gpu).toBe("v1/component/gpu");
    const v1 = (await get("/v1/component/all?edition=1.2.4")).body;
    expect(Object.keys(v1)).toEqual(["cpu", "ram", "ssd", "hdd", "motherboard", "power_supply", "case"]);
  });
});

describe("servers with a GPU", () => {
  it("an archetype's GPUs appear as GPU-1 in 2.4.1 and not in 1.2.4", async () => {
    const v2 = await get("/v1/server/?archetype=p4d.24xlarge&criteria=gwp&edition=2.4.1");
    expect(Object.keys(v2.body.verbose).slice(0, 4)).toEqual(["duration", "ASSEMBLY-1", "CPU-1", "GPU-1"]);
    expect(v2.body.verbose["GPU-1"].impacts.gwp.embedded).toEqual({ value: 2613, min: 2613, max: 2613 });
    const v1 = await get("/v1/server/?archetype=p4d.24xlarge&criteria=gwp&edition=1.2.4");
    expect(v1.body.verbose["GPU-1"]).toBeUndefined();
  });

  it("configuration.gpu is evaluated in 2.4.1 and ignored by 1.2.4 (an unknown key there)", async () => {
    const body = { configuration: { gpu: { units: 2, vram: 40 } } };
    const v2 = await post("/v1/server/?archetype=platform_compute_medium&criteria=gwp&edition=2.4.1", body);
    // 2 × 326.7 (docs/methodology.md §19.6.2)
    expect(v2.body.verbose["GPU-1"].impacts.gwp.embedded.value).toBe(653.4);
    expect(v2.body.impacts.gwp.embedded.warnings).toEqual([EOL]);
    const v1 = await post("/v1/server/?archetype=platform_compute_medium&criteria=gwp&edition=1.2.4", body);
    const plain = await post("/v1/server/?archetype=platform_compute_medium&criteria=gwp&edition=1.2.4", {});
    expect(v1.body).toEqual(plain.body);
  });

  it("the complete configuration plus 2 GPUs of 40 GB with 300 W each (docs/methodology.md §19.6.2, §6.3)", async () => {
    const { status, body } = await post("/v1/server/?criteria=gwp&edition=2.4.1", {
      model: { manufacturer: "Dell", name: "R740", year: 2020 },
      configuration: {
        ...COMPLETE_CONFIGURATION_V1,
        gpu: { units: 2, vram: 40, usage: { avg_power: 300 } },
      },
    });
    expect(status).toBe(200);
    // 1138 of the configuration without GPU + 2 × 326.7 of the GPUs.
    expect(body.impacts.gwp.embedded).toEqual({ value: 1791, min: 1727, max: 1791, warnings: [EOL] });
    // P = (364.46 CPU + 54.528 RAM + 600 GPU) × 1.33 = 1355.254 W over 35040 h at 0.38 kgCO2eq/kWh.
    expect(body.impacts.gwp.use).toEqual({ value: 18000, min: 701.8, max: 74520 });
    expect(body.verbose.avg_power.value).toBeCloseTo(1355.25404, 6);
    expect(body.verbose["GPU-1"].impacts.gwp.use).toEqual({ value: 8000, min: 483.6, max: 23790 });
  });

  it("a GPU with VRAM dies but no VRAM size on an archetype without one is a 422 (reference: 500)", async () => {
    const { status, body } = await post("/v1/server/?archetype=dellR740&edition=2.4.1", {
      configuration: { gpu: { units: 1, vram_dies: 4 } },
    });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "configuration", "gpu", "vram"]);
  });

  it("answers the criteria whose embedded sum stops before the GPU without its VRAM size (as 2.4.1 does)", async () => {
    // boaviztapi 2.4.1 sums assembly, CPU, GPU… and switches to the generic SERVER factor at the
    // first component without the criterion (the assembly, for every criterion but gwp, adp, pe):
    // the GPU's missing VRAM size is then never read. ap: SERVER 19.7 × min(1, 35040 / 35040).
    const { status, body } = await post(
      "/v1/server/?archetype=dellR740&edition=2.4.1&criteria=ap&verbose=false",
      {
        configuration: { gpu: { units: 1, vram_dies: 4 } },
      },
    );
    expect(status).toBe(200);
    expect(body.impacts.ap.embedded).toEqual({
      value: 19.7,
      min: 19.7,
      max: 19.7,
      warnings: ["Generic data used for impact calculation."],
    });
    const sized = await post("/v1/server/?archetype=dellR740&edition=2.4.1&criteria=ap&verbose=false", {
      configuration: { gpu: { units: 1, vram_dies: 4, vram: 16 } },
    });
    // The use phase never reads the VRAM.
    expect(body.impacts.ap.use).toEqual(sized.body.impacts.ap.use);
  });
});

describe("servers with a GPU of unknown VRAM size, random requests (2.4.1)", () => {
  // The rule derived from boaviztapi 2.4.1 (compute/impacts_computation.py, models/component/gpu.py):
  // the request fails (500; here 422) when a VRAM die count is known, no VRAM size (neither given
  // nor the archetype's GPU.vram) and a criterion whose embedded sum reaches the GPU (gwp, adp, pe:
  // the assembly and CPU have their factors) is asked; otherwise it is answered.
  const WITHOUT_VRAM = ["dellR740", "Dadsv5-Type1", "DCsv2-Type1"];
  it("refuse exactly when a criterion reaching the GPU is asked", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...WITHOUT_VRAM, "platform_aws_p2", "platform_compute_low"),
        fc.record(
          {
            units: fc.integer({ min: 1, max: 8 }),
            vram_dies: fc.integer({ min: 1, max: 12 }),
            vram: fc.integer({ min: 0, max: 80 }),
          },
          { requiredKeys: ["units"] },
        ),
        fc.subarray(["gwp", "adp", "pe", "ap", "ir", "lu", "epf", "mips"], { minLength: 1, maxLength: 3 }),
        async (archetype, gpu, criteria) => {
          const query = criteria.map((c) => `criteria=${c}`).join("&");
          const { status } = await post(
            `/v1/server/?archetype=${archetype}&edition=2.4.1&verbose=false&${query}`,
            {
              configuration: { gpu },
            },
          );
          const lacking =
            gpu.vram_dies !== undefined && gpu.vram === undefined && WITHOUT_VRAM.includes(archetype);
          const reachesGpu = criteria.some((c) => ["gwp", "adp", "pe"].includes(c));
          expect(status).toBe(lacking && reachesGpu ? 422 : 200);
        },
      ),
      { numRuns: 60 },
    );
  }, 60_000);
});

describe("/v1/utils GPU names", () => {
  it("name_to_gpu answers the GPU request object of the best match", async () => {
    const { status, body } = await get("/v1/utils/name_to_gpu?gpu_name=H100%20SXM%2080GB&edition=2.4.1");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      units: null,
      name: "NVIDIA H100 SXM 80GB",
      manufacturer: "NVIDIA",
      weight: 1.69,
      heatsink_weight: 0.90077,
      pwb_surface: 296.37,
      pwb_weight: null,
      casing_weight: 0.78923,
      gpu_surface: 2810.4,
      vram: 80,
      vram_dies: 6,
      vram_surface: null,
      transport_boat: 19000,
      transport_truck: 1000,
      transport_plane: 0,
    });
    expect(Object.keys(body).slice(0, 3)).toEqual(["units", "usage", "name"]);
    expect(body.usage.elec_factors.gwp).toBeNull();
  });

  it("no match: the reference's message; missing name: 422", async () => {
    const miss = await get("/v1/utils/name_to_gpu?gpu_name=Radeon%20Instinct&edition=2.4.1");
    expect(miss).toEqual({ status: 200, body: "GPU name Radeon Instinct is not found in our database" });
    expect((await get("/v1/utils/name_to_gpu?edition=2.4.1")).status).toBe(422);
  });

  it("gpu_name lists the 8 models in file order (no such route in 1.2.4)", async () => {
    const names = (await get("/v1/utils/gpu_name?edition=2.4.1")).body;
    expect(names).toHaveLength(8);
    expect(names[0]).toBe("NVIDIA GTX 1080 Ti");
    expect(names[7]).toBe("NVIDIA H100 SXM 80GB");
    expect((await get("/v1/utils/gpu_name?edition=1.2.4")).status).toBe(404);
    expect((await get("/v1/utils/name_to_gpu?gpu_name=A100&edition=1.2.4")).status).toBe(404);
  });
});
