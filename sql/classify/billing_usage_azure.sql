-- An Azure cost export's billing lines (classify/billing_lines_azure.sql) with what the methods of lines that
-- are not instance hours read (classify/billing_methods.sql): service, the text that says what a line uses,
-- the cost, the account and the resource.
--
-- Reads the view billing_lines. billing_usage_text: meter category, subcategory and name lower case
-- in one text, read with LIKE (a managed disk's tier, billed per disk-month, is read from it by
-- classify/billing_methods.sql). The query keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
SELECT
  l.*,
  l.MeterCategory AS billing_service,
  l.MeterCategory AS billing_service_category,
  -- The charge's category, as FOCUS names them (an unused reservation's or Savings Plan's hours a purchase)
  CASE
    -- An empty ChargeType is none, as in classify/billing_lines_azure.sql
    WHEN COALESCE(NULLIF(TRIM(l.ChargeType), ''), 'Usage') = 'Usage' THEN 'usage'
    WHEN l.ChargeType = 'Purchase' THEN 'purchase'
    WHEN l.ChargeType IN ('UnusedReservation', 'UnusedSavingsPlan') THEN 'unused'
    WHEN l.ChargeType = 'Tax' THEN 'tax'
    WHEN l.ChargeType = 'Refund' THEN 'credit'
    WHEN l.ChargeType IN ('Adjustment', 'RoundingAdjustment') THEN 'adjustment'
    ELSE 'other'
  END AS billing_charge,
  LOWER(CONCAT(
    COALESCE(l.MeterCategory, ''), ' | ', COALESCE(l.MeterSubCategory, ''), ' | ',
    COALESCE(l.MeterName, '')
  )) AS billing_usage_text,
  l.UnitOfMeasure AS billing_usage_unit,
  CAST(NULL AS DOUBLE) AS billing_usage_scale,
  TRY_CAST(l.CostInBillingCurrency AS DOUBLE) AS billing_cost,
  -- The cost paid for the hours (the coverage's): the billed cost, the export having no other
  TRY_CAST(l.CostInBillingCurrency AS DOUBLE) AS billing_paid_cost,
  l.SubscriptionId AS billing_account,
  l.ResourceId AS billing_resource
FROM billing_lines l
