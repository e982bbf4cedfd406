/**
 * The same product, the same reading: each provider's products written as its FOCUS export writes
 * them (with its extension columns, and without) and as its native export does (CUR 2.0 and the
 * legacy CUR, Azure's cost details, Google's BigQuery export, Oracle's cost report), each export
 * evaluated, and every product required to read alike in all of them: its method, quantity, unit
 * (medium and copies), energy and impacts. Before, an Azure PostgreSQL flexible server's storage
 * was block storage on SSD ×3 in the native export and object storage on HDD ×1 in FOCUS: Microsoft's
 * FOCUS export names the service `Azure DB for PostgreSQL`.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, describe, expect, it } from "vitest";
import { evaluateBillingExport } from "../../src/billing/bill.js";
import { billingRequest, billingTermsOf } from "./support.js";

const scratch = mkdtempSync(join(tmpdir(), "billing-same-reading-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

type Cells = Readonly<Record<string, string>>;

/** A product as each export of its provider writes it: the export's name, its line's cells. */
interface Product {
  readonly name: string;
  readonly lines: Readonly<Record<string, Cells>>;
}

/** An export: its header (a line's cells outside it are an error of the test), the column naming a product's line. */
interface Export {
  readonly header: readonly string[];
  readonly id: string;
}

const START = "2026-10-01T00:00:00Z";
const END = "2026-10-02T00:00:00Z";

const FOCUS_HEADER = [
  "ProviderName",
  "ChargeCategory",
  "ServiceName",
  "ServiceCategory",
  "ChargeDescription",
  "SkuMeter",
  "ConsumedQuantity",
  "ConsumedUnit",
  "RegionId",
  "BilledCost",
  "EffectiveCost",
  "ResourceId",
  "ChargePeriodStart",
  "ChargePeriodEnd",
  "x_ServiceCode",
  "x_UsageType",
  "x_Operation",
  "x_SkuMeterCategory",
  "x_SkuMeterSubcategory",
  "x_SkuMeterName",
  "x_SkuDetails",
];

const EXPORTS: Readonly<Record<string, Export>> = {
  "focus-aws": { header: FOCUS_HEADER, id: "ResourceId" },
  // FOCUS without the providers' extension columns: the specification's alone
  "focus-spec": { header: FOCUS_HEADER.filter((column) => !column.startsWith("x_")), id: "ResourceId" },
  "cur-2.0": {
    header: [
      "identity_line_item_id",
      "line_item_line_item_type",
      "line_item_product_code",
      "line_item_usage_type",
      "line_item_operation",
      "line_item_line_item_description",
      "line_item_usage_amount",
      "line_item_unblended_cost",
      "pricing_unit",
      "product_instance_type",
      "product_product_family",
      "product_region_code",
      "line_item_usage_start_date",
      "line_item_usage_end_date",
    ],
    id: "identity_line_item_id",
  },
  "cur-1.0": {
    header: [
      "identity/LineItemId",
      "lineItem/LineItemType",
      "lineItem/ProductCode",
      "lineItem/UsageType",
      "lineItem/Operation",
      "lineItem/LineItemDescription",
      "lineItem/UsageAmount",
      "lineItem/UnblendedCost",
      "pricing/unit",
      "product/instanceType",
      "product/productFamily",
      "product/region",
      "lineItem/UsageStartDate",
      "lineItem/UsageEndDate",
    ],
    id: "identity/LineItemId",
  },
  "focus-azure": { header: FOCUS_HEADER, id: "ResourceId" },
  "focus-azure-spec": { header: FOCUS_HEADER.filter((column) => !column.startsWith("x_")), id: "ResourceId" },
  azure: {
    header: [
      "Date",
      "MeterCategory",
      "MeterSubCategory",
      "MeterName",
      "ResourceLocation",
      "Quantity",
      "UnitOfMeasure",
      "CostInBillingCurrency",
      "ChargeType",
      "ResourceId",
      "AdditionalInfo",
    ],
    id: "ResourceId",
  },
  "focus-gcp": { header: FOCUS_HEADER, id: "ResourceId" },
  gcp: {
    header: [
      "service.description",
      "sku.description",
      "usage.amount",
      "usage.unit",
      "usage.amount_in_pricing_units",
      "usage.pricing_unit",
      "location.region",
      "cost",
      "cost_type",
      "resource.name",
      "usage_start_time",
      "usage_end_time",
    ],
    id: "resource.name",
  },
  "focus-oci": { header: FOCUS_HEADER, id: "ResourceId" },
  oci: {
    header: [
      "product/service",
      "product/Description",
      "product/region",
      "product/resourceId",
      "usage/billedQuantity",
      "cost/myCost",
      "cost/skuUnitDescription",
      "cost/billingUnitReadable",
      "lineItem/intervalUsageStart",
      "lineItem/intervalUsageEnd",
    ],
    id: "product/resourceId",
  },
};

