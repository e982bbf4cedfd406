import type { BillingFormat } from "./format.js";

/**
 * Oracle Cloud Infrastructure's cost reports (docs.oracle.com/en-us/iaas/Content/Billing/Concepts/
 * usagereportsoverview.htm): `product/service`, `product/Description`, `usage/billedQuantity`,
 * `cost/myCost`, `cost/skuUnitDescription` (`cost/billingUnitReadable` in older ones).
 */
export const OCI: BillingFormat<"oci"> = {
  name: "oci",
  title: "Oracle OCI cost report",
  listed: "Oracle OCI",
  provider: "oracle",
  versions: [],
  required: ["product_service", "product_region", "usage_billed_quantity", "cost_my_cost"],
  optional: [
    "product_description",
    "product_resource",
    "cost_product_sku",
    "cost_sku_unit_description",
    "cost_billing_unit_readable",
    "line_item_is_correction",
    "line_item_tenant_id",
    "product_resource_id",
    "line_item_interval_usage_start",
    "line_item_interval_usage_end",
  ],
  aliases: {},
  numbers: ["usage_billed_quantity", "cost_my_cost"],
  amortisedCost: [],
  dates: ["line_item_interval_usage_start", "line_item_interval_usage_end"],
  identities: ["line_item_tenant_id", "product_resource_id"],
  currency: ["cost_currency_code"],
  dimensions: {
    service: { name: ["product_service"] },
    region: { name: ["product_region"] },
    account: { name: ["line_item_tenant_id"] },
    resource: { name: ["product_resource_id"] },
  },
};
