-- The lookup table of a billing export (lookup/billing_keys.sql) with the grid series' zone of each
-- key's place, for evaluate/billing_periods.sql and evaluate/billing_grid.sql.
--
-- Reads the table billing_keys, grid_zone (provider, place, zone: each place of the edition — a
-- provider's region, or a country with the provider '' — and its zone in the series) and
-- grid_spans (zone, first_knot, first_second, steps, step_seconds: each zone the series covers,
-- its first step's start in seconds since 1970 UTC, its steps of step_seconds each and the
-- position of its first boundary in grid_knots). A place without a zone of its provider takes its
-- country's (provider ''); the default place (billing_place '') has none. billing_grid_zone is
-- the zone named, even when the series lacks it. The query keeps to what Spark SQL, Trino,
-- BigQuery and DuckDB share.
SELECT
  k.*,
  COALESCE(z.zone, c.zone) AS billing_grid_zone,
  s.first_knot AS billing_grid_first_knot,
  s.first_second AS billing_grid_first_second,
  s.steps AS billing_grid_steps,
  s.step_seconds AS billing_grid_step_seconds
FROM billing_keys k
LEFT JOIN grid_zone z
  ON z.provider = k.key_provider
  AND z.place = k.billing_place
LEFT JOIN grid_zone c
  ON c.provider = ''
  AND c.place = k.billing_place
LEFT JOIN grid_spans s
  ON s.zone = COALESCE(z.zone, c.zone)
