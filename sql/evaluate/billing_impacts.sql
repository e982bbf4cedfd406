-- The impacts of a billing export: each line with its row of the lookup table
-- (evaluate/billing_located.sql); an instance line's hours are its quantity in its unit, its impacts the
-- per-hour ones × its hours; a method's line (classify/billing_methods.sql) bills its quantity × its
-- method's factor of units, its impacts the per-unit ones × those units.
--
-- Reads the view billing_located. Every line stays, with a status: evaluated, not compute,
-- unknown instance type, not evaluated: …, bad row: …, told by its problem's code
-- (billing_problem_code, its words billing_problem: src/billing/lineStatus.ts); a line that is not evaluated has no hours
-- or units, so no impacts. method: how a line uses hardware (empty for none); energy_kwh: the
-- energy behind its use impacts.
--
-- One line per impact column, each marked `-- impact`: `impact-service evaluate` keeps those of the
-- criteria asked for (and their min and max with --ranges) and writes others alike.
SELECT
  h.*,
  CASE WHEN h.billing_problem IS NULL THEN h.billing_matched_instance_type ELSE NULL END AS matched_instance_type,
  -- An instance type the edition lacks, estimated as its family's type of its vCPUs (src/billing/instanceShapes.ts):
  -- the kind of its match, a code (src/billing/matching.ts)
  CASE
    WHEN h.billing_method = 'instance' AND h.billing_match_kind = 'by-shape' THEN 'instance-by-shape'
    ELSE h.billing_method
  END AS method,
  h.billing_method_amount AS method_quantity,
  CASE WHEN h.billing_method_key IS NULL THEN NULL ELSE h.billing_method_unit END AS method_unit,
  h.billing_amount * h.energy_kwh_per_hour AS energy_kwh,
  h.billing_amount * h.gwp_embedded_kgco2eq_per_hour AS gwp_embedded_kgco2eq, -- impact
  h.billing_amount * h.gwp_embedded_kgco2eq_min_per_hour AS gwp_embedded_kgco2eq_min, -- impact
  h.billing_amount * h.gwp_embedded_kgco2eq_max_per_hour AS gwp_embedded_kgco2eq_max, -- impact
  h.billing_amount * h.gwp_use_kgco2eq_per_hour AS gwp_use_kgco2eq, -- impact
  h.billing_amount * h.gwp_use_kgco2eq_min_per_hour AS gwp_use_kgco2eq_min, -- impact
  h.billing_amount * h.gwp_use_kgco2eq_max_per_hour AS gwp_use_kgco2eq_max, -- impact
  h.billing_amount * h.adp_embedded_kgsbeq_per_hour AS adp_embedded_kgsbeq, -- impact
  h.billing_amount * h.adp_embedded_kgsbeq_min_per_hour AS adp_embedded_kgsbeq_min, -- impact
  h.billing_amount * h.adp_embedded_kgsbeq_max_per_hour AS adp_embedded_kgsbeq_max, -- impact
  h.billing_amount * h.adp_use_kgsbeq_per_hour AS adp_use_kgsbeq, -- impact
  h.billing_amount * h.adp_use_kgsbeq_min_per_hour AS adp_use_kgsbeq_min, -- impact
  h.billing_amount * h.adp_use_kgsbeq_max_per_hour AS adp_use_kgsbeq_max, -- impact
  h.billing_amount * h.pe_embedded_mj_per_hour AS pe_embedded_mj, -- impact
  h.billing_amount * h.pe_embedded_mj_min_per_hour AS pe_embedded_mj_min, -- impact
  h.billing_amount * h.pe_embedded_mj_max_per_hour AS pe_embedded_mj_max, -- impact
  h.billing_amount * h.pe_use_mj_per_hour AS pe_use_mj, -- impact
  h.billing_amount * h.pe_use_mj_min_per_hour AS pe_use_mj_min, -- impact
  h.billing_amount * h.pe_use_mj_max_per_hour AS pe_use_mj_max, -- impact
  CASE
    WHEN h.billing_problem IS NOT NULL THEN h.billing_problem
    WHEN h.billing_method_key IS NULL AND h.billing_matched_instance_type IS NULL THEN 'unknown instance type'
    ELSE 'evaluated'
  END AS status,
  CASE
    WHEN h.billing_problem IS NOT NULL OR h.billing_warnings = '' THEN NULL
    -- Without the last separator
    ELSE SUBSTR(h.billing_warnings, 1, LENGTH(h.billing_warnings) - 2)
  END AS warnings
