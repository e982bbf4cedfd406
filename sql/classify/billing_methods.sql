-- How each billing line uses hardware (docs/methodology.md, "Billing lines that are not instance
-- hours"): its method, the per-unit coefficient row it reads and how many of those units it bills.
--
-- Reads the view billing_usage (classify/billing_usage_<format>.sql) and the registry's tables
-- (src/billing/registry/, written by the command: docs/billing.md): billing_units (each unit
-- spelling, lower case: its dimension, factor, hours, GB, resource counted), billing_storage_services
-- (provider, service name lower case: its storage method, medium, copies), billing_services
-- (provider, service name lower case: a fee's or no hardware's role), billing_gpus (GPU models),
-- billing_method_kinds (each method's dimension, variant, unit suffix, multiplier),
-- billing_method_keys (method, variant: its coefficient key and unit) and billing_ai_models
-- (provider, a generative-AI model's billed spelling: the model of the data it names). Adds:
-- - billing_method: instance (an instance hour, billing_line_kind = 'compute'), a method of the
--   registry (src/billing/registry/methods.ts, BILLING_METHODS: its rules, in their order, are
--   written at the line marked `-- method rules`), or NULL for a line that uses no hardware (taxes,
--   fees, credits, support, requests…).
-- - billing_method_key: the coefficient row of one unit ('method:ssd-gb-hour', …), looked up as an
--   instance type is; NULL for instance lines and lines without a method.
-- - billing_method_factor: units of the key per unit of the quantity: the unit's factor, the
--   storage's copies, vCPUs per OCPU or ACU, vCPU-hours per GB-hour of Lambda memory; NULL when the
--   line's unit is not one its method reads.
-- - billing_method_unit: what the units are, as the output says it.
-- - billing_unknown_unit: a usage line's unit the registry cannot read (NULL otherwise).
-- - billing_method_warning: what the output's warnings say of the method (a GPU of no known model,
--   a deployment's instances); for a line without a method, why it has none (a tax, a purchase, a
--   fee, a licence, no unit, a count no hardware stands behind…), the summary's reason (the
--   output writes no warning on a line that is not evaluated); for a line whose method cannot
--   count its units though it reads its unit (a DTU tier no resource limits list), why, its status.
-- - billing_reason_code: 'unread-text' for a line of no method no rule reads (its warning then
--   names its unit), else NULL: what the summary reads, never the words.
-- - billing_unlisted_gpu: for GPU-hours read as CCF's average GPU, the model as the line names it
--   ('' for none), else NULL.
-- Each join reads one row at most (the tables' keys are unique). The query keeps to what Spark SQL,
-- Trino, BigQuery and DuckDB share.
SELECT
  r.*,
  -- A line no rule reads: its reason as the summary says it, its unit named
  CASE WHEN r.billing_reason_code = 'unread-text'
    THEN CONCAT('no method reads its text (', r.billing_unit_dimension, ' in ', r.billing_usage_unit, ')')
    ELSE r.billing_decided_warning
  END AS billing_method_warning
FROM (
SELECT
  m.*,
  -- The code of a line's reason where the summary reads it: no rule reads its text (a line of no
  -- method, neither an instance's hours nor of an unknown unit, no rule nor kind of which says why)
  CASE WHEN m.billing_method IS NULL AND m.billing_line_kind = 'not compute' AND m.billing_unknown_unit IS NULL
    AND m.billing_decided_warning IS NULL THEN 'unread-text' END AS billing_reason_code,
  CASE
    WHEN m.billing_method = 'by-cost' THEN 1.0
    -- A managed size's hours (its service reads an hour unit), each its servers
    WHEN m.billing_method = 'managed-size' THEN m.billing_unit_factor * m.billing_method_multiplier
    WHEN m.billing_method_key IS NULL OR m.billing_unit_dimension <> m.billing_method_dimension THEN NULL
    ELSE m.billing_unit_factor * COALESCE(m.billing_usage_scale, 1.0) * m.billing_method_multiplier
  END AS billing_method_factor
FROM (
  SELECT
    c.*,
    COALESCE(c.billing_catalogue_key, mkey.method_key) AS billing_method_key,
    CASE
      WHEN c.billing_method = 'managed-size' THEN 'server-hours'
      WHEN c.billing_method_suffix = 'replication'
        THEN CONCAT(mkey.unit_label, ' x', CAST(CAST(c.billing_replication AS INTEGER) AS VARCHAR))
      WHEN c.billing_method_suffix = 'scope' THEN CONCAT(mkey.unit_label, ' ', c.billing_transfer_scope)
      ELSE mkey.unit_label
    END AS billing_method_unit,
    -- A GPU of no model the registry knows (GPU_MODELS, src/billing/registry/methods.ts): CCF's average GPU, said (no quote in
    -- the texts: Spark and BigQuery do not read '' as one)
    CASE
      WHEN c.billing_method = 'instance' AND c.billing_deployment_copies > 1.0 THEN CASE
        -- @deployment warnings of c
        ELSE NULL
      END
      -- A method that cannot count a line's units says why, the line's status (evaluate/billing_impacts.sql):
      -- a DTU tier the resource limits do not list is named, not read as another tier (its provider's
      -- dtuTiers, src/billing/providers/)
      -- @dtu warnings of c
      -- A generative-AI model the edition's data lacks (or no model named) is named, not read as another
      WHEN c.billing_method_variant = '' AND c.billing_method_dimension = 'count' AND c.billing_method_multiplier IS NULL
        THEN CASE c.billing_ai_name
          WHEN '' THEN 'generative AI: no model named'
          ELSE CONCAT('generative AI model ', c.billing_ai_name, ' has no EcoLogits figures')
        END
      WHEN c.billing_method IS NULL THEN CASE
        WHEN c.billing_line_kind NOT IN ('not compute', 'machine type not billed') OR c.billing_unknown_unit IS NOT NULL
          THEN NULL
        -- @charge reasons of c
        WHEN c.billing_charge <> 'usage' THEN 'a charge that is not usage'
        -- @no method reasons of c
        -- A Google Cloud line of no machine type that no rule names (its status says why)
        WHEN c.billing_line_kind = 'machine type not billed' THEN NULL
        WHEN c.billing_service_role IS NOT NULL THEN 'no hardware (support)' -- @a support reason
        WHEN LOWER(TRIM(COALESCE(c.billing_usage_unit, ''))) IN ('', 'null') THEN 'no unit'
        WHEN c.billing_unit_dimension = 'count' THEN CONCAT('a count, no hardware per unit: ', c.billing_usage_unit)
        -- No rule reads its text: said from its reason's code (billing_reason_code, below)
        ELSE NULL
      END
      -- Provisioned IOPS read as the SSD delivering them (src/billing/registry/units.ts), said
      WHEN c.billing_unit_resource = 'iops' AND mkey.method_key IS NOT NULL
        THEN 'provisioned IOPS as the SSD capacity delivering them: 3 IOPS a GiB (gp2 baseline)'
      -- A control plane's nodes, where they are published, and its nodes' size assumed
      -- (src/billing/registry/kinds.ts)
      WHEN c.billing_method = 'control-plane' THEN CASE
        -- @control plane notes of c
      END
      -- A VM read by its SKU's FOCUS properties (SkuPriceDetails, any producer): what it was read by,
      -- and the properties a line's one method leaves unread
      WHEN c.billing_method = 'per-vcpu' AND c.billing_unit_resource = '' AND c.billing_usage_text LIKE '%| f_corecount %'
        THEN CONCAT('per-vcpu: F_CoreCount ', REGEXP_EXTRACT(c.billing_usage_text, '[|] f_corecount ([0-9.]+)', 1), ' of SkuPriceDetails, vCPUs an hour',
          CASE WHEN c.billing_usage_text LIKE '%| f_memorysize %' OR c.billing_usage_text LIKE '%| f_diskspace %'
            THEN ', its F_MemorySize and F_DiskSpace not read (one method a line)' ELSE '' END)
      WHEN c.billing_method = 'accelerator' AND c.billing_unit_resource = '' AND c.billing_usage_text LIKE '%| f_gpucount %'
        AND mkey.method_key IS NOT NULL AND c.billing_unit_dimension = c.billing_method_dimension
        THEN CONCAT(CASE WHEN c.billing_method_variant <> '' THEN ''
            WHEN c.billing_gpu_name = '' THEN 'GPU model not named: the CCF average GPU, '
            ELSE CONCAT('GPU model ', c.billing_gpu_name, ' not in the registry: the CCF average GPU, ') END,
          'F_GpuCount ', REGEXP_EXTRACT(c.billing_usage_text, '[|] f_gpucount ([0-9.]+)', 1), ' of SkuPriceDetails, GPUs an hour',
          CASE WHEN c.billing_usage_text LIKE '%| f_corecount %' OR c.billing_usage_text LIKE '%| f_memorysize %'
            THEN ', its F_CoreCount and F_MemorySize not read (one method a line)' ELSE '' END)
      WHEN c.billing_sku_gb IS NOT NULL AND c.billing_unit_dimension_read = 'hour' AND mkey.method_key IS NOT NULL
        AND c.billing_unit_dimension = c.billing_method_dimension
        THEN CONCAT(c.billing_method, CASE WHEN c.billing_usage_text LIKE '%| f_diskspace %'
          THEN CONCAT(': F_DiskSpace ', REGEXP_EXTRACT(c.billing_usage_text, '[|] f_diskspace ([0-9.]+)', 1), ' GB')
          ELSE CONCAT(': F_MemorySize ', REGEXP_EXTRACT(c.billing_usage_text, '[|] f_memorysize ([0-9.]+)', 1), ' GiB') END,
          ' of SkuPriceDetails, for each of its hours')
      WHEN c.billing_method <> 'accelerator' OR c.billing_method_variant <> '' THEN NULL
      -- A unit the method does not read is the line's status, not a warning
      WHEN mkey.method_key IS NULL OR c.billing_unit_dimension <> c.billing_method_dimension THEN NULL
      WHEN c.billing_gpu_name = '' THEN 'GPU model not named: the CCF average GPU'
      ELSE CONCAT('GPU model ', c.billing_gpu_name, ' not in the registry: the CCF average GPU')
    END AS billing_decided_warning,
    -- GPU-hours read as CCF's average GPU: the model as the line names it ('' for none), else none
    CASE WHEN c.billing_method = 'accelerator' AND c.billing_method_variant = '' AND mkey.method_key IS NOT NULL
      AND c.billing_unit_dimension = c.billing_method_dimension THEN COALESCE(c.billing_gpu_name, '') END
      AS billing_unlisted_gpu
  FROM (
    SELECT
      s.*,
      mkind.dimension AS billing_method_dimension,
      mkind.label_suffix AS billing_method_suffix,
      CASE
        WHEN mkind.variant_of = 'medium' THEN s.billing_storage_medium
        WHEN mkind.variant_of = 'gpu' THEN COALESCE(s.billing_gpu_model, '')
        WHEN mkind.variant_of = 'model' THEN COALESCE(aim.variant, '')
        ELSE ''
      END AS billing_method_variant,
      CASE
        -- The servers an hour of a managed size stands for: its nodes × its share of the server
        WHEN s.billing_method = 'managed-size' THEN CASE
          -- @catalogue copies of s
          ELSE 1.0
        END
        ELSE mkind.multiplier * CASE
        WHEN mkind.label_suffix = 'replication' THEN s.billing_replication
        -- A generative-AI model no billed spelling names: its tokens are not counted (its warning says which)
        WHEN mkind.variant_of = 'model' AND aim.variant IS NULL THEN NULL
        -- The nodes an hour of a control plane stands for (src/billing/registry/kinds.ts)
        WHEN s.billing_method = 'control-plane' THEN CASE
          -- @control plane nodes of s
        END
        -- A VM's hours whose SKU gives its GPUs (SkuPriceDetails' F_GpuCount, any FOCUS producer): each GPU's
        WHEN s.billing_method = 'accelerator' AND s.billing_unit_resource = '' AND s.billing_usage_text LIKE '%| f_gpucount %'
          THEN TRY_CAST(REGEXP_EXTRACT(s.billing_usage_text, '[|] f_gpucount ([0-9.]+)', 1) AS DOUBLE)
        WHEN s.billing_method <> 'per-vcpu' THEN 1.0
        -- A VM's hours whose SKU gives its cores (SkuPriceDetails' F_CoreCount): each core's vCPU-hour
        WHEN s.billing_unit_resource = '' AND s.billing_usage_text LIKE '%| f_corecount %'
          THEN TRY_CAST(REGEXP_EXTRACT(s.billing_usage_text, '[|] f_corecount ([0-9.]+)', 1) AS DOUBLE)
        -- A unit of compute that is not a vCPU, as the vCPUs it stands for (an OCPU, an Aurora ACU, a
        -- Redshift RPU, a vCore its meter counts: the registry's VCPU_UNITS, src/billing/registry/lineWords.ts)
        -- @vcpu units of s
        -- A database's DTUs (Azure SQL's meter: `S2 DTUs`, `100 eDTUs`), as vCores: the number its
        -- meter names, else its tier's, over the DTUs a vCore stands for in its tier (its provider's
        -- dtuTiers, src/billing/providers/)
        -- @dtu vcores of s
        ELSE 1.0
      END END AS billing_method_multiplier
    FROM (
      SELECT
        r.*,
        CASE
          WHEN r.billing_method IS NULL OR r.billing_method = 'instance' THEN NULL
          -- The medium a line's words name (EBS st1, sc1, magnetic; Google's standard PD:
          -- src/billing/registry/storage.ts), else an object store's HDD, else its service's
          -- @storage media of r
          WHEN r.billing_method = 'object-storage' THEN 'hdd'
          ELSE COALESCE(r.billing_service_medium, 'ssd')
        END AS billing_storage_medium,
        -- Copies kept: the redundancy or deployment a line's words name, else its service's
        -- (src/billing/registry/storage.ts)
        CASE
          -- @storage copies of r
          ELSE COALESCE(r.billing_service_replication, 1.0)
        END AS billing_replication,
        -- The instances a line's deployment runs (src/billing/registry/deployments.ts): its hours count each
        CASE
          -- @deployment copies of r
          ELSE 1.0
        END AS billing_deployment_copies,
        -- The catalogue's key of a managed size's line: its service and the size its text names
        CASE
          WHEN r.billing_method IS NULL OR r.billing_method <> 'managed-size' THEN NULL
          ELSE CONCAT('managed:', r.billing_catalogue_service, ':', CASE r.billing_catalogue_service
            -- @catalogue sizes of r
            ELSE ''
          END)
        END AS billing_catalogue_key,
        CASE
          WHEN r.billing_method IS NULL OR r.billing_method <> 'data-transfer' THEN NULL
          -- How far a transfer carries, by its words (TRANSFER_SCOPES, src/billing/registry/lineWords.ts)
          -- @transfer scopes of r
        END AS billing_transfer_scope
      FROM (
        SELECT
          u.*,
          CASE
            -- @method rules
            ELSE NULL
          END AS billing_method
        FROM (
          SELECT
            b.*,
            -- @generative-ai spelling of b
            CASE
              WHEN b.billing_disk_gib IS NOT NULL THEN 'gb-hour'
              -- Hours of a disk or memory its SKU sizes (SkuPriceDetails' F_DiskSpace, F_MemorySize): GB-hours
              WHEN b.billing_sku_gb IS NOT NULL AND b.billing_unit_dimension_read = 'hour'
                AND b.billing_unit_resource_read IS NULL THEN 'gb-hour'
              -- Units a line's description re-reads (a function's seconds of GB, a transfer's GB-months:
              -- UNIT_REREADS, src/billing/registry/lineWords.ts)
              -- @unit rereads of b
              ELSE COALESCE(b.billing_unit_dimension_read, 'unknown')
            END AS billing_unit_dimension,
            CASE
              -- A GiB of the tier's capacity for a month of 730 hours
              WHEN b.billing_disk_gib IS NOT NULL THEN 730.0 * 1.073741824 * b.billing_disk_gib
              WHEN b.billing_sku_gb IS NOT NULL AND b.billing_unit_dimension_read = 'hour'
                AND b.billing_unit_resource_read IS NULL THEN b.billing_unit_factor_read * b.billing_sku_gb
              -- @unit reread factors of b
              ELSE b.billing_unit_factor_read
            END AS billing_unit_factor,
            -- A managed service billed as hours of a compute size (src/billing/registry/managedServices.ts)
            CASE
              -- @catalogue services of b
              ELSE NULL
            END AS billing_catalogue_service
          FROM (
            SELECT
              a.*,
              LOWER(COALESCE(a.billing_usage_unit, '')) AS billing_unit_text,
              unit_q.dimension AS billing_unit_dimension_read,
              unit_q.factor AS billing_unit_factor_read,
              unit_q.hours AS billing_unit_time_hours,
              unit_q.gigabytes AS billing_unit_gigabytes,
              unit_q.resource AS billing_unit_resource_read,
              COALESCE(unit_q.resource, '') AS billing_unit_resource,
              CASE
                -- The text `NULL` (the FinOps Foundation's sample writes it for none) is no unit
                WHEN a.billing_charge <> 'usage' OR LOWER(TRIM(COALESCE(a.billing_usage_unit, ''))) IN ('', 'null')
                  OR unit_q.spelling IS NOT NULL THEN NULL
                ELSE a.billing_usage_unit
              END AS billing_unknown_unit,
              svc.storage AS billing_service_storage,
              svc.medium AS billing_service_medium,
              svc.replication AS billing_service_replication,
              known.role AS billing_service_role,
              known.estimated_when AS billing_service_estimated_when,
              gpu.model AS billing_gpu_model,
              -- The model a GPU line names after its maker or `GPU` (`Nvidia Tesla T4`, `GPU Standard - A10`:
              -- the registry's GPU_NAMING, src/billing/registry/methods.ts)
              -- @gpu name of a
              -- The generative-AI model a line names, as billed (src/billing/registry/generativeAi.ts)
              -- @generative-ai model of a
              -- A managed disk billed per disk-month (`1/Month`, `Units/Month`): its tier's capacity in
              -- GiB as its meter names it (its provider's diskTiers, src/billing/providers/)
              -- @disk tiers of a
                AS billing_disk_gib,
              -- The GB a line's SKU sizes where it names no cores or GPUs (SkuPriceDetails, any FOCUS
              -- producer): its F_DiskSpace in GB, else its F_MemorySize in GiB as GB
              CASE
                WHEN a.billing_usage_text LIKE '%| f_corecount %' OR a.billing_usage_text LIKE '%| f_gpucount %' THEN NULL
                WHEN a.billing_usage_text LIKE '%| f_diskspace %' THEN TRY_CAST(REGEXP_EXTRACT(a.billing_usage_text, '[|] f_diskspace ([0-9.]+)', 1) AS DOUBLE)
                WHEN a.billing_usage_text LIKE '%| f_memorysize %' THEN 1.073741824 * TRY_CAST(REGEXP_EXTRACT(a.billing_usage_text, '[|] f_memorysize ([0-9.]+)', 1) AS DOUBLE)
                ELSE NULL
              END AS billing_sku_gb
            FROM billing_usage a
            LEFT JOIN billing_units unit_q ON unit_q.spelling = LOWER(TRIM(COALESCE(a.billing_usage_unit, '')))
            LEFT JOIN billing_storage_services svc ON svc.provider = COALESCE(a.billing_provider, '') AND svc.spelling = LOWER(TRIM(COALESCE(a.billing_service, '')))
            LEFT JOIN billing_services known ON known.provider = COALESCE(a.billing_provider, '') AND known.spelling = LOWER(TRIM(COALESCE(a.billing_service, '')))
            -- A model of the registry's (GPU_MODELS) anywhere in the line's text, as a word
            LEFT JOIN billing_gpus gpu ON gpu.model = COALESCE(REGEXP_EXTRACT(a.billing_usage_text, '(?:^|[^a-z0-9])(t4)(?:[^a-z0-9]|$)', 1), '') -- @gpu models
          ) b
        ) u
      ) r
    ) s
    LEFT JOIN billing_method_kinds mkind ON mkind.method = COALESCE(s.billing_method, '')
    LEFT JOIN billing_ai_models aim ON aim.provider = COALESCE(s.billing_provider, '') AND aim.spelling = s.billing_ai_model
  ) c
  LEFT JOIN billing_method_keys mkey ON mkey.method = COALESCE(c.billing_method, '') AND mkey.variant = c.billing_method_variant
) m
) r
