import { type Attribute, type AttributeValue, MissingValueError, NotImplementedError } from "./attribute.js";
import type { Allocation } from "./context.js";
import type { RequestedCriterion } from "./criteria.js";
import type { EditionRules } from "./edition.js";
import type { Phase, RawImpact } from "./impact.js";
import { ImpactRangeError, type ImpactRounding, type RoundedImpact } from "./rounding.js";

/** One phase of one criterion as answered: rounded, or "not implemented" (§4.0). */
export type PhaseOutcome = RoundedImpact | "not implemented";

export interface CriterionImpact {
  readonly criterion: RequestedCriterion;
  readonly embedded: PhaseOutcome;
  readonly use: PhaseOutcome;
}

export interface VerboseAttribute {
  readonly name: string;
  readonly value: unknown;
  readonly status: string;
  readonly unit?: string;
  readonly source?: string;
  readonly min?: unknown;
  readonly max?: unknown;
  readonly warnings?: readonly string[];
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

/** What an evaluated asset offers the evaluation: its phase functions and its verbose dump. */
export interface Asset {
  /** The rules of the edition the asset was built with (rounding of its impacts…). */
  readonly rules: EditionRules;
  /** The lifetime value the duration defaults to (§6.1); reading it completes it. */
  lifetime(): number | null;
  embedded(criterion: string, duration: number, allocation: Allocation): RawImpact;
  use(criterion: string, duration: number): RawImpact;
  verbose(evaluation: Evaluation, requested: readonly RequestedCriterion[]): VerboseReport;
}

export interface EvaluationOptions {
  /** Hours; defaults to the asset's lifetime. */
  readonly duration?: number | null;
  readonly allocation?: Allocation;
}

/**
 * Runs the phase functions of one asset, each (criterion, phase) at most once, and only when
 * asked: a caller selecting gwp embedded computes nothing else.
 */
export class Evaluation {
  readonly duration: number | null;
  readonly allocation: Allocation;
  /** Per `criterion/phase`: the unrounded result (null: not implemented) and its rounded outcome. */
  private readonly results = new Map<
    string,
    { readonly raw: RawImpact | null; readonly outcome: PhaseOutcome }
  >();
  private readonly verboseReports = new Map<string, VerboseReport>();
  /** Number of phase computations run (engine work), observable by tests. */
  computations = 0;

  constructor(
    readonly asset: Asset,
    options: EvaluationOptions = {},
  ) {
    this.duration = options.duration ?? asset.lifetime();
    this.allocation = options.allocation ?? "LINEAR";
  }

  impact(criterion: RequestedCriterion, phase: Phase): PhaseOutcome {
    if (!criterion.computed) return "not implemented";
    return this.result(criterion, phase).outcome;
  }

  private result(criterion: RequestedCriterion, phase: Phase) {
    const key = `${criterion.info.name}/${phase}`;
    let result = this.results.get(key);
    if (!result) {
      this.computations++;
      const raw = this.compute(criterion.info.name, phase);
      result = {
        raw,
        outcome: raw === null ? "not implemented" : rounded(raw, this.asset.rules.roundImpact),
      };
      this.results.set(key, result);
    }
    return result;
  }

  /** The unrounded impact (null when not implemented), computing it if needed. */
  raw(criterion: RequestedCriterion, phase: Phase): RawImpact | null {
    return criterion.computed ? this.result(criterion, phase).raw : null;
  }

  /** What was computed so far for a criterion, without computing anything more. */
  computed(criterion: RequestedCriterion): CriterionImpact {
    const known = (phase: Phase) =>
      this.results.get(`${criterion.info.name}/${phase}`)?.outcome ?? "not implemented";
    return { criterion, embedded: known("embedded"), use: known("use") };
  }

  /**
   * The verbose report reflects the model after every requested impact was computed in the
   * reference's order (criteria table order, embedded before use: §14.2), since completion
   * statuses and cached bounds depend on what was read (Appendix D.29).
   */
  verbose(requested: readonly RequestedCriterion[]): VerboseReport {
    const key = requested.map((r) => r.requested).join(",");
    const known = this.verboseReports.get(key);
    if (known) return known;
    for (const info of this.asset.rules.criteria) {
      const match = requested.find((r) => r.computed && r.info.name === info.name);
      if (!match) continue;
      this.impact(match, "embedded");
      this.impact(match, "use");
    }
    const report = this.asset.verbose(this, requested);
    this.verboseReports.set(key, report);
    return report;
  }

  private compute(criterion: string, phase: Phase): RawImpact | null {
    // Without a lifetime nor a duration (a bare motherboard) the reference fails; we report the
    // whole manufacturing impact and no use impact instead.
    const duration = this.duration;
    return attempt(() =>
      phase === "embedded"
        ? this.asset.embedded(criterion, duration ?? 0, duration === null ? "TOTAL" : this.allocation)
        : duration === null
          ? notImplemented()
          : this.asset.use(criterion, duration),
    );
  }
}

/** Runs a phase function; modelling gaps and non-finite results are "not implemented" (null, §4.0). */
function attempt(run: () => RawImpact): RawImpact | null {
  try {
    const raw = run();
    return [raw.value, raw.min, raw.max].every(Number.isFinite) ? raw : null;
  } catch (error) {
    if (error instanceof NotImplementedError || error instanceof MissingValueError) return null;
    throw error;
  }
}

function notImplemented(): never {
  throw new NotImplementedError("no duration");
}

/** Runs a phase function and rounds it; modelling gaps are "not implemented" (§4.0). */
export function guarded(run: () => RawImpact, rounding: ImpactRounding): PhaseOutcome {
  const raw = attempt(run);
  return raw === null ? "not implemented" : rounded(raw, rounding);
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
  const all = result.warnings.length === 0 ? raw.warnings : [...raw.warnings, ...result.warnings];
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
  if (attribute.status === "NONE") return null;
  const bounds = attribute.storedBounds();
  const showBounds = BOUNDED_STATUSES.has(attribute.status);
  return {
    name,
    value: verboseValue(attribute.peek()),
    status: attribute.status,
    ...(attribute.unit ? { unit: attribute.unit } : {}),
    ...(attribute.source ? { source: attribute.source } : {}),
    ...(showBounds && present(bounds.min) ? { min: verboseValue(bounds.min) } : {}),
    ...(showBounds && present(bounds.max) ? { max: verboseValue(bounds.max) } : {}),
    ...(attribute.warnings.length > 0 ? { warnings: [...attribute.warnings] } : {}),
  };
}

export function verboseAttributes(named: readonly [string, Attribute<AttributeValue>][]): VerboseAttribute[] {
  const out: VerboseAttribute[] = [];
  for (const [name, attribute] of named) {
    const entry = verboseAttribute(name, attribute);
    if (entry) out.push(entry);
  }
  return out;
}
