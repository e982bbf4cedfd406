import { describe, expect, it } from "vitest";
import { inputColumnNames } from "../../src/billing/inputColumns.js";

describe("the export's columns as a run names them", () => {
  it("keeps a column named like the run's own as input_<name>, prefixed again while that is taken", () => {
    const header = [
      "ChargeCategory",
      "Status",
      "input_status",
      "hours",
      "billing_provider",
      "gwp_x_per_hour",
      "key_a",
      "status",
    ];
    expect(inputColumnNames(header, ["gwp_use_kgco2eq"])).toEqual([
      "ChargeCategory",
      "input_input_Status",
      "input_status",
      "input_hours",
      "input_billing_provider",
      "input_gwp_x_per_hour",
      "input_key_a",
      "input_input_input_status",
    ]);
  });

  it("renames impact columns only when the run writes them", () => {
    expect(inputColumnNames(["gwp_use_kgco2eq", "pe_use_mj"], ["pe_use_mj"])).toEqual([
      "gwp_use_kgco2eq",
      "input_pe_use_mj",
    ]);
  });
});
