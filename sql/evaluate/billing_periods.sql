-- Each evaluated line's period [start, end) in seconds since 1970-01-01 00:00 UTC, and where its
-- ends fall in the grid series' steps (evaluate/billing_grid.sql).
--
-- Reads the view billing_evaluated: evaluate/billing_impacts.sql's lines, whose lookup table is
-- lookup/billing_grid_keys.sql's (the zone of the line's place: billing_grid_first_knot,
-- billing_grid_first_second, billing_grid_steps, billing_grid_step_seconds) and whose format's
-- query wrote billing_period_start_text, billing_period_end_text (a timestamp or a date as text)
-- and billing_period_end_days (days after the end's date: 1 where the end is the period's last
-- day, as Azure's Date). Spellings read: `2024-01-01`, `2024-01-01T00:00:00Z`,
-- `2024-01-01 00:00:00`, `2024-01-01T02:00:00+02:00` (`+02`, `+0200`; a fraction of a second
-- left out), read at their places (no regular expression for ISO spellings: they cost a fifth of
-- the run); dates of day and month, Azure's `01/31/2024` and a spreadsheet's resave
-- (`10/1/2024 0:00`, `1/10/2024 12:00:00 AM`, `07-01-22`, `13.07.2022`: slashes, hyphens or dots,
-- a year of four digits or two, a time of 12 or 24 hours, UTC as a date alone), day or month first
-- as the file says (the one row of billing_date_order,
-- evaluate/billing_date_order.sql): a date whose fields the file's order does not decide (no
-- date of the file tells, or the file writes both orders) does not read, unless its two fields
-- are equal (the same date either way); billing_period_note says why; and a spreadsheet's date
-- cell saved as its number, an Excel serial (`44743`, `44743.5`). A line whose period does
-- not read (or ends before it starts) spans its zone's whole series (billing_grid_whole_series = 1). The date is counted in days from 1970 with the proleptic Gregorian calendar's leap years
-- (H. Hinnant, "chrono-compatible low-level date algorithms", days_from_civil, for years >= 1).
--
-- A line's ends in its zone's steps: the knot (a row of grid_knots: a step's first boundary) of
-- the step each falls in (billing_grid_start_knot, billing_grid_end_knot); a time outside the
-- series is held at its first or last boundary, where its cumulative sums stop. The query keeps to what Spark SQL, Trino, BigQuery
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
    -- A line without a period (or ending before it starts) spans its zone's whole series
    CASE WHEN s.billing_period_end_second > s.billing_period_start_second THEN s.billing_period_start_second
      ELSE s.billing_grid_first_second END AS billing_grid_start_second,
    CASE WHEN s.billing_period_end_second > s.billing_period_start_second THEN s.billing_period_end_second
      ELSE s.billing_grid_first_second + s.billing_grid_steps * s.billing_grid_step_seconds END AS billing_grid_end_second,
    CASE WHEN s.billing_period_end_second > s.billing_period_start_second THEN 0 ELSE 1 END AS billing_grid_whole_series,
    -- Why a date of slashes did not read: the file's order undecided, or both
    CASE
      WHEN s.billing_period_end_second > s.billing_period_start_second THEN NULL
      WHEN NOT ((s.billing_start_slashed IS NOT NULL AND s.billing_start_first <> s.billing_start_second)
        OR (s.billing_end_slashed IS NOT NULL AND s.billing_end_first <> s.billing_end_second)) THEN NULL
      WHEN s.billing_dates_day_first = 1 AND s.billing_dates_month_first = 1
        THEN CONCAT(' (the bill writes its dates both day first, ', COALESCE(s.billing_dates_day_first_example, ''),
          ', and month first, ', COALESCE(s.billing_dates_month_first_example, ''), ')')
      WHEN s.billing_dates_day_first = 0 AND s.billing_dates_month_first = 0
        THEN CONCAT(' (', COALESCE(s.billing_start_slashed, s.billing_end_slashed, ''),
          ': day or month first? no date of the bill has a field above 12)')
    END AS billing_period_note
  FROM (
    SELECT
      r.*,
      -- 25,569: the serial of 1970-01-01
      CASE WHEN r.billing_start_serial IS NOT NULL THEN 86400 * (r.billing_start_serial - 25569)
        ELSE 86400 * (365 * r.billing_start_yp + FLOOR(r.billing_start_yp / 4) - FLOOR(r.billing_start_yp / 100)
        + FLOOR(r.billing_start_yp / 400) + FLOOR((153 * r.billing_start_mp + 2) / 5) + r.billing_start_d - 719469)
        + r.billing_start_clock END AS billing_period_start_second,
      CASE WHEN r.billing_end_serial IS NOT NULL THEN 86400 * (r.billing_end_serial - 25569 + r.billing_period_end_days)
        ELSE 86400 * (365 * r.billing_end_yp + FLOOR(r.billing_end_yp / 4) - FLOOR(r.billing_end_yp / 100)
        + FLOOR(r.billing_end_yp / 400) + FLOOR((153 * r.billing_end_mp + 2) / 5) + r.billing_end_d - 719469
        + r.billing_period_end_days) + r.billing_end_clock END AS billing_period_end_second
    FROM (
      SELECT
        q.*,
        CASE WHEN q.billing_start_m BETWEEN 1 AND 12 AND q.billing_start_d BETWEEN 1 AND 31 THEN
          q.billing_start_y - (CASE WHEN q.billing_start_m <= 2 THEN 1 ELSE 0 END) END AS billing_start_yp,
        CASE WHEN q.billing_start_m > 2 THEN q.billing_start_m - 3 ELSE q.billing_start_m + 9 END AS billing_start_mp,
        CASE WHEN q.billing_end_m BETWEEN 1 AND 12 AND q.billing_end_d BETWEEN 1 AND 31 THEN
          q.billing_end_y - (CASE WHEN q.billing_end_m <= 2 THEN 1 ELSE 0 END) END AS billing_end_yp,
        CASE WHEN q.billing_end_m > 2 THEN q.billing_end_m - 3 ELSE q.billing_end_m + 9 END AS billing_end_mp
      FROM (
        SELECT
          p.*,
          FLOOR(p.billing_start_date / 10000) AS billing_start_y,
          FLOOR(p.billing_start_date / 100) - 100 * FLOOR(p.billing_start_date / 10000) AS billing_start_m,
          p.billing_start_date - 100 * FLOOR(p.billing_start_date / 100) AS billing_start_d,
          3600 * FLOOR(p.billing_start_time / 10000) + 60 * (FLOOR(p.billing_start_time / 100) - 100 * FLOOR(p.billing_start_time / 10000)) + p.billing_start_time - 100 * FLOOR(p.billing_start_time / 100)
            - p.billing_start_offset AS billing_start_clock,
          FLOOR(p.billing_end_date / 10000) AS billing_end_y,
          FLOOR(p.billing_end_date / 100) - 100 * FLOOR(p.billing_end_date / 10000) AS billing_end_m,
          p.billing_end_date - 100 * FLOOR(p.billing_end_date / 100) AS billing_end_d,
          3600 * FLOOR(p.billing_end_time / 10000) + 60 * (FLOOR(p.billing_end_time / 100) - 100 * FLOOR(p.billing_end_time / 10000)) + p.billing_end_time - 100 * FLOOR(p.billing_end_time / 100)
            - p.billing_end_offset AS billing_end_clock
        FROM (
          -- A time's parts at their places: `2024-01-31` (YYYYMMDD as one number), then `T` or a
          -- blank and `00:00`, `:00` (HHMMSS), a fraction of a second (left out), then an offset
          -- from UTC (`+02:00`, `+0200`, `+02`; `Z` or none: UTC); or Azure's `01/31/2024`
          SELECT
            o.*,
            CASE
              WHEN o.billing_start_iso THEN TRY_CAST(CONCAT(SUBSTRING(o.billing_start_text, 1, 4), SUBSTRING(o.billing_start_text, 6, 2), SUBSTRING(o.billing_start_text, 9, 2)) AS DOUBLE)
              -- A date of slashes (its month and day as the file's order says)
              WHEN o.billing_start_slashed IS NOT NULL THEN 10000 * o.billing_start_year + 100 * o.billing_start_month + o.billing_start_day
            END AS billing_start_date,
            CASE WHEN o.billing_start_timed
              THEN TRY_CAST(CONCAT(SUBSTRING(o.billing_start_text, 12, 2), SUBSTRING(o.billing_start_text, 15, 2),
                CASE WHEN SUBSTRING(o.billing_start_text, 17, 1) = ':' THEN SUBSTRING(o.billing_start_text, 18, 2) ELSE '00' END) AS DOUBLE)
              -- A spreadsheet's time (HHMMSS; NULL where it does not read)
              WHEN o.billing_start_slashed IS NOT NULL AND o.billing_start_hour IS NOT NULL THEN o.billing_start_clock_hms
              ELSE 0
            END AS billing_start_time,
            CASE
              WHEN NOT o.billing_start_timed OR LENGTH(o.billing_start_text) <= 16 OR o.billing_start_text LIKE '%Z'
                OR (LENGTH(o.billing_start_text) = 19 AND SUBSTRING(o.billing_start_text, 17, 1) = ':') THEN 0
              WHEN SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 5, 1) IN ('+', '-') AND SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 2, 1) = ':'
                THEN CASE WHEN SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 5, 1) = '-' THEN -1 ELSE 1 END
                  * (3600 * TRY_CAST(SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 4, 2) AS DOUBLE) + 60 * TRY_CAST(SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 1, 2) AS DOUBLE))
              WHEN SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 4, 1) IN ('+', '-')
                THEN CASE WHEN SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 4, 1) = '-' THEN -1 ELSE 1 END
                  * (3600 * TRY_CAST(SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 3, 2) AS DOUBLE) + 60 * TRY_CAST(SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 1, 2) AS DOUBLE))
              WHEN SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 2, 1) IN ('+', '-')
                THEN CASE WHEN SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 2, 1) = '-' THEN -1 ELSE 1 END
                  * 3600 * TRY_CAST(SUBSTRING(o.billing_start_text, LENGTH(o.billing_start_text) - 1, 2) AS DOUBLE)
              ELSE 0
            END AS billing_start_offset,
            CASE
              WHEN o.billing_end_iso THEN TRY_CAST(CONCAT(SUBSTRING(o.billing_end_text, 1, 4), SUBSTRING(o.billing_end_text, 6, 2), SUBSTRING(o.billing_end_text, 9, 2)) AS DOUBLE)
              -- A date of slashes (its month and day as the file's order says)
              WHEN o.billing_end_slashed IS NOT NULL THEN 10000 * o.billing_end_year + 100 * o.billing_end_month + o.billing_end_day
            END AS billing_end_date,
            CASE WHEN o.billing_end_timed
              THEN TRY_CAST(CONCAT(SUBSTRING(o.billing_end_text, 12, 2), SUBSTRING(o.billing_end_text, 15, 2),
                CASE WHEN SUBSTRING(o.billing_end_text, 17, 1) = ':' THEN SUBSTRING(o.billing_end_text, 18, 2) ELSE '00' END) AS DOUBLE)
              -- A spreadsheet's time (HHMMSS; NULL where it does not read)
              WHEN o.billing_end_slashed IS NOT NULL AND o.billing_end_hour IS NOT NULL THEN o.billing_end_clock_hms
              ELSE 0
            END AS billing_end_time,
            CASE
              WHEN NOT o.billing_end_timed OR LENGTH(o.billing_end_text) <= 16 OR o.billing_end_text LIKE '%Z'
                OR (LENGTH(o.billing_end_text) = 19 AND SUBSTRING(o.billing_end_text, 17, 1) = ':') THEN 0
              WHEN SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 5, 1) IN ('+', '-') AND SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 2, 1) = ':'
                THEN CASE WHEN SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 5, 1) = '-' THEN -1 ELSE 1 END
                  * (3600 * TRY_CAST(SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 4, 2) AS DOUBLE) + 60 * TRY_CAST(SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 1, 2) AS DOUBLE))
              WHEN SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 4, 1) IN ('+', '-')
                THEN CASE WHEN SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 4, 1) = '-' THEN -1 ELSE 1 END
                  * (3600 * TRY_CAST(SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 3, 2) AS DOUBLE) + 60 * TRY_CAST(SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 1, 2) AS DOUBLE))
              WHEN SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 2, 1) IN ('+', '-')
                THEN CASE WHEN SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 2, 1) = '-' THEN -1 ELSE 1 END
                  * 3600 * TRY_CAST(SUBSTRING(o.billing_end_text, LENGTH(o.billing_end_text) - 1, 2) AS DOUBLE)
              ELSE 0
            END AS billing_end_offset
          FROM (
            SELECT
              n.*,
              n.billing_period_start_text AS billing_start_text,
              n.billing_period_start_text LIKE '____-__-__%' AS billing_start_iso,
              n.billing_period_start_text LIKE '____-__-__T__:__%' OR n.billing_period_start_text LIKE '____-__-__ __:__%' AS billing_start_timed,
              -- An Excel serial date (a spreadsheet's date cell saved as its number, `44743`, a
              -- time its fraction: days since 1899-12-30, Microsoft Support, "DATEVALUE function"),
              -- of five digits: 1927-05-18 to 2173-10-14 (a cast, no regular expression: most
              -- texts are ISO spellings)
              CASE WHEN TRY_CAST(TRIM(n.billing_period_start_text) AS DOUBLE) >= 10000 AND TRY_CAST(TRIM(n.billing_period_start_text) AS DOUBLE) < 100000
                THEN TRY_CAST(TRIM(n.billing_period_start_text) AS DOUBLE) END AS billing_start_serial,
              n.billing_period_end_text AS billing_end_text,
              n.billing_period_end_text LIKE '____-__-__%' AS billing_end_iso,
              n.billing_period_end_text LIKE '____-__-__T__:__%' OR n.billing_period_end_text LIKE '____-__-__ __:__%' AS billing_end_timed,
              CASE WHEN TRY_CAST(TRIM(n.billing_period_end_text) AS DOUBLE) >= 10000 AND TRY_CAST(TRIM(n.billing_period_end_text) AS DOUBLE) < 100000
                THEN TRY_CAST(TRIM(n.billing_period_end_text) AS DOUBLE) END AS billing_end_serial
            FROM (
              -- A date of slashes: its month and day as the file's order says (either, when they are
              -- equal), its time of 24 or 12 hours as HHMMSS (`12:00:00 AM` 0 h, `1:00 PM` 13 h); NULL
              -- where it does not read
              SELECT
                f.*,
                -- A year of two digits as a spreadsheet reads it: 00 to 29 in 2000-2029, 30 to 99 in
                -- 1930-1999 (Microsoft Support, "How Excel works with two-digit year numbers")
                CASE WHEN f.billing_start_year_written < 30 THEN 2000 + f.billing_start_year_written
                  WHEN f.billing_start_year_written < 100 THEN 1900 + f.billing_start_year_written
                  ELSE f.billing_start_year_written END AS billing_start_year,
                CASE WHEN f.billing_end_year_written < 30 THEN 2000 + f.billing_end_year_written
                  WHEN f.billing_end_year_written < 100 THEN 1900 + f.billing_end_year_written
                  ELSE f.billing_end_year_written END AS billing_end_year,
                CASE WHEN f.billing_dates_order = 'day' THEN f.billing_start_second WHEN f.billing_dates_order = 'month' OR f.billing_start_first = f.billing_start_second THEN f.billing_start_first END AS billing_start_month,
                CASE WHEN f.billing_dates_order = 'day' THEN f.billing_start_first WHEN f.billing_dates_order = 'month' OR f.billing_start_first = f.billing_start_second THEN f.billing_start_second END AS billing_start_day,
                CASE WHEN f.billing_start_minute >= 60 OR f.billing_start_second_of >= 60 THEN NULL WHEN f.billing_start_meridiem = '' AND f.billing_start_hour < 24 THEN f.billing_start_hour
                  WHEN f.billing_start_meridiem IN ('A', 'P') AND f.billing_start_hour BETWEEN 1 AND 12 THEN f.billing_start_hour - 12 * FLOOR(f.billing_start_hour / 12) + CASE WHEN f.billing_start_meridiem = 'P' THEN 12 ELSE 0 END
                END * 10000 + 100 * f.billing_start_minute + f.billing_start_second_of AS billing_start_clock_hms,
                CASE WHEN f.billing_dates_order = 'day' THEN f.billing_end_second WHEN f.billing_dates_order = 'month' OR f.billing_end_first = f.billing_end_second THEN f.billing_end_first END AS billing_end_month,
                CASE WHEN f.billing_dates_order = 'day' THEN f.billing_end_first WHEN f.billing_dates_order = 'month' OR f.billing_end_first = f.billing_end_second THEN f.billing_end_second END AS billing_end_day,
                CASE WHEN f.billing_end_minute >= 60 OR f.billing_end_second_of >= 60 THEN NULL WHEN f.billing_end_meridiem = '' AND f.billing_end_hour < 24 THEN f.billing_end_hour
                  WHEN f.billing_end_meridiem IN ('A', 'P') AND f.billing_end_hour BETWEEN 1 AND 12 THEN f.billing_end_hour - 12 * FLOOR(f.billing_end_hour / 12) + CASE WHEN f.billing_end_meridiem = 'P' THEN 12 ELSE 0 END
                END * 10000 + 100 * f.billing_end_minute + f.billing_end_second_of AS billing_end_clock_hms
              FROM (
                -- A date of slashes, when the whole text is one (else NULL): its fields, start and end
                SELECT
                  k.*,
                  TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_start_slashed, '^([0-9]{1,2})[/.-]', 1), '') AS DOUBLE) AS billing_start_first, TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_end_slashed, '^([0-9]{1,2})[/.-]', 1), '') AS DOUBLE) AS billing_end_first,
                  TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_start_slashed, '^[0-9]{1,2}[/.-]([0-9]{1,2})[/.-]', 1), '') AS DOUBLE) AS billing_start_second, TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_end_slashed, '^[0-9]{1,2}[/.-]([0-9]{1,2})[/.-]', 1), '') AS DOUBLE) AS billing_end_second,
                  TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_start_slashed, '^[0-9]{1,2}[/.-][0-9]{1,2}[/.-]([0-9]{4}|[0-9]{2})', 1), '') AS DOUBLE) AS billing_start_year_written, TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_end_slashed, '^[0-9]{1,2}[/.-][0-9]{1,2}[/.-]([0-9]{4}|[0-9]{2})', 1), '') AS DOUBLE) AS billing_end_year_written,
                  TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_start_slashed, '[ T]([0-9]{1,2}):', 1), '') AS DOUBLE) AS billing_start_hour, TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_end_slashed, '[ T]([0-9]{1,2}):', 1), '') AS DOUBLE) AS billing_end_hour,
                  TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_start_slashed, ':([0-9]{2})', 1), '') AS DOUBLE) AS billing_start_minute, TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_end_slashed, ':([0-9]{2})', 1), '') AS DOUBLE) AS billing_end_minute,
                  COALESCE(TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_start_slashed, ':[0-9]{2}:([0-9]{2})', 1), '') AS DOUBLE), 0) AS billing_start_second_of, COALESCE(TRY_CAST(NULLIF(REGEXP_EXTRACT(k.billing_end_slashed, ':[0-9]{2}:([0-9]{2})', 1), '') AS DOUBLE), 0) AS billing_end_second_of,
                  UPPER(COALESCE(REGEXP_EXTRACT(k.billing_start_slashed, '([AaPp])[Mm]$', 1), '')) AS billing_start_meridiem, UPPER(COALESCE(REGEXP_EXTRACT(k.billing_end_slashed, '([AaPp])[Mm]$', 1), '')) AS billing_end_meridiem
                FROM (
                  SELECT
                    e.*,
                    d.billing_dates_day_first,
                    d.billing_dates_month_first,
                    d.billing_dates_day_first_example,
                    d.billing_dates_month_first_example,
                    CASE WHEN d.billing_dates_day_first = 1 AND d.billing_dates_month_first = 0 THEN 'day'
                      WHEN d.billing_dates_month_first = 1 AND d.billing_dates_day_first = 0 THEN 'month' END
                      AS billing_dates_order,
                    CASE WHEN e.billing_period_start_text LIKE '%/%/%' OR e.billing_period_start_text LIKE '%-%-%' OR e.billing_period_start_text LIKE '%.%.%'
                      THEN NULLIF(REGEXP_EXTRACT(TRIM(e.billing_period_start_text),
                      '^([0-9]{1,2}[/.-][0-9]{1,2}[/.-](?:[0-9]{4}|[0-9]{2})(?:[ T]+[0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:[.][0-9]+)?)?(?: ?[AaPp][Mm])?)?)$', 1), '') END
                      AS billing_start_slashed,
                    CASE WHEN e.billing_period_end_text LIKE '%/%/%' OR e.billing_period_end_text LIKE '%-%-%' OR e.billing_period_end_text LIKE '%.%.%'
                      THEN NULLIF(REGEXP_EXTRACT(TRIM(e.billing_period_end_text),
                      '^([0-9]{1,2}[/.-][0-9]{1,2}[/.-](?:[0-9]{4}|[0-9]{2})(?:[ T]+[0-9]{1,2}:[0-9]{2}(?::[0-9]{2}(?:[.][0-9]+)?)?(?: ?[AaPp][Mm])?)?)$', 1), '') END
                      AS billing_end_slashed
                  FROM billing_evaluated e
                  CROSS JOIN billing_date_order d
                ) k
              ) f
            ) n
          ) o
        ) p
      ) q
    ) r
  ) s
) t
