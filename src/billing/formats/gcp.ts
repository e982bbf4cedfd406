import type { BillingFormat } from "./format.js";

/**
 * Google Cloud's billing export as BigQuery holds it (standard and resource-level tables,
 * cloud.google.com/billing/docs/how-to/export-data-bigquery-tables), saved as CSV with its nested
 * names flattened (`usage.amount_in_pricing_units`, or with underscores).
 */
export const GCP: BillingFormat<"gcp"> = {
  name: "gcp",
  title: "Google Cloud billing export (BigQuery, standard)",
  listed: "Google Cloud",
  provider: "gcp",
  versions: [{ title: "Google Cloud billing export (BigQuery, resource-level)", column: "resource.name" }],
  required: [
    "service_description",
    "sku_description",
    "usage_amount",
    "usage_unit",
    "location_region",
    "cost",
  ],
  optional: [
    "usage_pricing_unit",
    "usage_amount_in_pricing_units",
    "cost_type",
    "location_location",
    "project_id",
    "resource_name",
    "usage_start_time",
    "usage_end_time",
  ],
  aliases: { resource_name: ["resource_global_name"] },
  numbers: ["usage_amount", "cost"],
  amortisedCost: [],
  dates: ["usage_start_time", "usage_end_time"],
  identities: ["project_id", "resource_name"],
  currency: ["currency"],
  dimensions: {
    service: { name: ["service_description"] },
    region: { name: ["location_region", "location_location"] },
    account: { name: ["project_name", "project_id"] },
    resource: { name: ["resource_name"] },
  },
  // Its usage units as the methods read them: a byte-second as GiB-hours, a byte as GiB (2^30 bytes
  // a GiB, Google's pricing units "gibibyte hour" and "gibibyte"); seconds the methods read as such
  rescaled: [
    { unit: "byte-seconds", readAs: "GiB Hours", per: [1073741824, 3600] },
    { unit: "bytes", readAs: "GiB", per: [1073741824] },
  ],
};
