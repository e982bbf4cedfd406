-- An Azure cost export (usage details: actual or amortized cost, EA or MCA) as billing lines.
--
-- Reads the view billing_export: the file as it is, plus billing_type_hint (empty for an Azure
-- export); a column of this query that the file lacks is present and empty. Compute lines are the
-- Virtual Machines meters (Spot and Low Priority included); the instance type is the meter name
-- (D4ads v5 Spot: d4ads_v5), the hours the quantity in its unit (1 Hour, 10 Hours). The query
-- keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
SELECT
  e.*,
  -- @provider of format azure
  CASE
    -- An empty ChargeType is none (a usage line): Hive's and Athena's CSV reader gives an empty
    -- cell as an empty text where the command and Spark read NULL
    WHEN COALESCE(NULLIF(TRIM(e.ChargeType), ''), 'Usage') <> 'Usage' THEN 'not compute'
    -- @compute lines of format azure over e
    ELSE 'not compute'
  END AS billing_line_kind,
  COALESCE(
    -- The size the line ran (AdditionalInfo's ServiceType), else the meter's sizes
    -- (D2 v3/D2s v3: matching takes the first the edition lists).
    NULLIF(REGEXP_EXTRACT(COALESCE(e.AdditionalInfo, ''), '"ServiceType"[ ]*:[ ]*"([^"]+)"', 1), ''),
    REPLACE(TRIM(REPLACE(REPLACE(e.MeterName, ' Low Priority', ''), ' Spot', '')), ' ', '_')
  ) AS billing_instance_type,
  TRY_CAST(e.Quantity AS DOUBLE) AS billing_quantity,
  e.UnitOfMeasure AS billing_unit,
  e.ResourceLocation AS billing_region,
  -- The line's period (evaluate/billing_periods.sql reads it): its usage day (Date), else its billing
  -- period, whose end date is its last day
  COALESCE(NULLIF(TRIM(CAST(e.Date AS VARCHAR)), ''), CAST(e.BillingPeriodStartDate AS VARCHAR))
    AS billing_period_start_text,
  COALESCE(NULLIF(TRIM(CAST(e.Date AS VARCHAR)), ''), CAST(e.BillingPeriodEndDate AS VARCHAR))
    AS billing_period_end_text,
  CAST(1 AS DOUBLE) AS billing_period_end_days,
  -- No column of the bill gives an instance's shape: its name's size grammar does (src/billing/instanceShapes.ts)
  CAST(NULL AS DOUBLE) AS billing_instance_vcpus,
  CAST(NULL AS DOUBLE) AS billing_instance_memory_gib
FROM billing_export e
