-- A FOCUS export (FinOps Open Cost and Usage Specification 1.0, 1.1, 1.2) as billing lines.
--
-- Reads the view billing_export: the file as it is, plus billing_type_hint (the column named by
-- --instance-type-column, else empty); a column of this query that the file lacks is present and
-- empty. Adds, for each row: its provider (a FOCUS file may mix them: ServiceProviderName in 1.2,
-- ProviderName before), what kind of line it is, the instance type it bills, its quantity, unit
-- and region. The query keeps to what Spark SQL, Trino, BigQuery and DuckDB share (docs/billing.md).
SELECT
  p.*,
  CASE
    WHEN p.ChargeCategory <> 'Usage' THEN 'not compute'
    WHEN p.billing_provider = 'aws'
      AND ((p.x_ServiceCode = 'AmazonEC2' AND p.x_Operation LIKE 'RunInstances%')
        OR (p.x_ServiceCode = 'AmazonRDS' AND p.x_Operation LIKE 'CreateDBInstance%')
        OR (p.x_ServiceCode = 'AmazonES' AND p.x_Operation = 'ESDomain'))
      AND (p.billing_usage_type LIKE '%BoxUsage:%' OR p.billing_usage_type LIKE '%SpotUsage:%'
        OR p.billing_usage_type LIKE '%DedicatedUsage:%' OR p.billing_usage_type LIKE '%InstanceUsage%:%'
        OR p.billing_usage_type LIKE '%Multi-AZUsage%:%' OR p.billing_usage_type LIKE '%ESInstance:%')
      THEN 'compute'
    WHEN p.billing_provider = 'azure' AND p.x_SkuMeterCategory = 'Virtual Machines' THEN 'compute'
    WHEN p.billing_provider = 'gcp' AND p.ServiceName = 'Compute Engine' AND p.billing_type_hint IS NOT NULL
      THEN 'compute'
    WHEN p.billing_provider = 'gcp' AND p.ServiceName = 'Compute Engine' THEN 'machine type not billed'
    ELSE 'not compute'
  END AS billing_line_kind,
  CASE
    WHEN p.billing_type_hint IS NOT NULL THEN p.billing_type_hint
    WHEN p.billing_provider = 'aws' THEN NULLIF(REGEXP_EXTRACT(p.billing_usage_type, ':([^:]+)$', 1), '')
    WHEN p.billing_provider = 'azure' THEN
      REPLACE(TRIM(REPLACE(REPLACE(p.x_SkuMeterName, ' Low Priority', ''), ' Spot', '')), ' ', '_')
    ELSE NULL
  END AS billing_instance_type,
  TRY_CAST(p.ConsumedQuantity AS DOUBLE) AS billing_quantity,
  p.ConsumedUnit AS billing_unit,
  p.RegionId AS billing_region
FROM (
  SELECT
    e.*,
    CASE
      WHEN LOWER(COALESCE(e.ServiceProviderName, e.ProviderName)) IN ('aws', 'amazon web services') THEN 'aws'
      WHEN LOWER(COALESCE(e.ServiceProviderName, e.ProviderName)) IN ('microsoft', 'azure', 'microsoft azure') THEN 'azure'
      WHEN LOWER(COALESCE(e.ServiceProviderName, e.ProviderName)) IN ('google cloud', 'google cloud platform', 'gcp') THEN 'gcp'
      ELSE NULL
    END AS billing_provider,
    COALESCE(e.x_UsageType, e.SkuMeter) AS billing_usage_type
  FROM billing_export e
) p
