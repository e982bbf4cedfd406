-- A FOCUS export (FinOps Open Cost and Usage Specification 1.0, 1.1, 1.2) as billing lines.
--
-- Reads the view billing_export: the file as it is, plus billing_type_hint (the column named by
-- --instance-type-column, else empty); a column of this query that the file lacks is present and
-- empty. Adds, for each row: its provider (a FOCUS file may mix them: ServiceProviderName in 1.2,
-- ProviderName before), what kind of line it is, the instance type it bills, its quantity, unit
-- and region. The spec's own columns come first: a usage line whose ChargeDescription,
-- SkuPriceDetails or SkuMeter names an instance type ("$0.34 per On Demand Linux c5.2xlarge
-- Instance Hour") is an instance's hours, whoever wrote the export; the providers' extension
-- columns (x_ServiceCode, x_Operation, x_UsageType, x_SkuMeter*, x_SkuDetails) refine it where
-- present. The query keeps to what Spark SQL, Trino, BigQuery and DuckDB share (docs/billing.md).
SELECT
  p.*,
  CASE
    -- An empty category is none (Hive's and Athena's CSV reader gives an empty cell as an empty text)
    WHEN NULLIF(TRIM(p.ChargeCategory), '') <> 'Usage' THEN 'not compute'
    WHEN p.billing_provider = 'aws' AND p.x_ServiceCode IS NOT NULL
      AND ((p.x_ServiceCode = 'AmazonEC2' AND p.x_Operation LIKE 'RunInstances%')
        OR (p.x_ServiceCode IN ('AmazonRDS', 'AmazonDocDB', 'AmazonNeptune') AND p.x_Operation LIKE 'CreateDBInstance%')
        OR (p.x_ServiceCode IN ('AmazonES', 'AmazonOpenSearchService') AND p.x_Operation = 'ESDomain'))
      AND (p.billing_usage_type LIKE '%BoxUsage:%' OR p.billing_usage_type LIKE '%SpotUsage:%'
        OR p.billing_usage_type LIKE '%DedicatedUsage:%' OR p.billing_usage_type LIKE '%InstanceUsage%:%'
        OR p.billing_usage_type LIKE '%Multi-AZUsage%:%'
        OR p.billing_usage_type LIKE '%Multi-AZClusterUsage%:%' OR p.billing_usage_type LIKE '%ESInstance:%')
      THEN 'compute'
    WHEN p.billing_provider = 'aws' AND p.x_ServiceCode IS NOT NULL AND p.billing_named_type IS NOT NULL
      AND ((p.x_ServiceCode IN ('AmazonElastiCache', 'AmazonMemoryDB') AND p.billing_usage_type LIKE '%NodeUsage%:%')
        OR (p.x_ServiceCode = 'AmazonSageMaker' AND p.billing_usage_type LIKE '%:ml.%')
        OR (p.x_ServiceCode IN ('AmazonMSK', 'AmazonManagedStreamingforApacheKafka')
          AND LOWER(p.billing_usage_type) LIKE '%kafka.%')
        OR (p.x_ServiceCode = 'AmazonRedshift' AND p.billing_usage_type LIKE '%Node:%'))
      THEN 'compute'
    WHEN p.billing_provider = 'aws' AND p.x_ServiceCode IS NOT NULL THEN 'not compute'
    -- Without the extension columns: the type the line's description names, for its hours.
    -- A fee on hours another service bills (EMR: src/billing/registry/services.ts, the fee
    -- services' names, lower case; written here, not joined, for this view keeps the lines' order
    -- and test/billing/registry.test.ts holds the two lists equal) names an instance type too
    WHEN p.billing_provider IN ('aws', 'oracle') AND p.billing_described_type IS NOT NULL
      AND LOWER(TRIM(COALESCE(p.ServiceName, ''))) NOT IN ('elasticmapreduce', 'amazon elastic mapreduce',
        'amazon emr', 'computesavingsplans', 'savings plans for aws compute usage')
      AND LOWER(COALESCE(p.ChargeDescription, '')) NOT LIKE '%mbps%'
      AND LOWER(COALESCE(p.ChargeDescription, '')) NOT LIKE '%cpu credit%'
      AND LOWER(TRIM(p.ConsumedUnit)) IN ('hours', 'hour', 'hrs', 'hr', 'h')
      THEN 'compute'
    WHEN p.billing_provider = 'azure'
      AND (p.x_SkuMeterCategory = 'Virtual Machines'
        OR (p.x_SkuMeterCategory IS NULL AND (p.ServiceName IN ('Virtual Machines', 'Virtual Machine Scale Sets')
          OR LOWER(COALESCE(p.ResourceType, '')) LIKE 'virtual machine%'
          -- A VM of another service (Machine Learning compute, AKS nodes): its meter's subcategory
          OR LOWER(COALESCE(p.ChargeDescription, '')) LIKE 'virtual machines%')
          -- A VM's disks, traffic and addresses are billed under its service too, by other units
          AND LOWER(TRIM(COALESCE(p.ConsumedUnit, ''))) IN ('hours', 'hour', 'hrs', 'hr', 'h', '1 hour', '10 hours', '100 hours', '1000 hours')
          AND LOWER(COALESCE(p.ChargeDescription, '')) NOT LIKE '%ip address%'
          AND LOWER(COALESCE(p.ChargeDescription, '')) NOT LIKE '%license%'))
      THEN 'compute'
    WHEN p.billing_provider = 'gcp' AND p.ServiceName = 'Compute Engine'
      AND COALESCE(p.billing_type_hint, p.billing_gcp_type) IS NOT NULL
      THEN 'compute'
    WHEN p.billing_provider = 'gcp' AND p.ServiceName = 'Compute Engine' THEN 'machine type not billed'
    ELSE 'not compute'
  END AS billing_line_kind,
  CASE
    WHEN p.billing_type_hint IS NOT NULL THEN p.billing_type_hint
    WHEN p.billing_provider = 'aws' THEN COALESCE(
      NULLIF(REGEXP_EXTRACT(p.billing_usage_type, ':([^:]+)$', 1), ''),
      p.billing_named_type,
      p.billing_described_type)
    WHEN p.billing_provider = 'oracle' THEN p.billing_described_type
    WHEN p.billing_provider = 'azure' THEN COALESCE(
      -- The size the line ran (x_SkuDetails' ServiceType), else the meter's sizes (D2 v3/D2s v3:
      -- matching takes the first the edition lists).
      NULLIF(REGEXP_EXTRACT(COALESCE(p.x_SkuDetails, p.SkuPriceDetails, ''), '"ServiceType"[ ]*:[ ]*"([^"]+)"', 1), ''),
      REPLACE(TRIM(REPLACE(REPLACE(
        -- Microsoft's description without extensions: "<subcategory> - <meter> - <region>"
        COALESCE(p.x_SkuMeterName, p.SkuMeter,
          NULLIF(TRIM(REGEXP_EXTRACT(COALESCE(p.ChargeDescription, ''), '^[Vv]irtual [Mm]achines[^-]*- ([^-]+)', 1)), ''),
          p.ChargeDescription),
        ' Low Priority', ''), ' Spot', '')), ' ', '_'))
    WHEN p.billing_provider = 'gcp' THEN p.billing_gcp_type
    ELSE NULL
  END AS billing_instance_type,
  TRY_CAST(p.ConsumedQuantity AS DOUBLE) AS billing_quantity,
  p.ConsumedUnit AS billing_unit,
  p.RegionId AS billing_region,
  -- The line's period [start, end) as written (evaluate/billing_periods.sql reads it)
  CAST(p.ChargePeriodStart AS VARCHAR) AS billing_period_start_text,
  CAST(p.ChargePeriodEnd AS VARCHAR) AS billing_period_end_text,
  CAST(0 AS DOUBLE) AS billing_period_end_days,
  -- No column of the bill gives an instance's shape: its name's size grammar does (src/billing/instanceShapes.ts)
  CAST(NULL AS DOUBLE) AS billing_instance_vcpus,
  CAST(NULL AS DOUBLE) AS billing_instance_memory_gib
FROM (
  SELECT
    q.*,
    -- An instance type as AWS (and its managed services: db., cache., ml., kafka., .search) or
    -- Oracle (VM.Standard.E4.Flex) name it, in the description or the SKU's columns.
    COALESCE(
      NULLIF(REGEXP_EXTRACT(LOWER(COALESCE(q.ChargeDescription, '')), '((?:(?:db|cache|ml|kafka)[.])?[a-z][a-z0-9-]*[0-9][a-z0-9-]*[.](?:nano|micro|small|medium|[0-9]*xlarge|large|metal[a-z0-9-]*)(?:[.]search)?|(?:vm|bm)[.][a-z0-9]+[.][a-z0-9.]*[a-z0-9])', 1), ''),
      NULLIF(REGEXP_EXTRACT(LOWER(COALESCE(q.SkuPriceDetails, '')), '((?:(?:db|cache|ml|kafka)[.])?[a-z][a-z0-9-]*[0-9][a-z0-9-]*[.](?:nano|micro|small|medium|[0-9]*xlarge|large|metal[a-z0-9-]*)(?:[.]search)?)', 1), ''),
      NULLIF(REGEXP_EXTRACT(LOWER(COALESCE(q.SkuMeter, '')), '((?:(?:db|cache|ml|kafka)[.])?[a-z][a-z0-9-]*[0-9][a-z0-9-]*[.](?:nano|micro|small|medium|[0-9]*xlarge|large|metal[a-z0-9-]*)(?:[.]search)?)', 1), '')
    ) AS billing_described_type,
    NULLIF(REGEXP_EXTRACT(LOWER(COALESCE(q.billing_usage_type, '')), '((?:(?:db|cache|ml|kafka)[.])?[a-z][a-z0-9-]*[0-9][a-z0-9-]*[.](?:nano|micro|small|medium|[0-9]*xlarge|large|metal[a-z0-9-]*)(?:[.]search)?)', 1), '')
      AS billing_named_type,
    -- A Google Cloud machine type where a description names one (n2-standard-4).
    NULLIF(REGEXP_EXTRACT(LOWER(CONCAT(COALESCE(q.SkuMeter, ''), ' ', COALESCE(q.ChargeDescription, ''))), '([a-z][a-z0-9]*-(?:standard|highmem|highcpu|megamem|ultramem|hpc)-[0-9]+)', 1), '')
      AS billing_gcp_type
  FROM (
    SELECT
      e.*,
      CASE
        -- @focus providers of LOWER(COALESCE(e.ServiceProviderName, e.ProviderName))
        ELSE NULL
      END AS billing_provider,
      COALESCE(e.x_UsageType, e.SkuMeter) AS billing_usage_type
    FROM billing_export e
  ) q
) p
