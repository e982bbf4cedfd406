-- The lookup table of a billing export: for each (provider, instance type as billed, region key)
-- its lines hold, the place, the matched instance type and the per-hour impacts of its lines.
--
-- Reads the table billing_line_kinds (the export's lines grouped: billing_provider,
-- billing_instance_type, billing_region_key, …), billing_places (provider, spelling, place,
-- place_warning: why the place is not the region itself, a country or the default),
-- instance_matches (provider, billing_instance_type, matched_instance_type, match_warning, match_kind:
-- each instance type billed, matched as the single route matches it, with its warning's words and
-- the kind of its match as a code, src/billing/matching.ts; a method's key matches itself),
-- coefficients (the exported coefficient table, with the rows of the methods' keys:
-- src/billing/methods.ts) and billing_energy (provider, instance_type, place, energy_kwh_per_hour:
-- the energy behind one row's use impacts). A line's key is its method's key
-- (classify/billing_methods.sql), else its instance type. A region key of '' (no region) has its
-- place in billing_places too: the bill's only region of its provider, else the default place, whose
-- coefficient rows have neither region nor usage location; each with its warning. Missing keys are ''.
--
-- One line per per-hour column, each marked `-- per hour`: `impact-service evaluate` keeps those of
-- the criteria asked for (and their min and max with --ranges) and writes others alike.
SELECT
  g.key_provider,
  g.key_instance_type,
  g.key_region,
  c.gwp_embedded_kgco2eq_per_hour AS gwp_embedded_kgco2eq_per_hour, -- per hour
  c.gwp_embedded_kgco2eq_min_per_hour AS gwp_embedded_kgco2eq_min_per_hour, -- per hour
  c.gwp_embedded_kgco2eq_max_per_hour AS gwp_embedded_kgco2eq_max_per_hour, -- per hour
  c.gwp_use_kgco2eq_per_hour AS gwp_use_kgco2eq_per_hour, -- per hour
  c.gwp_use_kgco2eq_min_per_hour AS gwp_use_kgco2eq_min_per_hour, -- per hour
  c.gwp_use_kgco2eq_max_per_hour AS gwp_use_kgco2eq_max_per_hour, -- per hour
  c.adp_embedded_kgsbeq_per_hour AS adp_embedded_kgsbeq_per_hour, -- per hour
  c.adp_embedded_kgsbeq_min_per_hour AS adp_embedded_kgsbeq_min_per_hour, -- per hour
  c.adp_embedded_kgsbeq_max_per_hour AS adp_embedded_kgsbeq_max_per_hour, -- per hour
  c.adp_use_kgsbeq_per_hour AS adp_use_kgsbeq_per_hour, -- per hour
  c.adp_use_kgsbeq_min_per_hour AS adp_use_kgsbeq_min_per_hour, -- per hour
  c.adp_use_kgsbeq_max_per_hour AS adp_use_kgsbeq_max_per_hour, -- per hour
  c.pe_embedded_mj_per_hour AS pe_embedded_mj_per_hour, -- per hour
  c.pe_embedded_mj_min_per_hour AS pe_embedded_mj_min_per_hour, -- per hour
  c.pe_embedded_mj_max_per_hour AS pe_embedded_mj_max_per_hour, -- per hour
  c.pe_use_mj_per_hour AS pe_use_mj_per_hour, -- per hour
  c.pe_use_mj_min_per_hour AS pe_use_mj_min_per_hour, -- per hour
  c.pe_use_mj_max_per_hour AS pe_use_mj_max_per_hour, -- per hour
  r.place AS billing_place,
  r.place_warning AS billing_place_warning,
  m.matched_instance_type AS billing_matched_instance_type,
  m.match_warning AS billing_match_warning,
  m.match_kind AS billing_match_kind,
  e.energy_kwh_per_hour AS energy_kwh_per_hour
FROM (
  SELECT DISTINCT
    COALESCE(billing_provider, '') AS key_provider,
    COALESCE(billing_method_key, billing_instance_type, '') AS key_instance_type,
    billing_region_key AS key_region
  FROM billing_line_kinds
) g
LEFT JOIN billing_places r
  ON r.provider = g.key_provider
  AND r.spelling = g.key_region
LEFT JOIN instance_matches m
  ON m.provider = g.key_provider
  AND m.billing_instance_type = g.key_instance_type
LEFT JOIN coefficients c
  ON c.provider = g.key_provider
  AND c.instance_type = m.matched_instance_type
  AND COALESCE(c.region, c.usage_location, '') = r.place
LEFT JOIN billing_energy e
  ON e.provider = g.key_provider
  AND e.instance_type = m.matched_instance_type
  AND e.place = r.place