/** A FOCUS line: the specification's columns, then `x` (the provider's extension columns). */
const focus = (provider: string, id: string, cells: Cells, x: Cells = {}): Cells => ({
  ProviderName: provider,
  ChargeCategory: "Usage",
  ResourceId: id,
  ChargePeriodStart: START,
  ChargePeriodEnd: END,
  EffectiveCost: cells.BilledCost,
  ...cells,
  ...x,
});

/** An AWS product in CUR 2.0, the legacy CUR, FOCUS with AWS's columns and FOCUS without. */
function aws(
  id: string,
  line: {
    readonly code: string;
    readonly service: string;
    readonly family: string;
    readonly usageType: string;
    readonly operation: string;
    readonly description: string;
    readonly amount: string;
    readonly unit: string;
    readonly cost: string;
    readonly type?: string;
  },
): Product {
  const cur = {
    identity_line_item_id: id,
    line_item_line_item_type: "Usage",
    line_item_product_code: line.code,
    line_item_usage_type: line.usageType,
    line_item_operation: line.operation,
    line_item_line_item_description: line.description,
    line_item_usage_amount: line.amount,
    line_item_unblended_cost: line.cost,
    pricing_unit: line.unit,
    product_instance_type: line.type ?? "",
    product_product_family: line.family,
    product_region_code: "eu-west-3",
    line_item_usage_start_date: START,
    line_item_usage_end_date: END,
  };
  const legacy = Object.fromEntries(
    EXPORTS["cur-1.0"].header.map((column, index) => [column, Object.values(cur)[index]]),
  );
  const spec = {
    ServiceName: line.service,
    ServiceCategory: line.family,
    ChargeDescription: line.description,
    ConsumedQuantity: line.amount,
    ConsumedUnit: line.unit,
    RegionId: "eu-west-3",
    BilledCost: line.cost,
  };
  return {
    name: id,
    lines: {
      "cur-2.0": cur,
      "cur-1.0": { ...legacy, "product/region": "eu-west-3" },
      "focus-aws": focus("AWS", id, spec, {
        x_ServiceCode: line.code,
        x_UsageType: line.usageType,
        x_Operation: line.operation,
      }),
      "focus-spec": focus("AWS", id, spec),
    },
  };
}

