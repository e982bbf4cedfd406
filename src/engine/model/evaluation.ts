import { builtOncePer } from "../../support/builtOnce.js";
import { type Attribute, type AttributeValue, MissingValueError, NotImplementedError } from "./attribute.js";
import type { Allocation } from "./context.js";
import {
  type CriterionInfo,
  DEFAULT_CRITERIA,
  type RequestedCriterion,
  resolveCriterion,
} from "./criteria.js";
import type { EditionRules } from "./edition.js";
import { PHASES, type Phase, type RawImpact } from "./impact.js";
import { ImpactRangeError, type ImpactRounding, type RoundedImpact } from "./rounding.js";

const DEFAULT_REQUESTED: readonly RequestedCriterion[] = DEFAULT_CRITERIA.map(
  (name) => resolveCriterion(name) as RequestedCriterion,
);

/** One phase of one criterion as answered: rounded, or "not implemented" (§4.0). */
export type PhaseOutcome = RoundedImpact | "not implemented";

export interface CriterionImpact {
  readonly criterion: RequestedCriterion;
  readonly embedded: PhaseOutcome;
  readonly use: PhaseOutcome;
}

/**
 * An attribute as verbose shows it, in v1's layout: its keys in v1's order, each only when it has
 * something to say. v1's verbose prints it under the attribute's name as it is (no copy).
 */
export interface AttributeEntry {
  readonly value: unknown;
  readonly status: string;
  readonly unit?: string;
  readonly source?: string;
  readonly min?: unknown;
  readonly max?: unknown;
  readonly warnings?: readonly string[];
}

/** A named attribute of a verbose report. */
export interface VerboseAttribute {
  readonly name: string;
  readonly entry: AttributeEntry;
}

export interface VerboseComponent {
  /** `CPU-1`, `RAM-2`, `ACTUATORS-1`… in device order. */
  readonly key: string;
  readonly impacts: readonly CriterionImpact[];
  readonly attributes: readonly VerboseAttribute[];
  readonly duration: number | null;
}

/** Everything `verbose` shows: the duration, per-component blocks and the asset's attributes. */
export interface VerboseReport {
  readonly duration: number | null;
  /** Component routes list their own impacts inside verbose (§7.3). */
  readonly impacts: readonly CriterionImpact[] | null;
  readonly components: readonly VerboseComponent[];
  readonly attributes: readonly VerboseAttribute[];
}

/**
 * What an evaluation reads of the edition an asset was built with: its version, criteria (their
 * table order), default criteria and rounding. A Boavizta edition's rules are these and more; the
 * generative-AI edition has these only.
 */
export type AssetRules = Pick<EditionRules, "version" | "criteria" | "defaultCriteria" | "roundImpact">;

/** What an evaluated asset offers the evaluation: its phase functions and its verbose dump. */
export interface Asset {
  /** The rules of the edition the asset was built with (rounding of its impacts…). */
  readonly rules: AssetRules;
  /** The lifetime value the duration defaults to (§6.1); reading it completes it. */
  lifetime(): number | null;
  embedded(criterion: string, duration: number, allocation: Allocation): RawImpact;
  use(criterion: string, duration: number): RawImpact;
  /**
   * Notices about a computed use impact that the reference's answer does not carry (REST keeps
   * its answer; GraphQL shows them with the warnings), e.g. an unknown location replaced.
   */
  useNotices?(criterion: string): readonly string[];
  /**
   * Whether its use phase runs without a duration (NaN, up to where the reference fails: a bare
   * component's verbose then shows the location and factor it read, docs/methodology.md §15).
   */
  readonly useRunsWithoutDuration?: boolean;
  /** The electricity its use phase draws over a duration (kWh), where the asset says it. */
  energy?(duration: number): RawImpact;
  verbose(evaluation: Evaluation, requested: readonly RequestedCriterion[]): VerboseReport;
  /**
   * What the asset's own type reads of its model besides its impacts, where it has such fields (a
   * cloud instance's share of its host, its platform): read from the model its evaluation
   * computes, so that a field never builds a second one.
   */
  readonly shape?: unknown;
}

/** An asset whose type reads `Shape` of its model (AssetWith<CloudShape>: a cloud instance). */
export type AssetWith<Shape> = Asset & { readonly shape: Shape };

