-- Billing lines with their methods (classify/billing_methods.sql), with the hours their unit stands for and the key of
-- their region, before anything is looked up.
--
-- Reads the view billing_methods and the registry's table billing_units (each unit spelling, lower
-- case, with its dimension and hours: src/billing/registry/units.ts). billing_unit_hours: the hours
-- of one unit of the quantity (times its deployment's instances), for a unit of time alone (`Hrs`, `1 Hour`, `10 Hours`, `minutes`,
-- `seconds`; none for another unit or one not known). billing_region_key: the region as
-- billing_places spells it (lower case, without blanks, hyphens and underscores; '' for no region;
-- a region that spells to nothing keeps its own text, so that no place matches it).
SELECT
  b.*,
  CASE
    -- A deployment's copies each run the hours billed (classify/billing_methods.sql)
    WHEN unit_h.dimension = 'hour' AND COALESCE(unit_h.resource, 'instance') = 'instance'
      THEN unit_h.hours * b.billing_deployment_copies
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
LEFT JOIN billing_units unit_h ON unit_h.spelling = LOWER(TRIM(COALESCE(b.billing_unit, '')))
