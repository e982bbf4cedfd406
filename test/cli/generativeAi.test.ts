/**
 * An inventory of generative-AI requests (`examples/generative-ai.csv`, docs/inventory.md): each
 * row of kind generative_ai is `quantity` requests to its model, evaluated by the route
 * `/v1/generative_ai` in the edition ecologits-0.11.3, its energy in `energy_kwh`.
 */
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { runMain } from "../support/cli.js";

describe("impact-service evaluate on generative-AI rows", () => {
  it("answers each row's requests, the worked example's row as by hand", async () => {
    const { code, stdout, stderr } = await runMain([
      "evaluate",
      "examples/generative-ai.csv",
      "--criteria",
      "gwp",
    ]);
    expect(code, stderr).toBe(0);
    const rows: Record<string, string>[] = parse(stdout, { columns: true });
    expect(rows.map((row) => row.status)).toEqual(["evaluated", "evaluated", "evaluated"]);
    // 3,000 requests of docs/methodology.md's worked example (ministral-8b-2512, 500 tokens, FRA):
    // 3,000 × 3.10305155139e-5 kWh, 3,000 × 1.2859045629e-6 kgCO2eq use, × 1.05061349693e-6 embedded.
    const search = rows[1];
    expect(Number(search.energy_kwh)).toBeCloseTo(3000 * 3.10305155139e-5, 9);
    expect(Number(search.gwp_use_kgco2eq)).toBeCloseTo(3000 * 1.2859045629e-6, 11);
    expect(Number(search.gwp_embedded_kgco2eq)).toBeCloseTo(3000 * 1.05061349693e-6, 11);
    expect(rows[0].warnings).toContain("model-arch-not-released");
  });
});