const AWS_PRODUCTS: readonly Product[] = [
  aws("ec2-hours", {
    code: "AmazonEC2",
    service: "Amazon Elastic Compute Cloud",
    family: "Compute Instance",
    usageType: "EUW3-BoxUsage:m5.xlarge",
    operation: "RunInstances",
    description: "$0.224 per On Demand Linux m5.xlarge Instance Hour",
    amount: "24",
    unit: "Hrs",
    cost: "5.376",
    type: "m5.xlarge",
  }),
  aws("ebs-gp2", {
    code: "AmazonEC2",
    service: "Amazon Elastic Compute Cloud",
    family: "Storage",
    usageType: "EUW3-EBS:VolumeUsage.gp2",
    operation: "CreateVolume-Gp2",
    description: "$0.116 per GB-month of General Purpose SSD (gp2) provisioned storage - EU (Paris)",
    amount: "100",
    unit: "GB-Mo",
    cost: "11.6",
  }),
  aws("s3-storage", {
    code: "AmazonS3",
    service: "Amazon Simple Storage Service",
    family: "Storage",
    usageType: "EUW3-TimedStorage-ByteHrs",
    operation: "StandardStorage",
    description: "$0.024 per GB - first 50 TB / month of storage used",
    amount: "500",
    unit: "GB-Mo",
    cost: "12",
  }),
  aws("data-out", {
    code: "AWSDataTransfer",
    service: "AWS Data Transfer",
    family: "Data Transfer",
    usageType: "EUW3-DataTransfer-Out-Bytes",
    operation: "",
    description: "$0.09 per GB - first 10 TB / month data transfer out beyond the global free tier",
    amount: "50",
    unit: "GB",
    cost: "4.5",
  }),
  aws("eks", {
    code: "AmazonEKS",
    service: "Amazon Elastic Kubernetes Service",
    family: "Compute",
    usageType: "EUW3-AmazonEKS-Hours:perCluster",
    operation: "CreateOperation",
    description: "Amazon EKS cluster usage in EU (Paris)",
    amount: "24",
    unit: "Hours",
    cost: "2.4",
  }),
  aws("rds-multi-az", {
    code: "AmazonRDS",
    service: "Amazon Relational Database Service",
    family: "Database Instance",
    usageType: "EUW3-Multi-AZUsage:db.m5.large",
    operation: "CreateDBInstance:0002",
    description: "$0.412 per RDS db.m5.large Multi-AZ instance hour (or partial hour) running MySQL",
    amount: "24",
    unit: "Hrs",
    cost: "9.888",
    type: "db.m5.large",
  }),
  aws("lambda", {
    code: "AWSLambda",
    service: "AWS Lambda",
    family: "Serverless",
    usageType: "EUW3-Lambda-GB-Second",
    operation: "Invoke",
    description: "AWS Lambda - Total Compute - EU (Paris)",
    amount: "360000",
    unit: "Lambda-GB-Second",
    cost: "6",
  }),
  aws("rds-storage", {
    code: "AmazonRDS",
    service: "Amazon Relational Database Service",
    family: "Database Storage",
    usageType: "EUW3-RDS:Multi-AZ-GP2-Storage",
    operation: "CreateDBInstance:0002",
    description: "$0.266 per GB-month of provisioned gp2 storage for Multi-AZ deployments running MySQL",
    amount: "100",
    unit: "GB-Mo",
    cost: "26.6",
  }),
  aws("nat-gateway", {
    code: "AmazonEC2",
    service: "Amazon Elastic Compute Cloud",
    family: "NAT Gateway",
    usageType: "EUW3-NatGateway-Hours",
    operation: "NatGateway",
    description: "$0.048 per NAT Gateway Hour",
    amount: "24",
    unit: "Hrs",
    cost: "1.152",
  }),
];

/** An Azure product in its cost details and in Microsoft's FOCUS export (ServiceName as the FinOps toolkit's Services.csv maps it). */
function azure(
  id: string,
  line: {
    readonly category: string;
    readonly subcategory: string;
    readonly meter: string;
    readonly service: string;
    readonly serviceCategory: string;
    readonly quantity: string;
    readonly unit: string;
    readonly cost: string;
    readonly serviceType?: string;
  },
): Product {
  const additional = line.serviceType === undefined ? "" : `{"ServiceType":"${line.serviceType}"}`;
  const spec = {
    ServiceName: line.service,
    ServiceCategory: line.serviceCategory,
    ChargeDescription: `${line.subcategory} - ${line.meter}`,
    SkuMeter: line.meter,
    ConsumedQuantity: line.quantity,
    ConsumedUnit: line.unit,
    RegionId: "francecentral",
    BilledCost: line.cost,
  };
  return {
    name: id,
    lines: {
      azure: {
        Date: "10/01/2026",
        MeterCategory: line.category,
        MeterSubCategory: line.subcategory,
        MeterName: line.meter,
        ResourceLocation: "francecentral",
        Quantity: line.quantity,
        UnitOfMeasure: line.unit,
        CostInBillingCurrency: line.cost,
        ChargeType: "Usage",
        ResourceId: id,
        AdditionalInfo: additional,
      },
      "focus-azure": focus("Microsoft", id, spec, {
        x_SkuMeterCategory: line.category,
        x_SkuMeterSubcategory: line.subcategory,
        x_SkuMeterName: line.meter,
        x_SkuDetails: additional,
      }),
      "focus-azure-spec": focus("Microsoft", id, spec),
    },
  };
}

