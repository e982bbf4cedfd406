/*
 * The coefficient rows of billing lines that are not instance hours (sql/classify/billing_methods.sql): for
 * each method's key, provider and place, the embedded and use impacts of ONE unit (a GB-hour of
 * SSD, a GB of data transfer, a vCPU-hour…), per criterion with min and max, in the shape of an
 * instance type's per-hour row, so that a line reads its key's row as an instance line reads its
 * type's. docs/methodology.md, "Billing lines that are not instance hours", has every figure and
 * its source.
 *
 * Use: energy per unit (Cloud Carbon Footprint's coefficients) × the provider's PUE × the place's
 * electricity factor of the edition (a known location: its value; the default one: its value with
 * the global bounds, §5.2). Embedded: the engine's own components and instances, allocated per hour
 * over their lifetime (§8.3), per GB or per vCPU.
 */

import { Evaluation, electricityKey, type RawImpact, type RequestedCriterion } from "../../engine/index.js";
import {
  type CoefficientPlace,
  type CoefficientRow,
  type CoefficientTable,
  instanceCoefficientRows,
} from "../../service/coefficients.js";
import { prepareComponent } from "../../service/components.js";
import { DomainError } from "../../service/errors.js";
import type { EditionContext } from "../../service/open.js";
import { billingCoefficientPlaces } from "../places.js";
import { FALLBACK_REFERENCE, PROVIDERS, providerOf } from "../providers/index.js";
import { type EmbeddedRule, METHOD_KEYS, type MethodKey, type Range } from "../registry/methods.js";

/** The keys whose rows exist apart from a bill (every key but the cost's), with their energy per unit. */
const UNIT_KEYS: readonly (MethodKey & { readonly energy: (provider: string) => Range })[] =
  METHOD_KEYS.flatMap((key) => (typeof key.energy === "function" ? [{ ...key, energy: key.energy }] : []));

/** The names of those keys, in the registry's order: each provider billing a method matches them all. */
export const UNIT_KEY_NAMES: readonly string[] = UNIT_KEYS.map((key) => key.key);

/**
 * The key of lines estimated by their cost (method `by-cost`: managed load balancers, NAT gateways,
 * Kubernetes control planes): one unit of the bill's currency, at the kWh per unit of cost of the
 * provider's instance lines in the same bill (Cloud Carbon Footprint, "Handling Unknown Usage
 * Types"). Its rows exist only for a bill (costRows), never in the exported table alone.
 */
export const COST_KEY = (
  METHOD_KEYS.find((key) => typeof key.energy !== "function" && "perCostOfTheBill" in key.energy) as MethodKey
).key;

const exactly = (value: number): Range => ({ value, min: value, max: value });

/** Another provider's power usage effectiveness (one that publishes none): the highest of AWS's, Google's and Microsoft's. */
const OTHER_PUE = 1.185;

/** A provider's PUE (src/billing/providers/: CCF's figures). */
export function pueOf(provider: string): number {
  return providerOf(provider)?.pue ?? OTHER_PUE;
}

type Embedded = readonly (RawImpact | null)[];

const scaled = (impact: RawImpact | null, divisor: number): RawImpact | null =>
  impact === null
    ? null
    : {
        value: impact.value / divisor,
        min: impact.min / divisor,
        max: impact.max / divisor,
        warnings: impact.warnings,
      };

/** One hour of a component (its default archetype and `input`), per criterion, ÷ `divisor`. */
async function componentPerHour(
  context: EditionContext,
  kind: "ssd" | "hdd" | "gpu",
  input: Readonly<Record<string, unknown>>,
  divisor: number,
  criteria: readonly RequestedCriterion[],
): Promise<Embedded> {
  // A component the edition lacks (GPUs in 1.2.4) has no embedded figure.
  const prepared = await prepareComponent(context, kind, null, input).catch((error: unknown) => {
    if (error instanceof DomainError && error.kind === "NOT_FOUND") return null;
    throw error;
  });
  if (prepared === null) return criteria.map(() => null);
  const evaluation = new Evaluation(prepared.build(), { duration: 1, allocation: "LINEAR", criteria });
  return criteria.map((criterion) => scaled(evaluation.raw(criterion, "embedded"), divisor));
}

/** One vCPU-hour of the provider's reference instance (FALLBACK_REFERENCE's where the edition lacks it). */
async function vcpuPerHour(
  context: EditionContext,
  provider: string,
  criteria: readonly RequestedCriterion[],
): Promise<Embedded> {
  const { cloudInstances } = context.service.data;
  const own = providerOf(provider)?.referenceInstance ?? null;
  const [host, id] =
    own !== null && cloudInstances.get(provider)?.byId.has(own)
      ? [provider, own]
      : [FALLBACK_REFERENCE.id, FALLBACK_REFERENCE.referenceInstance ?? ""];
  const vcpus = Number(cloudInstances.get(host)?.byId.get(id)?.cells.vcpu?.default);
  if (!(vcpus > 0)) return criteria.map(() => null);
  const [row] = await instanceCoefficientRows(context, host, id, null, criteria, [
    { region: null, usageLocation: null },
  ]);
  return row.perHour.map((phases) => scaled(phases.embedded, vcpus));
}

