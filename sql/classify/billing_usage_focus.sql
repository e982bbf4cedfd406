-- A FOCUS export's billing lines (classify/billing_lines_focus.sql) with what the methods of lines that are
-- not instance hours read (classify/billing_methods.sql): service, the text that says what a line uses, the
-- cost (billed, and paid for the hours: the coverage's), the account and the resource.
--
-- Reads the view billing_lines. billing_usage_text: the spec's columns (ServiceCategory,
-- ChargeDescription, SkuMeter, PricingUnit) and the providers' extensions (x_UsageType,
-- x_SkuMeterCategory, x_SkuMeterSubcategory, x_SkuMeterName) lower case in one text, read with
-- LIKE. The query keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
SELECT
  l.*,
  l.ServiceName AS billing_service,
  l.ServiceCategory AS billing_service_category,
  CASE
    -- A commitment's unused part (FOCUS 1.0's ChargeSubcategory, 1.1's CommitmentDiscountStatus): usage
    -- no hardware ran for
    WHEN l.ChargeCategory = 'Usage' AND (NULLIF(TRIM(l.ChargeSubcategory), '') = 'Unused Commitment'
      OR NULLIF(TRIM(l.CommitmentDiscountStatus), '') = 'Unused') THEN 'unused'
    WHEN l.ChargeCategory = 'Usage' THEN 'usage'
    WHEN l.ChargeCategory IN ('Purchase', 'Tax', 'Credit', 'Adjustment') THEN LOWER(l.ChargeCategory)
    ELSE 'other'
  END AS billing_charge,
  LOWER(CONCAT(
    COALESCE(l.ServiceName, ''), ' | ', COALESCE(l.ServiceCategory, ''), ' | ',
    COALESCE(l.ChargeDescription, ''), ' | ', COALESCE(l.SkuMeter, ''), ' | ',
    COALESCE(l.x_UsageType, ''), ' | ', COALESCE(l.x_SkuMeterCategory, ''), ' | ',
    COALESCE(l.x_SkuMeterSubcategory, ''), ' | ', COALESCE(l.x_SkuMeterName, '')
  )) AS billing_usage_text,
  l.ConsumedUnit AS billing_usage_unit,
  CAST(NULL AS DOUBLE) AS billing_usage_scale,
  TRY_CAST(l.BilledCost AS DOUBLE) AS billing_cost,
  -- What the hours cost the user (the coverage's): EffectiveCost (commitments amortised), else BilledCost
  COALESCE(TRY_CAST(l.EffectiveCost AS DOUBLE), TRY_CAST(l.BilledCost AS DOUBLE)) AS billing_paid_cost,
  COALESCE(NULLIF(TRIM(l.SubAccountId), ''), l.BillingAccountId) AS billing_account,
  l.ResourceId AS billing_resource
FROM billing_lines l