const AZURE_PRODUCTS: readonly Product[] = [
  azure("vm", {
    category: "Virtual Machines",
    subcategory: "Dsv3 Series",
    meter: "D4s v3",
    service: "Virtual Machines",
    serviceCategory: "Compute",
    quantity: "24",
    unit: "1 Hour",
    cost: "4.8",
    serviceType: "Standard_D4s_v3",
  }),
  azure("managed-disk", {
    category: "Storage",
    subcategory: "Premium SSD Managed Disks",
    meter: "P10 LRS Disk",
    service: "Virtual Machines",
    serviceCategory: "Storage",
    quantity: "1",
    unit: "1/Month",
    cost: "19.71",
  }),
  azure("postgresql-storage", {
    category: "Azure Database for PostgreSQL",
    subcategory: "Flexible Server Storage",
    meter: "Storage Data Stored",
    service: "Azure DB for PostgreSQL",
    serviceCategory: "Databases",
    quantity: "32",
    unit: "1 GB/Month",
    cost: "4.2",
  }),
  azure("sql-database-storage", {
    category: "SQL Database",
    subcategory: "General Purpose",
    meter: "Data Stored",
    service: "Azure SQL Database",
    serviceCategory: "Databases",
    quantity: "50",
    unit: "1 GB/Month",
    cost: "6.1",
  }),
  azure("cosmos-storage", {
    category: "Azure Cosmos DB",
    subcategory: "Azure Cosmos DB",
    meter: "Data Stored",
    service: "Cosmos DB",
    serviceCategory: "Databases",
    quantity: "10",
    unit: "1 GB/Month",
    cost: "2.5",
  }),
  azure("blob-hot", {
    category: "Storage",
    subcategory: "Tiered Block Blob",
    meter: "Hot LRS Data Stored",
    service: "Storage Accounts",
    serviceCategory: "Storage",
    quantity: "100",
    unit: "1 GB/Month",
    cost: "2.08",
  }),
  azure("postgresql-burstable", {
    category: "Azure Database for PostgreSQL",
    subcategory: "Flexible Server Burstable BS Series Compute",
    meter: "B2s",
    service: "Azure DB for PostgreSQL",
    serviceCategory: "Databases",
    quantity: "24",
    unit: "1 Hour",
    cost: "1.2",
  }),
  azure("app-service", {
    category: "Azure App Service",
    subcategory: "Premium v3 Plan",
    meter: "P1 v3",
    service: "Azure App Service",
    serviceCategory: "Web",
    quantity: "24",
    unit: "1 Hour",
    cost: "3.9",
  }),
  azure("redis", {
    category: "Redis Cache",
    subcategory: "Standard",
    meter: "C1 Cache",
    service: "Azure Cache for Redis",
    serviceCategory: "Databases",
    quantity: "24",
    unit: "1 Hour",
    cost: "2.4",
  }),
  azure("aks", {
    category: "Azure Kubernetes Service",
    subcategory: "Standard",
    meter: "Standard Uptime SLA",
    service: "Azure Kubernetes Service",
    serviceCategory: "Compute",
    quantity: "24",
    unit: "1 Hour",
    cost: "2.4",
  }),
];

/**
 * A Google Cloud product in its BigQuery export (the usage in seconds or byte-seconds, and in the
 * pricing unit) and in Google's FOCUS export (the quantity in the pricing unit).
 */
