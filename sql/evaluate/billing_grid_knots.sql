-- Each line (evaluate/billing_periods.sql) with the grid series' cumulative sums at the boundaries of the
-- steps its start and its end fall in: two equi-joins on a knot's position, whatever the number
-- of lines and intervals.
--
-- Reads the view billing_timed (evaluate/billing_periods.sql's lines) and the table grid_knots (knot,
-- intensity_hours, covered_hours, next_intensity_hours, next_covered_hours): per zone, one row
-- per step boundary, numbered from the zone's first_knot; intensity_hours is the sum of intensity
-- (gCO2eq/kWh) × hours of the series from the zone's first step to the boundary, covered_hours
-- the hours the series covers there; next_… the same at the next boundary (NULL at a zone's last).
-- The query keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
SELECT
  t.*,
  a.intensity_hours AS billing_grid_start_sum,
  a.next_intensity_hours AS billing_grid_start_next_sum,
  a.covered_hours AS billing_grid_start_covered,
  a.next_covered_hours AS billing_grid_start_next_covered,
  b.intensity_hours AS billing_grid_end_sum,
  b.next_intensity_hours AS billing_grid_end_next_sum,
  b.covered_hours AS billing_grid_end_covered,
  b.next_covered_hours AS billing_grid_end_next_covered
FROM billing_timed t
LEFT JOIN grid_knots a
  ON a.knot = t.billing_grid_start_knot
LEFT JOIN grid_knots b
  ON b.knot = t.billing_grid_end_knot
