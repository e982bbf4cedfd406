import type { Config } from "../config/serviceConfig.js";
import {
  Evaluation,
  electricityKey,
  type RawImpact,
  type RequestedCriterion,
  resolveCriterion,
} from "../engine/index.js";
import { type Bound, impactColumn, PHASES, type Phase } from "../output/columns.js";
import { prepareCloudInstance } from "./cloud.js";
import { distinctCriteria } from "./criteria.js";
import { DomainError } from "./errors.js";
import { type CommandEdition, type EditionContext, openEdition } from "./open.js";

/**
 * The coefficient table of cloud instances: for each instance type of a provider and each place it
 * can run (a provider region where the edition has them, else a usage location; and the edition's
 * default location), its embedded and use impacts for one hour of use, per criterion, with min and
 * max — exactly what `POST /v1/cloud/instance` computes for `duration` = 1 before rounding.
 *
 * Over `h` hours an instance's impacts are these × h (docs/billing.md): embedded impacts are
 * allocated linearly over the lifetime (duration / lifetime) and use impacts are power × time, so a
 * billing export is evaluated by a join on this table instead of one evaluation per line.
 */

/** What a coefficient table is asked for. */
interface CoefficientRequest {
  /** One provider's instance types; every provider of the edition when absent. */
  readonly provider?: string | null;
  /** Constant load in % (`usage.time_workload`); the archetype's default when absent. */
  readonly load?: number | null;
  /** Criteria (names or keys); the edition's default criteria when absent. */
  readonly criteria?: readonly string[] | null;
}

/** Where an instance runs: a provider region (editions with regions) or a usage location. */
export interface CoefficientPlace {
  /** The provider's region id, e.g. eu-west-3; null for a usage location or the default. */
  readonly region: string | null;
  /** Country code (NATO CodSP3) of the region or the location; null for the edition's default. */
  readonly usageLocation: string | null;
}

/** One phase per hour: null where the methodology has no value (not implemented). */
interface PhasesPerHour {
  readonly embedded: RawImpact | null;
  readonly use: RawImpact | null;
}

export interface CoefficientRow extends CoefficientPlace {
  readonly provider: string;
  readonly instanceType: string;
  /** Per criterion of the table, in its order. */
  readonly perHour: readonly PhasesPerHour[];
}

/** The table's shape: its criteria and load, known before its first row. */
export interface CoefficientTable {
  readonly edition: string;
  readonly load: number | null;
  readonly criteria: readonly RequestedCriterion[];
  readonly rows: AsyncIterable<CoefficientRow>;
  /** Rows the table will hold (instance types × places). */
  readonly size: number;
}

/** Rows computed between two turns of the event loop: a large table never holds it for long. */
const ROWS_PER_TURN = 256;

/** The criteria of a table, each once, checked against the edition's. */
export function coefficientCriteria(
  context: EditionContext,
  criteria: readonly string[] | null | undefined,
): RequestedCriterion[] {
  const { rules } = context.engine;
  const names = criteria && criteria.length > 0 ? criteria : rules.defaultCriteria;
  return distinctCriteria(names).map((name) => {
    // Resolved in the edition's own table: its units may differ (2.5.0's `fe` in kWh).
    const resolved = resolveCriterion(name, rules.criteria);
    if (!resolved?.computed) {
      throw new DomainError("BAD_USER_INPUT", `unknown criterion ${name} in edition ${rules.version}`, [
        "criteria",
      ]);
    }
    return resolved;
  });
}

/**
 * The places of a provider: its regions where the edition has regions (each with its country),
 * else every usage location of the electricity table; first the edition's default (no location).
 */
export function coefficientPlaces(context: EditionContext, provider: string): CoefficientPlace[] {
  const { data } = context.service;
  const places: CoefficientPlace[] = [{ region: null, usageLocation: null }];
  if (data.cloudRegions !== null) {
    for (const row of data.cloudRegions) {
      if (row.provider === provider) places.push({ region: row.region, usageLocation: row.usageLocation });
    }
  } else {
    for (const code of data.electricity.byLocation.keys()) places.push({ region: null, usageLocation: code });
  }
  return places;
}

