/**
 * `POST|GET /v1/consumption_profile/cpu` through the REST shim (docs/methodology.md §10, §18.7).
 */
import { describe, expect, it } from "vitest";
import { sharedApp } from "../support/app.js";

const app = sharedApp();
const ROUTE = "/v1/consumption_profile/cpu";

// biome-ignore lint/suspicious/noExplicitAny: v1 JSON answers are checked field by field
type Json = any;

async function call(method: string, body?: unknown): Promise<{ status: number; body: Json }> {
  const text = body === undefined ? "" : typeof body === "string" ? body : JSON.stringify(body);
  const answer = await app.rest({ method, url: ROUTE, body: text });
  return { status: answer.status, body: answer.body };
}

interface Params {
  readonly a: number;
  readonly b: number;
  readonly c: number;
  readonly d: number;
}

const GOLD: Params = { a: 35.5688, b: 0.2438, c: 9.6694, d: -0.6087 };
const SILVER: Params = { a: 20.7794, b: 0.3043, c: 8.4241, d: 0.8613 };
const PLATINUM: Params = { a: 171.1813, b: 0.0354, c: 36.8953, d: -10.1336 };
const ARCHETYPE_DEFAULT: Params = { a: 171.2, b: 0.0354, c: 36.89, d: -10.13 };

/** The model of §10.3: a·ln(b·(x + c)) + d. */
function curve(p: Params, load: number): number {
  return p.a * Math.log(p.b * (load + p.c)) + p.d;
}

describe("profile from the CPU description (no workload)", () => {
  it("§18.7: name `intel xeon gold 6134`, TDP 130 ignored → the Xeon Gold row exactly", async () => {
    const { status, body } = await call("POST", { cpu: { name: "intel xeon gold 6134", tdp: 130 } });
    expect(status).toBe(200);
    expect(body).toEqual(GOLD);
  });

  it("model range only: the row of that range (any case)", async () => {
    expect(await call("POST", { cpu: { model_range: "Xeon Gold" } })).toEqual({ status: 200, body: GOLD });
    expect((await call("POST", { cpu: { model_range: "xeon silver" } })).body).toEqual(SILVER);
    const platinum = await call("POST", { cpu: { manufacturer: "Intel", model_range: "Xeon Platinum" } });
    expect(platinum.body).toEqual(PLATINUM);
  });

  it("a TDP never adapts the profile on this route (Appendix D.18)", async () => {
    const { body } = await call("POST", { cpu: { model_range: "Xeon Gold", tdp: 300 } });
    expect(body).toEqual(GOLD);
  });

  it("a TDP is still validated as an integer: text is a 422 naming cpu.tdp", async () => {
    const { status, body } = await call("POST", { cpu: { tdp: "x" } });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "cpu", "tdp"]);
    expect(body.detail[0].msg).toBe("value is not a valid integer");
    // Numeric text and fractions are read as integers (docs/methodology.md §0.3), then ignored.
    expect(await call("POST", { cpu: { model_range: "Xeon Gold", tdp: "130" } })).toEqual({
      status: 200,
      body: GOLD,
    });
    expect(await call("POST", { cpu: { model_range: "Xeon Gold", tdp: 130.7 } })).toEqual({
      status: 200,
      body: GOLD,
    });
  });

  it("Xeon E5 is unreachable by the lookup (Appendix D.28): archetype default", async () => {
    const { body } = await call("POST", { cpu: { model_range: "Xeon E5" } });
    expect(body).toEqual(ARCHETYPE_DEFAULT);
  });

  it("empty cpu, or no cpu at all: the archetype default", async () => {
    expect(await call("POST", { cpu: {} })).toEqual({ status: 200, body: ARCHETYPE_DEFAULT });
    expect(await call("POST", {})).toEqual({ status: 200, body: ARCHETYPE_DEFAULT });
  });

  it("a name matching no CPU: 200 with the archetype default (the reference crashed: HTTP 500)", async () => {
    expect(await call("POST", { cpu: { name: "deijeijdiejdzij" } })).toEqual({
      status: 200,
      body: ARCHETYPE_DEFAULT,
    });
  });

  it("a name whose model range has no profile: archetype default", async () => {
    expect((await call("POST", { cpu: { name: "Intel Core i7-8700T" } })).body).toEqual(ARCHETYPE_DEFAULT);
  });
});

/** Reference answers (SciPy, Boavizta API v1.2.4): only their curve is reproducible (§10.3). */
interface FitCase {
  readonly id: string;
  readonly body: {
    cpu: Record<string, unknown>;
    workload: { load_percentage: number; power_watt: number }[];
  };
  readonly reference: Params;
}

