-- An AWS Cost and Usage Report (CUR 2.0, and the legacy CUR read under its snake_case names:
-- src/billing/formats/) as billing lines.
--
-- Reads the view billing_export: the file as it is, plus billing_type_hint (empty for a CUR); a
-- column of this query that the file lacks is present and empty. Compute lines are the usage
-- (plain, discounted, Savings-Plan-covered) of EC2 instances, RDS instances, OpenSearch
-- domains and the nodes of ElastiCache, MemoryDB, DocumentDB, Neptune, SageMaker, MSK and Redshift; the instance type is product_instance_type, else the end of the usage type
-- (EUW2-BoxUsage:t3.xlarge). The query keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
SELECT
  e.*,
  -- @provider of format cur
  CASE
    -- An empty type is none (Hive's and Athena's CSV reader gives an empty cell as an empty text)
    WHEN NULLIF(TRIM(e.line_item_line_item_type), '') NOT IN ('Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage')
      THEN 'not compute'
    WHEN ((e.line_item_product_code = 'AmazonEC2' AND e.line_item_operation LIKE 'RunInstances%')
        OR (e.line_item_product_code = 'AmazonRDS' AND e.line_item_operation LIKE 'CreateDBInstance%')
        OR (e.line_item_product_code = 'AmazonES' AND e.line_item_operation = 'ESDomain'))
      AND (NULLIF(TRIM(e.product_instance_type), '') IS NOT NULL
        OR e.line_item_usage_type LIKE '%BoxUsage:%' OR e.line_item_usage_type LIKE '%SpotUsage:%'
        OR e.line_item_usage_type LIKE '%DedicatedUsage:%' OR e.line_item_usage_type LIKE '%InstanceUsage%:%'
        OR e.line_item_usage_type LIKE '%Multi-AZUsage%:%'
        OR e.line_item_usage_type LIKE '%Multi-AZClusterUsage%:%' OR e.line_item_usage_type LIKE '%ESInstance:%')
      THEN 'compute'
    -- Managed services whose nodes are instance types (cache.m5.large, db.r5.large, ml.m5.large,
    -- kafka.m5.large), evaluated as the EC2 type (docs/methodology.md).
    WHEN ((e.line_item_product_code IN ('AmazonElastiCache', 'AmazonMemoryDB') AND e.line_item_usage_type LIKE '%NodeUsage%:%')
        OR (e.line_item_product_code IN ('AmazonDocDB', 'AmazonNeptune') AND e.line_item_usage_type LIKE '%InstanceUsage%:%')
        -- SageMaker's instances as CUR names them: USE1-Host:ml.m5.large, USE1-Notebk:ml.t3.medium,
        -- USE1-Train:ml.p3.2xlarge, USE1-ml.m5.large-hosting
        OR (e.line_item_product_code = 'AmazonSageMaker' AND LOWER(e.line_item_usage_type) LIKE '%ml.%')
        OR (e.line_item_product_code IN ('AmazonMSK', 'AmazonManagedStreamingforApacheKafka')
          AND LOWER(e.line_item_usage_type) LIKE '%kafka.%')
        -- A Redshift cluster's nodes (USW2-Node:dc2.large; the editions list dc2, ds2 and ra3 nodes)
        OR (e.line_item_product_code = 'AmazonRedshift' AND e.line_item_usage_type LIKE '%Node:%'))
      AND NULLIF(REGEXP_EXTRACT(LOWER(e.line_item_usage_type), '((?:(?:db|cache|ml|kafka)[.])?[a-z][a-z0-9-]*[0-9][a-z0-9-]*[.](?:nano|micro|small|medium|[0-9]*xlarge|large|metal[a-z0-9-]*))', 1), '') IS NOT NULL
      THEN 'compute'
    ELSE 'not compute'
  END AS billing_line_kind,
  COALESCE(
    NULLIF(TRIM(e.product_instance_type), ''),
    NULLIF(REGEXP_EXTRACT(e.line_item_usage_type, ':([^:]+)$', 1), ''),
    NULLIF(REGEXP_EXTRACT(LOWER(e.line_item_usage_type), '((?:(?:db|cache|ml|kafka)[.])?[a-z][a-z0-9-]*[0-9][a-z0-9-]*[.](?:nano|micro|small|medium|[0-9]*xlarge|large|metal[a-z0-9-]*))', 1), '')
  ) AS billing_instance_type,
  TRY_CAST(e.line_item_usage_amount AS DOUBLE) AS billing_quantity,
  -- An instance's line without a unit is its hours (Spot and reserved lines leave it empty in the
  -- legacy CUR's Parquet); another line's stays without one
  COALESCE(
    NULLIF(TRIM(e.pricing_unit), ''),
    CASE
      WHEN e.line_item_usage_type LIKE '%Usage%:%' OR e.line_item_usage_type LIKE '%ESInstance:%'
        OR (e.line_item_product_code = 'AmazonSageMaker' AND LOWER(e.line_item_usage_type) LIKE '%ml.%')
        THEN 'Hrs'
    END
  ) AS billing_unit,
  -- CUR 2.0 and newer legacy reports name the region's code; older legacy ones product_region; a
  -- transfer between regions names its source (product_from_region_code) where it names no region
  COALESCE(NULLIF(TRIM(e.product_region_code), ''), NULLIF(TRIM(e.product_region), ''),
    NULLIF(TRIM(e.product_from_region_code), '')) AS billing_region,
  -- The line's period [start, end) as written (evaluate/billing_periods.sql reads it)
  CAST(e.line_item_usage_start_date AS VARCHAR) AS billing_period_start_text,
  CAST(e.line_item_usage_end_date AS VARCHAR) AS billing_period_end_text,
  CAST(0 AS DOUBLE) AS billing_period_end_days,
  -- The instance's shape as the bill gives it (the legacy CUR's product/vcpu, product/memory
  -- `8 GiB`): a type the edition lacks is estimated by it before its name's size grammar
  -- (src/billing/instanceShapes.ts)
  TRY_CAST(NULLIF(TRIM(e.product_vcpu), '') AS DOUBLE) AS billing_instance_vcpus,
  TRY_CAST(NULLIF(REGEXP_EXTRACT(TRIM(COALESCE(e.product_memory, '')), '^([0-9]+(?:[.][0-9]+)?) ?GiB$', 1), '') AS DOUBLE)
    AS billing_instance_memory_gib
FROM billing_export e
