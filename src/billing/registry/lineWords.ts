/*
 * What a line's words say of the units its method counts, as typed data the generator writes into
 * sql/classify/billing_methods.sql (each at its marker, src/billing/queries.ts): the vCPUs a unit of
 * compute that is not a vCPU stands for (an OCPU, an ACU, an RPU, a vCore), a unit its description
 * re-reads (Lambda's seconds of GB), and how far a data transfer carries. The skeleton names none of
 * these words; a line's own words come first, as its method's rules read them
 * (src/billing/rules/conditions.ts).
 */

import {
  any,
  type Condition,
  conditionLines,
  conditionSql,
  has,
  resource,
  sqlLiteral,
  whenSql,
} from "../rules/conditions.js";

/** A unit of compute billed beside the vCPU, and the vCPUs one stands for. */
export interface VcpuUnit {
  /** What names a line's unit as this one: its resource (src/billing/registry/units.ts) or its text's words. */
  readonly match: Condition;
  /** vCPUs a unit stands for. */
  readonly vcpus: number;
  /** Lines of it whose words say otherwise (the first that holds), each with its vCPUs. */
  readonly except: readonly { readonly match: Condition; readonly vcpus: number }[];
  /** A regular expression over the line's text whose first group counts its units (`2 vcore`); null for none. */
  readonly counted: string | null;
  readonly source: string;
}

/**
 * The units of compute the per-vCPU method reads as vCPUs, the first that names a line's unit
 * giving its vCPUs (after a SKU's own cores, SkuPriceDetails' F_CoreCount, which the query reads
 * first).
 */
export const VCPU_UNITS: readonly VcpuUnit[] = [
  {
    match: any(resource("ocpu"), has("ocpu")),
    vcpus: 2,
    except: [{ match: has("- a1 |", ".a1.", "ampere a1"), vcpus: 1 }],
    counted: null,
    source: "Oracle Cloud, Compute Shapes: an OCPU is one physical core, two vCPUs on x86, one on Ampere A1",
  },
  {
    match: any(resource("acu"), has("aurora:serverless")),
    vcpus: 0.25,
    except: [],
    counted: null,
    source:
      "Amazon Aurora User Guide, Aurora Serverless v2: an ACU is about 2 GiB with corresponding CPU, a quarter of a vCPU at db.r's 8 GiB a vCPU (CCF's figure alike)",
  },
  {
    match: any(resource("rpu"), has("redshift:serverlessusage")),
    vcpus: 2,
    except: [],
    counted: null,
    source:
      "Amazon Redshift Management Guide, Compute capacity for Amazon Redshift Serverless: an RPU is 16 GB, two vCPUs at RA3's 8 GiB a vCPU",
  },
  {
    // A managed database's vCores its meter names (Azure's `2 vCore`, billed per hour of the server);
    // a meter of `vCore` alone bills vCore-hours
    match: has("vcore"),
    vcpus: 1,
    except: [],
    counted: "([0-9]+) vcore",
    source: "Azure SQL and Azure Database meters: `2 vCore` an hour of a server of 2 vCores",
  },
];

/** A number as the SQL writes a multiplier (`2.0`, `0.25`). */
const figure = (value: number): string => (Number.isInteger(value) ? value.toFixed(1) : String(value));

/** The WHENs of the per-vCPU multiplier's CASE over `alias` (`-- @vcpu units of <alias>`): each unit's vCPUs. */
export function vcpuUnitsSql(indent: string, alias: string, units: readonly VcpuUnit[] = VCPU_UNITS): string {
  return units
    .map((entry) => {
      const when = `${indent}WHEN ${conditionSql(entry.match, alias)} THEN `;
      if (entry.counted !== null)
        return `${when}COALESCE(TRY_CAST(NULLIF(\n${indent}  REGEXP_EXTRACT(${alias}.billing_usage_text, ${sqlLiteral(entry.counted)}, 1), '') AS DOUBLE), ${figure(entry.vcpus)})`;
      if (entry.except.length === 0) return `${when}${figure(entry.vcpus)}`;
      return [
        `${when}CASE`,
        ...entry.except.map(
          (other) => `${indent}  WHEN ${conditionSql(other.match, alias)} THEN ${figure(other.vcpus)}`,
        ),
        `${indent}  ELSE ${figure(entry.vcpus)}`,
        `${indent}END`,
      ].join("\n");
    })
    .join("\n");
}