function gcp(
  id: string,
  line: {
    readonly service: string;
    readonly sku: string;
    readonly amount: string;
    readonly unit: string;
    readonly priced: string;
    readonly pricingUnit: string;
    readonly cost: string;
  },
): Product {
  return {
    name: id,
    lines: {
      gcp: {
        "service.description": line.service,
        "sku.description": line.sku,
        "usage.amount": line.amount,
        "usage.unit": line.unit,
        "usage.amount_in_pricing_units": line.priced,
        "usage.pricing_unit": line.pricingUnit,
        "location.region": "europe-west9",
        cost: line.cost,
        cost_type: "regular",
        "resource.name": id,
        usage_start_time: "2026-10-01 00:00:00 UTC",
        usage_end_time: "2026-10-02 00:00:00 UTC",
      },
      "focus-gcp": focus("Google Cloud", id, {
        ServiceName: line.service,
        ServiceCategory: "Compute",
        ChargeDescription: line.sku,
        SkuMeter: "",
        ConsumedQuantity: line.priced,
        ConsumedUnit: line.pricingUnit,
        RegionId: "europe-west9",
        BilledCost: line.cost,
      }),
    },
  };
}

/** Seconds, byte-seconds: a GiB is 2^30 bytes, a month 730 hours (Google's pricing units). */
const GIB = 1024 ** 3;

const GCP_PRODUCTS: readonly Product[] = [
  gcp("n2-core", {
    service: "Compute Engine",
    sku: "N2 Instance Core running in Paris",
    amount: String(96 * 3600),
    unit: "seconds",
    priced: "96",
    pricingUnit: "hour",
    cost: "3.1",
  }),
  gcp("n2-ram", {
    service: "Compute Engine",
    sku: "N2 Instance Ram running in Paris",
    amount: String(16 * GIB * 24 * 3600),
    unit: "byte-seconds",
    priced: String(16 * 24),
    pricingUnit: "gibibyte hour",
    cost: "1.6",
  }),
  gcp("pd-capacity", {
    service: "Compute Engine",
    sku: "Storage PD Capacity in Paris",
    amount: String(100 * GIB * 730 * 3600),
    unit: "byte-seconds",
    priced: "100",
    pricingUnit: "gibibyte month",
    cost: "4.4",
  }),
  gcp("gcs-standard", {
    service: "Cloud Storage",
    sku: "Standard Storage Paris",
    amount: String(200 * GIB * 730 * 3600),
    unit: "byte-seconds",
    priced: "200",
    pricingUnit: "gibibyte month",
    cost: "4.6",
  }),
  gcp("gke-regional", {
    service: "Kubernetes Engine",
    sku: "Regional Kubernetes Clusters",
    amount: String(24 * 3600),
    unit: "seconds",
    priced: "24",
    pricingUnit: "hour",
    cost: "2.4",
  }),
];

/** An Oracle product in its cost report and in Oracle's FOCUS export. */
function oci(
  id: string,
  line: {
    readonly service: string;
    readonly focusService: string;
    readonly description: string;
    readonly quantity: string;
    readonly unit: string;
    readonly readable: string;
    readonly cost: string;
  },
): Product {
  return {
    name: id,
    lines: {
      oci: {
        "product/service": line.service,
        "product/Description": line.description,
        "product/region": "eu-frankfurt-1",
        "product/resourceId": id,
        "usage/billedQuantity": line.quantity,
        "cost/myCost": line.cost,
        "cost/skuUnitDescription": line.unit,
        "cost/billingUnitReadable": line.readable,
        "lineItem/intervalUsageStart": "2026-10-01T00:00Z",
        "lineItem/intervalUsageEnd": "2026-10-02T00:00Z",
      },
      "focus-oci": focus("Oracle", id, {
        ServiceName: line.focusService,
        ServiceCategory: "Compute",
        ChargeDescription: line.description,
        SkuMeter: "",
        ConsumedQuantity: line.quantity,
        ConsumedUnit: line.readable,
        RegionId: "eu-frankfurt-1",
        BilledCost: line.cost,
      }),
    },
  };
}

