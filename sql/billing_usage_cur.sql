-- An AWS CUR 2.0's billing lines (billing_lines_cur.sql) with what the methods of lines that are
-- not instance hours read (billing_methods.sql): service, the text that says what a line uses, the
-- cost, the account and the resource.
--
-- Reads the view billing_lines. billing_usage_text: the product code, product family, usage type
-- and operation lower case in one text, read with LIKE. The query keeps to what Spark SQL, Trino,
-- BigQuery and DuckDB share.
SELECT
  l.*,
  l.line_item_product_code AS billing_service,
  l.product_product_family AS billing_service_category,
  CASE
    WHEN l.line_item_line_item_type IN ('Usage', 'DiscountedUsage', 'SavingsPlanCoveredUsage') THEN 'usage'
    ELSE 'other'
  END AS billing_charge,
  LOWER(CONCAT(
    COALESCE(l.line_item_product_code, ''), ' | ', COALESCE(l.product_product_family, ''), ' | ',
    COALESCE(l.line_item_usage_type, ''), ' | ', COALESCE(l.line_item_operation, '')
  )) AS billing_usage_text,
  l.pricing_unit AS billing_usage_unit,
  CAST(NULL AS DOUBLE) AS billing_usage_scale,
  TRY_CAST(l.line_item_unblended_cost AS DOUBLE) AS billing_cost,
  l.line_item_usage_account_id AS billing_account,
  l.line_item_resource_id AS billing_resource
FROM billing_lines l
