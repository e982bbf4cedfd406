-- An Azure cost export's billing lines (billing_lines_azure.sql) with what the methods of lines that
-- are not instance hours read (billing_methods.sql): service, the text that says what a line uses,
-- the cost, the account and the resource.
--
-- Reads the view billing_lines. billing_usage_text: meter category, subcategory and name lower case
-- in one text, read with LIKE. A managed disk is billed per disk-month (`1/Month`): its tier's
-- capacity in GiB (P10, E10, S10: 128 GiB; Azure's managed disk sizes) makes it GiB-months
-- (billing_usage_scale). The query keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
SELECT
  l.*,
  l.MeterCategory AS billing_service,
  l.MeterCategory AS billing_service_category,
  CASE WHEN COALESCE(l.ChargeType, 'Usage') = 'Usage' THEN 'usage' ELSE 'other' END AS billing_charge,
  LOWER(CONCAT(
    COALESCE(l.MeterCategory, ''), ' | ', COALESCE(l.MeterSubCategory, ''), ' | ',
    COALESCE(l.MeterName, '')
  )) AS billing_usage_text,
  CASE
    WHEN l.billing_disk_gib IS NOT NULL AND LOWER(REPLACE(l.UnitOfMeasure, ' ', '')) = '1/month' THEN 'GiB-Month'
    ELSE l.UnitOfMeasure
  END AS billing_usage_unit,
  CASE
    WHEN LOWER(REPLACE(l.UnitOfMeasure, ' ', '')) = '1/month' THEN l.billing_disk_gib
    ELSE NULL
  END AS billing_usage_scale,
  TRY_CAST(l.CostInBillingCurrency AS DOUBLE) AS billing_cost,
  l.SubscriptionId AS billing_account,
  l.ResourceId AS billing_resource
FROM (
  SELECT
    b.*,
    CASE REGEXP_EXTRACT(LOWER(COALESCE(b.MeterName, '')), '^[pes]([0-9]+) ', 1)
      WHEN '1' THEN 4.0 WHEN '2' THEN 8.0 WHEN '3' THEN 16.0 WHEN '4' THEN 32.0 WHEN '6' THEN 64.0
      WHEN '10' THEN 128.0 WHEN '15' THEN 256.0 WHEN '20' THEN 512.0 WHEN '30' THEN 1024.0
      WHEN '40' THEN 2048.0 WHEN '50' THEN 4096.0 WHEN '60' THEN 8192.0 WHEN '70' THEN 16384.0
      WHEN '80' THEN 32767.0
      ELSE NULL
    END AS billing_disk_gib
  FROM billing_lines b
) l
