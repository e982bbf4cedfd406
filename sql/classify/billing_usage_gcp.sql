-- A Google Cloud billing export's billing lines (classify/billing_lines_gcp.sql) with what the methods of
-- lines that are not instance hours read (classify/billing_methods.sql): service, the text that says what a
-- line uses, its unit, the cost, the account and the resource.
--
-- Reads the view billing_lines. billing_usage_text: service and SKU descriptions lower case in one
-- text, read with LIKE (" core ", " ram "). The export's usage units are read in the units the
-- methods read, by billing_usage_scale: a vCPU's `seconds` as `Hours` (1/3600 is the methods'
-- own conversion of `seconds`), `byte-seconds` as GiB-hours and `bytes` as GiB (2^30 bytes a GiB,
-- Google's pricing units: "gibibyte hour", "gibibyte"). The query keeps to what Spark SQL, Trino,
-- BigQuery and DuckDB share.
SELECT
  l.*,
  l.service_description AS billing_service,
  l.service_description AS billing_service_category,
  CASE
    -- An empty cost_type is none, a regular cost (Hive's CSV reader gives an empty cell as an empty text)
    WHEN LOWER(COALESCE(NULLIF(TRIM(l.cost_type), ''), 'regular')) = 'regular' THEN 'usage'
    WHEN LOWER(l.cost_type) = 'tax' THEN 'tax'
    WHEN LOWER(l.cost_type) IN ('adjustment', 'rounding_error') THEN 'adjustment'
    ELSE 'other'
  END AS billing_charge,
  LOWER(CONCAT(COALESCE(l.service_description, ''), ' | ', COALESCE(l.sku_description, ''), ' | ')) AS billing_usage_text,
  -- The units the format reads in another (BillingFormat.rescaled, src/billing/formats/gcp.ts)
  CASE LOWER(TRIM(COALESCE(l.usage_unit, '')))
    -- @rescaled units of format gcp
    ELSE l.usage_unit
  END AS billing_usage_unit,
  CASE LOWER(TRIM(COALESCE(l.usage_unit, '')))
    -- @rescaled scales of format gcp
    ELSE CAST(NULL AS DOUBLE)
  END AS billing_usage_scale,
  TRY_CAST(l.cost AS DOUBLE) AS billing_cost,
  -- The cost paid for the hours (the coverage's): the billed cost, the export having no other
  TRY_CAST(l.cost AS DOUBLE) AS billing_paid_cost,
  l.project_id AS billing_account,
  l.resource_name AS billing_resource
FROM billing_lines l