export interface EvaluationOptions {
  /** Hours; defaults to the asset's lifetime. */
  readonly duration?: number | null;
  readonly allocation?: Allocation;
  /** The criteria as requested (their order is the listing order); default gwp, adp, pe. */
  readonly criteria?: readonly RequestedCriterion[];
}

/** One phase function call of the canonical order. */
interface Step {
  readonly criterion: string;
  readonly phase: Phase;
}

/**
 * The reference's computation order for a set of criteria (docs/methodology.md §1, §14.2): the computed
 * criteria in the order of the criteria table, each embedded before use, whatever order they
 * were requested in.
 */
export function canonicalSteps(
  criteria: readonly RequestedCriterion[],
  table: readonly CriterionInfo[],
): Step[] {
  const names = new Set(criteria.filter((c) => c.computed).map((c) => c.info.name));
  return table
    .filter((info) => names.has(info.name))
    .flatMap((info) => PHASES.map((phase) => ({ criterion: info.name, phase })));
}

/** The steps of an evaluation and, per criterion, the index of its embedded step (its use step follows). */
interface StepPlan {
  readonly steps: readonly Step[];
  readonly firstStep: ReadonlyMap<string, number>;
}

/** Distinct criteria selections whose plans an edition's table keeps (requests may order them at will). */
const KEPT_PLANS = 256;

/**
 * The plans of a criteria table by the names of the computed criteria requested (in their
 * requested order): every evaluation of a request asks for the same few, so each is built once.
 */
const plansOf = builtOncePer((_table: readonly CriterionInfo[]) => new Map<string, StepPlan>());

function stepPlan(criteria: readonly RequestedCriterion[], table: readonly CriterionInfo[]): StepPlan {
  let key = "";
  for (const criterion of criteria) if (criterion.computed) key += `${criterion.info.name},`;
  const plans = plansOf(table);
  const known = plans.get(key);
  if (known) return known;
  const steps = canonicalSteps(criteria, table);
  const firstStep = new Map<string, number>();
  for (let index = 0; index < steps.length; index += PHASES.length)
    firstStep.set(steps[index].criterion, index);
  const plan = { steps, firstStep };
  if (plans.size < KEPT_PLANS) plans.set(key, plan);
  return plan;
}

interface StepResult {
  readonly raw: RawImpact | null;
  readonly outcome: PhaseOutcome;
  readonly notices: readonly string[];
}

/**
 * The evaluation of one asset for one set of criteria, as the reference runs it.
 *
 * Lazy completion makes a number depend on what was computed before it (a CPU name is completed
 * during the first embedded computation, and a use computed first would miss it), so every
 * (criterion, phase) is answered at its place in the canonical order: asking for one runs the
 * steps before it first, and each step runs at most once. Whatever a caller selects, and in
 * whatever order, each number is the one of the full evaluation; steps after the last one asked
 * for (and criteria not requested) are never run, and verbose only when asked.
 */
export class Evaluation {
  readonly duration: number | null;
  readonly allocation: Allocation;
  readonly criteria: readonly RequestedCriterion[];
  private readonly steps: readonly Step[];
  /**
   * Per criterion name, the index of its embedded step (its use step follows it): a phase is
   * found without building a key per lookup (fleets look up every item's phases several times).
   */
  private readonly firstStep: ReadonlyMap<string, number>;
  /** Per step index, in canonical order: the unrounded result (null: not implemented), its rounded outcome, notices. */
  private readonly results: StepResult[] = [];
  private report: VerboseReport | null = null;
  /** Number of phase computations run (engine work), observable by tests. */
  computations = 0;

  constructor(
    readonly asset: Asset,
    options: EvaluationOptions = {},
  ) {
    this.duration = options.duration ?? asset.lifetime();
    this.allocation = options.allocation ?? "LINEAR";
    this.criteria = options.criteria ?? DEFAULT_REQUESTED;
    const plan = stepPlan(this.criteria, asset.rules.criteria);
    this.steps = plan.steps;
    this.firstStep = plan.firstStep;
  }

  impact(criterion: RequestedCriterion, phase: Phase): PhaseOutcome {
    if (!criterion.computed) return "not implemented";
    return this.result(criterion, phase).outcome;
  }

  /** The unrounded impact (null when not implemented), computing it if needed. */
  raw(criterion: RequestedCriterion, phase: Phase): RawImpact | null {
    return criterion.computed ? this.result(criterion, phase).raw : null;
  }

