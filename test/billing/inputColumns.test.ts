import { describe, expect, it } from "vitest";
import { BILLING_FORMATS, classifyHeader } from "../../src/billing/formats/knownFormats.js";
import { inputColumnNames } from "../../src/billing/stages/read.js";

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

describe("what a header is", () => {
  it("a format's, a near miss naming what it lacks, or an inventory's", () => {
    const focus = [
      "ProviderName",
      "ChargeCategory",
      "ServiceName",
      "ConsumedQuantity",
      "ConsumedUnit",
      "RegionId",
    ];
    expect(classifyHeader(focus)).toEqual({ format: BILLING_FORMATS.focus });
    expect(classifyHeader(focus.filter((name) => name !== "ConsumedUnit"))).toEqual({
      nearMiss: BILLING_FORMATS.focus,
      missing: ["ConsumedUnit"],
    });
    expect(
      classifyHeader(["line_item_line_item_type", "line_item_usage_amount", "line_item_operation"]),
    ).toEqual({
      nearMiss: BILLING_FORMATS.cur,
      missing: ["line_item_product_code", "line_item_usage_type"],
    });
    const inventory =
      "team,site,kind,quantity,provider,instance_type,archetype,type,usage_location,hours".split(",");
    expect(classifyHeader(inventory)).toBeNull();
    expect(classifyHeader(["kind", "provider", "instance_type", "hours"])).toBeNull();
  });
});
