-- A FOCUS export's billing lines (classify/billing_lines_focus.sql) with what the methods of lines that are
-- not instance hours read (classify/billing_methods.sql): service, the text that says what a line uses, the
-- cost (billed, and paid for the hours: the coverage's), the account and the resource.
--
-- Reads the view billing_lines. billing_usage_text: the spec's columns (ServiceCategory,
-- ChargeDescription, SkuMeter, PricingUnit), the providers' extensions (x_UsageType,
-- x_SkuMeterCategory, x_SkuMeterSubcategory, x_SkuMeterName) and SkuPriceDetails' FOCUS-defined
-- properties lower case in one text, read with LIKE. The query keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
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
    COALESCE(l.x_SkuMeterSubcategory, ''), ' | ', COALESCE(l.x_SkuMeterName, ''),
    -- The FOCUS-defined properties of SkuPriceDetails (1.1 on; the spec's text names them F_CoreCount…,
    -- read with and without the prefix), each where the SKU gives it (a GPU count above 0), as
    -- ` | f_<property> <value>`: what the methods read of a line of a provider without FOCUS rules of
    -- its own (one the registry does not name, or one whose module declares none): the providers with
    -- their own (`IN ('')`, the list spliced from their modules' BillingProvider.focusLines) read their
    -- lines otherwise, and would count a VM's cores twice on a line beside its hours, such as a
    -- licence's (docs/billing.md, "Any FOCUS producer")
    CASE WHEN l.billing_provider IN ('') OR COALESCE(REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?corecount"[ ]*:[ ]*"?([0-9]+(?:[.][0-9]+)?)', 1), '') = '' THEN '' -- @own focus rules
      ELSE CONCAT(' | f_corecount ', REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?corecount"[ ]*:[ ]*"?([0-9]+(?:[.][0-9]+)?)', 1)) END,
    CASE WHEN l.billing_provider IN ('') OR COALESCE(REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?memorysize"[ ]*:[ ]*"?([0-9]+(?:[.][0-9]+)?)', 1), '') = '' THEN '' -- @own focus rules
      ELSE CONCAT(' | f_memorysize ', REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?memorysize"[ ]*:[ ]*"?([0-9]+(?:[.][0-9]+)?)', 1)) END,
    CASE WHEN l.billing_provider IN ('') OR COALESCE(REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?gpucount"[ ]*:[ ]*"?([0-9]*[1-9][0-9]*(?:[.][0-9]+)?|[0-9]*[.][0-9]*[1-9][0-9]*)', 1), '') = '' THEN '' -- @own focus rules
      ELSE CONCAT(' | f_gpucount ', REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?gpucount"[ ]*:[ ]*"?([0-9]*[1-9][0-9]*(?:[.][0-9]+)?|[0-9]*[.][0-9]*[1-9][0-9]*)', 1)) END,
    CASE WHEN l.billing_provider IN ('') OR COALESCE(REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?diskspace"[ ]*:[ ]*"?([0-9]+(?:[.][0-9]+)?)', 1), '') = '' THEN '' -- @own focus rules
      ELSE CONCAT(' | f_diskspace ', REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?diskspace"[ ]*:[ ]*"?([0-9]+(?:[.][0-9]+)?)', 1)) END,
    CASE WHEN l.billing_provider IN ('') OR COALESCE(REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?disktype"[ ]*:[ ]*"?([^"]+)', 1), '') = '' THEN '' -- @own focus rules
      ELSE CONCAT(' | f_disktype ', REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?disktype"[ ]*:[ ]*"?([^"]+)', 1)) END,
    CASE WHEN l.billing_provider IN ('') OR COALESCE(REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?instancetype"[ ]*:[ ]*"?([^"]+)', 1), '') = '' THEN '' -- @own focus rules
      ELSE CONCAT(' | f_instancetype ', REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?instancetype"[ ]*:[ ]*"?([^"]+)', 1)) END,
    CASE WHEN l.billing_provider IN ('') OR COALESCE(REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?storageclass"[ ]*:[ ]*"?([^"]+)', 1), '') = '' THEN '' -- @own focus rules
      ELSE CONCAT(' | f_storageclass ', REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?storageclass"[ ]*:[ ]*"?([^"]+)', 1)) END,
    CASE WHEN l.billing_provider IN ('') OR COALESCE(REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?redundancy"[ ]*:[ ]*"?([^"]+)', 1), '') = '' THEN '' -- @own focus rules
      ELSE CONCAT(' | f_redundancy ', REGEXP_EXTRACT(LOWER(COALESCE(l.SkuPriceDetails, '')), '"(?:f_)?redundancy"[ ]*:[ ]*"?([^"]+)', 1)) END
  )) AS billing_usage_text,
  l.ConsumedUnit AS billing_usage_unit,
  CAST(NULL AS DOUBLE) AS billing_usage_scale,
  TRY_CAST(l.BilledCost AS DOUBLE) AS billing_cost,
  -- What the hours cost the user (the coverage's): EffectiveCost (commitments amortised), else BilledCost
  COALESCE(TRY_CAST(l.EffectiveCost AS DOUBLE), TRY_CAST(l.BilledCost AS DOUBLE)) AS billing_paid_cost,
  COALESCE(NULLIF(TRIM(l.SubAccountId), ''), l.BillingAccountId) AS billing_account,
  l.ResourceId AS billing_resource
FROM billing_lines l