const OCI_PRODUCTS: readonly Product[] = [
  oci("e4-ocpu", {
    service: "COMPUTE",
    focusService: "Compute",
    description: "Standard - E4 - OCPU",
    quantity: "48",
    unit: "OCPU Hours",
    readable: "1 NONE HOURS OCPUS",
    cost: "1.2",
  }),
  oci("e4-memory", {
    service: "COMPUTE",
    focusService: "Compute",
    description: "Standard - E4 - Memory",
    quantity: "384",
    unit: "GB Hours",
    readable: "1 GiB HOURS MEMORY",
    cost: "0.6",
  }),
  oci("block-volume", {
    service: "BLOCK_STORAGE",
    focusService: "Block Storage",
    description: "Block Volume - Storage",
    quantity: "3.29",
    unit: "GB Months",
    readable: "1 GiB MONTHS STORAGE_SIZE",
    cost: "0.08",
  }),
  oci("oke", {
    service: "CONTAINER_ENGINE",
    focusService: "Kubernetes Engine",
    description: "Kubernetes Engine - Enhanced Cluster",
    quantity: "24",
    unit: "Cluster Per Hour",
    readable: "ONE HOURS CLUSTER",
    cost: "2.4",
  }),
];

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value);

/** Each product's line of an export, as the export writes it, evaluated: its output line by the product's name. */
async function evaluated(exportName: string, products: readonly Product[]): Promise<Map<string, Cells>> {
  const { header, id } = EXPORTS[exportName];
  const rows = products.flatMap((product) => {
    const cells = product.lines[exportName];
    if (cells === undefined) return [];
    const stray = Object.keys(cells).filter((column) => !header.includes(column));
    if (stray.length > 0) throw new Error(`${exportName} has no column ${stray.join(", ")}`);
    return [header.map((column) => csvCell(cells[column] ?? "")).join(",")];
  });
  const file = join(scratch, `${exportName}.csv`);
  writeFileSync(file, `${[header.map(csvCell).join(","), ...rows].join("\n")}\n`);
  const output = join(scratch, `${exportName}.out.csv`);
  await evaluateBillingExport(
    billingTermsOf("2.4.1", { criteria: ["gwp", "adp"] }),
    billingRequest(file, output),
  );
  const lines = parse(readFileSync(output), { columns: true }) as Record<string, string>[];
  return new Map(lines.map((line) => [line[id], line]));
}

/** What must read alike: the method, its units and their unit (medium, copies), the energy and impacts. */
const READING = [
  "status",
  "method",
  "method_quantity",
  "method_unit",
  "matched_instance_type",
  "hours",
  "energy_kwh",
  "gwp_embedded_kgco2eq",
  "gwp_use_kgco2eq",
  "adp_embedded_kgsbeq",
  "adp_use_kgsbeq",
];

const NUMBERS = new Set([
  "method_quantity",
  "hours",
  "energy_kwh",
  "gwp_embedded_kgco2eq",
  "gwp_use_kgco2eq",
]);

/** A line's reading, its numbers to 9 significant digits (the output writes 10). */
function reading(line: Cells | undefined): Record<string, string> {
  if (line === undefined) return { missing: "no line" };
  return Object.fromEntries(
    READING.map((column) => {
      const value = line[column] ?? "";
      return [column, NUMBERS.has(column) && value !== "" ? Number(value).toPrecision(9) : value];
    }),
  );
}

describe("the same product, the same reading in every export of its provider", () => {
  it.each([
    ["AWS", AWS_PRODUCTS, ["cur-2.0", "cur-1.0", "focus-aws", "focus-spec"]],
    ["Azure", AZURE_PRODUCTS, ["azure", "focus-azure", "focus-azure-spec"]],
    ["Google Cloud", GCP_PRODUCTS, ["gcp", "focus-gcp"]],
    ["Oracle", OCI_PRODUCTS, ["oci", "focus-oci"]],
  ] as const)(
    "%s",
    async (_provider, products, exportNames) => {
      const [first, ...others] = await Promise.all(exportNames.map((name) => evaluated(name, products)));
      for (const product of products) {
        const expected = reading(first.get(product.name));
        expect(expected.status, `${product.name} in ${exportNames[0]}`).toBe("evaluated");
        others.forEach((lines, index) => {
          expect(reading(lines.get(product.name)), `${product.name} in ${exportNames[index + 1]}`).toEqual(
            expected,
          );
        });
      }
    },
    180_000,
  );
});
