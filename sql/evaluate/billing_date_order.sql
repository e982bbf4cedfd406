-- Whether the bill writes its dates of day and month day first or month first (`10/1/2024 0:00`,
-- `1/10/2024 12:00:00 AM`, `07-01-22`, `13.07.2022`: a spreadsheet's resave of its period columns,
-- the fields parted by slashes, hyphens or dots, the year of four digits or two), decided from every
-- line of the file: a first field above 12 can only be a day (day first), a second field above 12
-- only a day too (month first). One row: billing_dates_slashed (1 where the bill has such dates),
-- billing_dates_day_first and billing_dates_month_first (1 where a date says so; both: the file is
-- inconsistent; neither: undecided), each with the first such text in the order of texts (what the
-- summary names). evaluate/billing_periods.sql reads such a date by them, never by a guess.
--
-- Reads the view billing_lines (the format's query: billing_period_start_text,
-- billing_period_end_text), once: the start's and the end's fields side by side.
SELECT
  COALESCE(MAX(CASE WHEN d.billing_start_first IS NOT NULL OR d.billing_end_first IS NOT NULL THEN 1 ELSE 0 END), 0)
    AS billing_dates_slashed,
  COALESCE(MAX(CASE WHEN d.billing_start_first > 12 OR d.billing_end_first > 12 THEN 1 ELSE 0 END), 0)
    AS billing_dates_day_first,
  COALESCE(MAX(CASE WHEN d.billing_start_second > 12 OR d.billing_end_second > 12 THEN 1 ELSE 0 END), 0)
    AS billing_dates_month_first,
  MIN(CASE WHEN d.billing_start_first IS NOT NULL THEN d.billing_start_text
    WHEN d.billing_end_first IS NOT NULL THEN d.billing_end_text END) AS billing_dates_slashed_example,
  MIN(CASE WHEN d.billing_start_first > 12 THEN d.billing_start_text
    WHEN d.billing_end_first > 12 THEN d.billing_end_text END) AS billing_dates_day_first_example,
  MIN(CASE WHEN d.billing_start_second > 12 THEN d.billing_start_text
    WHEN d.billing_end_second > 12 THEN d.billing_end_text END) AS billing_dates_month_first_example
FROM (
  SELECT
    l.billing_period_start_text AS billing_start_text,
    l.billing_period_end_text AS billing_end_text,
    CASE WHEN l.billing_period_start_text LIKE '%/%/%' OR l.billing_period_start_text LIKE '%-%-%' OR l.billing_period_start_text LIKE '%.%.%'
      THEN TRY_CAST(NULLIF(REGEXP_EXTRACT(TRIM(l.billing_period_start_text), '^([0-9]{1,2})[/.-][0-9]{1,2}[/.-](?:[0-9]{4}|[0-9]{2})(?:[^0-9]|$)', 1), '') AS DOUBLE) END AS billing_start_first,
    CASE WHEN l.billing_period_start_text LIKE '%/%/%' OR l.billing_period_start_text LIKE '%-%-%' OR l.billing_period_start_text LIKE '%.%.%'
      THEN TRY_CAST(NULLIF(REGEXP_EXTRACT(TRIM(l.billing_period_start_text), '^[0-9]{1,2}[/.-]([0-9]{1,2})[/.-](?:[0-9]{4}|[0-9]{2})(?:[^0-9]|$)', 1), '') AS DOUBLE) END AS billing_start_second,
    CASE WHEN l.billing_period_end_text LIKE '%/%/%' OR l.billing_period_end_text LIKE '%-%-%' OR l.billing_period_end_text LIKE '%.%.%'
      THEN TRY_CAST(NULLIF(REGEXP_EXTRACT(TRIM(l.billing_period_end_text), '^([0-9]{1,2})[/.-][0-9]{1,2}[/.-](?:[0-9]{4}|[0-9]{2})(?:[^0-9]|$)', 1), '') AS DOUBLE) END AS billing_end_first,
    CASE WHEN l.billing_period_end_text LIKE '%/%/%' OR l.billing_period_end_text LIKE '%-%-%' OR l.billing_period_end_text LIKE '%.%.%'
      THEN TRY_CAST(NULLIF(REGEXP_EXTRACT(TRIM(l.billing_period_end_text), '^[0-9]{1,2}[/.-]([0-9]{1,2})[/.-](?:[0-9]{4}|[0-9]{2})(?:[^0-9]|$)', 1), '') AS DOUBLE) END AS billing_end_second
  FROM billing_lines l
) d