  private stepOf(criterion: string, phase: Phase): number | undefined {
    const first = this.firstStep.get(criterion);
    return first === undefined ? undefined : phase === "embedded" ? first : first + 1;
  }

  private result(criterion: RequestedCriterion, phase: Phase): StepResult {
    const index = this.stepOf(criterion.info.name, phase);
    if (index === undefined) {
      throw new Error(`criterion ${criterion.requested} is not among the criteria of this evaluation`);
    }
    this.runThrough(index);
    return this.results[index];
  }

  /** Notices about an impact that only GraphQL shows (see `Asset.useNotices`), computing it if needed. */
  notices(criterion: RequestedCriterion, phase: Phase): readonly string[] {
    return criterion.computed ? this.result(criterion, phase).notices : [];
  }

  /** Runs the canonical steps up to `last` included (those not run yet); `results` stays a prefix of `steps`. */
  private runThrough(last: number): void {
    while (this.results.length <= last) {
      const { criterion, phase } = this.steps[this.results.length];
      this.computations++;
      const raw = this.compute(criterion, phase);
      this.results.push({
        raw,
        outcome: raw === null ? "not implemented" : rounded(raw, this.asset.rules.roundImpact),
        notices:
          raw !== null && phase === "use" ? (this.asset.useNotices?.(criterion) ?? NO_NOTICES) : NO_NOTICES,
      });
    }
  }

  /** What was computed so far for a criterion, without computing anything more. */
  computed(criterion: RequestedCriterion): CriterionImpact {
    const known = (phase: Phase) => {
      const index = this.stepOf(criterion.info.name, phase);
      return (index === undefined ? undefined : this.results[index]?.outcome) ?? "not implemented";
    };
    return { criterion, embedded: known("embedded"), use: known("use") };
  }

  /**
   * The electricity the use phase draws over the duration (kWh), rounded as an impact; "not
   * implemented" when the asset does not say it or has no power.
   */
  energy(): PhaseOutcome {
    const { duration, asset } = this;
    if (duration === null || !asset.energy) return "not implemented";
    const raw = attempt(() => asset.energy?.(duration) ?? notImplemented());
    return raw === null ? "not implemented" : rounded(raw, asset.rules.roundImpact);
  }

  /**
   * The verbose report reflects the model after every step was run (completion statuses and
   * cached bounds depend on what was read: Appendix D.29), as in the reference.
   */
  verbose(): VerboseReport {
    if (!this.report) {
      this.runThrough(this.steps.length - 1);
      this.report = this.asset.verbose(this, this.criteria);
    }
    return this.report;
  }

  private compute(criterion: string, phase: Phase): RawImpact | null {
    // Without a lifetime nor a duration (a bare motherboard) the reference fails; we report the
    // whole manufacturing impact and no use impact instead. A component's use phase still runs,
    // without a duration (NaN, "not implemented"), up to where the reference fails: what it read by
    // then (the default location, a factor) is in its verbose, and so in ours.
    const { duration, asset } = this;
    return attempt(() => {
      if (phase === "embedded")
        return asset.embedded(criterion, duration ?? 0, duration === null ? "TOTAL" : this.allocation);
      if (duration !== null) return asset.use(criterion, duration);
      return asset.useRunsWithoutDuration ? asset.use(criterion, Number.NaN) : notImplemented();
    });
  }
}

const NO_NOTICES: readonly string[] = Object.freeze([]);

/** Runs a phase function; modelling gaps and non-finite results are "not implemented" (null, §4.0). */
function attempt(run: () => RawImpact): RawImpact | null {
  try {
    const raw = run();
    return allFinite(raw) ? raw : null;
  } catch (error) {
    if (error instanceof NotImplementedError || error instanceof MissingValueError) return null;
    throw error;
  }
}

/** Runs a phase function and rounds it; modelling gaps are "not implemented" (§4.0). */
export function guarded(run: () => RawImpact, rounding: ImpactRounding): PhaseOutcome {
  const raw = attempt(run);
  return raw === null ? "not implemented" : rounded(raw, rounding);
}