/** Rows of a provider's table before any is computed: instance types × places (one instance type: its places). */
export function coefficientRowCount(
  context: EditionContext,
  provider: string,
  instanceType: string | null | undefined,
): number {
  const places = coefficientPlaces(context, providersOf(context, provider)[0]).length;
  if (instanceType != null) return places;
  return (context.service.data.cloudInstances.get(provider)?.ids.length ?? 0) * places;
}

/** The providers a table covers (one, checked, or all of the edition's). */
function providersOf(context: EditionContext, provider: string | null | undefined): string[] {
  const { data } = context.service;
  if (provider == null)
    return data.cloudProviders.map((p) => p.name).filter((p) => data.cloudInstances.has(p));
  if (!data.cloudInstances.has(provider)) {
    throw new DomainError("NOT_FOUND", `No available data for this cloud provider (${provider})`, [
      "provider",
    ]);
  }
  return [provider];
}

/** A coefficient table's terms checked against its edition: its criteria, each once, and its load. */
export interface CoefficientTerms {
  readonly criteria: RequestedCriterion[];
  readonly load: number | null;
}

export function coefficientTerms(
  context: EditionContext,
  asked: Pick<CoefficientRequest, "criteria" | "load">,
): CoefficientTerms {
  return { criteria: coefficientCriteria(context, asked.criteria), load: checkedLoad(asked.load) };
}

/**
 * A command's edition opened (openEdition) and the terms of its coefficients checked against it,
 * in one step: an unknown edition, criterion or load is said before any work.
 */
export function openCoefficientTerms(
  config: Config,
  id: string | null,
  regions: boolean,
  asked: Pick<CoefficientRequest, "criteria" | "load">,
): CommandEdition & CoefficientTerms {
  const opened = openEdition(config, id, regions);
  return { ...opened, ...coefficientTerms(opened.context, asked) };
}

export function checkedLoad(load: number | null | undefined): number | null {
  if (load == null) return null;
  if (!(Number.isFinite(load) && load >= 0 && load <= 100)) {
    throw new DomainError("BAD_USER_INPUT", `load must be a percentage from 0 to 100, not ${load}`, ["load"]);
  }
  return load;
}

/** The usage of a single-route request for a place and a load (its v1 body's `usage`, as GraphQL input). */
export function usageOf(place: CoefficientPlace, load: number | null): Record<string, unknown> {
  return {
    ...(place.region !== null ? { region: place.region } : {}),
    ...(place.region === null && place.usageLocation !== null ? { usageLocation: place.usageLocation } : {}),
    ...(load !== null ? { timeWorkload: load } : {}),
  };
}

/** One instance type at one place: the single route's evaluation for one hour, unrounded. */
async function coefficientRow(
  context: EditionContext,
  provider: string,
  instanceType: string,
  place: CoefficientPlace,
  load: number | null,
  criteria: readonly RequestedCriterion[],
): Promise<CoefficientRow> {
  const prepared = await prepareCloudInstance(context, provider, instanceType, usageOf(place, load), [
    "usage",
  ]);
  const evaluation = new Evaluation(prepared.build(), { duration: 1, allocation: "LINEAR", criteria });
  return {
    provider,
    instanceType: prepared.instanceType,
    ...place,
    perHour: criteria.map((criterion) => ({
      embedded: evaluation.raw(criterion, "embedded"),
      use: evaluation.raw(criterion, "use"),
    })),
  };
}

/**
 * The coefficient table of an edition: every instance type of the providers asked for, at every
 * place, checked before the first row is computed (an unknown provider, criterion or load fails
 * at once).
 */
