-- An Oracle Cloud Infrastructure cost report's billing lines (classify/billing_lines_oci.sql) with what
-- the methods of its lines read (classify/billing_methods.sql): service, the text that says what a line
-- uses, its unit, the cost, the account and the resource.
--
-- Reads the view billing_lines. billing_usage_text: service, SKU description ("Compute - Standard
-- - E4 - OCPU") and resource lower case in one text, read with LIKE. A correction line
-- (lineItem/isCorrection) is usage as the others are: its negative quantity says what it takes
-- back. The query keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
SELECT
  l.*,
  l.product_service AS billing_service,
  l.product_service AS billing_service_category,
  'usage' AS billing_charge,
  LOWER(CONCAT(
    COALESCE(l.product_service, ''), ' | ', COALESCE(l.product_description, ''), ' | ',
    COALESCE(l.product_resource, ''), ' | '
  )) AS billing_usage_text,
  l.billing_unit AS billing_usage_unit,
  CAST(NULL AS DOUBLE) AS billing_usage_scale,
  TRY_CAST(l.cost_my_cost AS DOUBLE) AS billing_cost,
  -- The cost paid for the hours (the coverage's): the billed cost, the export having no other
  TRY_CAST(l.cost_my_cost AS DOUBLE) AS billing_paid_cost,
  l.line_item_tenant_id AS billing_account,
  l.product_resource_id AS billing_resource
FROM billing_lines l
