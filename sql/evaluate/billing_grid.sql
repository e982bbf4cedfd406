-- The gwp use of each evaluated line with the grid series' intensity of its time and place
-- (docs/methodology.md, "Grid intensity series"): its energy spread evenly over its period,
-- each part at the intensity of the interval it falls in; the share of the period the series
-- does not cover (its zone missing, or the period outside the series) at the edition's factor; a
-- line without a period at its zone's mean over the series (docs/methodology.md, "Grid intensity
-- series": the rule an inventory's rows follow).
--
-- Reads the view billing_grid_located (evaluate/billing_grid_knots.sql's lines; on DuckDB the same columns
-- read by position). A line's cumulative sums at a time t of its zone are read between the two
-- boundaries of t's step: sum(t) = sum(knot) + (sum(next knot) - sum(knot)) × the fraction of the
-- step before t, so sum(end) - sum(start) is the intensity × hours over [start, end) and
-- covered(end) - covered(start) the hours covered. The edition's factor of a line is
-- 1000 × gwp_use_kgco2eq / energy_kwh (gCO2eq/kWh).
--
-- Adds grid_gco2_per_kwh (the intensity applied, gCO2eq/kWh: gwp use = energy_kwh ×
-- it / 1000; the edition's factor for a line the series does not cover), billing_grid_coverage
-- (series, partly, not covered, no zone, zone not in series, no period; NULL for a line without
-- energy), billing_grid_use_ratio (the series' gwp use over the edition's: min and max are scaled
-- by it, the energy's margin kept and the series taken as exact), billing_grid_warnings (the
-- line's warnings, then the series') and one column per gwp use column, marked `-- grid use`:
-- billing_grid_gwp_use_kgco2eq, to write in place of gwp_use_kgco2eq (and its _min, _max). The
-- query keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
SELECT
  r.*,
  r.gwp_use_kgco2eq * r.billing_grid_use_ratio AS billing_grid_gwp_use_kgco2eq, -- grid use
  CASE
    WHEN r.billing_grid_warning IS NULL THEN r.warnings
    WHEN r.warnings IS NULL THEN r.billing_grid_warning
    ELSE CONCAT(r.warnings, '; ', r.billing_grid_warning)
  END AS billing_grid_warnings
FROM (
  SELECT
    c.*,
    c.billing_grid_intensity AS grid_gco2_per_kwh,
    CASE WHEN c.billing_grid_coverage IN ('series', 'partly', 'no period') AND c.billing_grid_factor > 0
      THEN c.billing_grid_intensity / c.billing_grid_factor ELSE 1.0 END AS billing_grid_use_ratio,
    CASE c.billing_grid_coverage
      WHEN 'partly' THEN CONCAT('grid series: period partly covered in zone ', c.billing_grid_zone,
        ', the edition''s factor for the rest')
      WHEN 'not covered' THEN CONCAT('grid series: period not covered in zone ', c.billing_grid_zone,
        ', the edition''s factor')
      WHEN 'zone not in series' THEN CONCAT('grid series: no zone ', c.billing_grid_zone,
        ' in the series, the edition''s factor')
      WHEN 'no zone' THEN CONCAT('grid series: no zone for the place ',
        CASE WHEN c.billing_place = '' THEN '(default)' ELSE c.billing_place END, ', the edition''s factor')
      WHEN 'no period' THEN CONCAT('grid series: no period', COALESCE(c.billing_period_note, ''),
        ', the mean intensity of zone ', c.billing_grid_zone,
        ' over the series')
      ELSE NULL
    END AS billing_grid_warning
  FROM (
    SELECT
      v.*,
      CASE v.billing_grid_coverage
        WHEN 'series' THEN v.billing_grid_intensity_hours / v.billing_grid_span_hours
        WHEN 'no period' THEN v.billing_grid_intensity_hours / v.billing_grid_covered_hours
        WHEN 'partly' THEN (v.billing_grid_intensity_hours
          + (v.billing_grid_span_hours - v.billing_grid_covered_hours) * v.billing_grid_factor) / v.billing_grid_span_hours
        ELSE v.billing_grid_factor
      END AS billing_grid_intensity
    FROM (
      SELECT
        u.*,
        CASE
          WHEN u.status <> 'evaluated' OR u.billing_grid_factor IS NULL THEN NULL
          WHEN u.billing_grid_zone IS NULL THEN 'no zone'
          WHEN u.billing_grid_first_second IS NULL THEN 'zone not in series'
          WHEN u.billing_grid_whole_series = 1 AND u.billing_grid_covered_hours > 0 THEN 'no period'
          -- Sums of a year of hours hold about 15 digits: a step's rounding is below 1e-9 of an hour
          WHEN u.billing_grid_covered_hours <= 1e-9 * u.billing_grid_span_hours THEN 'not covered'
          WHEN u.billing_grid_covered_hours < (1 - 1e-9) * u.billing_grid_span_hours THEN 'partly'
          ELSE 'series'
        END AS billing_grid_coverage
      FROM (
        SELECT
          p.*,
          1000 * p.gwp_use_kgco2eq / NULLIF(p.energy_kwh, 0) AS billing_grid_factor,
          (p.billing_grid_end_second - p.billing_grid_start_second) / 3600 AS billing_grid_span_hours,
          p.billing_grid_end_sum + (p.billing_grid_end_next_sum - p.billing_grid_end_sum) * p.billing_grid_end_fraction
            - p.billing_grid_start_sum - (p.billing_grid_start_next_sum - p.billing_grid_start_sum) * p.billing_grid_start_fraction
            AS billing_grid_intensity_hours,
          p.billing_grid_end_covered + (p.billing_grid_end_next_covered - p.billing_grid_end_covered) * p.billing_grid_end_fraction
            - p.billing_grid_start_covered - (p.billing_grid_start_next_covered - p.billing_grid_start_covered) * p.billing_grid_start_fraction
            AS billing_grid_covered_hours
        FROM (
          SELECT
            l.*,
            (LEAST(GREATEST(l.billing_grid_start_second, l.billing_grid_first_second),
              l.billing_grid_first_second + l.billing_grid_steps * l.billing_grid_step_seconds) - l.billing_grid_first_second)
              / l.billing_grid_step_seconds - (l.billing_grid_start_knot - l.billing_grid_first_knot) AS billing_grid_start_fraction,
            (LEAST(GREATEST(l.billing_grid_end_second, l.billing_grid_first_second),
              l.billing_grid_first_second + l.billing_grid_steps * l.billing_grid_step_seconds) - l.billing_grid_first_second)
              / l.billing_grid_step_seconds - (l.billing_grid_end_knot - l.billing_grid_first_knot) AS billing_grid_end_fraction
          FROM billing_grid_located l
        ) p
      ) u
    ) v
  ) c
) r
