-- An AWS CUR 2.0's billing lines (classify/billing_lines_cur.sql) with what the methods of lines that are
-- not instance hours read (classify/billing_methods.sql): service, the text that says what a line uses, the
-- cost (billed, and paid for the hours: the coverage's), the account and the resource.
--
-- Reads the view billing_lines. billing_usage_text: the product code, product family, usage type
-- and operation lower case in one text, read with LIKE. The query keeps to what Spark SQL, Trino,
-- BigQuery and DuckDB share.
SELECT
  l.*,
  l.line_item_product_code AS billing_service,
  l.product_product_family AS billing_service_category,
  -- The charge's category, as FOCUS names them (a reservation's or Savings Plan's fee a purchase)
  CASE
    WHEN l.line_item_line_item_type IN ('Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage') THEN 'usage'
    WHEN l.line_item_line_item_type = 'Tax' THEN 'tax'
    WHEN l.line_item_line_item_type IN ('RIFee', 'SavingsPlanRecurringFee', 'SavingsPlanUpfrontFee') THEN 'purchase'
    WHEN l.line_item_line_item_type = 'Fee' THEN 'fee'
    WHEN l.line_item_line_item_type IN ('Credit', 'Refund', 'BundledDiscount', 'EdpDiscount', 'Discount',
      'PrivateRateDiscount', 'SavingsPlanNegation') THEN 'credit'
    ELSE 'other'
  END AS billing_charge,
  LOWER(CONCAT(
    COALESCE(l.line_item_product_code, ''), ' | ', COALESCE(l.product_product_family, ''), ' | ',
    COALESCE(l.line_item_usage_type, ''), ' | ', COALESCE(l.line_item_operation, '')
  )) AS billing_usage_text,
  -- A line without a unit (the legacy CUR leaves pricing_unit empty on free-tier hours) in the unit
  -- its usage type measures (the format's impliedUnits, src/billing/formats/cur.ts); another stays
  -- without one
  CASE
    WHEN TRIM(COALESCE(l.pricing_unit, '')) <> '' THEN l.pricing_unit
    -- @implied units of format cur over l
    ELSE l.pricing_unit
  END AS billing_usage_unit,
  CAST(NULL AS DOUBLE) AS billing_usage_scale,
  TRY_CAST(l.line_item_unblended_cost AS DOUBLE) AS billing_cost,
  -- What the hours cost the user: where the export has amortisation columns (billing_amortised),
  -- AWS's amortised cost (a reserved or Savings-Plan-covered hour at its effective cost, a
  -- commitment's fee for its unused part, the upfront fees and the negations nothing), else the
  -- unblended cost
  CASE
    WHEN NOT l.billing_amortised THEN TRY_CAST(l.line_item_unblended_cost AS DOUBLE)
    WHEN l.line_item_line_item_type = 'DiscountedUsage'
      THEN COALESCE(TRY_CAST(l.reservation_effective_cost AS DOUBLE), 0.0)
    WHEN l.line_item_line_item_type = 'SavingsPlanCoveredUsage'
      THEN COALESCE(TRY_CAST(l.savings_plan_savings_plan_effective_cost AS DOUBLE), 0.0)
    WHEN l.line_item_line_item_type = 'RIFee'
      THEN COALESCE(TRY_CAST(l.reservation_unused_amortized_upfront_fee_for_billing_period AS DOUBLE), 0.0)
        + COALESCE(TRY_CAST(l.reservation_unused_recurring_fee AS DOUBLE), 0.0)
    WHEN l.line_item_line_item_type = 'SavingsPlanRecurringFee'
      THEN COALESCE(TRY_CAST(l.savings_plan_total_commitment_to_date AS DOUBLE), 0.0)
        - COALESCE(TRY_CAST(l.savings_plan_used_commitment AS DOUBLE), 0.0)
    WHEN l.line_item_line_item_type IN ('SavingsPlanNegation', 'SavingsPlanUpfrontFee') THEN 0.0
    WHEN l.line_item_line_item_type = 'Fee' AND NULLIF(TRIM(l.reservation_reservation_a_r_n), '') IS NOT NULL THEN 0.0
    ELSE TRY_CAST(l.line_item_unblended_cost AS DOUBLE)
  END AS billing_paid_cost,
  l.line_item_usage_account_id AS billing_account,
  l.line_item_resource_id AS billing_resource
FROM billing_lines l
