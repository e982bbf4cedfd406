/**
 * The GPU component and servers with GPUs on the 2.4.1 production data (docs/methodology.md §19.5, §6).
 * Expected numbers are the worked examples of docs/methodology.md §19 (test_empty_gpu, test_complete_gpu_verbose,
 * §5.4, §6.2) and sums worked out by hand from Appendix B.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EDITION_2_4_1 } from "../../src/editions/v2_4_1.js";
import {
  componentModel,
  evaluate,
  type GpuInput,
  RequiredInputError,
  serverModel,
} from "../../src/engine/index.js";
import { lookupTables, matchGpuName } from "../../src/engine/lookups/lookups.js";
import {
  attribute,
  component,
  componentImpact,
  criterion,
  END_OF_LIFE,
  engineFixture,
  expectRounded,
  hasAttribute,
  UNCERTAINTY,
} from "../support/engine.js";

const { data, context } = engineFixture(EDITION_2_4_1);
const gwp = criterion("gwp");
const adp = criterion("adp");
const pe = criterion("pe");

const gpuCells = () => data.archetypes.gpu?.byId.get("DEFAULT")?.cells ?? {};
const gpu = (input: GpuInput = {}) => evaluate(componentModel(context, "gpu", gpuCells(), input));
const serverCells = (id: string) => {
  const row = data.archetypes.server.byId.get(id);
  if (!row) throw new Error(`no server archetype ${id}`);
  return row.cells;
};

describe("GPU component route (docs/methodology.md §19.5.3)", () => {
  it("sums casing, heatsink, board, dies, transports and end of life of the default GPU", () => {
    // gwp: 0.79·8.2542 + 0.9·5.7412 + 296·0.032549 + 2808.445·0.042592 + 2343.17·0.18379
    //    + 1.69·0.25955 + 19000·1.69·1.33e-5 + 1000·1.69·5.04e-5 + 0 + 1.69·1.5062 = 575.0875
    const evaluation = gpu();
    const embedded = evaluation.raw(gwp, "embedded");
    expect(embedded?.value).toBeCloseTo(575.0875463, 5);
    expectRounded(evaluation.impact(gwp, "embedded"), { value: 575.1, min: 575.1, max: 575.1 }, []);
    expectRounded(evaluation.impact(adp, "embedded"), { value: 0.005826, min: 0.005826, max: 0.005826 }, []);
    expectRounded(evaluation.impact(pe, "embedded"), { value: 7912, min: 7912, max: 7912 }, []);
    expect(evaluation.impact(gwp, "use")).toBe("not implemented");
  });

  it("computes the VRAM area from its size and dies, and multiplies by the units", () => {
    const evaluation = gpu({ units: 2, weight: 2.2, vram: 24, vramDies: 12 });
    expectRounded(evaluation.impact(gwp, "embedded"), { value: 477.2, min: 477.2, max: 477.2 }, []);
    const report = evaluation.verbose();
    expect(attribute(report.attributes, "vram_surface")).toMatchObject({
      value: 506.6304769903343,
      status: "COMPLETED",
      min: 506.6304769903343,
      max: 506.6304769903343,
    });
    expect(attribute(report.attributes, "weight")).toMatchObject({ value: 2.2, status: "INPUT" });
  });

  it("never completes from the name (Appendix D.2) and takes an input die surface as effective (D.7)", () => {
    const named = gpu({ name: "NVIDIA A100 PCIe 40GB" });
    expectRounded(named.impact(gwp, "embedded"), { value: 575.1, min: 575.1, max: 575.1 }, []);
    expect(attribute(named.verbose().attributes, "name")).toMatchObject({
      value: "NVIDIA A100 PCIe 40GB",
      status: "INPUT",
    });
    // 814 mm² as input replaces the effective 2808.445 mm²: −(2808.445 − 814)·0.042592 kgCO2eq.
    const raw = gpu({ gpuSurface: 814 }).raw(gwp, "embedded");
    expect(raw?.value).toBeCloseTo(575.0875463 - (2808.445102929598 - 814) * 0.042592, 6);
  });

  it("uses a given power only, with the units (§5.4)", () => {
    const evaluation = gpu({ units: 2, usage: { avgPower: 300 } });
    // 0.38 kgCO2eq/kWh · 0.3 kW · 26280 h · 2 = 5991.8
    expect(evaluation.raw(gwp, "use")?.value).toBeCloseTo(5991.84, 6);
    expectRounded(evaluation.impact(gwp, "use"), { value: 6000, min: 362.7, max: 17840 });
    expectRounded(evaluation.impact(gwp, "embedded"), { value: 1150, min: 1150, max: 1150 }, []);
  });

  it("answers other criteria of the GPU factors, and not implemented for the others (reference: 500)", () => {
    const alone = (name: string) =>
      evaluate(componentModel(context, "gpu", gpuCells(), {}), { criteria: [criterion(name)] }).impact(
        criterion(name),
        "embedded",
      );
    const check = (name: string, value: number) =>
      expectRounded(alone(name), { value, min: value, max: value }, []);
    check("ir", 330);
    check("wu", 1459);
    check("mips", 0.2069);
    for (const name of ["adpe", "epm", "gwppb", "fw"]) {
      expect(alone(name), name).toBe("not implemented");
    }
  });

  it("allocates over its lifetime without reading the units' bounds (D.4)", () => {
    const evaluation = evaluate(componentModel(context, "gpu", gpuCells(), {}), { duration: 8760 });
    expect(evaluation.raw(gwp, "embedded")?.value).toBeCloseTo((575.0875463 * 8760) / 26280, 5);
    const units = attribute(evaluation.verbose().attributes, "units");
    expect(units).toMatchObject({ value: 1, status: "ARCHETYPE" });
    expect(units).not.toHaveProperty("min");
  });
});

describe("GPU properties", () => {
  const characteristics = fc.record({
    weight: fc.double({ min: 0.1, max: 5, noNaN: true }),
    heatsinkWeight: fc.double({ min: 0, max: 2, noNaN: true }),
    vram: fc.integer({ min: 0, max: 192 }),
    vramDies: fc.integer({ min: 1, max: 24 }),
  });

  it("embedded impact: one value for all bounds, proportional to the units, growing with the VRAM", () => {
    fc.assert(
      fc.property(characteristics, fc.integer({ min: 1, max: 16 }), (input, units) => {
        const one = gpu(input).raw(gwp, "embedded");
        const many = gpu({ ...input, units }).raw(gwp, "embedded");
        const more = gpu({ ...input, vram: input.vram + 8 }).raw(gwp, "embedded");
        if (!one || !many || !more) throw new Error("the GPU has gwp factors");
        expect(one.min).toBe(one.value);
        expect(one.max).toBe(one.value);
        expect(many.value).toBeCloseTo(one.value * units, 6);
        expect(more.value).toBeGreaterThan(one.value);
      }),
      { numRuns: 50 },
    );
  });

  it("use phase only with a given power, proportional to it", () => {
    fc.assert(
      fc.property(characteristics, fc.double({ min: 1, max: 1000, noNaN: true }), (input, power) => {
        expect(gpu(input).impact(gwp, "use")).toBe("not implemented");
        const use = gpu({ ...input, usage: { avgPower: power } }).raw(gwp, "use");
        // 0.38 kgCO2eq/kWh (default location) over the 26280 h of the default GPU.
        expect(use?.value).toBeCloseTo(0.38 * (power / 1000) * 26280, 6);
      }),
      { numRuns: 30 },
    );
  });
});

describe("servers with a GPU (docs/methodology.md §19.6)", () => {
  it("adds the archetype's GPUs (units and vram from server.csv, the rest from the GPU table)", () => {
    const evaluation = evaluate(serverModel(context, serverCells("p4d.24xlarge"), {}));
    const report = evaluation.verbose();
    expect(report.components.map((c) => c.key).slice(0, 3)).toEqual(["ASSEMBLY-1", "CPU-1", "GPU-1"]);
    const block = component(report, "GPU-1");
    expectRounded(componentImpact(block, "gwp").embedded, { value: 2613, min: 2613, max: 2613 }, []);
    expect(componentImpact(block, "gwp").use).toBe("not implemented");
    expect(attribute(block.attributes, "units")).toMatchObject({ value: 8, status: "ARCHETYPE" });
    expect(attribute(block.attributes, "vram")).toMatchObject({ value: 40, status: "ARCHETYPE" });
  });

  it("raises platform_aws_p2's embedded impact with its 16 GPUs", () => {
    const evaluation = evaluate(serverModel(context, serverCells("platform_aws_p2"), {}));
    expectRounded(evaluation.impact(gwp, "embedded"), { value: 6600, min: 5795, max: 7952 }, [END_OF_LIFE]);
  });

  it("has no GPU on an archetype without one, unless the configuration gives it", () => {
    const none = evaluate(serverModel(context, serverCells("platform_compute_medium"), {})).verbose();
    expect(none.components.some((c) => c.key === "GPU-1")).toBe(false);
    // The archetype's GPU.units is 0: the configured GPU counts for nothing, with the zero-value warning.
    const zero = evaluate(
      serverModel(context, serverCells("platform_compute_medium"), { configuration: { gpu: { vram: 0 } } }),
    ).verbose();
    const block = component(zero, "GPU-1");
    expectRounded(componentImpact(block, "gwp").embedded, { value: 0, min: 0, max: 0 }, [UNCERTAINTY]);
    expect(attribute(block.attributes, "vram_surface").value).toBe(0.24197898335895696);
    expect(hasAttribute(block.attributes, "avg_power")).toBe(false);
  });

  it("adds the GPU's given power to the server's (§6.3)", () => {
    const base = {
      cpu: { units: 2, coreUnits: 24, dieSizePerCore: 24.5 },
      ram: [{ units: 12, capacity: 32 }],
    };
    const withoutGpu = evaluate(
      serverModel(context, serverCells("platform_compute_medium"), { configuration: base }),
    );
    const withGpu = evaluate(
      serverModel(context, serverCells("platform_compute_medium"), {
        configuration: { ...base, gpu: { units: 2, vram: 40, usage: { avgPower: 300 } } },
      }),
    );
    withoutGpu.raw(gwp, "use");
    withGpu.raw(gwp, "use");
    const power = (e: typeof withGpu) => {
      const found = e.verbose().attributes.find((a) => a.name === "avg_power");
      return found?.entry.value as number;
    };
    // 600 W of GPUs (2 × 300) times 1 + other consumption ratio 0.33.
    expect(power(withGpu) - power(withoutGpu)).toBeCloseTo(600 * 1.33, 6);
    const block = component(withGpu.verbose(), "GPU-1");
    expect(componentImpact(block, "gwp").use).not.toBe("not implemented");
    expect(attribute(block.attributes, "avg_power")).toMatchObject({ value: 300, status: "INPUT" });
  });

  it("needs a GPU's VRAM size only for the criteria whose embedded sum reaches the GPU", () => {
    // boaviztapi 2.4.1 (compute/impacts_computation.py, server_impact_embedded): the components are
    // summed in the order assembly, CPU, GPU…; the first without the criterion's factor (assembly and
    // CPU have gwp, adp and pe only) switches to the generic SERVER factor before the GPU is read. A
    // GPU with VRAM dies but no VRAM size (models/component/gpu.py, _complete_vram_surface:
    // None × 15.5) fails the request on gwp, adp and pe; ap never reads it.
    const lacking = () =>
      serverModel(context, serverCells("dellR740"), { configuration: { gpu: { vramDies: 4 } } });
    const ap = criterion("ap");
    for (const refused of [gwp, adp, pe]) {
      expect(() => evaluate(lacking(), { criteria: [refused] }).raw(refused, "embedded")).toThrow(
        RequiredInputError,
      );
    }
    const answered = evaluate(lacking(), { criteria: [ap] });
    // SERVER ap factor 19.7 mol H+eq, allocated over dellR740's 35040 h for a duration of 35040 h: × 1.
    expect(answered.raw(ap, "embedded")).toMatchObject({ value: 19.7, min: 19.7, max: 19.7 });
    // The use phase never reads the VRAM: the same as with a VRAM size given.
    const sized = evaluate(
      serverModel(context, serverCells("dellR740"), { configuration: { gpu: { vramDies: 4, vram: 16 } } }),
      { criteria: [ap] },
    );
    expect(answered.raw(ap, "use")).toEqual(sized.raw(ap, "use"));
    expect(answered.verbose().components.map((c) => c.key)).toContain("GPU-1");
  });
});

describe("GPU name matching (docs/methodology.md §19.5.6)", () => {
  const tables = lookupTables(data, EDITION_2_4_1.rules);
  it("matches like the CPU names: token sets, first best row, above the threshold", () => {
    expect(matchGpuName(tables, "A100", 80)?.name).toBe("NVIDIA A100 PCIe 40GB");
    expect(matchGpuName(tables, "nvidia h100 sxm 80gb", 80)?.name).toBe("NVIDIA H100 SXM 80GB");
    expect(matchGpuName(tables, "GTX 1080 Ti", 80)?.vramDies).toBe(11);
    expect(matchGpuName(tables, "Radeon Instinct", 80)).toBeNull();
  });
});