const GOLD_6134 = { name: "intel xeon gold 6134" };
const PLATINUM_INPUT = { manufacturer: "Intel", model_range: "Xeon Platinum" };
const points = (...pairs: [number, number][]) =>
  pairs.map(([load_percentage, power_watt]) => ({ load_percentage, power_watt }));
const THREE = points([0, 30], [50, 100], [100, 150]);
const FOUR_HIGH = points([0, 50], [10, 90], [50, 180], [100, 240]);
const FOUR_LOW = points([0, 10], [25, 40], [75, 70], [100, 80]);

const FIT_CASES: readonly FitCase[] = [
  {
    id: "Xeon Gold base, 3 points (not an exact fit)",
    body: { cpu: GOLD_6134, workload: THREE },
    reference: { a: 78.85474507897705, b: 0.04946038996328113, c: 29.00819999999994, d: -0.6945567792032358 },
  },
  {
    id: "default base, 3 points",
    body: { cpu: {}, workload: THREE },
    reference: {
      a: 176.64160932540284,
      b: 0.012300254786186049,
      c: 102.8194500456784,
      d: -11.482380483020387,
    },
  },
  {
    id: "Xeon Gold base, 4 points (a at its bound 3·a₀)",
    body: { cpu: GOLD_6134, workload: FOUR_HIGH },
    reference: {
      a: 106.70639999999999,
      b: 0.0785236336874372,
      c: 20.385272386522544,
      d: -1.2800589563664264,
    },
  },
  {
    id: "Xeon Platinum base, 4 points",
    body: { cpu: PLATINUM_INPUT, workload: FOUR_HIGH },
    reference: { a: 116.856757506466, b: 0.06506392627950623, c: 24.488850623930844, d: -4.440199468684775 },
  },
  {
    id: "Xeon Platinum base, 4 low points",
    body: { cpu: PLATINUM_INPUT, workload: FOUR_LOW },
    reference: { a: 43.96924178515981, b: 0.05691878273498431, c: 25.633422126335827, d: -6.597670901198116 },
  },
  {
    id: "default base, 4 low points",
    body: { cpu: {}, workload: FOUR_LOW },
    reference: {
      a: 43.96924166821964,
      b: 0.05691480458920721,
      c: 25.633421990121843,
      d: -6.5945974488858745,
    },
  },
];

const LOADS = Array.from({ length: 21 }, (_, i) => i * 5);

describe("fit to measured workload points", () => {
  it.each(FIT_CASES)(
    "$id: the fitted curve is the reference's curve (within 1e-6)",
    async ({ body, reference }) => {
      const { status, body: fitted } = await call("POST", body);
      expect(status).toBe(200);
      expect(Object.keys(fitted).sort()).toEqual(["a", "b", "c", "d"]);
      for (const load of LOADS) {
        const expected = curve(reference, load);
        expect(Math.abs(curve(fitted, load) / expected - 1), `at ${load} %`).toBeLessThan(1e-6);
      }
      // a and c are identifiable; b and d are not (only a·ln b + d is), so b and d are not compared.
      expect(Math.abs(fitted.a / reference.a - 1)).toBeLessThan(1e-6);
      expect(Math.abs(fitted.c / reference.c - 1)).toBeLessThan(1e-6);
      expect(fitted.b).toBeGreaterThan(0);
    },
  );

  it("§18.7 with two points: the curve passes through both", async () => {
    const { status, body } = await call("POST", {
      cpu: { name: "Intel Xeon Platinum 8124M" },
      workload: [
        { load_percentage: 0, power_watt: 25.3 },
        { load_percentage: 100, power_watt: 211.8 },
      ],
    });
    expect(status).toBe(200);
    expect(curve(body, 0)).toBeCloseTo(25.3, 4);
    expect(curve(body, 100)).toBeCloseTo(211.8, 4);
    // Fitted from the Xeon Platinum row: parameters within the bounds of §10.3.
    expect(body.a).toBeGreaterThanOrEqual(0);
    expect(body.a).toBeLessThanOrEqual(3 * PLATINUM.a);
    expect(body.c).toBeGreaterThanOrEqual(0);
    expect(body.c).toBeLessThanOrEqual(3 * PLATINUM.c);
    expect(body.d).toBeGreaterThanOrEqual(3 * PLATINUM.d);
    expect(body.d).toBeLessThanOrEqual(-PLATINUM.d);
  });

  it("numeric strings are read as floats (pydantic coercion)", async () => {
    const workload = [
      { load_percentage: 0, power_watt: 30 },
      { load_percentage: 50, power_watt: 100 },
      { load_percentage: 100, power_watt: 150 },
    ];
    const numbers = await call("POST", { cpu: {}, workload });
    const strings = await call("POST", {
      cpu: {},
      workload: workload.map((w) => ({
        load_percentage: String(w.load_percentage),
        power_watt: String(w.power_watt),
      })),
    });
    expect(strings.status).toBe(200);
    expect(strings.body).toEqual(numbers.body);
  });
});

