-- The impacts of a billing export: each line (billing_classified.sql) joined with the coefficient
-- table (`impact-service coefficients`: per-hour impacts of each provider, instance type and
-- place) on its matched instance type and place; its impacts are the per-hour ones × its hours.
--
-- Reads the view billing_classified, the table instance_matches (provider, billing_instance_type,
-- matched_instance_type, match_warning: each instance type billed, matched as the single route
-- matches it) and the table coefficients. Every line stays, with a status: evaluated, not compute,
-- unknown instance type, not evaluated: …, bad row: …; a line that is not evaluated has no hours,
-- so no impacts. Missing keys are compared as '' (see billing_classified.sql).
--
-- One line per impact column, each marked `-- impact`: `impact-service evaluate` keeps those of the
-- criteria asked for (and their min and max with --ranges) and writes others alike.
SELECT
  k.*,
  CASE WHEN k.billing_problem IS NULL THEN m.matched_instance_type ELSE NULL END AS matched_instance_type,
  k.hours * c.gwp_embedded_kgco2eq_per_hour AS gwp_embedded_kgco2eq, -- impact
  k.hours * c.gwp_embedded_kgco2eq_min_per_hour AS gwp_embedded_kgco2eq_min, -- impact
  k.hours * c.gwp_embedded_kgco2eq_max_per_hour AS gwp_embedded_kgco2eq_max, -- impact
  k.hours * c.gwp_use_kgco2eq_per_hour AS gwp_use_kgco2eq, -- impact
  k.hours * c.gwp_use_kgco2eq_min_per_hour AS gwp_use_kgco2eq_min, -- impact
  k.hours * c.gwp_use_kgco2eq_max_per_hour AS gwp_use_kgco2eq_max, -- impact
  k.hours * c.adp_embedded_kgsbeq_per_hour AS adp_embedded_kgsbeq, -- impact
  k.hours * c.adp_embedded_kgsbeq_min_per_hour AS adp_embedded_kgsbeq_min, -- impact
  k.hours * c.adp_embedded_kgsbeq_max_per_hour AS adp_embedded_kgsbeq_max, -- impact
  k.hours * c.adp_use_kgsbeq_per_hour AS adp_use_kgsbeq, -- impact
  k.hours * c.adp_use_kgsbeq_min_per_hour AS adp_use_kgsbeq_min, -- impact
  k.hours * c.adp_use_kgsbeq_max_per_hour AS adp_use_kgsbeq_max, -- impact
  k.hours * c.pe_embedded_mj_per_hour AS pe_embedded_mj, -- impact
  k.hours * c.pe_embedded_mj_min_per_hour AS pe_embedded_mj_min, -- impact
  k.hours * c.pe_embedded_mj_max_per_hour AS pe_embedded_mj_max, -- impact
  k.hours * c.pe_use_mj_per_hour AS pe_use_mj, -- impact
  k.hours * c.pe_use_mj_min_per_hour AS pe_use_mj_min, -- impact
  k.hours * c.pe_use_mj_max_per_hour AS pe_use_mj_max, -- impact
  CASE
    WHEN k.billing_problem IS NOT NULL THEN k.billing_problem
    WHEN m.matched_instance_type IS NULL THEN 'unknown instance type'
    ELSE 'evaluated'
  END AS status,
  CASE WHEN k.billing_problem IS NULL THEN m.match_warning ELSE NULL END AS warnings
FROM billing_classified k
LEFT JOIN instance_matches m
  ON m.provider = COALESCE(k.billing_provider, '')
  AND m.billing_instance_type = COALESCE(k.billing_instance_type, '')
LEFT JOIN coefficients c
  ON c.provider = COALESCE(k.billing_provider, '')
  AND c.instance_type = COALESCE(m.matched_instance_type, '')
  AND COALESCE(c.region, c.usage_location, '') = COALESCE(k.billing_place, '')