FROM (
  SELECT
    v.*,
    -- The problem's words (status, then reason) from its code (src/billing/lineStatus.ts)
    -- @line problem words of v
    COALESCE(v.hours, v.billing_method_amount) AS billing_amount,
    -- The instance type's match, the method's and the place's warnings, each followed by '; '
    CONCAT(
      CASE WHEN v.billing_match_warning IS NULL THEN '' ELSE CONCAT(v.billing_match_warning, '; ') END,
      CASE WHEN v.billing_method_warning IS NULL THEN '' ELSE CONCAT(v.billing_method_warning, '; ') END,
      CASE WHEN v.billing_place_warning IS NULL THEN '' ELSE CONCAT(v.billing_place_warning, '; ') END
    ) AS billing_warnings
  FROM (
    SELECT
      u.*,
      CASE
        -- A usage line in a unit the registry cannot read (src/billing/registry/units.ts): said, not guessed
        WHEN u.billing_method IS NULL AND u.billing_line_kind = 'not compute' AND u.billing_unknown_unit IS NOT NULL
          THEN 'unit-not-read'
        WHEN u.billing_method IS NULL AND u.billing_line_kind = 'not compute' THEN 'no-method'
        -- A Google Cloud line of no machine type that a rule names (an address, a licence): its reason
        WHEN u.billing_method IS NULL AND u.billing_line_kind = 'machine type not billed'
          AND u.billing_method_warning IS NOT NULL THEN 'no-method'
        WHEN u.billing_method IS NULL AND u.billing_line_kind = 'machine type not billed'
          THEN 'machine-type-not-billed'
        -- A method that cannot count its units says why (classify/billing_methods.sql), else its unit is not one it reads
        WHEN u.billing_method_key IS NOT NULL AND u.billing_method_factor IS NULL
          THEN 'method-unit-not-read'
        -- (a quantity or cost not finite within 1e-30 to 1e30 is read as none: src/billing/stages/classify.ts)
        WHEN u.billing_quantity IS NULL THEN 'quantity-not-a-number'
        -- FOCUS: a negative quantity is a correction (ChargeClass) or a refund of usage billed on
        -- another line, whose impacts it does not take back
        WHEN u.billing_quantity < 0 THEN 'negative-quantity'
        -- A quantity in a unit of many (`1000…0 tokens`) held to the bound every number is
        -- (src/support/numbers.ts): never evaluated past 1e30 units (the command refuses such a
        -- bill: src/billing/stages/evaluate.ts). Not below 1e-30: a readable cell in a unit of a
        -- part (ByteHrs, 1e-9 GB-hour) is a small quantity, not a bad one
        WHEN ABS(u.billing_quantity * COALESCE(u.billing_method_factor, u.billing_unit_hours, 0.0)) > 1000000000000000000000000000000.0
          THEN 'quantity-past-bound'
        -- A managed size the catalogue lacks, or whose server the edition lacks: named (its match's warning)
        WHEN u.billing_method = 'managed-size' AND u.billing_matched_instance_type IS NULL
          THEN 'managed-size-unmatched'
        -- by-cost: no instance line of the provider with a cost gives the bill's kWh per cost
        WHEN u.billing_method_key IS NOT NULL AND u.billing_matched_instance_type IS NULL
          THEN 'no-rate'
        WHEN u.billing_method_key IS NULL AND u.billing_unit_hours IS NULL
          THEN 'unit-unknown'
        WHEN u.billing_method_key IS NULL AND u.billing_instance_type IS NOT NULL
          AND u.billing_matched_instance_type IS NULL THEN 'instance-type-unknown'
        WHEN u.billing_place IS NULL THEN 'region-unknown'
        WHEN u.billing_method_key IS NULL AND u.billing_instance_type IS NULL THEN 'instance-type-unknown'
        ELSE NULL
      END AS billing_problem_code,
      CASE
        WHEN u.billing_method_key IS NOT NULL AND u.billing_method_factor IS NOT NULL AND u.billing_quantity >= 0
          AND u.billing_place IS NOT NULL AND u.billing_quantity * u.billing_method_factor <= 1000000000000000000000000000000.0
          THEN CASE
            -- by-cost reads the cost the coverage and the report read (billing_paid_cost: FOCUS
            -- EffectiveCost, a CUR's amortised cost), its rate that cost's too (costRates)
            WHEN u.billing_method = 'by-cost' THEN CASE WHEN u.billing_paid_cost > 0 THEN u.billing_paid_cost ELSE 0.0 END
            ELSE u.billing_quantity
          END * u.billing_method_factor
        ELSE NULL
      END AS billing_method_amount,
      CASE
        WHEN u.billing_line_kind = 'compute' AND u.billing_method_key IS NULL AND u.billing_quantity >= 0 AND u.billing_place IS NOT NULL
          AND u.billing_instance_type IS NOT NULL AND u.billing_quantity * u.billing_unit_hours <= 1000000000000000000000000000000.0
          THEN u.billing_quantity * u.billing_unit_hours
        ELSE NULL
      END AS hours
    FROM billing_located u
  ) v
) h