export function coefficientTable(context: EditionContext, request: CoefficientRequest): CoefficientTable {
  const { criteria, load } = coefficientTerms(context, request);
  const providers = providersOf(context, request.provider);
  const { data } = context.service;
  const plan = providers.map((provider) => ({
    provider,
    ids: data.cloudInstances.get(provider)?.ids ?? [],
    places: coefficientPlaces(context, provider),
  }));
  const size = plan.reduce((sum, { ids, places }) => sum + ids.length * places.length, 0);
  async function* rows(): AsyncGenerator<CoefficientRow> {
    let sinceTurn = 0;
    for (const { provider, ids, places } of plan) {
      for (const id of ids) {
        const instanceRows = await instanceCoefficientRows(
          context,
          provider,
          id,
          load,
          criteria,
          places,
        ).catch((error: unknown) => {
          // An instance the single route cannot evaluate (its platform missing, §19.7.2) has no row.
          if (error instanceof DomainError && error.kind === "NOT_FOUND") return [];
          throw error;
        });
        yield* instanceRows;
        sinceTurn += places.length;
        if (sinceTurn >= ROWS_PER_TURN) {
          sinceTurn = 0;
          await new Promise<void>((resolve) => setImmediate(resolve));
        }
      }
    }
  }
  return { edition: context.service.edition.id, load, criteria, rows: rows(), size };
}

/** A location's electricity factor of a criterion (§5.2), when its table has one. */
export function factorAt(
  context: Pick<EditionContext, "service">,
  location: string,
  criterion: RequestedCriterion,
): number | null {
  const { electricity } = context.service.data;
  const key = electricityKey(criterion.info.name, context.service.edition.rules.electricityKeys);
  return electricity.byLocation.get(location)?.factors.get(key)?.value ?? null;
}

/**
 * Every place of one instance type. Two single-route evaluations: at the default location and at
 * the first located place. Embedded impacts do not depend on the place; a use impact at a known
 * location is that location's factor × the instance's energy per hour (§8.4: factor × power × use
 * time ratio × units, the factor's bounds equal to its value), so the other places scale the
 * located evaluation's energy by their own factor — the same numbers as the single route's, within
 * a few units in the last place (test/billing/coefficients.test.ts checks them against the route).
 */
export async function instanceCoefficientRows(
  context: EditionContext,
  provider: string,
  instanceType: string,
  load: number | null,
  criteria: readonly RequestedCriterion[],
  places: readonly CoefficientPlace[] = coefficientPlaces(context, provider),
): Promise<CoefficientRow[]> {
  const [defaultPlace, located, ...others] = places;
  const base = await coefficientRow(context, provider, instanceType, defaultPlace, load, criteria);
  if (located === undefined) return [base];
  const reference = await coefficientRow(context, provider, instanceType, located, load, criteria);
  const energy = energyPerHour(context, reference, criteria);
  const { countryCodes } = context.service.data.electricity;
  const rows = [base, reference];
  for (const place of others) {
    const known = place.usageLocation !== null && countryCodes.has(place.usageLocation);
    rows.push({
      ...reference,
      ...place,
      perHour: criteria.map((criterion, index) => {
        const phases = base.perHour[index];
        // An unknown location is the default one (§5.1).
        if (!known || energy === null || reference.perHour[index].use === null) return phases;
        const factor = factorAt(context, place.usageLocation as string, criterion);
        const use =
          factor === null
            ? null
            : {
                value: factor * energy.value,
                min: factor * energy.min,
                max: factor * energy.max,
                warnings: reference.perHour[index].use?.warnings ?? [],
              };
        return { embedded: phases.embedded, use };
      }),
    });
  }
  return rows;
}

/** The energy per hour behind a located row's use impacts (use ÷ its factor), from a criterion with a factor. */
function energyPerHour(
  context: EditionContext,
  row: CoefficientRow,
  criteria: readonly RequestedCriterion[],
): { value: number; min: number; max: number } | null {
  if (row.usageLocation === null || !context.service.data.electricity.countryCodes.has(row.usageLocation))
    return null;
  for (const [index, criterion] of criteria.entries()) {
    const use = row.perHour[index].use;
    const factor = factorAt(context, row.usageLocation, criterion);
    if (use !== null && factor !== null && factor !== 0) {
      return { value: use.value / factor, min: use.min / factor, max: use.max / factor };
    }
  }
  return null;
}

