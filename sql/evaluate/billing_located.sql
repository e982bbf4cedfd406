-- Each billing line (classify/billing_classified.sql) with its row of the lookup table (lookup/billing_keys.sql):
-- its place, matched instance type and per-hour impacts (per unit for a method's key). Every line
-- finds its row: the lookup table holds every key of the export, missing parts compared as ''.
SELECT
  k.*,
  c.*
FROM billing_classified k
LEFT JOIN billing_keys c
  ON c.key_provider = COALESCE(k.billing_provider, '')
  AND c.key_instance_type = COALESCE(k.billing_method_key, k.billing_instance_type, '')
  AND c.key_region = k.billing_region_key
