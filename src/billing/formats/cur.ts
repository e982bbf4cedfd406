import { INSTANCE_USAGE_TYPES } from "../providers/aws.js";
import type { BillingFormat } from "./format.js";

/** The costs a CUR line carries (billed, then reservations' and Savings Plans'): read, and read as numbers. */
const COSTS = [
  "line_item_unblended_cost",
  "reservation_effective_cost",
  "reservation_unused_amortized_upfront_fee_for_billing_period",
  "reservation_unused_recurring_fee",
  "savings_plan_savings_plan_effective_cost",
  "savings_plan_total_commitment_to_date",
  "savings_plan_used_commitment",
];

/**
 * AWS's Cost and Usage Reports: CUR 2.0 (Data Exports), the legacy CUR's CSV (`lineItem/…`,
 * `product/region`, docs.aws.amazon.com/cur/latest/userguide/data-dictionary.html) and its
 * Athena/Glue Parquet (the same names in snake_case: `product_region`). The amortised cost's
 * columns are read where present (sql/classify/billing_usage_cur.sql).
 */
export const CUR: BillingFormat<"cur"> = {
  name: "cur",
  title: "AWS CUR 2.0",
  listed: "AWS CUR 2.0 and 1.0",
  provider: "aws",
  versions: [
    {
      title: "AWS CUR 1.0 (legacy CSV, lineItem/… columns)",
      column: "lineItem/UsageType",
      spelled: "exactly",
    },
    {
      title: "AWS CUR 1.0 (legacy, lineItem/… columns flattened by a loader)",
      column: "lineItem/UsageType",
      spelled: "words",
    },
    { title: "AWS CUR 1.0 (legacy, Athena/Parquet snake_case columns)", column: "product_region" },
  ],
  required: [
    "line_item_line_item_type",
    "line_item_product_code",
    "line_item_operation",
    "line_item_usage_type",
    "line_item_usage_amount",
  ],
  optional: [
    "product_instance_type",
    "pricing_unit",
    "product_region_code",
    "product_region",
    "product_from_region_code",
    "product_product_family",
    ...COSTS,
    "reservation_reservation_a_r_n",
    "line_item_usage_account_id",
    "line_item_resource_id",
    "line_item_usage_start_date",
    "line_item_usage_end_date",
    "product_vcpu",
    "product_memory",
  ],
  aliases: {},
  // CUR 2.0 keeps the legacy product columns its fixed schema lacks as keys of `product`, named
  // as the legacy columns in snake case (AWS, "Cost and Usage Report (CUR) 2.0", product columns)
  keyed: {
    product_vcpu: { map: "product", key: "vcpu" },
    product_memory: { map: "product", key: "memory" },
  },
  numbers: ["line_item_usage_amount", ...COSTS],
  // AWS's amortised cost (CUR user guide, "Understanding your reservations" and "Savings Plans
  // line items"): a covered hour at its effective cost, the unused part of a commitment's fee, the
  // upfront fees and negations nothing (sql/classify/billing_usage_cur.sql).
  amortisedCost: ["reservation_effective_cost", "savings_plan_savings_plan_effective_cost"],
  dates: ["line_item_usage_start_date", "line_item_usage_end_date"],
  identities: ["line_item_usage_account_id", "line_item_resource_id"],
  currency: ["line_item_currency_code"],
  dimensions: {
    // AWS's product names (legacy product/ProductName, CUR 2.0's product map), the code as id
    service: {
      name: [
        "product_product_name",
        { column: "product_servicename", sameAs: ["product_servicecode", "line_item_product_code"] },
        { map: "product", key: "servicename", sameAs: ["product_servicecode", "line_item_product_code"] },
      ],
      id: ["line_item_product_code"],
    },
    region: { name: ["product_region_code", "product_region", "product_from_region_code"] },
    account: { name: ["line_item_usage_account_name", "line_item_usage_account_id"] },
    resource: {
      name: [
        "resource_tags_user_name",
        { map: "resource_tags", key: "user_name" },
        { map: "resource_tags", key: "user:Name" },
      ],
      id: ["line_item_resource_id"],
    },
  },
  // A line without a unit (the legacy CUR leaves pricing_unit empty on free-tier hours) in the unit
  // its usage type measures, as its lines with a unit write it: data (`DataTransfer-Out-Bytes`,
  // `USE1-USW2-AWS-Out-Bytes`) in GB, stored bytes (`TimedStorage-ByteHrs`) and EBS volumes and
  // snapshots (`EBS:VolumeUsage.gp2`, `EBS:SnapshotUsage`) in GB-Mo
  impliedUnits: [
    { unit: "GB", column: "line_item_usage_type", like: ["%-Bytes"] },
    {
      unit: "GB-Mo",
      column: "line_item_usage_type",
      like: ["%-ByteHrs", "%EBS:VolumeUsage%", "%EBS:SnapshotUsage%"],
    },
  ],
  // An instance's hours: EC2 instances, RDS instances and OpenSearch domains by their operation,
  // the type in product_instance_type or at the end of the usage type (EUW2-BoxUsage:t3.xlarge);
  // the nodes of ElastiCache, MemoryDB, DocumentDB, Neptune, SageMaker (USE1-Host:ml.m5.large,
  // USE1-Notebk:ml.t3.medium, USE1-ml.m5.large-hosting), MSK and Redshift (USW2-Node:dc2.large) by
  // their usage type, evaluated as the EC2 type (docs/methodology.md). Spot and reserved lines of
  // the legacy CUR's Parquet leave the unit empty: an instance's line without one is in hours.
  instanceHours: {
    columns: {
      service: "line_item_product_code",
      operation: "line_item_operation",
      usageType: "line_item_usage_type",
      instanceType: "product_instance_type",
    },
    byOperation: [
      { service: "AmazonEC2", operation: "RunInstances%" },
      { service: "AmazonRDS", operation: "CreateDBInstance%" },
      { service: "AmazonES", operation: "ESDomain" },
    ],
    namedBy: INSTANCE_USAGE_TYPES,
    byNode: [
      { services: ["AmazonElastiCache", "AmazonMemoryDB"], usageType: "%NodeUsage%:%" },
      { services: ["AmazonDocDB", "AmazonNeptune"], usageType: "%InstanceUsage%:%" },
      { services: ["AmazonSageMaker"], usageType: "%ml.%", lower: true, hourly: true },
      { services: ["AmazonMSK", "AmazonManagedStreamingforApacheKafka"], usageType: "%kafka.%", lower: true },
      { services: ["AmazonRedshift"], usageType: "%Node:%" },
    ],
    hoursUnit: { unit: "Hrs", usageTypes: ["%Usage%:%", "%ESInstance:%"] },
  },
  instanceMemory: { column: "product_memory", unit: "GiB" },
};
