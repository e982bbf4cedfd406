-- How each billing line uses hardware (docs/methodology.md, "Billing lines that are not instance
-- hours"): its method, the per-unit coefficient row it reads and how many of those units it bills.
--
-- Reads the view billing_usage (billing_usage_<format>.sql). Adds:
-- - billing_method: instance (an instance hour, billing_line_kind = 'compute'), block-storage,
--   object-storage, file-storage, data-transfer, serverless, per-vcpu, memory, accelerator, by-cost
--   (managed hardware no unit of which is billed: its cost × the bill's kWh per cost); NULL
--   for a line that uses no hardware (taxes, fees, credits, support, requests…).
-- - billing_method_key: the coefficient row of one unit ('method:ssd-gb-hour', …), looked up as an
--   instance type is; NULL for instance lines and lines without a method.
-- - billing_method_factor: units of the key per unit of the quantity: the unit's conversion (a
--   GB-month is 730 GB-hours), the storage's replication, vCPUs per OCPU or ACU, vCPU-hours per
--   GB-second; NULL when the line's unit is not one its method reads.
-- - billing_method_unit: what the units are, as the output says it.
-- The query keeps to what Spark SQL, Trino, BigQuery and DuckDB share.
SELECT
  m.*,
  CASE
    WHEN m.billing_method = 'by-cost' THEN 1.0
    WHEN m.billing_method_key IS NULL OR m.billing_unit_dimension <> m.billing_method_dimension THEN NULL
    ELSE m.billing_unit_factor * COALESCE(m.billing_usage_scale, 1.0) * m.billing_method_multiplier
  END AS billing_method_factor
FROM (
  SELECT
    c.*,
    CASE
      WHEN c.billing_method IN ('block-storage', 'object-storage', 'file-storage')
        THEN CONCAT('method:', c.billing_storage_medium, '-gb-hour')
      WHEN c.billing_method = 'data-transfer' THEN 'method:network-gb'
      WHEN c.billing_method IN ('serverless', 'per-vcpu') THEN 'method:vcpu-hour'
      WHEN c.billing_method = 'memory' THEN 'method:memory-gb-hour'
      WHEN c.billing_method = 'accelerator' THEN 'method:gpu-hour'
      WHEN c.billing_method = 'by-cost' THEN 'method:cost'
      ELSE NULL
    END AS billing_method_key,
    CASE
      WHEN c.billing_method IN ('block-storage', 'object-storage', 'file-storage', 'memory') THEN 'gb-hour'
      WHEN c.billing_method = 'data-transfer' THEN 'gb'
      WHEN c.billing_method = 'serverless' THEN 'gb-second'
      ELSE 'hour'
    END AS billing_method_dimension,
    CASE
      WHEN c.billing_method IN ('block-storage', 'object-storage', 'file-storage') THEN c.billing_replication
      -- Lambda: one vCPU per 1,769 MB allocated (AWS Lambda's documentation)
      WHEN c.billing_method = 'serverless' THEN 1.0 / (3600.0 * 1.769)
      -- An OCPU is one physical core: two vCPUs on x86, one on Ampere A1 (Oracle Cloud, "Compute
      -- Shapes"); an ACU a quarter of a vCPU (CCF)
      WHEN c.billing_method = 'per-vcpu' AND (c.billing_usage_text LIKE '%ocpu%' OR c.billing_unit_text LIKE '%ocpu%')
        THEN CASE
          WHEN c.billing_usage_text LIKE '%- a1 |%' OR c.billing_usage_text LIKE '%.a1.%'
            OR c.billing_usage_text LIKE '%ampere a1%' THEN 1.0
          ELSE 2.0
        END
      WHEN c.billing_method = 'per-vcpu' AND (c.billing_unit_text LIKE 'acu%' OR c.billing_usage_text LIKE '%aurora:serverless%') THEN 0.25
      ELSE 1.0
    END AS billing_method_multiplier,
    CASE
      WHEN c.billing_method IN ('block-storage', 'object-storage', 'file-storage')
        THEN CONCAT('GB-hours ', UPPER(c.billing_storage_medium), ' x', CAST(CAST(c.billing_replication AS INTEGER) AS VARCHAR))
      WHEN c.billing_method = 'data-transfer' THEN CONCAT('GB ', c.billing_transfer_scope)
      WHEN c.billing_method IN ('serverless', 'per-vcpu') THEN 'vCPU-hours'
      WHEN c.billing_method = 'memory' THEN 'GB-hours of memory'
      WHEN c.billing_method = 'accelerator' THEN 'GPU-hours'
      WHEN c.billing_method = 'by-cost' THEN 'cost'
      ELSE NULL
    END AS billing_method_unit
  FROM (
    SELECT
      s.*,
      CASE
        WHEN s.billing_method IS NULL OR s.billing_method = 'instance' THEN NULL
        WHEN s.billing_method IN ('block-storage', 'object-storage', 'file-storage') AND (
          s.billing_usage_text LIKE '%.st1%' OR s.billing_usage_text LIKE '%.sc1%' OR s.billing_usage_text LIKE '%(st1)%'
          OR s.billing_usage_text LIKE '%(sc1)%' OR s.billing_usage_text LIKE '%hdd%' OR s.billing_usage_text LIKE '%magnetic%'
          OR s.billing_usage_text LIKE '%volumeusage |%' OR s.billing_usage_text LIKE '%storage pd capacity%'
          OR s.billing_usage_text LIKE '%standard pd%') THEN 'hdd'
        WHEN s.billing_method = 'object-storage' THEN 'hdd'
        ELSE 'ssd'
      END AS billing_storage_medium,
      -- Replication factors per storage service: Cloud Carbon Footprint's (AWS); Azure's redundancy
      -- options (LRS and ZRS: 3 copies, GRS, RA-GRS, GZRS: 6)
      CASE
        WHEN s.billing_method IS NULL OR s.billing_method NOT IN ('block-storage', 'object-storage', 'file-storage')
          THEN 1.0
        WHEN s.billing_usage_text LIKE '%timedstorage-zia%' OR s.billing_usage_text LIKE '%earlydelete-zia%'
          OR s.billing_usage_text LIKE '%timedstorage-rrs%' THEN 2.0
        WHEN s.billing_usage_text LIKE '%snapshot%' THEN 3.0
        WHEN s.billing_usage_text LIKE '%amazons3%' OR s.billing_usage_text LIKE '%simple storage%' THEN 3.0
        WHEN s.billing_usage_text LIKE '%amazonefs%' OR s.billing_usage_text LIKE '%elastic file%'
          THEN CASE WHEN s.billing_usage_text LIKE '%zia%' OR s.billing_usage_text LIKE '%one zone%' THEN 2.0 ELSE 3.0 END
        WHEN s.billing_usage_text LIKE '%backupusage%' THEN 3.0
        WHEN s.billing_usage_text LIKE '%aurora%' THEN 6.0
        WHEN s.billing_usage_text LIKE '%multi-az%' THEN 2.0
        WHEN s.billing_usage_text LIKE '%dynamodb%' OR s.billing_usage_text LIKE '%docdb%'
          OR s.billing_usage_text LIKE '%documentdb%' THEN 2.0
        WHEN s.billing_usage_text LIKE '%amazonecr%' OR s.billing_usage_text LIKE '%container registry%' THEN 3.0
        WHEN s.billing_usage_text LIKE '%volumeusage%' OR s.billing_usage_text LIKE '%amazonec2%'
          OR s.billing_usage_text LIKE '%elastic compute cloud%' OR s.billing_usage_text LIKE '%elastic block store%' THEN 2.0
        WHEN s.billing_usage_text LIKE '%gzrs%' OR s.billing_usage_text LIKE '%grs%' THEN 6.0
        WHEN s.billing_usage_text LIKE '%lrs%' OR s.billing_usage_text LIKE '%zrs%' THEN 3.0
        ELSE 1.0
      END AS billing_replication,
      CASE
        WHEN s.billing_method IS NULL OR s.billing_method <> 'data-transfer' THEN NULL
        WHEN s.billing_usage_text LIKE '%inter-region%' OR s.billing_usage_text LIKE '%interregion%'
          OR s.billing_usage_text LIKE '%-aws-out-bytes%' OR s.billing_usage_text LIKE '%-aws-in-bytes%'
          OR s.billing_usage_text LIKE '%between regions%' OR s.billing_usage_text LIKE '%inter region%' THEN 'inter-region'
        WHEN s.billing_usage_text LIKE '%regional-bytes%' OR s.billing_usage_text LIKE '%intra%'
          OR s.billing_usage_text LIKE '%same region%' OR s.billing_usage_text LIKE '%inter-az%'
          OR s.billing_usage_text LIKE '%data processed%' OR s.billing_usage_text LIKE '%ingested%' THEN 'intra-region'
        ELSE 'internet'
      END AS billing_transfer_scope
    FROM (
      SELECT
        u.*,
        CASE
          WHEN u.billing_line_kind = 'compute' THEN 'instance'
          WHEN u.billing_charge <> 'usage' THEN NULL
          WHEN u.billing_usage_text LIKE '%gpu%' AND u.billing_unit_dimension = 'hour' THEN 'accelerator'
          WHEN u.billing_usage_text LIKE '%lambda-gb-second%' OR (u.billing_unit_dimension = 'gb-second'
            AND (u.billing_usage_text LIKE '%lambda%' OR u.billing_usage_text LIKE '%functions%')) THEN 'serverless'
          WHEN u.billing_usage_text LIKE '%vcpu%' OR u.billing_usage_text LIKE '%ocpu%'
            OR u.billing_unit_text LIKE '%ocpu%' OR u.billing_unit_text LIKE 'acu%'
            OR u.billing_usage_text LIKE '%aurora:serverless%'
            OR (u.billing_provider = 'gcp' AND u.billing_usage_text LIKE '% core %'
              AND u.billing_unit_dimension = 'hour') THEN 'per-vcpu'
          WHEN u.billing_unit_dimension = 'gb-hour' AND (u.billing_usage_text LIKE '%memory%'
            OR u.billing_usage_text LIKE '%fargate-gb-hours%'
            OR (u.billing_provider = 'gcp' AND u.billing_usage_text LIKE '% ram %')) THEN 'memory'
          WHEN u.billing_usage_text LIKE '%datatransfer%' OR u.billing_usage_text LIKE '%data transfer%'
            OR u.billing_usage_text LIKE '%-bytes%' OR u.billing_usage_text LIKE '%egress%'
            OR u.billing_usage_text LIKE '%bandwidth%'
            OR (u.billing_unit_dimension = 'gb' AND LOWER(COALESCE(u.billing_service_category, '')) LIKE 'network%')
            -- GB a NAT gateway or load balancer processes, logs a service ingests: carried by the network
            OR (u.billing_unit_dimension = 'gb' AND (u.billing_usage_text LIKE '%data processed%'
              OR u.billing_usage_text LIKE '%ingested%'))
            THEN 'data-transfer'
          -- Managed hardware billed by the hour or capacity unit, no published figure per unit: a load
          -- balancer, a NAT, VPN, transit or application gateway, a firewall, a Kubernetes control
          -- plane (its nodes are billed as instances)
          WHEN u.billing_usage_text LIKE '%nat gateway%' OR u.billing_usage_text LIKE '%natgateway%'
            OR u.billing_usage_text LIKE '%load balancer%' OR u.billing_usage_text LIKE '%loadbalancer%'
            OR u.billing_usage_text LIKE '%load balancing%'
            OR (u.billing_unit_dimension = 'hour' AND (u.billing_usage_text LIKE '%transit gateway%'
              OR u.billing_usage_text LIKE '%vpn gateway%' OR u.billing_usage_text LIKE '%vpn connection%'
              OR u.billing_usage_text LIKE '%application gateway%' OR u.billing_usage_text LIKE '%firewall%'))
            OR (u.billing_unit_dimension = 'hour' AND (u.billing_usage_text LIKE '%eks cluster%'
              OR u.billing_usage_text LIKE '%amazoneks-hours%'
              OR (u.billing_usage_text LIKE '%kubernetes%' AND (u.billing_usage_text LIKE '%uptime sla%'
                OR u.billing_usage_text LIKE '%cluster management%' OR u.billing_usage_text LIKE '%kubernetes clusters%'
                OR u.billing_usage_text LIKE '%control plane%'))))
            THEN 'by-cost'
          WHEN u.billing_unit_dimension <> 'gb-hour' THEN NULL
          WHEN u.billing_usage_text LIKE '%snapshot%' OR u.billing_usage_text LIKE '%backup%' THEN 'object-storage'
          WHEN u.billing_usage_text LIKE '%volumeusage%' OR u.billing_usage_text LIKE '%managed disk%'
            OR u.billing_usage_text LIKE '%pd capacity%' OR u.billing_usage_text LIKE '%persistent disk%'
            OR u.billing_usage_text LIKE '%hyperdisk%' OR u.billing_usage_text LIKE '%provisioned storage%'
            OR u.billing_usage_text LIKE '%rds:%' OR u.billing_usage_text LIKE '%aurora:%'
            OR u.billing_usage_text LIKE '%dynamodb%' OR u.billing_usage_text LIKE '%database storage%'
            OR u.billing_usage_text LIKE '%block storage%' OR u.billing_usage_text LIKE '%volume%'
            THEN 'block-storage'
          WHEN u.billing_usage_text LIKE '%amazonefs%' OR u.billing_usage_text LIKE '%elastic file%'
            OR u.billing_usage_text LIKE '%| files%' OR u.billing_usage_text LIKE '%filestore%'
            OR u.billing_usage_text LIKE '%fsx%' OR u.billing_usage_text LIKE '%file storage%' THEN 'file-storage'
          WHEN u.billing_usage_text LIKE '%storage%' OR u.billing_usage_text LIKE '%blob%'
            OR u.billing_usage_text LIKE '%glacier%' OR u.billing_usage_text LIKE '%object%' THEN 'object-storage'
          ELSE NULL
        END AS billing_method
      FROM (
        SELECT
          b.*,
          CASE
            WHEN b.billing_disk_gib IS NOT NULL THEN 'gb-hour'
            -- Units a line's description re-reads: AWS Lambda's "Total Compute" in `Seconds` is
            -- GB-seconds, Fargate's "Memory" in `Hours` GB-hours (their prices are per GB-second and
            -- GB-hour); data transfer in `GB Months` (Oracle) is GB transferred in the month
            WHEN b.billing_unit_key IN ('seconds', 'second') AND b.billing_usage_text LIKE '%lambda%total compute%' THEN 'gb-second'
            WHEN b.billing_unit_key IN ('hours', 'hrs', 'hour') AND b.billing_usage_text LIKE '%fargate%memory%' THEN 'gb-hour'
            WHEN b.billing_unit_key IN ('gbmonths', 'gbmonth', 'gbmo') AND b.billing_usage_text LIKE '%data transfer%' THEN 'gb'
            WHEN b.billing_unit_key IN ('gbmo', 'gbmonth', 'gbmonths', '1gbmonth', 'gbmth', 'gibmo', 'gibmonth',
              'gibibytemonth', 'gibibytemonths', '1gibmonth', '100gbmonth', 'tbmo', 'tbmonth', '1tbmonth', 'gbhours',
              'gbhour', 'gbhrs', 'gbhr', '1gbhour', 'gibhours', 'gibhour', 'gibibytehour', 'gibibytehours',
              'bytehrs', 'gigabyteperhour', 'gigabytehours', 'gbperhour') THEN 'gb-hour'
            WHEN b.billing_unit_key IN ('gb', '1gb', '10gb', '100gb', 'gigabyte', 'gigabytes', 'gib', 'gibibyte',
              'gibibytes', 'tb', '1tb', 'terabyte', 'terabytes') THEN 'gb'
            WHEN b.billing_unit_key IN ('lambdagbsecond', 'lambdagbseconds', 'gbseconds', 'gbsecond', 'gbsec',
              '1gbsecond', 'gibibytesecond', 'gibibyteseconds') THEN 'gb-second'
            WHEN b.billing_unit_key IN ('hrs', 'hr', 'h', 'hour', 'hours', '1hour', '10hours', '100hours',
              'vcpuhours', 'vcpuhour', 'vcpuhrs', 'vcpuhr', 'ocpuhours', 'ocpuhour', 'ocpuperhour', 'acuhr',
              'acuhrs', 'acuhour', 'acuhours', 'gpuhours', 'gpuhour', 'corehours', 'seconds', 'second',
              'minutes', 'minute') THEN 'hour'
            ELSE 'unknown'
          END AS billing_unit_dimension,
          CASE
            WHEN b.billing_disk_gib IS NOT NULL THEN 730.0 * 1.073741824 * b.billing_disk_gib
            WHEN b.billing_unit_key IN ('seconds', 'second') AND b.billing_usage_text LIKE '%lambda%total compute%' THEN 1.0
            WHEN b.billing_unit_key IN ('gbmonths', 'gbmonth', 'gbmo') AND b.billing_usage_text LIKE '%data transfer%' THEN 1.0
            WHEN b.billing_unit_key IN ('gbmo', 'gbmonth', 'gbmonths', '1gbmonth', 'gbmth') THEN 730.0
            WHEN b.billing_unit_key IN ('gibmo', 'gibmonth', 'gibibytemonth', 'gibibytemonths', '1gibmonth')
              THEN 730.0 * 1.073741824
            WHEN b.billing_unit_key = '100gbmonth' THEN 73000.0
            WHEN b.billing_unit_key IN ('tbmo', 'tbmonth', '1tbmonth') THEN 730000.0
            WHEN b.billing_unit_key IN ('gibhours', 'gibhour', 'gibibytehour', 'gibibytehours', 'gib', 'gibibyte',
              'gibibytes', 'gibibytesecond', 'gibibyteseconds') THEN 1.073741824
            WHEN b.billing_unit_key IN ('10gb', '10hours') THEN 10.0
            WHEN b.billing_unit_key IN ('100gb', '100hours') THEN 100.0
            WHEN b.billing_unit_key IN ('tb', '1tb', 'terabyte', 'terabytes') THEN 1000.0
            WHEN b.billing_unit_key IN ('seconds', 'second') THEN 1.0 / 3600
            WHEN b.billing_unit_key IN ('minutes', 'minute') THEN 1.0 / 60
            ELSE 1.0
          END AS billing_unit_factor
        FROM (
          SELECT
            a.*,
            LOWER(COALESCE(a.billing_usage_unit, '')) AS billing_unit_text,
            LOWER(REPLACE(REPLACE(REPLACE(REPLACE(TRIM(COALESCE(a.billing_usage_unit, '')), ' ', ''), '-', ''), '/', ''), '_', ''))
              AS billing_unit_key,
            -- A managed disk billed per disk-month (`1/Month`, `Units/Month`): its tier's capacity in
            -- GiB (P10, E10, S10: 128 GiB; Azure's managed disk sizes), as its meter names it
            CASE
              WHEN LOWER(REPLACE(TRIM(COALESCE(a.billing_usage_unit, '')), ' ', '')) NOT IN ('1/month', 'units/month', 'unit/month')
                OR a.billing_usage_text NOT LIKE '%disk%' THEN NULL
              ELSE CASE REGEXP_EXTRACT(a.billing_usage_text, '(?:^|[ |-])[pes]([0-9]+) ', 1)
                WHEN '1' THEN 4.0 WHEN '2' THEN 8.0 WHEN '3' THEN 16.0 WHEN '4' THEN 32.0 WHEN '6' THEN 64.0
                WHEN '10' THEN 128.0 WHEN '15' THEN 256.0 WHEN '20' THEN 512.0 WHEN '30' THEN 1024.0
                WHEN '40' THEN 2048.0 WHEN '50' THEN 4096.0 WHEN '60' THEN 8192.0 WHEN '70' THEN 16384.0
                WHEN '80' THEN 32767.0
                ELSE NULL
              END
            END AS billing_disk_gib
          FROM billing_usage a
        ) b
      ) u
    ) s
  ) c
) m
