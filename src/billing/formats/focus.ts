import type { BillingFormat } from "./format.js";

export const FOCUS: BillingFormat<"focus"> = {
  name: "focus",
  title: "FOCUS 1.0–1.2",
  listed: "FOCUS 1.0-1.4",
  // FOCUS 1.3 (ratified December 2025) and 1.4 (June 2026) keep the Cost and Usage dataset, read
  // by the same query; the columns each introduced name it, the later first (the specification's
  // datasets/cost_and_usage/columns, "Introduced (version)": 1.4's TagDetails and
  // CommitmentProgramEligibilityDetails, 1.3's ContractApplied and HostProviderName)
  provider: null,
  versions: [
    { title: "FOCUS 1.4 (Cost and Usage)", column: "TagDetails" },
    { title: "FOCUS 1.4 (Cost and Usage)", column: "CommitmentProgramEligibilityDetails" },
    { title: "FOCUS 1.3 (Cost and Usage)", column: "ContractApplied" },
    { title: "FOCUS 1.3 (Cost and Usage)", column: "HostProviderName" },
  ],
  required: [
    ["ServiceProviderName", "ProviderName"],
    "ChargeCategory",
    "ServiceName",
    "ConsumedQuantity",
    "ConsumedUnit",
    "RegionId",
  ],
  // Both provider spellings are read (1.2's first); the x_ columns are the providers' own.
  optional: [
    "ServiceProviderName",
    "ProviderName",
    "SkuMeter",
    "ChargeDescription",
    "ServiceCategory",
    "ResourceType",
    "SkuPriceDetails",
    "ChargeSubcategory",
    "CommitmentDiscountStatus",
    "x_ServiceCode",
    "x_Operation",
    "x_UsageType",
    "x_SkuMeterCategory",
    "x_SkuMeterName",
    "x_SkuDetails",
    "x_SkuMeterSubcategory",
    "BilledCost",
    "EffectiveCost",
    "BillingAccountId",
    "SubAccountId",
    "ResourceId",
    "ChargePeriodStart",
    "ChargePeriodEnd",
  ],
  aliases: {},
  numbers: ["ConsumedQuantity", "BilledCost", "EffectiveCost"],
  amortisedCost: ["EffectiveCost"],
  dates: ["ChargePeriodStart", "ChargePeriodEnd"],
  identities: ["BillingAccountId", "SubAccountId", "ResourceId"],
  currency: ["BillingCurrency"],
  dimensions: {
    service: { name: ["ServiceName"] },
    region: { name: ["RegionId"] },
    account: { name: ["SubAccountName", "SubAccountId", "BillingAccountName", "BillingAccountId"] },
    resource: { name: ["ResourceName"], id: ["ResourceId", "ResourceName"] },
  },
};