/** Embedded impacts of one unit of a key, per criterion, as its rule says (src/billing/registry/methods.ts). */
async function embeddedPerUnit(
  context: EditionContext,
  rule: EmbeddedRule,
  provider: string,
  criteria: readonly RequestedCriterion[],
): Promise<Embedded> {
  if ("component" in rule) return componentPerHour(context, rule.component, rule.input, rule.per, criteria);
  if ("vcpus" in rule) {
    const vcpu = await vcpuPerHour(context, provider, criteria);
    return rule.vcpus === 1 ? vcpu : vcpu.map((impact) => scaled(impact, 1 / rule.vcpus));
  }
  if ("none" in rule) return criteria.map(() => ({ value: 0, min: 0, max: 0, warnings: [] }));
  throw new Error(`billing: an embedded rule of no known kind: ${JSON.stringify(rule)}`);
}

/** A place's electricity factor of a criterion: a known location's value, else the default's with its bounds. */
function factorAt(
  context: EditionContext,
  place: CoefficientPlace,
  criterion: RequestedCriterion,
): Range | null {
  const { electricity, config } = context.service.data;
  const key = electricityKey(criterion.info.name, context.service.edition.rules.electricityKeys);
  const known = place.usageLocation !== null && electricity.countryCodes.has(place.usageLocation);
  const location = known ? (place.usageLocation as string) : config.defaultLocation;
  const entry = electricity.byLocation.get(location)?.factors.get(key);
  if (entry === undefined) return null;
  if (known) return exactly(entry.value);
  const bounds = electricity.bounds.get(key);
  // A zero global bound: missing until 2.5.0, a bound from it on (docs/methodology.md §20.5.3).
  const zeroMissing = context.service.edition.rules.zeroGlobalBound === "missing";
  if (bounds === undefined || (zeroMissing && (bounds.min === 0 || bounds.max === 0))) return null;
  return { value: entry.value, min: bounds.min, max: bounds.max };
}

/** A method row with the energy behind its use impacts (kWh per unit, PUE included). */
export interface MethodRow {
  readonly row: CoefficientRow;
  readonly energyKwh: number;
}

/** A key's rows at each place: `energy` kWh per unit (PUE included) × the place's factor, and `embedded`. */
function rowsAt(
  context: EditionContext,
  provider: string,
  key: string,
  energy: Range,
  embedded: Embedded,
  places: readonly CoefficientPlace[],
  criteria: readonly RequestedCriterion[],
): MethodRow[] {
  return places.map((place) => ({
    energyKwh: energy.value,
    row: {
      provider,
      instanceType: key,
      ...place,
      perHour: criteria.map((criterion, index) => {
        const factor = factorAt(context, place, criterion);
        const use =
          factor === null
            ? null
            : {
                value: energy.value * factor.value,
                min: energy.min * factor.min,
                max: energy.max * factor.max,
                warnings: [],
              };
        return { embedded: embedded[index], use };
      }),
    },
  }));
}

/** Every key's row for a provider at each of its places. */
export async function methodRows(
  context: EditionContext,
  provider: string,
  places: readonly CoefficientPlace[],
  criteria: readonly RequestedCriterion[],
): Promise<MethodRow[]> {
  const pue = pueOf(provider);
  const rows: MethodRow[] = [];
  for (const { key, energy: energyOf, embedded: rule } of UNIT_KEYS) {
    const energy = energyOf(provider);
    const withPue = { value: energy.value * pue, min: energy.min * pue, max: energy.max * pue };
    const embedded = await embeddedPerUnit(context, rule, provider, criteria);
    rows.push(...rowsAt(context, provider, key, withPue, embedded, places, criteria));
  }
  return rows;
}

/**
 * The cost key's rows for a provider at each of its places: `kwhPerCost` (the energy of its instance
 * lines per unit of their cost, PUE included) of use; no embedded figure (CCF gives none).
 */
export function costRows(
  context: EditionContext,
  provider: string,
  kwhPerCost: number,
  places: readonly CoefficientPlace[],
  criteria: readonly RequestedCriterion[],
): MethodRow[] {
  const embedded = criteria.map(() => ({ value: 0, min: 0, max: 0, warnings: [] }));
  return rowsAt(context, provider, COST_KEY, exactly(kwhPerCost), embedded, places, criteria);
}

/**
 * The energy behind an instance row's use impacts (kWh per hour): its use ÷ its place's factor, from
 * the first criterion that has both; null when none has.
 */
export function instanceEnergy(
  context: EditionContext,
  row: CoefficientRow,
  criteria: readonly RequestedCriterion[],
): number | null {
  for (const [index, criterion] of criteria.entries()) {
    const use = row.perHour[index].use;
    const factor = factorAt(context, row, criterion);
    if (use !== null && factor !== null && factor.value !== 0) return use.value / factor.value;
  }
  return null;
}

/** The providers a bill names (src/billing/providers/), and '' for one it does not. */
const BILLING_PROVIDERS = [...PROVIDERS.map((provider) => provider.id), ""];

/**
 * A coefficient table followed by the methods' rows of `provider` (null: of every provider a bill
 * names) at each of its places: the rows a billing run appends to it (`coefficients --methods`).
 */
export function withMethodRows(
  context: EditionContext,
  table: CoefficientTable,
  provider: string | null,
): CoefficientTable {
  const providers = provider === null ? BILLING_PROVIDERS : [provider];
  async function* rows(): AsyncGenerator<CoefficientRow> {
    yield* table.rows;
    for (const name of providers) {
      for (const method of await methodRows(
        context,
        name,
        billingCoefficientPlaces(context, name),
        table.criteria,
      )) {
        yield method.row;
      }
    }
  }
  const added = providers.reduce(
    (sum, name) => sum + UNIT_KEYS.length * billingCoefficientPlaces(context, name).length,
    0,
  );
  return { ...table, rows: rows(), size: table.size + added };
}
