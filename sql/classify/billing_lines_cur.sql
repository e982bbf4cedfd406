-- An AWS Cost and Usage Report (CUR 2.0, and the legacy CUR read under its snake_case names:
-- src/billing/formats/) as billing lines.
--
-- Reads the view billing_export: the file as it is, plus billing_type_hint (empty for a CUR); a
-- column of this query that the file lacks is present and empty. Compute lines are the usage
-- (plain, discounted, Savings-Plan-covered) of an instance, as the format's instanceHours tells
-- them by service (src/billing/formats/cur.ts). The query keeps to what Spark SQL, Trino,
-- BigQuery and DuckDB share.
SELECT
  e.*,
  -- @provider of format cur
  CASE
    -- An empty type is none (Hive's and Athena's CSV reader gives an empty cell as an empty text)
    WHEN NULLIF(TRIM(e.line_item_line_item_type), '') NOT IN ('Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage')
      THEN 'not compute'
    -- An instance's hours, by the service that bills them (its format's instanceHours)
    -- @instance hours kinds of format cur over e
    ELSE 'not compute'
  END AS billing_line_kind,
  -- @instance type of format cur over e
  AS billing_instance_type,
  TRY_CAST(e.line_item_usage_amount AS DOUBLE) AS billing_quantity,
  -- An instance's line without a unit is its hours (Spot and reserved lines leave it empty in the
  -- legacy CUR's Parquet); another line's stays without one
  COALESCE(
    NULLIF(TRIM(e.pricing_unit), ''),
    CASE
      -- @instance hours unit of format cur over e
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
  -- @instance memory of format cur over e
    AS billing_instance_memory_gib
FROM billing_export e
