import type { BillingFormat } from "./format.js";

/**
 * Azure's cost exports: EA and MCA cost details (PascalCase or camelCase), the legacy
 * pay-as-you-go usage file (`UsageQuantity`, `PreTaxCost`, `UsageDateTime`, `SubscriptionGuid`,
 * `InstanceId`), the EA portal's usage file (`Meter Category`, `Consumed Quantity`,
 * `ExtendedCost`) and its German headers (as Microsoft's German documentation names them:
 * "Kategorie der Verbrauchseinheit", "Verbrauchte Menge", "Maßeinheit", "Instanz-ID").
 */
export const AZURE: BillingFormat<"azure"> = {
  name: "azure",
  title: "Azure cost export",
  listed: "Azure",
  provider: "azure",
  versions: [
    { title: "Azure legacy pay-as-you-go usage export", column: "PreTaxCost" },
    { title: "Azure EA usage file (German headers)", column: "Verbrauchte Menge" },
    { title: "Azure EA usage file", column: "Consumed Quantity" },
  ],
  required: ["MeterCategory", "MeterName", "Quantity", "UnitOfMeasure", "ResourceLocation"],
  optional: [
    "ChargeType",
    "MeterSubCategory",
    "AdditionalInfo",
    "CostInBillingCurrency",
    "SubscriptionId",
    "ResourceId",
    "Date",
    "BillingPeriodStartDate",
    "BillingPeriodEndDate",
  ],
  aliases: {
    MeterCategory: ["Kategorie der Verbrauchseinheit"],
    MeterSubCategory: ["Unterkategorie der Verbrauchseinheit"],
    MeterName: ["Name der Verbrauchseinheit"],
    Quantity: ["UsageQuantity", "ConsumedQuantity", "Verbrauchte Menge"],
    UnitOfMeasure: ["Maßeinheit"],
    ResourceLocation: ["Ressourcenstandort", "Ressourcenspeicherort"],
    CostInBillingCurrency: ["PreTaxCost", "ExtendedCost", "Cost", "Erweiterte Kosten", "Kosten"],
    AdditionalInfo: ["Zusätzliche Informationen"],
    SubscriptionId: ["SubscriptionGuid", "Abonnement-GUID"],
    ResourceId: ["InstanceId", "Instanz-ID"],
    Date: ["UsageDateTime", "UsageDate", "Datum"],
  },
  numbers: ["Quantity", "CostInBillingCurrency"],
  amortisedCost: [],
  // Microsoft Learn, "Get Enterprise Agreement reservation costs and usage" and "Understand the
  // terms in your Azure usage and charges file": the amortized cost dataset alone carries the
  // unused hours of a reservation or savings plan as charges of their own; its cost column is
  // named as the actual cost's (CostInBillingCurrency, an EA's Cost)
  amortisedCharges: { column: "ChargeType", values: ["UnusedReservation", "UnusedSavingsPlan"] },
  dates: ["Date", "BillingPeriodStartDate", "BillingPeriodEndDate"],
  identities: ["SubscriptionId", "ResourceId"],
  currency: ["BillingCurrency", "BillingCurrencyCode", "Currency"],
  dimensions: {
    service: { name: ["MeterCategory"] },
    region: { name: ["ResourceLocation"] },
    account: { name: ["SubscriptionName", "SubscriptionId"] },
    resource: { name: ["ResourceName"], id: ["ResourceId", "ResourceName"] },
  },
  // Its VMs' meters (Spot and Low Priority included): an instance's hours
  computeWhen: { column: "MeterCategory", oneOf: ["Virtual Machines"] },
};
