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
-- present. Each provider's rules (the types its texts name, its lines' kinds, its type's naming) are
-- data of its module (BillingProvider.focusLines, src/billing/rules/focusLines.ts), written at the
-- markers below, each on its provider's lines; a line of a provider without rules is not compute
-- here, its SkuPriceDetails read by the methods (docs/billing.md, "Any FOCUS producer"). The query
-- keeps to what Spark SQL, Trino, BigQuery and DuckDB share (docs/billing.md).
SELECT
  p.*,
  CASE
    -- An empty category is none (Hive's and Athena's CSV reader gives an empty cell as an empty text)
    WHEN NULLIF(TRIM(p.ChargeCategory), '') <> 'Usage' THEN 'not compute'
    -- @focus line kinds of p
    ELSE 'not compute'
  END AS billing_line_kind,
  CASE
    WHEN p.billing_type_hint IS NOT NULL THEN p.billing_type_hint
    -- @focus instance types of p
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
    -- @focus named types of q
    q.*
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
