-- Each evaluated line's period [start, end) in seconds since 1970-01-01 00:00 UTC, and where its
-- ends fall in the grid series' steps (billing_grid.sql).
--
-- Reads the view billing_evaluated: billing_impacts.sql's lines, whose lookup table is
-- billing_grid_keys.sql's (the zone of the line's place: billing_grid_first_knot,
-- billing_grid_first_second, billing_grid_steps, billing_grid_step_seconds) and whose format's
-- query wrote billing_period_start_text, billing_period_end_text (a timestamp or a date as text)
-- and billing_period_end_days (days after the end's date: 1 where the end is the period's last
-- day, as Azure's Date). Spellings read: `2024-01-01`, `2024-01-01T00:00:00Z`,
-- `2024-01-01 00:00:00`, `2024-01-01T02:00:00+02:00` (`+02`, `+0200`), fractions of a second, and
-- Azure's `01/31/2024` (month first). A period that does not read or ends before it starts is
-- NULL. The date is counted in days from 1970 with the proleptic Gregorian calendar's leap years
-- (H. Hinnant, "chrono-compatible low-level date algorithms", days_from_civil, for years >= 1).
--
-- A line's end in its zone's steps: its step (billing_grid_start_knot, billing_grid_end_knot:
-- knots of grid_knots, one per step boundary) and how far into it (billing_grid_start_fraction,
-- billing_grid_end_fraction, 0 to 1); a time outside the series is held at its first or last
-- boundary, where its cumulative sums stop. The query keeps to what Spark SQL, Trino, BigQuery
-- and DuckDB share.
SELECT
  t.*,
  CASE WHEN t.billing_grid_step_seconds IS NOT NULL AND t.billing_grid_start_second IS NOT NULL
    THEN t.billing_grid_first_knot + LEAST(FLOOR((LEAST(GREATEST(t.billing_grid_start_second, t.billing_grid_first_second),
      t.billing_grid_first_second + t.billing_grid_steps * t.billing_grid_step_seconds) - t.billing_grid_first_second)
      / t.billing_grid_step_seconds), t.billing_grid_steps - 1)
  END AS billing_grid_start_knot,
  CASE WHEN t.billing_grid_step_seconds IS NOT NULL AND t.billing_grid_end_second IS NOT NULL
    THEN t.billing_grid_first_knot + LEAST(FLOOR((LEAST(GREATEST(t.billing_grid_end_second, t.billing_grid_first_second),
      t.billing_grid_first_second + t.billing_grid_steps * t.billing_grid_step_seconds) - t.billing_grid_first_second)
      / t.billing_grid_step_seconds), t.billing_grid_steps - 1)
  END AS billing_grid_end_knot
FROM (
  SELECT
    s.*,
    CASE WHEN s.billing_period_end_second > s.billing_period_start_second THEN s.billing_period_start_second END
      AS billing_grid_start_second,
    CASE WHEN s.billing_period_end_second > s.billing_period_start_second THEN s.billing_period_end_second END
      AS billing_grid_end_second
  FROM (
    SELECT
      r.*,
      86400 * (365 * r.billing_start_yp + FLOOR(r.billing_start_yp / 4) - FLOOR(r.billing_start_yp / 100)
        + FLOOR(r.billing_start_yp / 400) + FLOOR((153 * r.billing_start_mp + 2) / 5) + r.billing_start_d - 719469)
        + r.billing_start_clock AS billing_period_start_second,
      86400 * (365 * r.billing_end_yp + FLOOR(r.billing_end_yp / 4) - FLOOR(r.billing_end_yp / 100)
        + FLOOR(r.billing_end_yp / 400) + FLOOR((153 * r.billing_end_mp + 2) / 5) + r.billing_end_d - 719469
        + r.billing_period_end_days) + r.billing_end_clock AS billing_period_end_second
    FROM (
      SELECT
        q.*,
        q.billing_start_y - CASE WHEN q.billing_start_m <= 2 THEN 1 ELSE 0 END AS billing_start_yp,
        CASE WHEN q.billing_start_m > 2 THEN q.billing_start_m - 3 ELSE q.billing_start_m + 9 END AS billing_start_mp,
        q.billing_end_y - CASE WHEN q.billing_end_m <= 2 THEN 1 ELSE 0 END AS billing_end_yp,
        CASE WHEN q.billing_end_m > 2 THEN q.billing_end_m - 3 ELSE q.billing_end_m + 9 END AS billing_end_mp
      FROM (
        SELECT
          p.*,
          CASE WHEN p.billing_start_month BETWEEN 1 AND 12 AND p.billing_start_day BETWEEN 1 AND 31
            THEN p.billing_start_year END AS billing_start_y,
          p.billing_start_month AS billing_start_m,
          p.billing_start_day AS billing_start_d,
          3600 * COALESCE(p.billing_start_hour, 0) + 60 * COALESCE(p.billing_start_minute, 0)
            + COALESCE(p.billing_start_seconds, 0) - COALESCE(p.billing_start_offset, 0) AS billing_start_clock,
          CASE WHEN p.billing_end_month BETWEEN 1 AND 12 AND p.billing_end_day BETWEEN 1 AND 31
            THEN p.billing_end_year END AS billing_end_y,
          p.billing_end_month AS billing_end_m,
          p.billing_end_day AS billing_end_d,
          3600 * COALESCE(p.billing_end_hour, 0) + 60 * COALESCE(p.billing_end_minute, 0)
            + COALESCE(p.billing_end_seconds, 0) - COALESCE(p.billing_end_offset, 0) AS billing_end_clock
        FROM (
          SELECT
            o.*,
            CAST(COALESCE(NULLIF(REGEXP_EXTRACT(o.billing_start_text, '^([0-9]{4})-[0-9]{1,2}-[0-9]{1,2}', 1), ''),
              NULLIF(REGEXP_EXTRACT(o.billing_start_text, '^[0-9]{1,2}/[0-9]{1,2}/([0-9]{4})', 1), '')) AS DOUBLE) AS billing_start_year,
            CAST(COALESCE(NULLIF(REGEXP_EXTRACT(o.billing_start_text, '^[0-9]{4}-([0-9]{1,2})-[0-9]{1,2}', 1), ''),
              NULLIF(REGEXP_EXTRACT(o.billing_start_text, '^([0-9]{1,2})/[0-9]{1,2}/[0-9]{4}', 1), '')) AS DOUBLE) AS billing_start_month,
            CAST(COALESCE(NULLIF(REGEXP_EXTRACT(o.billing_start_text, '^[0-9]{4}-[0-9]{1,2}-([0-9]{1,2})', 1), ''),
              NULLIF(REGEXP_EXTRACT(o.billing_start_text, '^[0-9]{1,2}/([0-9]{1,2})/[0-9]{4}', 1), '')) AS DOUBLE) AS billing_start_day,
            CAST(NULLIF(REGEXP_EXTRACT(o.billing_start_text, '^[0-9/-]+[T ]+([0-9]{1,2}):[0-9]{2}', 1), '') AS DOUBLE) AS billing_start_hour,
            CAST(NULLIF(REGEXP_EXTRACT(o.billing_start_text, '^[0-9/-]+[T ]+[0-9]{1,2}:([0-9]{2})', 1), '') AS DOUBLE) AS billing_start_minute,
            CAST(NULLIF(REGEXP_EXTRACT(o.billing_start_text, '^[0-9/-]+[T ]+[0-9]{1,2}:[0-9]{2}:([0-9]{2}(?:[.][0-9]+)?)', 1), '') AS DOUBLE)
              AS billing_start_seconds,
            CASE WHEN LEFT(o.billing_start_zone, 1) = '-' THEN -1 ELSE 1 END
              * (3600 * CAST(NULLIF(SUBSTRING(o.billing_start_zone, 2, 2), '') AS DOUBLE)
                + 60 * CASE WHEN LENGTH(o.billing_start_zone) > 3 THEN CAST(RIGHT(o.billing_start_zone, 2) AS DOUBLE) ELSE 0 END)
              AS billing_start_offset,
            CAST(COALESCE(NULLIF(REGEXP_EXTRACT(o.billing_end_text, '^([0-9]{4})-[0-9]{1,2}-[0-9]{1,2}', 1), ''),
              NULLIF(REGEXP_EXTRACT(o.billing_end_text, '^[0-9]{1,2}/[0-9]{1,2}/([0-9]{4})', 1), '')) AS DOUBLE) AS billing_end_year,
            CAST(COALESCE(NULLIF(REGEXP_EXTRACT(o.billing_end_text, '^[0-9]{4}-([0-9]{1,2})-[0-9]{1,2}', 1), ''),
              NULLIF(REGEXP_EXTRACT(o.billing_end_text, '^([0-9]{1,2})/[0-9]{1,2}/[0-9]{4}', 1), '')) AS DOUBLE) AS billing_end_month,
            CAST(COALESCE(NULLIF(REGEXP_EXTRACT(o.billing_end_text, '^[0-9]{4}-[0-9]{1,2}-([0-9]{1,2})', 1), ''),
              NULLIF(REGEXP_EXTRACT(o.billing_end_text, '^[0-9]{1,2}/([0-9]{1,2})/[0-9]{4}', 1), '')) AS DOUBLE) AS billing_end_day,
            CAST(NULLIF(REGEXP_EXTRACT(o.billing_end_text, '^[0-9/-]+[T ]+([0-9]{1,2}):[0-9]{2}', 1), '') AS DOUBLE) AS billing_end_hour,
            CAST(NULLIF(REGEXP_EXTRACT(o.billing_end_text, '^[0-9/-]+[T ]+[0-9]{1,2}:([0-9]{2})', 1), '') AS DOUBLE) AS billing_end_minute,
            CAST(NULLIF(REGEXP_EXTRACT(o.billing_end_text, '^[0-9/-]+[T ]+[0-9]{1,2}:[0-9]{2}:([0-9]{2}(?:[.][0-9]+)?)', 1), '') AS DOUBLE)
              AS billing_end_seconds,
            CASE WHEN LEFT(o.billing_end_zone, 1) = '-' THEN -1 ELSE 1 END
              * (3600 * CAST(NULLIF(SUBSTRING(o.billing_end_zone, 2, 2), '') AS DOUBLE)
                + 60 * CASE WHEN LENGTH(o.billing_end_zone) > 3 THEN CAST(RIGHT(o.billing_end_zone, 2) AS DOUBLE) ELSE 0 END)
              AS billing_end_offset
          FROM (
            SELECT
              n.*,
              -- The offset from UTC after the time (`+02:00`, `+02`, `-0530`; `Z` or none: UTC)
              NULLIF(REGEXP_EXTRACT(n.billing_start_text, '^[0-9/-]+[T ]+[0-9:.]+[ ]*([+-][0-9]{2}(?::?[0-9]{2})?)$', 1), '')
                AS billing_start_zone,
              NULLIF(REGEXP_EXTRACT(n.billing_end_text, '^[0-9/-]+[T ]+[0-9:.]+[ ]*([+-][0-9]{2}(?::?[0-9]{2})?)$', 1), '')
                AS billing_end_zone
            FROM (
              SELECT
                e.*,
                TRIM(e.billing_period_start_text) AS billing_start_text,
                TRIM(e.billing_period_end_text) AS billing_end_text
              FROM billing_evaluated e
            ) n
          ) o
        ) p
      ) q
    ) r
  ) s
) t
