-- An Oracle Cloud Infrastructure cost report as billing lines.
--
-- Reads the view billing_export: the file with its columns under the names of
-- src/billing/formats/ (product/service as product_service, usage/billedQuantity as
-- usage_billed_quantity, cost/myCost as cost_my_cost…), plus billing_type_hint; a column the file
-- lacks is present and empty. Oracle bills a VM's OCPUs and memory, not its shape: no line is an
-- instance's hours; its OCPU and memory lines are read by the per-vCPU and memory methods, in
-- the unit the report writes (cost/billingUnitReadable, else cost/skuUnitDescription).
-- The query keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
SELECT
  e.*,
  -- @provider of format oci
  'not compute' AS billing_line_kind,
  CAST(NULL AS VARCHAR) AS billing_instance_type,
  TRY_CAST(e.usage_billed_quantity AS DOUBLE) AS billing_quantity,
  -- The readable unit first: it says bytes in GiB (`1 GiB MONTHS STORAGE_SIZE`) where the SKU's
  -- says `GB Months`, and what is measured (`PERFORMANCE_UNITS`, `DATA_TRANSFERRED`, `DATAPOINTS`)
  COALESCE(NULLIF(TRIM(e.cost_billing_unit_readable), ''), e.cost_sku_unit_description) AS billing_unit,
  e.product_region AS billing_region,
  -- The report's times leave out the seconds (2024-05-01T00:00Z)
  CASE WHEN LENGTH(TRIM(CAST(e.line_item_interval_usage_start AS VARCHAR))) = 17
    THEN CONCAT(SUBSTR(TRIM(CAST(e.line_item_interval_usage_start AS VARCHAR)), 1, 16), ':00Z')
    ELSE CAST(e.line_item_interval_usage_start AS VARCHAR) END AS billing_period_start_text,
  CASE WHEN LENGTH(TRIM(CAST(e.line_item_interval_usage_end AS VARCHAR))) = 17
    THEN CONCAT(SUBSTR(TRIM(CAST(e.line_item_interval_usage_end AS VARCHAR)), 1, 16), ':00Z')
    ELSE CAST(e.line_item_interval_usage_end AS VARCHAR) END AS billing_period_end_text,
  CAST(0 AS DOUBLE) AS billing_period_end_days,
  -- No column of the bill gives an instance's shape: its name's size grammar does (src/billing/instanceShapes.ts)
  CAST(NULL AS DOUBLE) AS billing_instance_vcpus,
  CAST(NULL AS DOUBLE) AS billing_instance_memory_gib
FROM billing_export e
