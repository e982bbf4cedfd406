/*
 * The providers a bill is read for, each one module of this folder (src/billing/providers/provider.ts
 * says what each holds): a new provider is its module and its place here. Everything keyed by
 * provider — the regions and places, the size grammars, the FOCUS export's provider names, the
 * PUE and a vCPU's watts, the registry's storage, services, catalogue, control planes and
 * generative-AI names — is read from this list.
 */

import { firstSql, focusKindSql, namedTypeColumn, namedTypeSql } from "../rules/focusLines.js";
import { AWS } from "./aws.js";
import { AZURE } from "./azure.js";
import { GCP } from "./gcp.js";
import { ORACLE } from "./oracle.js";
import type { BillingProvider } from "./provider.js";

export type { BillingProvider } from "./provider.js";

/** Every provider, in the order the registry's tables list their rows. */
export const PROVIDERS = [AWS, AZURE, GCP, ORACLE] as const satisfies readonly BillingProvider[];

/** The providers a bill is read for, as the formats' queries name them: the ids of PROVIDERS. */
export type ProviderId = (typeof PROVIDERS)[number]["id"];

/**
 * The provider whose reference instance stands for another's where the edition lacks that one's
 * (a provider with none, or one the edition's instances do not list): AWS, whose instances every
 * edition lists (src/data/types.ts).
 */
export const FALLBACK_REFERENCE: BillingProvider = AWS;

const BY_ID = new Map<string, BillingProvider>(PROVIDERS.map((provider) => [provider.id, provider]));

/** A provider by its id (`aws`), or null for one the bill does not name (an unknown provider: ''). */
export function providerOf(id: string | null): BillingProvider | null {
  return BY_ID.get(id ?? "") ?? null;
}

/** The WHEN lines of a CASE giving a FOCUS line's provider from its name, lower case (`-- @focus providers of <expression>`). */
export function focusProvidersSql(
  indent: string,
  name: string,
  providers: readonly BillingProvider[] = PROVIDERS,
): string {
  return providers
    .map(
      (provider) =>
        `${indent}WHEN ${name} IN (${provider.focusNames.map((spelling) => `'${spelling}'`).join(", ")}) THEN '${provider.id}'`,
    )
    .join("\n");
}

/** Whether an id is a provider's (a ProviderId). */
export const isProvider = (id: string): id is ProviderId => BY_ID.has(id);

/** The providers whose FOCUS lines rules of their own read (BillingProvider.focusLines). */
const withFocusLines = (providers: readonly BillingProvider[]) =>
  providers.flatMap((provider) =>
    provider.focusLines === null ? [] : [{ provider, rules: provider.focusLines }],
  );

/**
 * The condition that a FOCUS line's provider (`column`) reads its lines by rules of its own
 * (BillingProvider.focusLines), in the SQL every engine shares: `<column> IN ('aws', …)`, false
 * where none does. A line of any other provider, named or not, is read by the standard's columns.
 */
export function ownFocusRulesSql(column: string, providers: readonly BillingProvider[] = PROVIDERS): string {
  const ids = withFocusLines(providers).map(({ provider }) => `'${provider.id}'`);
  return ids.length === 0 ? "1 = 0" : `${column} IN (${ids.join(", ")})`;
}

/**
 * The WHENs of the CASE giving a FOCUS line's kind over `alias` (`-- @focus line kinds of <alias>`):
 * each provider's kind rules, in its order, on its lines alone (`feeNames`: the fee services'
 * names, lower case, that a rule's notFee reads).
 */
export function focusLineKindsSql(
  indent: string,
  alias: string,
  feeNames: readonly string[],
  providers: readonly BillingProvider[] = PROVIDERS,
): string {
  return withFocusLines(providers)
    .flatMap(({ provider, rules }) =>
      rules.kinds.map((rule) => focusKindSql(rule, { alias, provider: provider.id, feeNames }, indent)),
    )
    .join("\n");
}

/** The WHENs of the CASE naming a FOCUS line's instance type over `alias` (`-- @focus instance types of <alias>`). */
export function focusInstanceTypesSql(
  indent: string,
  alias: string,
  providers: readonly BillingProvider[] = PROVIDERS,
): string {
  return withFocusLines(providers)
    .map(
      ({ provider, rules }) =>
        `${indent}WHEN ${alias}.billing_provider = '${provider.id}' THEN ${firstSql(rules.instanceType, { alias, provider: provider.id, feeNames: [] })}`,
    )
    .join("\n");
}

/**
 * The columns of the instance types each provider's FOCUS texts name, over `alias`, each on its
 * provider's lines alone and followed by a comma (`-- @focus named types of <alias>`, before the
 * select list's last column).
 */
export function focusNamedTypesSql(
  indent: string,
  alias: string,
  providers: readonly BillingProvider[] = PROVIDERS,
): string {
  return withFocusLines(providers)
    .flatMap(({ provider, rules }) =>
      rules.types.map((type) => {
        const value = namedTypeSql(type, { alias, provider: provider.id, feeNames: [] });
        return `${indent}CASE WHEN ${alias}.billing_provider = '${provider.id}' THEN ${value} END AS ${namedTypeColumn(provider.id, type.name)},`;
      }),
    )
    .join("\n");
}