/** An impact already computed, rounded; a non-finite one is "not implemented" (§4.0). */
export function roundedOutcome(raw: RawImpact, rounding: ImpactRounding): PhaseOutcome {
  return allFinite(raw) ? rounded(raw, rounding) : "not implemented";
}

function allFinite(raw: RawImpact): boolean {
  return Number.isFinite(raw.value) && Number.isFinite(raw.min) && Number.isFinite(raw.max);
}

/**
 * §12.3 rounding with the edition's rule. Where the reference fails on min > max (Appendix D.8) we
 * report the bounds in order.
 */
export function rounded(raw: RawImpact, rounding: ImpactRounding): RoundedImpact {
  let result: RoundedImpact;
  try {
    result = rounding(raw.value, raw.min, raw.max);
  } catch (error) {
    if (!(error instanceof ImpactRangeError)) throw error;
    result = rounding(raw.value, raw.max, raw.min);
  }
  const own = result.warnings;
  // The rounding's own list is the answer's when the impact brings none (no copy: it is new).
  if (raw.warnings.length === 0) {
    if (own.length > 1) result.warnings = [...new Set(own)].sort();
    return result;
  }
  const all = own.length === 0 ? raw.warnings : [...raw.warnings, ...own];
  result.warnings = all.length <= 1 ? [...all] : [...new Set(all)].sort();
  return result;
}

const BOUNDED_STATUSES = new Set(["DEFAULT", "COMPLETED", "ARCHETYPE"]);

function present(bound: unknown): boolean {
  return bound !== null && bound !== undefined && bound !== "";
}

/** Verbose values use the v1 spelling (`time_percentage`, `load_percentage`). */
function verboseValue(value: AttributeValue | null): unknown {
  if (Array.isArray(value)) {
    return value.map((item) =>
      "timePercentage" in item
        ? { time_percentage: item.timePercentage, load_percentage: item.loadPercentage }
        : item,
    );
  }
  return value;
}

/** §2.4: an attribute is shown once read or written; bounds only for derived statuses. */
export function verboseAttribute(
  name: string,
  attribute: Attribute<AttributeValue>,
): VerboseAttribute | null {
  const entry = attributeEntry(attribute);
  return entry === null ? null : { name, entry };
}

/** An attribute's verbose entry (null: never read nor written), built once in v1's layout. */
function attributeEntry(attribute: Attribute<AttributeValue>): AttributeEntry | null {
  const status = attribute.status;
  if (status === "NONE") return null;
  // Keys in v1's order, each only when it has something to say (assigned, not spread: ~100 a verbose answer).
  const entry: Writable<AttributeEntry> = { value: verboseValue(attribute.peek()), status };
  if (attribute.unit) entry.unit = attribute.unit;
  if (attribute.source) entry.source = attribute.source;
  if (BOUNDED_STATUSES.has(status)) {
    const min = attribute.storedLowerBound();
    const max = attribute.storedUpperBound();
    if (present(min)) entry.min = verboseValue(min);
    if (present(max)) entry.max = verboseValue(max);
  }
  const warnings = attribute.warnings;
  if (warnings.length > 0) entry.warnings = [...warnings];
  return entry;
}

/**
 * A verbose entry written by hand (an asset whose figures are not attributes), its keys put in
 * v1's order whatever order they are given in.
 */
export function givenEntry(fields: AttributeEntry): AttributeEntry {
  const entry: Writable<AttributeEntry> = { value: fields.value, status: fields.status };
  if ("unit" in fields) entry.unit = fields.unit;
  if ("source" in fields) entry.source = fields.source;
  if ("min" in fields) entry.min = fields.min;
  if ("max" in fields) entry.max = fields.max;
  if ("warnings" in fields) entry.warnings = fields.warnings;
  return entry;
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** The attributes read or written, in the order given, appended to `out` (one list per block, no copies). */
export function verboseAttributesInto(
  out: VerboseAttribute[],
  named: readonly (readonly [string, Attribute<AttributeValue>])[],
): VerboseAttribute[] {
  for (const [name, attribute] of named) {
    const entry = attributeEntry(attribute);
    if (entry !== null) out.push({ name, entry });
  }
  return out;
}

export function verboseAttributes(
  named: readonly (readonly [string, Attribute<AttributeValue>])[],
): VerboseAttribute[] {
  return verboseAttributesInto([], named);
}

function notImplemented(): never {
  throw new NotImplementedError("no energy");
}