/*
 * The coefficient table as columns: what `impact-service coefficients` writes (CSV, Parquet), what
 * the billing query joins (sql/evaluate/billing_impacts.sql), what the REST route and the GraphQL field
 * answer and what another SQL engine loads; and as CSV text (the command line's, the streamed route's). One row per provider, instance type and place; one
 * column per criterion, phase and bound, per hour, named as the billing output's impact columns
 * with `_per_hour`.
 */

/** The columns naming a row, before the impacts. */
export const KEY_COLUMNS = [
  "edition",
  "provider",
  "instance_type",
  "region",
  "usage_location",
  "load",
] as const;

const BOUNDS: readonly Bound[] = ["value", "min", "max"];

/** A per-hour impact column: the billing output's column with `_per_hour` (`gwp_use_kgco2eq_min_per_hour`). */
function perHourColumn(criterion: RequestedCriterion, phase: Phase, bound: Bound): string {
  return `${impactColumn(criterion.info.name, criterion.info.unit, phase, bound)}_per_hour`;
}

interface ImpactSlot {
  readonly index: number;
  readonly criterion: RequestedCriterion;
  readonly phase: Phase;
  readonly bound: Bound;
  readonly column: string;
}

/** The impact columns of a table's criteria, in order: criterion, then phase, then value/min/max. */
export function impactSlots(criteria: readonly RequestedCriterion[]): ImpactSlot[] {
  return criteria.flatMap((criterion, index) =>
    PHASES.flatMap((phase) =>
      BOUNDS.map((bound) => ({
        index,
        criterion,
        phase,
        bound,
        column: perHourColumn(criterion, phase, bound),
      })),
    ),
  );
}

/** Every column of a coefficient table. */
export function coefficientColumns(criteria: readonly RequestedCriterion[]): string[] {
  return [...KEY_COLUMNS, ...impactSlots(criteria).map((slot) => slot.column)];
}

/** A row's per-hour number in a slot, or null (not implemented). */
function slotValue(row: CoefficientRow, slot: ImpactSlot): number | null {
  const impact = row.perHour[slot.index][slot.phase];
  return impact === null ? null : impact[slot.bound];
}

/** A row's cells, in the order of `coefficientColumns` (null: no place, default load, not implemented). */
export function coefficientCells(
  edition: string,
  load: number | null,
  slots: readonly ImpactSlot[],
  row: CoefficientRow,
): (string | number | null)[] {
  return [
    edition,
    row.provider,
    row.instanceType,
    row.region,
    row.usageLocation,
    load,
    ...slots.map((slot) => slotValue(row, slot)),
  ];
}

/** A CSV cell (quoted when it needs to be). */
function csvCell(value: string | null): string {
  if (value === null) return "";
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A row as CSV. Numbers are written in full (shortest round-trip form): the table is an input of
 * further computation (× hours), so it keeps every digit the single route computed with.
 */
function coefficientCsvLine(
  table: CoefficientTable,
  slots: readonly ImpactSlot[],
  row: CoefficientRow,
): string {
  const cells = coefficientCells(table.edition, table.load, slots, row);
  return `${cells.map((cell) => csvCell(cell === null ? null : String(cell))).join(",")}\n`;
}

/** The whole table as CSV text chunks (header first) of about `chunkCharacters`, computed as it is read. */
export async function* coefficientCsv(
  table: CoefficientTable,
  chunkCharacters = 1 << 16,
): AsyncGenerator<string> {
  const slots = impactSlots(table.criteria);
  yield `${coefficientColumns(table.criteria).join(",")}\n`;
  let chunk = "";
  for await (const row of table.rows) {
    chunk += coefficientCsvLine(table, slots, row);
    if (chunk.length >= chunkCharacters) {
      yield chunk;
      chunk = "";
    }
  }
  if (chunk !== "") yield chunk;
}
