-- Billing lines with their methods (billing_methods.sql), with the hours their unit stands for and the key of
-- their region, before anything is looked up.
--
-- Reads the view billing_methods. billing_unit_hours: the hours of one unit of the quantity (none
-- for a unit not known). billing_region_key: the region as billing_places spells it (lower case,
-- without blanks, hyphens and underscores; '' for no region; a region that spells to nothing
-- keeps its own text, so that no place matches it).
SELECT
  b.*,
  CASE LOWER(TRIM(b.billing_unit))
    WHEN 'hrs' THEN 1.0
    WHEN 'hr' THEN 1.0
    WHEN 'h' THEN 1.0
    WHEN 'hour' THEN 1.0
    WHEN 'hours' THEN 1.0
    WHEN '1 hour' THEN 1.0
    WHEN '1 hours' THEN 1.0
    WHEN '10 hours' THEN 10.0
    WHEN '100 hours' THEN 100.0
    WHEN '1000 hours' THEN 1000.0
    WHEN 'minutes' THEN 1.0 / 60
    WHEN 'seconds' THEN 1.0 / 3600
    ELSE NULL
  END AS billing_unit_hours,
  CASE
    WHEN NULLIF(TRIM(b.billing_region), '') IS NULL THEN ''
    ELSE COALESCE(
      NULLIF(LOWER(REPLACE(REPLACE(REPLACE(TRIM(b.billing_region), ' ', ''), '-', ''), '_', '')), ''),
      TRIM(b.billing_region)
    )
  END AS billing_region_key
FROM billing_methods b