describe("validation", () => {
  it('load_percentage "a": 422 naming the field', async () => {
    const { status, body } = await call("POST", {
      cpu: {},
      workload: [{ load_percentage: "a", power_watt: 3 }],
    });
    expect(status).toBe(422);
    expect(body.detail).toHaveLength(1);
    expect(body.detail[0].loc).toEqual(["body", "workload", 0, "load_percentage"]);
    expect(body.detail[0].msg).toBe("value is not a valid float");
  });

  it('the reference case {"load_percentage": "a"} without power_watt: 422 naming load_percentage first', async () => {
    const { status, body } = await call("POST", { cpu: {}, workload: [{ load_percentage: "a" }] });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "workload", 0, "load_percentage"]);
  });

  // Range checks name the body field: workload[0].load_percentage.
  it("a load above 100 %: 4xx whose loc names workload[0].load_percentage", async () => {
    const { status, body } = await call("POST", {
      cpu: {},
      workload: [
        { load_percentage: 150, power_watt: 100 },
        { load_percentage: 0, power_watt: 10 },
      ],
    });
    expect(status).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
    expect(body.detail[0].loc).toEqual(["body", "workload", 0, "load_percentage"]);
  });

  it("malformed JSON: 422", async () => {
    const { status } = await call("POST", "{not json");
    expect(status).toBe(422);
  });

  it("cpu of the wrong type: 422 naming cpu", async () => {
    const { status, body } = await call("POST", { cpu: "xeon" });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "cpu"]);
  });
});

describe("GET: the base profiles", () => {
  it("lists the 6 rows of cpu_profile.csv in file order", async () => {
    const { status, body } = await call("GET");
    expect(status).toBe(200);
    expect(body).toEqual([
      { manufacturer: "Intel", model_range: "Xeon Platinum", ...PLATINUM },
      { manufacturer: "Intel", model_range: "Xeon Gold", ...GOLD },
      { manufacturer: "Intel", model_range: "Xeon Silver", ...SILVER },
      { manufacturer: "Intel", model_range: "Xeon E5", a: 48.9167, b: 0.1349, c: 15.7262, d: -4.654 },
      { manufacturer: "Intel", model_range: "Xeon E3", a: 342.3624, b: 0.0347, c: 36.8952, d: -16.4022 },
      { manufacturer: "Intel", model_range: "Xeon E", a: 55.6501, b: 0.0467, c: 20.4146, d: 4.24362 },
    ]);
  });
});

describe("POST /v1/consumption_profile/cpu/impacts", () => {
  const IMPACTS = "/v1/consumption_profile/cpu/impacts";
  const post = async (query: string, body: unknown) => {
    const answer = await app.rest({ method: "POST", url: `${IMPACTS}${query}`, body: JSON.stringify(body) });
    return { status: answer.status, body: answer.body as Json };
  };

  it("answers the use impacts of the profiled CPU, the energy and the verbose report, in both editions", async () => {
    for (const edition of ["1.2.4", "2.4.1"]) {
      const { status, body } = await post(`?edition=${edition}&criteria=gwp&duration=8760`, {
        cpu: { model_range: "Xeon Gold" },
        usage: { usage_location: "FRA", time_workload: 50 },
      });
      expect(status).toBe(200);
      // The Xeon Gold row: P(50) = 35.5688·ln(0.2438·59.6694) − 0.6087 = 94.624 W (5 figures)
      // × 8760 h = 828.91 kWh; × 0.098 kgCO2eq/kWh (FRA) = 81.23 kg.
      expect(body.energy.value).toBeCloseTo(828.9, 1);
      expect(body.impacts.gwp).toMatchObject({ unit: "kgCO2eq", use: { min: 81.23, max: 81.23 } });
      expect(body.impacts.gwp.use.value).toBeCloseTo(81.23, 2);
      expect(body.impacts.gwp).not.toHaveProperty("embedded");
      expect(body.verbose.params).toMatchObject({
        value: GOLD,
        status: "COMPLETED",
        source: "From CPU model range",
      });
      expect(body.verbose.usage_location).toMatchObject({ value: "FRA", status: "INPUT" });
    }
  });

  it("keeps the profile route's answer and refuses a bad usage with a 422 naming it", async () => {
    const { status, body } = await post("", {
      cpu: { model_range: "Xeon Gold" },
      usage: { time_workload: 150 },
    });
    expect(status).toBe(422);
    expect(body.detail[0].loc).toEqual(["body", "usage", "time_workload"]);
    const plain = await call("POST", { cpu: { model_range: "Xeon Gold" } });
    expect(plain.body).toEqual(GOLD);
  });
});
