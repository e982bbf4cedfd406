-- A Google Cloud billing export (BigQuery's standard or resource-level table, saved as CSV with
-- its nested names flattened: service.description, usage.amount…) as billing lines.
--
-- Reads the view billing_export: the file with its columns under the names of
-- src/billing/formats/ (service_description, sku_description, usage_amount, usage_unit,
-- location_region, cost…), plus billing_type_hint (unread); a column the file lacks is present and
-- empty.
-- Google bills a VM's cores and memory, not its machine type: no line is an instance's hours (a
-- core line's quantity is its vCPU-seconds, whatever the machine type), its cores and RAM are
-- read by the per-vCPU and memory methods. Quantities are in the export's usage units (seconds,
-- byte-seconds, bytes); classify/billing_usage_gcp.sql scales them to the units the methods read. The
-- query keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
SELECT
  e.*,
  -- @provider of format gcp
  'not compute' AS billing_line_kind,
  CAST(NULL AS VARCHAR) AS billing_instance_type,
  TRY_CAST(e.usage_amount AS DOUBLE) AS billing_quantity,
  e.usage_unit AS billing_unit,
  -- A multi-region or global SKU has no region: its location (us, europe, global) is said as it is
  COALESCE(NULLIF(TRIM(e.location_region), ''), NULLIF(TRIM(e.location_location), '')) AS billing_region,
  -- BigQuery writes its timestamps with a zone name (2024-01-01 00:00:00 UTC)
  REPLACE(CAST(e.usage_start_time AS VARCHAR), ' UTC', '') AS billing_period_start_text,
  REPLACE(CAST(e.usage_end_time AS VARCHAR), ' UTC', '') AS billing_period_end_text,
  CAST(0 AS DOUBLE) AS billing_period_end_days,
  -- No column of the bill gives an instance's shape: its name's size grammar does (src/billing/instanceShapes.ts)
  CAST(NULL AS DOUBLE) AS billing_instance_vcpus,
  CAST(NULL AS DOUBLE) AS billing_instance_memory_gib
FROM billing_export e