/** How far a data transfer carries, as the method's unit says it (`GB inter-region`). */
export type TransferScope = "inter-region" | "intra-region" | "internet";

/** The scope a data transfer's words name: the first entry that matches, else OTHER_TRANSFER_SCOPE. */
export const TRANSFER_SCOPES: readonly { readonly scope: TransferScope; readonly match: Condition }[] = [
  // Between regions: AWS's inter-region usage types (`USE1-USW2-AWS-Out-Bytes`), the others' meters
  {
    scope: "inter-region",
    match: has(
      "inter-region",
      "interregion",
      "-aws-out-bytes",
      "-aws-in-bytes",
      "between regions",
      "inter region",
    ),
  },
  // Within a region: between its zones, a gateway's or a log service's data processed or ingested,
  // a virtual network's peering
  {
    scope: "intra-region",
    match: has(
      "regional-bytes",
      "intra",
      "same region",
      "inter-az",
      "data processed",
      "ingested",
      "ingestion",
      "log volume",
      "virtual network",
    ),
  },
];

/** A data transfer no words of TRANSFER_SCOPES name: out to the internet. */
export const OTHER_TRANSFER_SCOPE: TransferScope = "internet";

/** The WHENs of the transfer scope's CASE over `alias` (`-- @transfer scopes of <alias>`), then its ELSE. */
export function transferScopesSql(indent: string, alias: string): string {
  return [
    ...TRANSFER_SCOPES.map(
      ({ scope, match }) => `${whenSql(conditionLines(match, alias), indent)}\n${indent}  THEN '${scope}'`,
    ),
    `${indent}ELSE '${OTHER_TRANSFER_SCOPE}'`,
  ].join("\n");
}

/**
 * A unit a line's description re-reads as another dimension (src/billing/registry/units.ts): the
 * dimension its unit reads (of no resource, for `hour`), the words that re-read it, the dimension
 * it is read as, and its factor (the unit's own, or its GB).
 */
export interface UnitReread {
  readonly read: "hour" | "gb-hour";
  readonly match: Condition;
  readonly as: "gb-hour" | "gb";
  readonly factor: "unit" | "gigabytes";
  readonly why: string;
}

export const UNIT_REREADS: readonly UnitReread[] = [
  {
    read: "hour",
    match: has("lambda%total compute", "fargate%memory"),
    as: "gb-hour",
    factor: "unit",
    why: "AWS Lambda's Total Compute in Seconds is GB-seconds, Fargate's Memory in Hours GB-hours (their prices are per GB-second and GB-hour)",
  },
  {
    read: "gb-hour",
    match: has("data transfer"),
    as: "gb",
    factor: "gigabytes",
    why: "data transfer in GB Months (Oracle) is GB transferred in the month",
  },
];

/** A re-read's condition over `alias`: its unit's dimension (an hour of no resource), then its words. */
function rereadSql(reread: UnitReread, alias: string): string {
  const unitRead =
    reread.read === "hour"
      ? `${alias}.billing_unit_dimension_read = 'hour' AND ${alias}.billing_unit_resource_read IS NULL`
      : `${alias}.billing_unit_dimension_read = '${reread.read}'`;
  return `${unitRead}\n  AND ${conditionSql(reread.match, alias, true)}`;
}

/**
 * The WHENs of the unit dimension's CASE (`-- @unit rereads of <alias>`: each re-read's dimension)
 * or of its factor's (`-- @unit reread factors of <alias>`: a re-read's GB, where its factor is not
 * its unit's).
 */
export function unitRereadsSql(indent: string, alias: string, give: "dimensions" | "factors"): string {
  return UNIT_REREADS.filter((reread) => give === "dimensions" || reread.factor === "gigabytes")
    .map((reread) => {
      const then = give === "dimensions" ? `'${reread.as}'` : `${alias}.billing_unit_gigabytes`;
      return `${whenSql(rereadSql(reread, alias).split("\n"), indent)}\n${indent}  THEN ${then}`;
    })
    .join("\n");
}
