-- Billing lines (billing_lines_<format>.sql) with their hours, their place and what keeps a line
-- from being evaluated, before instance types are matched.
--
-- Reads the view billing_lines and the table billing_places (provider, spelling, place: a region
-- spelling made lower case without blanks, hyphens and underscores, and the place of the
-- coefficient table it stands for). A compute line's hours are its quantity in its unit (none
-- when something keeps it from being evaluated). Missing keys are compared as '': an engine may
-- give them rows of their own (DuckDB does, so that every line finds exactly one row in each
-- table and the lines come out in the order they were read).
SELECT
  u.*,
  CASE
    WHEN u.billing_line_kind = 'not compute' THEN 'not compute'
    WHEN u.billing_line_kind = 'machine type not billed'
      THEN 'not evaluated: Google Cloud bills cores and memory, not machine types'
    WHEN u.billing_quantity IS NULL THEN 'bad row: quantity is missing or not a number'
    WHEN u.billing_quantity < 0 THEN 'bad row: negative quantity'
    WHEN u.billing_unit_hours IS NULL THEN CONCAT('bad row: unknown unit ', COALESCE(u.billing_unit, '(none)'))
    WHEN u.billing_place IS NULL THEN CONCAT('bad row: unknown region ', u.billing_region)
    WHEN u.billing_instance_type IS NULL THEN 'unknown instance type'
    ELSE NULL
  END AS billing_problem,
  CASE
    WHEN u.billing_line_kind = 'compute' AND u.billing_quantity >= 0 AND u.billing_place IS NOT NULL
      AND u.billing_instance_type IS NOT NULL
      THEN u.billing_quantity * u.billing_unit_hours
    ELSE NULL
  END AS hours
FROM (
  SELECT
    l.*,
    CASE LOWER(TRIM(l.billing_unit))
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
      WHEN NULLIF(TRIM(l.billing_region), '') IS NULL THEN ''
      ELSE r.place
    END AS billing_place
  FROM (
    SELECT
      b.*,
      COALESCE(LOWER(REPLACE(REPLACE(REPLACE(TRIM(b.billing_region), ' ', ''), '-', ''), '_', '')), '')
        AS billing_region_key
    FROM billing_lines b
  ) l
  LEFT JOIN billing_places r
    ON r.provider = COALESCE(l.billing_provider, '')
    AND r.spelling = l.billing_region_key
) u
