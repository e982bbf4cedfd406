/**
 * How a billing export's header is recognised (src/billing/formats/): each format's columns
 * under the spellings its versions write, the version said, and the closest format of a header
 * that fits none.
 */
import { describe, expect, it } from "vitest";
import {
  aliasedColumns,
  BILLING_FORMATS,
  classifyHeader,
  coverageCostColumn,
  headerColumn,
  readAs,
  recognisedFormat,
  unrecognisedHeader,
} from "../../src/billing/formats/knownFormats.js";

const CUR_1_CSV = [
  "identity/LineItemId",
  "lineItem/LineItemType",
  "lineItem/ProductCode",
  "lineItem/UsageType",
  "lineItem/Operation",
  "lineItem/UsageAmount",
  "lineItem/UnblendedCost",
  "product/region",
  "product/usagetype",
  "pricing/unit",
];

describe("a billing export's header", () => {
  it("reads CUR 1.0's lineItem/… columns as CUR's snake_case ones, product/region as product_region", () => {
    const { cur } = BILLING_FORMATS;
    expect(recognisedFormat(CUR_1_CSV)).toBe(cur);
    expect(readAs(cur, CUR_1_CSV)).toBe("AWS CUR 1.0 (legacy CSV, lineItem/… columns)");
    expect(headerColumn(cur, "line_item_usage_type", CUR_1_CSV)).toBe("lineItem/UsageType");
    expect(headerColumn(cur, "product_region", CUR_1_CSV)).toBe("product/region");
    // product/usagetype is another column than lineItem/UsageType: no letters of it are taken
    expect(headerColumn(cur, "product_region_code", CUR_1_CSV)).toBeNull();
    expect(aliasedColumns(cur, CUR_1_CSV)).toContainEqual(["pricing/unit", "pricing_unit"]);
  });

  it("tells a CUR 2.0 from Athena's legacy snake_case by product_region", () => {
    const { cur } = BILLING_FORMATS;
    const cur2 = [
      "line_item_line_item_type",
      "line_item_product_code",
      "line_item_operation",
      "line_item_usage_type",
      "line_item_usage_amount",
    ];
    expect(readAs(cur, cur2)).toBe("AWS CUR 2.0");
    expect(readAs(cur, [...cur2, "product_region"])).toBe(
      "AWS CUR 1.0 (legacy, Athena/Parquet snake_case columns)",
    );
    expect(aliasedColumns(cur, cur2)).toEqual([]);
  });

  it("tells a legacy CUR whose lineItem/… columns a loader flattened by the words of its names", () => {
    const { cur } = BILLING_FORMATS;
    const flattened = "AWS CUR 1.0 (legacy, lineItem/… columns flattened by a loader)";
    for (const sign of ["__", "_", "."]) {
      const header = CUR_1_CSV.map((name) => name.replace("/", sign));
      expect(recognisedFormat(header), sign).toBe(cur);
      expect(readAs(cur, header), sign).toBe(flattened);
      expect(
        readAs(
          cur,
          header.map((name) => name.toLowerCase()),
        ),
        sign,
      ).toBe(flattened);
    }
    // Its words, not its letters: CUR 2.0's line_item_usage_type (four words) stays CUR 2.0 above
  });

  it("reads BigQuery's flattened names with dots or underscores alike", () => {
    const dotted = [
      "service.description",
      "sku.description",
      "usage.amount",
      "usage.unit",
      "location.region",
      "cost",
      "resource.name",
    ];
    expect(recognisedFormat(dotted)).toBe(BILLING_FORMATS.gcp);
    expect(readAs(BILLING_FORMATS.gcp, dotted)).toBe(
      "Google Cloud billing export (BigQuery, resource-level)",
    );
    const underscored = dotted.slice(0, 6).map((name) => name.replace(".", "_"));
    expect(recognisedFormat(underscored)).toBe(BILLING_FORMATS.gcp);
    expect(readAs(BILLING_FORMATS.gcp, underscored)).toBe("Google Cloud billing export (BigQuery, standard)");
  });

  it("reads Azure's legacy, EA and German spellings, the exact name first", () => {
    const { azure } = BILLING_FORMATS;
    const legacy = [
      "SubscriptionGuid",
      "ResourceLocation",
      "MeterCategory",
      "MeterName",
      "UsageQuantity",
      "PreTaxCost",
      "UnitOfMeasure",
    ];
    expect(recognisedFormat(legacy)).toBe(azure);
    expect(coverageCostColumn(azure, legacy)).toBe("PreTaxCost");
    const ea = [
      "Meter Category",
      "Meter Name",
      "Consumed Quantity",
      "Unit Of Measure",
      "Resource Location",
      "ExtendedCost",
    ];
    expect(recognisedFormat(ea)).toBe(azure);
    expect(readAs(azure, ea)).toBe("Azure EA usage file");
    const german = [
      "Kategorie der Verbrauchseinheit",
      "Name der Verbrauchseinheit",
      "Verbrauchte Menge",
      "Maßeinheit",
      "Ressourcenspeicherort",
      "Kostenstelle",
    ];
    expect(recognisedFormat(german)).toBe(azure);
    // Kostenstelle (a cost centre) is not Kosten (a cost)
    expect(headerColumn(azure, "CostInBillingCurrency", german)).toBeNull();
    expect(headerColumn(azure, "Quantity", ["UsageQuantity", "Quantity"])).toBe("Quantity");
  });

  it("names the cost the coverage reads: EffectiveCost, a CUR's amortisation, else the billed cost", () => {
    const { focus, cur } = BILLING_FORMATS;
    expect(coverageCostColumn(focus, ["BilledCost", "EffectiveCost"])).toBe("EffectiveCost");
    expect(coverageCostColumn(focus, ["BilledCost"])).toBe("BilledCost");
    expect(coverageCostColumn(cur, ["line_item_unblended_cost"])).toBe("line_item_unblended_cost");
    expect(coverageCostColumn(cur, ["line_item_unblended_cost", "reservation_effective_cost"])).toBe(
      "line_item_unblended_cost amortised by reservation_effective_cost",
    );
  });

  it("names the closest format of a header that fits none, by its share of the required columns", () => {
    const oci = ["lineItem/referenceNo", "product/service", "product/region", "usage/billedQuantity"];
    expect(classifyHeader(oci)).toEqual({ nearMiss: BILLING_FORMATS.oci, missing: ["cost_my_cost"] });
    expect(unrecognisedHeader(oci, null)).toBe(
      "the header is nearly an Oracle OCI cost report export's (--input oci) but lacks cost_my_cost",
    );
    expect(classifyHeader(CUR_1_CSV.filter((name) => name !== "lineItem/Operation"))).toEqual({
      nearMiss: BILLING_FORMATS.cur,
      missing: ["line_item_operation"],
    });
  });
});
